#include "culd/SymbolNames.h"

#include <cxxabi.h>

#include <cstdlib>

namespace culd {

std::string demangle(std::string_view name) {
    if (name.substr(0, 2) != "_Z")
        return std::string(name);
    int status = 0;
    std::string mangled(name);
    char *out = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !out)
        return mangled;
    std::string result(out);
    std::free(out);
    return result;
}

std::string describeSymbolName(std::string_view name) {
    std::string plain = demangle(name);
    if (plain == name)
        return plain;
    return plain + " (" + std::string(name) + ")";
}

} // namespace culd
