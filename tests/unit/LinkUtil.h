// In-process links for the unit tests that check culd's refusals by their
// exact message.
#pragma once

#include "TestUtil.h"

#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/Options.h"
#include "culd/PluginRegistry.h"

#include <string>
#include <vector>

namespace culd::test {

// The two inputs of fixture 02-cross-file-call for sm_80.
inline fs::path crossFileMain() { return fixturesDir() / "02-cross-file-call" / "sm_80" / "main.cubin"; }
inline fs::path crossFileLib() { return fixturesDir() / "02-cross-file-call" / "sm_80" / "lib.cubin"; }

// Runs a link (or --gen-host-linker-script) as the driver would; returns
// the FatalError's message ("" for errors reported through Diagnostics), or
// "ok" on success.
inline std::string linkInProcess(const std::vector<std::string> &args) {
    Diagnostics::get().reset();
    static PluginRegistry plugins({CULD_BUILD_PLUGIN_DIR});
    try {
        Options opts = parseOptions(args);
        if (!opts.hostLinkerScript.empty()) {
            writeHostLinkerScript(opts);
            return "ok";
        }
        runLink(opts, plugins.pluginFor(opts.sm));
    } catch (const FatalError &e) {
        return e.what();
    }
    return "ok";
}

// A link's result (as linkInProcess) and the lines it reported.
struct ReportedLink {
    std::string result, lines;
};

inline ReportedLink linkReporting(const std::vector<std::string> &args) {
    ReportedLink r;
    Diagnostics diagnostics([&r](Severity, const std::string &line) { r.lines += line; });
    DiagnosticsScope scope(diagnostics);
    r.result = linkInProcess(args);
    return r;
}

// An ar archive of `members` (name, bytes), as GNU ar writes one.
inline std::vector<uint8_t>
makeArchive(const std::vector<std::pair<std::string, std::vector<uint8_t>>> &members) {
    std::string text = "!<arch>\n";
    for (const auto &[name, bytes] : members) {
        std::string header = name + "/";
        header.resize(16, ' ');
        std::string size = std::to_string(bytes.size());
        size.resize(10, ' ');
        text += header + "0           0     0     644     " + size + "`\n";
        text.append(bytes.begin(), bytes.end());
        if (text.size() & 1)
            text += '\n';
    }
    return std::vector<uint8_t>(text.begin(), text.end());
}

} // namespace culd::test
