#include "spillway/packing_io.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "json_reader.h"
#include "spillway/error.h"

namespace spillway::packing {
namespace {

const char* const kColumns[] = {"id", "lower", "upper", "size", "alignment", "gaps"};

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
    std::vector<std::string> out(1);
    for (char c : s) {
        if (c == sep)
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

// An integer as minimalloc reads one (optional sign, digits, surrounding blanks); nullopt
// otherwise. Eighteen digits at most: no overflow, and far beyond kMaxTime anyway.
std::optional<std::int64_t> integer(const std::string& text) {
    const std::string t = trim(text);
    size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
    if (i == t.size() || t.size() - i > 18) return std::nullopt;
    std::int64_t v = 0;
    for (size_t k = i; k < t.size(); ++k) {
        if (t[k] < '0' || t[k] > '9') return std::nullopt;
        v = v * 10 + (t[k] - '0');
    }
    return t[0] == '-' ? -v : v;
}

// Digits (with an optional sign and blanks) beyond the eighteen integer() reads: a number, but
// larger than any limit, which deserves its own message.
bool isLongInteger(const std::string& text) {
    const std::string t = trim(text);
    const size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
    return t.size() - i > 18 && std::all_of(t.begin() + static_cast<std::ptrdiff_t>(i), t.end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
}

// The fields of one line, as RFC 4180 quotes them: a field wholly in double quotes may hold
// commas and doubled quotes (""), which stand for one. A quote anywhere else, or one that is not
// closed on its line, is an error: read as part of an id, `"b1` and `b1` would be two buffers.
std::vector<std::string> splitFields(const std::string& line, const std::string& at) {
    std::vector<std::string> fields(1);
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ',') {
            fields.emplace_back();
        } else if (c != '"') {
            fields.back() += c;
        } else if (!trim(fields.back()).empty()) {
            throw InputError(at + ", column " + std::to_string(fields.size()) +
                             ": a quote inside a field (quote the whole field, doubling its quotes)");
        } else {
            fields.back().clear();
            size_t k = i + 1;
            for (;; ++k) {
                if (k == line.size())
                    throw InputError(at + ", column " + std::to_string(fields.size()) +
                                     ": the quote is not closed on its line");
                if (line[k] != '"')
                    fields.back() += line[k];
                else if (k + 1 < line.size() && line[k + 1] == '"')
                    fields.back() += line[++k];
                else
                    break;
            }
            const size_t next = line.find_first_not_of(" \t", k + 1);
            if (next != std::string::npos && line[next] != ',')
                throw InputError(at + ", column " + std::to_string(fields.size()) + ": text after the closing quote");
            i = next == std::string::npos ? line.size() : next - 1;
        }
    }
    return fields;
}

// A field as splitFields reads it back: quoted when it holds a comma, a quote or a carriage return.
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

// The columns of the header row: canonical name -> field index.
struct Header {
    std::map<std::string, size_t> column;
    size_t fields = 0;
    bool inclusiveEnd = false;  // an `end` column: upper bounds are inclusive

