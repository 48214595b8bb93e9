// Diagnostics about a symbol: nvlink's line, with the demangled name and
// the input (archive and member apart); for an undefined reference also the
// call chain that made the reference live and, for well-known symbols, a
// hint.
#pragma once

#include "culd/Diagnostics.h"

#include <string>
#include <string_view>

namespace culd {

class ObjectFile;
struct Context;
struct InputSection;
struct Symbol;

// `input` is the first input that referred to `symbol`; `reference` is a
// live section whose relocations refer to it (its function ends the
// chain), or null.
Diagnostic describeUndefined(const Context &ctx, const Symbol &symbol, const ObjectFile &input,
                             const InputSection *reference);

// A problem with `name` found in `input` (a conflict between definitions):
// nvlink's `message` with the names filled in.
Diagnostic describeSymbolProblem(const Context &ctx, std::string_view name, const ObjectFile &input,
                                 const std::string &message);

// The hint for an undefined `name`, or "" when culd knows none.
std::string undefinedSymbolHint(std::string_view name);

} // namespace culd
