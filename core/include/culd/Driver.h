// The culd command: parse nvlink's command line, pick the plugin, run the
// link passes, report diagnostics. Returns the process exit code.
#pragma once

#include "culd/Diagnostics.h"
#include "culd/Options.h"

#include <functional>
#include <string>
#include <vector>

namespace culd {

// How the culd command links: it hands the command line to libculd
// (culdLink.h), whose link is linkReportingErrors(). Returns the exit status.
using CommandLineLinker = std::function<int(const LinkCommandLine &)>;

// Does what the command line asks: --help, --version, --list-plugins and
// --gen-host-linker-script here, a link through `linker`. Option errors and
// the missing -o are reported here, in nvlink's order.
int runDriver(const std::vector<std::string> &args, const CommandLineLinker &linker);

// The link the culd command and libculd (culdLink.h) share: the -time
// table, the checks, the plugin choice and every pass. Every problem is
// reported through Diagnostics::get() (nothing is thrown); returns nvlink's
// exit status (0, kExitFatal or kExitErrors).
int linkReportingErrors(const Options &opts);

// The diagnostics settings that options ask for (-w, -Werror, ...).
DiagnosticOptions diagnosticOptions(const Options &opts);

} // namespace culd
