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

// nvlink names a function in its messages as its demangler writes it:
// "kk(int *)". __cxa_demangle writes "kk(int*)"; a space before each run of
// '*' or '&' gives nvlink's spelling for the common cases.
std::string demangleForMessage(std::string_view name) {
    std::string plain = demangle(name), spaced;
    for (size_t i = 0; i < plain.size(); ++i) {
        bool pointer = plain[i] == '*' || plain[i] == '&';
        if (pointer && i && plain[i - 1] != ' ' && plain[i - 1] != '*' && plain[i - 1] != '&')
            spaced += ' ';
        spaced += plain[i];
    }
    return spaced;
}

std::string describeSymbolName(std::string_view name) {
    std::string plain = demangle(name);
    if (plain == name)
        return plain;
    return plain + " (" + std::string(name) + ")";
}

} // namespace culd
