// The diagnostic for an undefined reference: nvlink's line, with the
// demangled name, the call chain that made the reference live, the archive
// member and, for well-known symbols, a hint.
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

// The hint for an undefined `name`, or "" when culd knows none.
std::string undefinedSymbolHint(std::string_view name);

} // namespace culd
