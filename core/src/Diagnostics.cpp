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
    if (auto repeat = repeats_.find(text); repeat != repeats_.end()) {
        repeats_.erase(repeat);
        return;
    }
    written_.push_back(text);
    if (sink_)
        sink_(severity, text);
    else
        std::fwrite(text.data(), 1, text.size(), stderr);
}

void Diagnostics::startOver() {
    std::lock_guard<std::mutex> lock(mutex_);
    errors_ = warnings_ = 0;
    repeats_.insert(written_.begin(), written_.end());
    written_.clear();
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
    Diagnostic diagnostic;
    diagnostic.severity = severity;
    diagnostic.message = message;
    report(diagnostic);
}

void Diagnostics::report(const Diagnostic &original) {
    Diagnostic diagnostic = original;
    Severity &severity = diagnostic.severity;
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
    write(severity, format(diagnostic, options_));
}

namespace {

const char *severityName(Severity severity) {
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

// A JSON string literal (RFC 8259): quotes, backslashes and control
// characters escaped; other bytes (UTF-8 included) pass through.
std::string jsonString(const std::string &text) {
    static const char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

// Every field is always present (empty when unknown), so that a tool reads
// each line the same way.
std::string jsonLine(const Diagnostic &d, const std::string &message) {
    std::string chain = "[";
    for (size_t i = 0; i < d.chain.size(); ++i)
        chain += (i ? "," : "") + jsonString(d.chain[i]);
    chain += "]";
    return std::string("{\"severity\":\"") + severityName(d.severity) +
           "\",\"message\":" + jsonString(message) + ",\"symbol\":" + jsonString(d.symbol) +
           ",\"mangled\":" + jsonString(d.mangled) + ",\"file\":" + jsonString(d.file) +
           ",\"member\":" + jsonString(d.member) + ",\"chain\":" + chain +
           ",\"hint\":" + jsonString(d.hint) + "}\n";
}

// culd's details after nvlink's text, on the same line: the demangled name,
// the chain that made the symbol live, a hint.
std::string textDetails(const Diagnostic &d) {
    std::vector<std::string> parts;
    // (Not when nvlink's text names it demangled already.)
    if (!d.symbol.empty() && d.symbol != d.mangled && d.message.find(d.symbol) == std::string::npos)
        parts.push_back("demangled: " + d.symbol);
    if (!d.chain.empty()) {
        std::string path = "live through: ";
        for (const std::string &step : d.chain)
            path += step + " \u2192 ";
        parts.push_back(path + (d.symbol.empty() ? d.mangled : d.symbol));
    }
    if (!d.hint.empty())
        parts.push_back("hint: " + d.hint);
    std::string out;
    for (const std::string &part : parts)
        out += (out.empty() ? " [" : "; ") + part;
    return out.empty() ? out : out + "]";
}

} // namespace

std::string Diagnostics::format(const Diagnostic &d, const DiagnosticOptions &options) {
    std::string message = d.message;
    if (!options.reportArch.empty())
        message += " (target: " + options.reportArch + ")";
    if (options.format == DiagnosticsFormat::Json)
        return jsonLine(d, message);
    return prefix(d.severity) + message + textDetails(d) + "\n";
}

} // namespace culd
