// The culd command: parse nvlink's command line, pick the plugin, run the
// link passes, report diagnostics. Returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace culd {

int runDriver(const std::vector<std::string> &args);

} // namespace culd
