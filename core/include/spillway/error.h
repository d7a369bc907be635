// Errors the library reports. Every message names the place (line/column, node id, field,
// buffer id, edge) so that a user can find what to fix without reading our code.
#pragma once
#include <stdexcept>
#include <string>

namespace spillway {

// The input (graph, order, capacities, options) is wrong. The CLI exits 2 on it.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A plan failed the verifier or an invariant broke: a bug of ours, never printed as success.
// The CLI exits 3 on it.
struct InternalError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace spillway