    bool has(const char* name) const { return column.count(name) > 0; }
};

Header parseHeader(const std::string& line, int lineNo) {
    Header h;
    const std::string at = "line " + std::to_string(lineNo);
    const std::vector<std::string> names = splitFields(line, at);
    h.fields = names.size();
    for (size_t i = 0; i < names.size(); ++i) {
        std::string name = trim(names[i]);
        const std::string where = at + ", column " + std::to_string(i + 1) + " (\"" + excerpt(name) + "\"): ";
        if (name == "start" || name == "begin") name = "lower";
        if (name == "buffer" || name == "buffer_id") name = "id";
        if (name == "end") {
            name = "upper";
            h.inclusiveEnd = true;
        }
        if (name == "offset" || name == "hint")
            throw InputError(where + "fixed offsets and hints are not supported: spillway pack chooses every offset");
        if (std::find(std::begin(kColumns), std::end(kColumns), name) == std::end(kColumns))
            throw InputError(where + "unknown column (known: id, lower, upper, size, alignment, gaps)");
        if (h.column.count(name))
            throw InputError(where + "the column " + name + " appears twice (columns " +
                             std::to_string(h.column[name] + 1) + " and " + std::to_string(i + 1) + ")");
        h.column[name] = i;
    }
    for (const char* required : {"id", "lower", "upper", "size"})
        if (!h.has(required))
            throw InputError(at + ": the header has no column \"" + required + "\" (required: id, lower, upper, size)");
    return h;
}

std::vector<Gap> parseGaps(const std::string& text, bool inclusiveEnd, const std::string& where) {
    std::vector<Gap> gaps;
    for (const std::string& item : splitOn(text, ' ')) {
        if (trim(item).empty()) continue;
        const std::string bad =
            where + "\"" + item + "\" is not a gap (expected LOWER-UPPER or LOWER-UPPER@WINDOWLOWER:WINDOWUPPER)";
        const std::vector<std::string> at = splitOn(item, '@');
        const std::vector<std::string> span = splitOn(at[0], '-');
        if (at.size() > 2 || span.size() != 2) throw InputError(bad);
        std::optional<std::int64_t> lo = integer(span[0]), hi = integer(span[1]);
        if (!lo || !hi) throw InputError(bad);
        Gap g{*lo, *hi + (inclusiveEnd ? 1 : 0), std::nullopt};
        if (at.size() == 2) {
            const std::vector<std::string> window = splitOn(at[1], ':');
            std::optional<std::int64_t> wlo = window.size() == 2 ? integer(window[0]) : std::nullopt;
            std::optional<std::int64_t> whi = window.size() == 2 ? integer(window[1]) : std::nullopt;
            if (!wlo || !whi) throw InputError(bad);
            g.window = Window{*wlo, *whi};
        }
        gaps.push_back(g);
    }
    return gaps;
}

}  // namespace

CsvDocument parsePackingCsv(const std::string& text) {
    CsvDocument doc;
    std::optional<Header> header;
    std::map<std::string, int> lineOfId;
    const std::vector<std::string> lines = splitOn(std::string(json::withoutByteOrderMark(text)), '\n');
    for (size_t k = 0; k < lines.size(); ++k) {
        try {
            std::string line = lines[k];
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (trim(line).empty()) continue;  // blank lines carry nothing
            const int lineNo = static_cast<int>(k + 1);
            const std::string at = "line " + std::to_string(lineNo);
            if (!header) {
                header = parseHeader(line, lineNo);
                continue;
            }
            const std::vector<std::string> fields = splitFields(line, at);
            if (fields.size() != header->fields)
                throw InputError(at + ": " + std::to_string(fields.size()) + " fields, but the header has " +
                                 std::to_string(header->fields));
            if (doc.ids.size() == kMaxBlocks)
                throw InputError(at + ": more than " + std::to_string(kMaxBlocks) + " buffers");
            auto field = [&](const char* name) -> const std::string& { return fields[header->column.at(name)]; };
            auto where = [&](const char* name) {
                return at + ", column " + std::to_string(header->column.at(name) + 1) + " (" + name + "): ";
            };
            auto number = [&](const char* name) {
                std::optional<std::int64_t> v = integer(field(name));
                if (!v && isLongInteger(field(name)))
                    throw InputError(where(name) + "\"" + excerpt(field(name)) +
                                     "\" has more digits than any allowed value (at most " + std::to_string(kMaxTime) +
                                     ")");
                if (!v) throw InputError(where(name) + "\"" + excerpt(field(name)) + "\" is not an integer");
                return *v;
            };
            const std::string id = trim(field("id"));
            if (id.empty()) throw InputError(where("id") + "the id is empty");
            if (auto seen = lineOfId.find(id); seen != lineOfId.end())
                throw InputError(where("id") + "the id \"" + excerpt(id) + "\" was already used on line " +
                                 std::to_string(seen->second));
            lineOfId[id] = lineNo;
            Block b;
            b.lower = number("lower");
            b.upper = number("upper") + (header->inclusiveEnd ? 1 : 0);
            b.size = number("size");
            if (header->has("alignment")) b.alignment = number("alignment");
            if (header->has("gaps")) b.gaps = parseGaps(field("gaps"), header->inclusiveEnd, where("gaps"));
            if (std::string e = blockError(b); !e.empty()) throw InputError(at + " (id \"" + excerpt(id) + "\"): " + e);
            doc.ids.push_back(id);
            doc.problem.blocks.push_back(std::move(b));
        } catch (const InputError& e) {  // every error of a line names it: where.line, as in the message
            ErrorPlace place;
            place.source = "csv";
            place.line = static_cast<std::int64_t>(k + 1);
            throw InputError(e.what(), std::move(place));
        }
    }
    if (!header) throw InputError("line 1: the header row is missing (expected id,lower,upper,size)");
    return doc;
}

std::string packingToCsv(const CsvDocument& doc, const std::vector<Bytes>& offsets) {
    const auto& blocks = doc.problem.blocks;
    const bool alignment = std::any_of(blocks.begin(), blocks.end(), [](const Block& b) { return b.alignment != 1; });
    const bool gaps = std::any_of(blocks.begin(), blocks.end(), [](const Block& b) { return !b.gaps.empty(); });
    std::string out = "id,lower,upper,size";
    if (alignment) out += ",alignment";
    if (gaps) out += ",gaps";
    if (!offsets.empty()) out += ",offset";
    out += "\n";
    for (size_t i = 0; i < blocks.size(); ++i) {
        const Block& b = blocks[i];
        out += csvField(doc.ids[i]) + "," + std::to_string(b.lower) + "," + std::to_string(b.upper) + "," +
               std::to_string(b.size);
        if (alignment) out += "," + std::to_string(b.alignment);
        if (gaps) {
            out += ",";
            for (size_t g = 0; g < b.gaps.size(); ++g) {
                out += (g ? " " : "") + std::to_string(b.gaps[g].lower) + "-" + std::to_string(b.gaps[g].upper);
                if (b.gaps[g].window)
                    out +=
                        "@" + std::to_string(b.gaps[g].window->lower) + ":" + std::to_string(b.gaps[g].window->upper);
            }
        }
        if (!offsets.empty()) out += "," + std::to_string(offsets.at(i));
        out += "\n";
    }
    return out;
}

}  // namespace spillway::packing

