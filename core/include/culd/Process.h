// Running an external tool (ptxas, the host compiler, ld) without a shell.
#pragma once

#include <string>
#include <vector>

namespace culd {

struct ProcessResult {
    int exitCode = -1;  // -1: could not be started, or killed by a signal
    std::string output; // what it printed (see runProcess)
};

// Runs args[0] (searched in PATH) with `args`, collecting stdout, and stderr
// too when `withStderr` (otherwise stderr is discarded). Throws FatalError
// when the program cannot be started.
ProcessResult runProcess(const std::vector<std::string> &args, bool withStderr);

} // namespace culd
