#include "culd/Driver.h"

#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/Options.h"
#include "culd/PluginRegistry.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace culd {
namespace {

void printVersion() {
    std::cout << "culd: the open CUDA device linker, version " << CULD_VERSION << "\n"
              << "plugin ABI " << CULD_PLUGIN_ABI_MAJOR << "." << CULD_PLUGIN_ABI_MINOR << "\n";
}

std::string smList(const Plugin &p) {
    std::string s;
    for (uint32_t sm : p.sms()) {
        const culd_arch_info *a = p.arch(sm);
        s += (s.empty() ? "" : " ") + std::string("sm_") + std::to_string(sm);
        if (a->variants & CULD_VARIANT_A)
            s += "[a]";
        if (a->variants & CULD_VARIANT_F)
            s += "[f]";
    }
    return s;
}

int listPlugins(const Options &opts) {
    PluginRegistry registry(opts.pluginDirs);
    std::cout << "plugin search path:\n";
    for (const std::string &dir : registry.searchPath())
        std::cout << "  " << dir << "\n";
    std::vector<PluginListing> found = registry.listPlugins();
    std::cout << "plugins:" << (found.empty() ? " none found" : "") << "\n";
    for (const PluginListing &entry : found) {
        if (entry.plugin) {
            const culd_plugin_descriptor &d = entry.plugin->descriptor();
            std::cout << "  " << entry.plugin->name() << "  " << entry.path << "\n"
                      << "      ABI " << d.abi_major << "." << d.abi_minor << ", version "
                      << (d.version ? d.version : "?") << ", " << d.num_relocs
                      << " relocation types, SMs: " << smList(*entry.plugin) << "\n";
        } else {
            std::cout << "  (failed)  " << entry.path << "\n      " << entry.error << "\n";
        }
    }
    return 0;
}

void configureDiagnostics(const Options &opts) {
    Diagnostics::get().setOptions(diagnosticOptions(opts));
    // -v is nvlink's resource report (Diagnostics); CULD_LOG=debug adds the
    // linker's own trace (plugin choice, pass timings).
    spdlog::set_pattern("culd %l : %v");
    spdlog::set_level(spdlog::level::warn);
    if (const char *level = std::getenv("CULD_LOG"))
        spdlog::set_level(spdlog::level::from_str(level));
}

// -time FILE: nvlink appends one row per sub-tool it runs (ptxas, nvvm under
// -lto) to a CSV table, after the column headings when the file is empty; a
// link without LTO adds no row. It does so before reading any input, so a
// failed link still leaves the headings. '-' is stdout.
void startTimingTable(const std::string &path) {
    static const char headings[] = "source file name , phase name , phase input files , "
                                   "phase output file , arch , tool, metric , unit\n";
    if (path == "-") {
        std::cout << headings;
        return;
    }
    std::error_code ec;
    const bool empty = !std::filesystem::exists(path, ec) || std::filesystem::is_empty(path, ec);
    std::ofstream out(path, std::ios::app | std::ios::binary);
    if (!out)
        throw FatalError("Cannot open file '" + path + "'");
    if (empty)
        out << headings;
    if (!out.flush())
        throw FatalError("Cannot write file '" + path + "'");
}

int link(const Options &opts) {
    if (!opts.timeFile.empty())
        startTimingTable(opts.timeFile);
    if (opts.archText.empty())
        throw FatalError("no target architecture given (use -arch=sm_XX)");
    if (opts.inputs.empty())
        throw FatalError("no input files");
    PluginRegistry registry(opts.pluginDirs);
    const Plugin &plugin = registry.pluginFor(opts.sm);
    spdlog::debug("using plugin '{}' ({}) for {}", plugin.name(), plugin.path(), opts.archText);
    runLink(opts, plugin);
    return Diagnostics::get().errorCount() ? kExitErrors : 0;
}

// Runs `action`, reporting what it throws; returns its exit status.
template <class Action> int reportingErrors(Action action) {
    Diagnostics &diag = Diagnostics::get();
    try {
        return action();
    } catch (const ErrorsReported &) {
        return kExitErrors;
    } catch (const FatalError &e) {
        if (*e.what()) // empty: the errors were reported as they happened
            diag.error(e.what());
    } catch (const std::bad_alloc &) {
        diag.error("out of memory");
    } catch (const std::exception &e) {
        diag.error(std::string("internal error: ") + e.what());
    }
    return kExitFatal;
}

} // namespace

DiagnosticOptions diagnosticOptions(const Options &opts) {
    DiagnosticOptions d;
    d.disableWarnings = opts.disableWarnings;
    d.warningsAsErrors = opts.warningsAsErrors;
    d.disableInfos = opts.disableInfos;
    if (opts.reportArch)
        d.reportArch = opts.archText;
    if (opts.jsonDiagnostics)
        d.format = DiagnosticsFormat::Json;
    return d;
}

int linkReportingErrors(const Options &opts) {
    return reportingErrors([&] { return link(opts); });
}

int runDriver(const std::vector<std::string> &args, const CommandLineLinker &linker) {
    return reportingErrors([&] {
        Options opts = parseOptions(args);
        configureDiagnostics(opts);
        if (opts.showHelp) {
            std::cout << helpText();
            return 0;
        }
        if (opts.showVersion) {
            printVersion();
            return 0;
        }
        if (opts.listPlugins)
            return listPlugins(opts);
        if (!opts.hostLinkerScript.empty()) {
            writeHostLinkerScript(opts);
            return 0;
        }
        // nvlink's order: the target is checked first (a missing -arch is
        // left to the link, which names it), then -o, which only a real SM
        // needs (compute_XX writes nothing, lto_XX is refused).
        if (!opts.archText.empty() && opts.archKind == ArchKind::Real && opts.outputFile.empty())
            throw FatalError("no output file given (use -o FILE)");
        return linker(splitLinkCommandLine(args));
    });
}

} // namespace culd
