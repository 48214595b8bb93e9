// One place for user-facing diagnostics, in nvlink's shape:
//   culd error : <file>: <what is wrong>
//   culd warning : ...
// Errors inside the core are thrown as FatalError and caught by the driver,
// which prints them and exits non-zero; warnings are printed and counted.
//
// Diagnostics::get() is the diagnostics of the link running on this thread:
// the process-wide instance for the culd command, or the one a
// DiagnosticsScope installed (libculd gives every link handle its own, with
// the messages captured into the handle's logs). A link's worker threads
// install the same instance, so that separate links on separate threads
// never share counters or output.
#pragma once

#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace culd {

// An error that ends the link. The message is complete ("a.cubin: section
// header table runs past end of file"); the driver adds the "culd error : "
// prefix.
class FatalError : public std::runtime_error {
public:
    explicit FatalError(const std::string &message) : std::runtime_error(message) {}
};

// nvlink's exit statuses: 1 when a fatal error ends the link ("nvlink
// fatal", conflicting definitions included: "merge_elf failed"), 255 when the
// link stops at a check because errors were reported (undefined references,
// warnings under -Werror).
constexpr int kExitFatal = 1;
constexpr int kExitErrors = 255;

// Thrown at such a check: the errors are printed already, the driver exits
// with kExitErrors.
class ErrorsReported : public FatalError {
public:
    ErrorsReported() : FatalError("") {}
};

enum class Severity { Info, Warning, Error };

// How diagnostics are written: nvlink's text lines (culd's details appended
// to the same line), or one JSON object per line for tools
// (--diagnostics-format=json).
enum class DiagnosticsFormat { Text, Json };

struct DiagnosticOptions {
    bool disableWarnings = false; // -w
    bool warningsAsErrors = false; // -Werror
    bool disableInfos = false;
    std::string reportArch;       // non-empty: " (target: sm_XX)" suffix
    DiagnosticsFormat format = DiagnosticsFormat::Text;
};

// One problem with what culd knows beyond nvlink's message. `message` is
// nvlink's text, unchanged; the rest is culd's own and may be empty.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string message;
    std::string symbol;             // demangled name
    std::string mangled;            // the name as the inputs spell it
    std::string file;               // the input named, or the archive holding it
    std::string member;             // the archive member, for archive inputs
    std::vector<std::string> chain; // what made it live: root first
    std::string hint;               // a likely fix, for well-known symbols
};

class Diagnostics {
public:
    // Where finished lines go ("culd error : ...\n"): stderr unless set.
    using Sink = std::function<void(Severity, const std::string &line)>;

    Diagnostics() = default;
    explicit Diagnostics(Sink sink) : sink_(std::move(sink)) {}

    // The instance of the link running on this thread (see above).
    static Diagnostics &get();

    // Text that is not a diagnostic line but goes where they go (the
    // call-graph dump, which nvlink writes to stderr).
    void write(Severity severity, const std::string &text);

    void setOptions(const DiagnosticOptions &options) { options_ = options; }
    const DiagnosticOptions &options() const { return options_; }

    // Prints one message in nvlink's format to stderr.
    void report(Severity severity, const std::string &message);
    void info(const std::string &message) { report(Severity::Info, message); }
    void warning(const std::string &message) { report(Severity::Warning, message); }
    void error(const std::string &message) { report(Severity::Error, message); }
    // The same, with culd's details: appended to nvlink's line as text, or
    // as the fields of the JSON object.
    void report(const Diagnostic &diagnostic);

    unsigned errorCount() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return errors_;
    }
    unsigned warningCount() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return warnings_;
    }
    void reset() {
        std::lock_guard<std::mutex> lock(mutex_);
        errors_ = warnings_ = 0;
    }
    // A link that starts again (runLink): the counts start from zero, and
    // each line written so far is not written again the next time it comes.
    void startOver();

    // The prefix ("culd error : ") of a severity, shared with tests.
    static std::string prefix(Severity severity);

    // The line `diagnostic` is written as under `options` (newline included).
    static std::string format(const Diagnostic &diagnostic, const DiagnosticOptions &options);

private:
    DiagnosticOptions options_;
    Sink sink_;
    // A link's worker threads may report at once (plugin warnings while
    // sections are patched in parallel).
    mutable std::mutex mutex_;
    unsigned errors_ = 0;
    unsigned warnings_ = 0;
    std::vector<std::string> written_;             // since the last startOver
    std::unordered_multiset<std::string> repeats_; // written before it
};

// Makes `diagnostics` this thread's Diagnostics::get() until the scope ends
// (scopes nest: the previous one comes back).
class DiagnosticsScope {
public:
    explicit DiagnosticsScope(Diagnostics &diagnostics);
    ~DiagnosticsScope();
    DiagnosticsScope(const DiagnosticsScope &) = delete;
    DiagnosticsScope &operator=(const DiagnosticsScope &) = delete;

private:
    Diagnostics *previous_;
};

} // namespace culd
