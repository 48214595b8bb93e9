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

} // namespace culd::test
