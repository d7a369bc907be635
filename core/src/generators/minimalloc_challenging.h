// Internal: google/minimalloc's 11 "challenging" instances as the CSV text of
// bench/minimalloc-challenging/*.csv, A to K, embedded at build time (CMakeLists.txt writes
// the definitions into the build folder from those files; packing family "derived").
#pragma once

namespace spillway::packing {

struct EmbeddedCsv {
    const char* name;  // the file's name, e.g. "A.1048576.csv"
    const char* text;
};

extern const EmbeddedCsv kMinimallocChallengingCsv[11];

}  // namespace spillway::packing