namespace spillway::packing {
namespace {

using Json = nlohmann::json;

[[noreturn]] void badOption(const std::string& field, const std::string& problem) {
    ErrorPlace place;
    place.source = "options";
    place.field = field;
    throw InputError("options: field \"" + excerpt(field) + "\" " + problem, std::move(place));
}

// 1e0 and 2.0 are integers here as in the other readers (json::detail::numberScalar). The
// library holds them as doubles, which are exact up to 2^53, above every limit here.
std::int64_t integerOption(const Json& v, const std::string& field, std::int64_t lo, std::int64_t hi) {
    const json::Scalar n = v.is_number() ? json::detail::numberScalar(v.dump()) : json::Scalar{};
    if (n.kind != json::Kind::Integer || n.beyondInt64 || n.integer < lo || n.integer > hi)
        badOption(field, "must be an integer between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                             excerpt(v.dump()));
    return n.integer;
}

// A JSON array of strings, joined by commas for the CLI's parsers.
std::string stringList(const Json& v, const std::string& field) {
    if (!v.is_array()) badOption(field, "must be an array of strings, got " + excerpt(v.dump()));
    std::string joined;
    for (const Json& item : v) {
        if (!item.is_string() || item.get<std::string>().find(',') != std::string::npos)
            badOption(field, "must be an array of names, got " + excerpt(item.dump()));
        joined += (joined.empty() ? "" : ",") + item.get<std::string>();
    }
    return joined;
}

}  // namespace

// Accepts any JSON: reading with it checks syntax, places and nesting depth (limits.h) before the
// options are parsed as a tree, whose recursive printing could not take deep nesting.
namespace {
struct AnyJson {
    void onScalar(const json::Scalar&) {}
    bool onBegin(json::Kind, std::size_t) { return true; }
    bool onKey(std::string&, std::size_t) { return false; }
    void onEnd(json::Kind, std::size_t) {}
};
}  // namespace

PackRequest parsePackOptions(const std::string& json) {
    AnyJson any;
    json::readJson(json::JsonText(json, "options", "the options"), any);
    Json root;
    try {
        root = Json::parse(json);
    } catch (const Json::exception& e) {
        const std::string what = e.what();
        throw InputError("the options are not valid JSON: " +
                         what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2));
    }
    if (!root.is_object()) throw InputError("the options must be a JSON object like {\"capacity\": 1048576}");
    PackRequest r;
    for (const auto& [key, value] : root.items()) {
        if (key == "capacity")
            r.capacity = integerOption(value, key, 1, kMaxSize);
        else if (key == "budget")
            r.options.budget = integerOption(value, key, 0, std::int64_t{1} << 50);
        else if (key == "disable")
            r.options.disabled = parseTechniques(stringList(value, key));
        else if (key == "preorders")
            r.options.preorders = parsePreorders(stringList(value, key));
        else
            badOption(key, "is unknown (known: capacity, budget, disable, preorders)");
    }
    if (r.capacity == 0) badOption("capacity", "is missing");
    return r;
}

std::string packResultToJson(const CsvDocument& doc, const Result& result) {
    nlohmann::ordered_json j;
    const bool fits = result.verdict == Verdict::Fits;
    j["verdict"] = verdictName(result.verdict);
    j["capacity"] = doc.problem.capacity;
    j["reason"] = result.reason;
    if (result.failing)
        j["failing"] = {{"from", result.failing->from}, {"to", result.failing->to}, {"load", result.failing->load}};
    else
        j["failing"] = nullptr;
    j["stats"] = {{"nodes", result.stats.nodes},
                  {"backtracks", result.stats.backtracks},
                  {"peakLoad", result.stats.peakLoad},
                  {"partitions", result.stats.partitions},
                  {"preorder", result.stats.preorder},
                  {"probes", result.stats.probes},
                  {"probesImpossible", result.stats.probesImpossible}};
    j["blocks"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < doc.ids.size(); ++i) {
        const Block& b = doc.problem.blocks[i];
        nlohmann::ordered_json block = {{"id", doc.ids[i]}, {"lower", b.lower}, {"upper", b.upper}, {"size", b.size}};
        if (fits) block["offset"] = result.offsets.at(i);
        j["blocks"].push_back(std::move(block));
    }
    j["csv"] = fits ? nlohmann::ordered_json(packingToCsv(doc, result.offsets)) : nlohmann::ordered_json(nullptr);
    return j.dump();
}

}  // namespace spillway::packing
