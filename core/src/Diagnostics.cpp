#include "culd/Diagnostics.h"

#include <cstdio>

namespace culd {

Diagnostics &Diagnostics::get() {
    static Diagnostics instance;
    return instance;
}

std::string Diagnostics::prefix(Severity severity) {
    switch (severity) {
    case Severity::Info:
        return "culd info : ";
    case Severity::Warning:
        return "culd warning : ";
    case Severity::Error:
        return "culd error : ";
    }
    return "culd : ";
}

void Diagnostics::report(Severity severity, const std::string &message) {
    if (severity == Severity::Warning && options_.warningsAsErrors)
        severity = Severity::Error;
    if (severity == Severity::Warning && options_.disableWarnings)
        return;
    if (severity == Severity::Info && options_.disableInfos)
        return;
    if (severity == Severity::Error)
        ++errors_;
    if (severity == Severity::Warning)
        ++warnings_;
    std::string line = prefix(severity) + message;
    if (!options_.reportArch.empty())
        line += " (target: " + options_.reportArch + ")";
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace culd
