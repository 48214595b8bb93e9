#include "culd/Diagnostics.h"

#include <cstdio>

namespace culd {

namespace {

thread_local Diagnostics *current = nullptr;

// The culd command's diagnostics, used where no scope is installed.
Diagnostics &processDiagnostics() {
    static Diagnostics instance;
    return instance;
}

} // namespace

Diagnostics &Diagnostics::get() { return current ? *current : processDiagnostics(); }

DiagnosticsScope::DiagnosticsScope(Diagnostics &diagnostics) : previous_(current) {
    current = &diagnostics;
}

DiagnosticsScope::~DiagnosticsScope() { current = previous_; }

void Diagnostics::write(Severity severity, const std::string &text) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sink_)
        sink_(severity, text);
    else
        std::fwrite(text.data(), 1, text.size(), stderr);
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
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (severity == Severity::Error)
            ++errors_;
        if (severity == Severity::Warning)
            ++warnings_;
    }
    std::string line = prefix(severity) + message;
    if (!options_.reportArch.empty())
        line += " (target: " + options_.reportArch + ")";
    line += '\n';
    write(severity, line);
}

} // namespace culd
