// The culd command: parse nvlink's command line, pick the plugin, run the
// link passes, report diagnostics. Returns the process exit code.
#pragma once

#include "culd/Diagnostics.h"
#include "culd/Options.h"

#include <string>
#include <vector>

namespace culd {

int runDriver(const std::vector<std::string> &args);

// The link the culd command and libculd (culdLink.h) share: the -time
// table, the checks, the plugin choice and every pass. Every problem is
// reported through Diagnostics::get() (nothing is thrown); returns nvlink's
// exit status (0, kExitFatal or kExitErrors).
int linkReportingErrors(const Options &opts);

// The diagnostics settings that options ask for (-w, -Werror, ...).
DiagnosticOptions diagnosticOptions(const Options &opts);

} // namespace culd
