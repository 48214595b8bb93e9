// One place for user-facing diagnostics, in nvlink's shape:
//   culd error : <file>: <what is wrong>
//   culd warning : ...
// Errors inside the core are thrown as FatalError and caught by the driver,
// which prints them and exits non-zero; warnings are printed and counted.
#pragma once

#include <stdexcept>
#include <string>

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

struct DiagnosticOptions {
    bool disableWarnings = false; // -w
    bool warningsAsErrors = false; // -Werror
    bool disableInfos = false;
    std::string reportArch;       // non-empty: " (target: sm_XX)" suffix
};

class Diagnostics {
public:
    static Diagnostics &get();

    void setOptions(const DiagnosticOptions &options) { options_ = options; }
    const DiagnosticOptions &options() const { return options_; }

    // Prints one message in nvlink's format to stderr.
    void report(Severity severity, const std::string &message);
    void info(const std::string &message) { report(Severity::Info, message); }
    void warning(const std::string &message) { report(Severity::Warning, message); }
    void error(const std::string &message) { report(Severity::Error, message); }

    unsigned errorCount() const { return errors_; }
    unsigned warningCount() const { return warnings_; }
    void reset() { errors_ = warnings_ = 0; }

    // The prefix ("culd error : ") of a severity, shared with tests.
    static std::string prefix(Severity severity);

private:
    DiagnosticOptions options_;
    unsigned errors_ = 0;
    unsigned warnings_ = 0;
};

} // namespace culd
