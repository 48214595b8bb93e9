// The diagnostic for an undefined reference: nvlink's line, with the
// demangled name, the call chain that made the reference live, the archive
// member and, for well-known symbols, a hint.
#pragma once

#include "culd/Diagnostics.h"

#include <string>
#include <string_view>

namespace culd {

struct InputSection;
struct Symbol;

// `inputName` is culd's name for the first input that referred to `symbol`
// ("libx.a(m.o)" for an archive member); `reference` is a live section whose
// relocations refer to it (its function starts the chain), or null.
Diagnostic describeUndefined(const Symbol &symbol, const std::string &inputName,
                             const InputSection *reference);

// The hint for an undefined `name`, or "" when culd knows none.
std::string undefinedSymbolHint(std::string_view name);

} // namespace culd
