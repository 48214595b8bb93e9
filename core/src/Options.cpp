// nvlink's command line on top of Boost.Program_options.
//
// nvlink mixes single-dash long options (-arch, -Werror, -optf), glued short
// options (-lcudadevrt, -L/dir) and `--name=value`. Program_options cannot
// express that mix, so every token is first rewritten to the canonical
// `--long-name[=value]` form through the table below, then parsed.
#include "culd/Options.h"

#include "culd/Diagnostics.h"
#include "culd/Strings.h"
#include "culd/PluginRegistry.h"

#include <algorithm>
#include <boost/program_options.hpp>

#include <fstream>
#include <sstream>
#include <type_traits>
#include <unordered_map>

namespace po = boost::program_options;

namespace culd {
namespace {

enum class Arg { None, Value, OptionalBool };
enum class Support { Yes, NotYet };

struct OptionSpec {
    const char *name;  // canonical long name
    const char *alias; // nvlink's short or single-dash spelling ("" if none)
    Arg arg;
    Support support;
    const char *help;
};

// Every option of `nvlink --help` plus the hidden ones nvlink 13.0 accepts,
// and culd's own. `NotYet` options are recognised and refused with a clear
// message rather than ignored.
const OptionSpec optionTable[] = {
    {"help", "h", Arg::None, Support::Yes, "Print this help information."},
    {"version", "V", Arg::None, Support::Yes, "Print version information."},
    {"arch", "arch", Arg::Value, Support::Yes, "Target architecture (sm_XX, compute_XX, lto_XX)."},
    {"output-file", "o", Arg::Value, Support::Yes, "Output file name."},
    {"library", "l", Arg::Value, Support::Yes, "Libraries to link (searched in -L paths)."},
    {"library-path", "L", Arg::Value, Support::Yes, "Library search paths."},
    {"options-file", "optf", Arg::Value, Support::Yes, "Read more options from a file."},
    {"verbose", "v", Arg::None, Support::Yes, "Verbose output."},
    {"disable-warnings", "w", Arg::None, Support::Yes, "Inhibit all warning messages."},
    {"warning-as-error", "Werror", Arg::None, Support::Yes, "Treat warnings as errors."},
    {"disable-infos", "disable-infos", Arg::None, Support::Yes, "Disable all info messages."},
    {"extra-warnings", "extrawarn", Arg::None, Support::Yes, "Emit extra warnings."},
    {"report-arch", "report-arch", Arg::None, Support::Yes, "Report the SM in messages."},
    {"suppress-arch-warning", "suppress-arch-warning", Arg::None, Support::Yes,
     "Suppress the missing-code-for-arch warning."},
    {"suppress-stack-size-warning", "suppress-stack-size-warning", Arg::None, Support::Yes,
     "Suppress the stack-size warning."},
    {"machine", "m", Arg::Value, Support::Yes, "Address size (64 only)."},
    {"cpu-arch", "cpu-arch", Arg::Value, Support::Yes, "Host CPU architecture."},
    {"relocatable-link", "r", Arg::None, Support::Yes, "Relocatable (incremental) link."},
    {"preserve-relocs", "preserve-relocs", Arg::None, Support::Yes,
     "Keep resolved relocations in the output."},
    {"force-rela", "force-rela", Arg::None, Support::Yes, "Write RELA sections only."},
    {"disable-smem-reservation", "disable-smem-reservation", Arg::OptionalBool, Support::Yes,
     "Do not reserve shared memory (sm_90+)."},
    {"enable-extended-smem", "enable-extended-smem", Arg::OptionalBool, Support::NotYet,
     "Allow extended shared memory."},
    {"kernels-used", "kernels-used", Arg::Value, Support::Yes, "Kernels that are used."},
    {"variables-used", "variables-used", Arg::Value, Support::Yes, "Variables that are used."},
    {"use-host-info", "use-host-info", Arg::None, Support::Yes,
     "Use host reference information for dead-code removal."},
    {"ignore-host-info", "ignore-host-info", Arg::None, Support::Yes,
     "Ignore host reference information."},
    {"keep-system-libraries", "keep-system-libraries", Arg::None, Support::Yes,
     "Keep system library code (cudadevrt)."},
    {"dump-callgraph", "dump-callgraph", Arg::None, Support::Yes, "Print the call graph."},
    {"dump-callgraph-no-demangle", "dump-callgraph-no-demangle", Arg::None, Support::Yes,
     "Print the call graph without demangling."},
    {"dot-file", "dot-file", Arg::Value, Support::Yes, "Write the call graph as Graphviz."},
    {"Map", "Map", Arg::Value, Support::Yes,
     "Write the link map (sections, their inputs and symbols, kernel resources) to this file."},
    {"print-map", "M", Arg::None, Support::Yes, "Print the link map to stdout."},
    {"why-live", "why-live", Arg::Value, Support::Yes,
     "Print why this symbol is kept (its chain of calls from a root) or that it was removed."},
    {"trace-symbol", "y", Arg::Value, Support::Yes,
     "Print each input that defines or references this symbol."},
    {"allow-undefined-globals", "allow-undefined-globals", Arg::None, Support::Yes,
     "Accept undefined device variables."},
    {"register-link-binaries", "register-link-binaries", Arg::Value, Support::Yes,
     "Write the registration header."},
    {"gen-host-linker-script", "ghls", Arg::Value, Support::Yes,
     "Write a host linker script (lcs-abs, lcs-aug)."},
    {"debug", "g", Arg::None, Support::Yes, "Debug link."},
    {"suppress-debug-info", "suppress-debug-info", Arg::None, Support::Yes,
     "Drop debug information."},
    {"device-stack-protector", "device-stack-protector", Arg::OptionalBool, Support::NotYet,
     "Enable stack protectors."},
    {"link-time-opt", "lto", Arg::None, Support::Yes,
     "Link-time optimisation: every input's LTO IR through libnvJitLink, then ptxas."},
    {"dlto", "dlto", Arg::None, Support::Yes, "Link-time optimisation (alias of -lto)."},
    {"nvvmpath", "nvvmpath", Arg::Value, Support::Yes,
     "Toolkit nvvm folder: libnvJitLink is looked for in <path>/../lib64 and <path>/lib64."},
    {"Xnvvm", "Xnvvm", Arg::Value, Support::Yes, "Options for nvvm (only used with LTO)."},
    {"Xptxas", "Xptxas", Arg::Value, Support::Yes, "Options for ptxas (only used with LTO)."},
    {"maxrregcount", "maxrregcount", Arg::Value, Support::Yes,
     "Max registers (only used with LTO: accepted and ignored otherwise, as nvlink does)."},
    {"Ofast-compile", "Ofc", Arg::Value, Support::NotYet, "Fast-compile level (LTO)."},
    {"split-compile", "split-compile", Arg::Value, Support::Yes,
     "Threads nvvm and ptxas may use (only used with LTO)."},
    {"split-compile-extended", "split-compile-extended", Arg::Value, Support::Yes,
     "Extended split compilation (only used with LTO)."},
    {"emit-ptx", "emit-ptx", Arg::None, Support::Yes, "With LTO, write the linked PTX to -o."},
    {"force-whole-lto", "force-whole-lto", Arg::None, Support::NotYet, "Whole-program LTO."},
    {"force-partial-lto", "force-partial-lto", Arg::None, Support::NotYet, "Partial LTO."},
    {"uidx-file", "uidx-file", Arg::Value, Support::NotYet, "Unified index file (UFT/UDT)."},
    {"time", "time", Arg::Value, Support::Yes,
     "Append the timing table (CSV) to this file; '-' is stdout."},
    {"verbose-tkinfo", "verbose-tkinfo", Arg::OptionalBool, Support::NotYet,
     "Verbose tool-kit info note."},
    {"reserve-null-pointer", "reserve-null-pointer", Arg::None, Support::NotYet, ""},
    {"dont-reserve-null-pointer", "dont-reserve-null-pointer", Arg::None, Support::NotYet, ""},
    {"shared", "shared", Arg::None, Support::Yes, "Accepted and ignored, as nvlink does."},
    {"syscall-const-offset", "syscall-const-offset", Arg::Value, Support::NotYet, ""},
    {"tool-name", "tool-name", Arg::Value, Support::Yes,
     "Tool name of the linker's own .note.nv.tkinfo record."},
    {"nv-host", "nv-host", Arg::Value, Support::NotYet, ""},
    {"host-ccbin", "host-ccbin", Arg::Value, Support::Yes, ""},
    {"cuda-api-version", "cuda-api-version", Arg::Value, Support::Yes,
     "CUDA API version <major>.<minor> the inputs may not exceed."},
    // culd's own.
    {"plugin-dir", "plugin-dir", Arg::Value, Support::Yes, "Directory to search for plugins."},
    {"list-plugins", "list-plugins", Arg::None, Support::Yes,
     "List the plugins found and why any failed to load."},
    {"threads", "threads", Arg::Value, Support::Yes, "Worker threads (default: all cores)."},
    {"max-decompressed-size", "max-decompressed-size", Arg::Value, Support::Yes,
     "Bytes all compressed fatbin entries of a link may decompress to (default 4 GiB)."},
    {"max-archive-members", "max-archive-members", Arg::Value, Support::Yes,
     "Members all archives of a link may hold together (default 1048576)."},
    {"max-output-size", "max-output-size", Arg::Value, Support::Yes,
     "Largest output file culd writes, in bytes (default 4 GiB)."},
    {"diagnostics-format", "diagnostics-format", Arg::Value, Support::Yes,
     "How diagnostics are written: 'text' (nvlink's lines, default) or 'json' (one object per "
     "line)."},
    {"ptxas-path", "ptxas-path", Arg::Value, Support::Yes,
     "ptxas used to compile PTX inputs (default: CUDA_HOME, PATH, /usr/local/cuda/bin)."},
};

const OptionSpec *findOption(const std::string &name) {
    static const std::unordered_map<std::string, const OptionSpec *> byName = [] {
        std::unordered_map<std::string, const OptionSpec *> m;
        for (const OptionSpec &o : optionTable) {
            m.emplace(o.name, &o);
            if (*o.alias)
                m.emplace(o.alias, &o);
        }
        return m;
    }();
    auto it = byName.find(name);
    return it == byName.end() ? nullptr : it->second;
}

// Options that take their value glued to a one-letter flag: -lfoo, -L/dir,
// -m64.
const char *const gluedPrefixes[] = {"l", "L", "o", "m"};

// A non-negative decimal option value.
uint64_t parseCount(const std::string &option, const std::string &text) {
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
        throw FatalError("option '--" + option + "' expects a number, not '" + text + "'");
    return std::stoull(text);
}

std::vector<std::string> readOptionsFile(const std::string &path) {
    std::ifstream in(path);
    if (!in)
        throw FatalError("cannot open options file '" + path + "'");
    std::vector<std::string> words;
    std::string word;
    // Whitespace-separated words; quotes group words as in a shell.
    char c;
    char quote = 0;
    bool any = false;
    while (in.get(c)) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
        } else if (c == '"' || c == '\'') {
            quote = c;
            any = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (any || !word.empty())
                words.push_back(word);
            word.clear();
            any = false;
        } else {
            word += c;
        }
    }
    if (any || !word.empty())
        words.push_back(word);
    return words;
}

// Rewrites nvlink's spellings to `--name=value` tokens, expanding option
// files as it goes. Positional arguments pass through unchanged.
void normalize(const std::vector<std::string> &args, std::vector<std::string> &out,
               unsigned depth) {
    if (depth > 16)
        throw FatalError("options files nest too deeply");
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &tok = args[i];
        if (tok.size() > 1 && tok[0] == '@') {
            normalize(readOptionsFile(tok.substr(1)), out, depth + 1);
            continue;
        }
        if (tok.size() < 2 || tok[0] != '-') {
            out.push_back(tok);
            continue;
        }
        std::string body = tok.substr(tok[1] == '-' ? 2 : 1);
        std::string name = body, value;
        bool hasValue = false;
        if (auto eq = body.find('='); eq != std::string::npos) {
            name = body.substr(0, eq);
            value = body.substr(eq + 1);
            hasValue = true;
        }
        const OptionSpec *spec = findOption(name);
        if (!spec && tok[1] != '-') {
            for (const char *p : gluedPrefixes)
                if (body.compare(0, 1, p) == 0 && body.size() > 1) {
                    spec = findOption(p);
                    value = body.substr(1);
                    hasValue = true;
                    break;
                }
        }
        if (!spec)
            throw FatalError("Unknown option '" + tok + "'");
        if (spec->arg == Arg::Value && !hasValue) {
            if (i + 1 >= args.size())
                throw FatalError("option '" + tok + "' needs a value");
            value = args[++i];
            hasValue = true;
        }
        if (spec->arg == Arg::None && hasValue)
            throw FatalError("option '" + tok + "' takes no value");
        if (spec->arg == Arg::OptionalBool && !hasValue) {
            value = "true";
            hasValue = true;
        }
        if (std::string(spec->name) == "options-file") {
            // nvlink allows a comma-separated list of files.
            std::stringstream files(value);
            std::string f;
            while (std::getline(files, f, ','))
                normalize(readOptionsFile(f), out, depth + 1);
            continue;
        }
        out.push_back("--" + std::string(spec->name) + (hasValue ? "=" + value : ""));
    }
}

po::options_description describeOptions() {
    po::options_description desc("Options");
    for (const OptionSpec &o : optionTable) {
        switch (o.arg) {
        case Arg::None:
            desc.add_options()(o.name, o.help);
            break;
        case Arg::Value:
            desc.add_options()(o.name, po::value<std::vector<std::string>>()->composing(), o.help);
            break;
        case Arg::OptionalBool:
            desc.add_options()(o.name, po::value<std::vector<std::string>>()->composing(), o.help);
            break;
        }
    }
    desc.add_options()("input", po::value<std::vector<std::string>>()->composing(), "");
    return desc;
}

bool parseBool(const std::string &option, const std::string &value) {
    if (value == "true" || value == "1" || value == "yes")
        return true;
    if (value == "false" || value == "0" || value == "no")
        return false;
    throw FatalError("option '--" + option + "' expects true or false, not '" + value + "'");
}

// Splits comma-separated list values as nvlink does for `<x>,...` options.
std::vector<std::string> splitCommaLists(const std::vector<std::string> &values) {
    std::vector<std::string> out;
    for (const std::string &v : values)
        for (std::string &item : culd::splitList(v, ','))
            out.push_back(std::move(item));
    return out;
}

// `--cuda-api-version <major>.<minor>`: nvlink takes only its own major
// version and then checks inputs against <major> * 10, the minor ignored
// (13.2 still reports "version on link line (130)").
uint32_t parseCudaApiVersion(const std::string &text) {
    auto isNumber = [](const std::string &s) {
        return !s.empty() && s.size() <= 4 &&
               std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    size_t dot = text.find('.');
    if (dot == std::string::npos || !isNumber(text.substr(0, dot)) ||
        !isNumber(text.substr(dot + 1)))
        throw FatalError("--cuda-api-version value cannot be parsed");
    uint32_t major = static_cast<uint32_t>(std::stoul(text.substr(0, dot)));
    if (major != kToolkitVersion / 10)
        throw FatalError("--cuda-api-version major number must be == toolkit version");
    return major * 10;
}

// The parsed options' values, by canonical name.
struct OptionValues {
    const po::variables_map &vm;

    std::vector<std::string> values(const char *name) const {
        return vm.count(name) ? vm[name].as<std::vector<std::string>>()
                              : std::vector<std::string>{};
    }
    // The last value given (nvlink: a later option wins), or "".
    std::string single(const char *name) const {
        std::vector<std::string> v = values(name);
        return v.empty() ? std::string() : v.back();
    }
    // A count option into `field`, left alone when not given.
    template <class Field> void count(const char *name, Field &field) const {
        if (vm.count(name))
            field = static_cast<Field>(parseCount(name, single(name)));
    }
};

// An option whose value must be one of `allowed`: refused in nvlink's words.
void requireOneOf(const std::string &value, std::initializer_list<std::string_view> allowed,
                  const std::string &option) {
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        throw FatalError("Value '" + value + "' is not defined for option '" + option + "'");
}

// The link-time-optimisation options; nvlink takes all but -lto/-dlto
// without LTO and ignores them there, as culd does.
void parseLtoOptions(const OptionValues &v, Options &opts) {
    opts.lto = v.vm.count("link-time-opt") || v.vm.count("dlto");
    opts.nvvmPath = v.single("nvvmpath");
    opts.emitPtx = v.vm.count("emit-ptx");
    opts.xnvvm = splitCommaLists(v.values("Xnvvm"));
    // nvcc passes "-Xptxas "-v "": one value of space-separated words.
    for (const std::string &list : splitCommaLists(v.values("Xptxas"))) {
        std::istringstream words(list);
        for (std::string word; words >> word;)
            opts.xptxas.push_back(word);
    }
    v.count("maxrregcount", opts.maxRegCount);
    v.count("split-compile", opts.splitCompile);
    v.count("split-compile-extended", opts.splitCompileExtended);
}

} // namespace

LinkCommandLine splitLinkCommandLine(const std::vector<std::string> &args) {
    std::vector<std::string> tokens;
    normalize(args, tokens, 0);
    // normalize() leaves every option as `--name[=value]`; anything else is
    // an input, as parseOptions() takes it.
    LinkCommandLine line;
    for (std::string &token : tokens)
        (token.size() > 2 && token.compare(0, 2, "--") == 0 ? line.options : line.inputs)
            .push_back(std::move(token));
    return line;
}

Options parseOptions(const std::vector<std::string> &args) {
    std::vector<std::string> tokens;
    normalize(args, tokens, 0);

    po::options_description desc = describeOptions();
    po::positional_options_description positional;
    positional.add("input", -1);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(tokens).options(desc).positional(positional).run(), vm);
    } catch (const po::error &e) {
        throw FatalError(e.what());
    }

    Options opts;
    for (const OptionSpec &o : optionTable) {
        if (!vm.count(o.name) || o.support == Support::Yes)
            continue;
        throw FatalError("option '--" + std::string(o.name) + "' is not supported yet");
    }
    const OptionValues v{vm};

    opts.showHelp = vm.count("help");
    opts.showVersion = vm.count("version");
    opts.listPlugins = vm.count("list-plugins");
    opts.verbose = vm.count("verbose");
    opts.disableWarnings = vm.count("disable-warnings");
    opts.warningsAsErrors = vm.count("warning-as-error");
    opts.disableInfos = vm.count("disable-infos");
    opts.extraWarnings = vm.count("extra-warnings");
    opts.reportArch = vm.count("report-arch");
    opts.suppressArchWarning = vm.count("suppress-arch-warning");
    if (vm.count("diagnostics-format")) {
        const std::string format = v.single("diagnostics-format");
        requireOneOf(format, {"text", "json"}, "diagnostics-format");
        opts.jsonDiagnostics = format == "json";
    }
    opts.suppressStackSizeWarning = vm.count("suppress-stack-size-warning");
    opts.outputFile = v.single("output-file");
    opts.inputs = v.values("input");
    opts.libraryPaths = splitCommaLists(v.values("library-path"));
    opts.libraries = splitCommaLists(v.values("library"));
    opts.pluginDirs = v.values("plugin-dir");
    opts.cpuArch = v.single("cpu-arch");
    // nvlink's list; anything else (x86_64 in lower case too) is refused.
    if (!opts.cpuArch.empty())
        requireOneOf(opts.cpuArch, {"AARCH64", "ARMv7", "PPC64LE", "X86", "X86_64", "unknown"},
                     "cpu-arch");
    opts.relocatable = vm.count("relocatable-link");
    opts.preserveRelocs = vm.count("preserve-relocs");
    opts.forceRela = vm.count("force-rela");
    opts.kernelsUsed = splitCommaLists(v.values("kernels-used"));
    opts.variablesUsed = splitCommaLists(v.values("variables-used"));
    opts.useHostInfo = vm.count("use-host-info");
    opts.ignoreHostInfo = vm.count("ignore-host-info");
    opts.keepSystemLibraries = vm.count("keep-system-libraries");
    opts.dumpCallgraph = vm.count("dump-callgraph");
    opts.dumpCallgraphNoDemangle = vm.count("dump-callgraph-no-demangle");
    if (opts.dumpCallgraph && opts.dumpCallgraphNoDemangle)
        throw FatalError("options '--dump-callgraph' and '--dump-callgraph-no-demangle' are "
                         "mutually exclusive");
    opts.dotFile = v.single("dot-file");
    opts.mapFile = v.single("Map");
    opts.printMap = vm.count("print-map");
    opts.whyLive = v.values("why-live");
    opts.traceSymbols = v.values("trace-symbol");
    opts.allowUndefinedGlobals = vm.count("allow-undefined-globals");
    // -g marks a debug link (debug sections are merged either way); nvlink
    // refuses --suppress-debug-info without it and, with it, leaves the
    // debug sections in place, as culd does.
    opts.debug = vm.count("debug");
    opts.hostLinkerScript = v.single("gen-host-linker-script");
    opts.hostCcbin = v.single("host-ccbin");
    opts.ptxasPath = v.single("ptxas-path");
    opts.registerLinkBinaries = v.single("register-link-binaries");
    opts.timeFile = v.single("time");
    parseLtoOptions(v, opts);
    if (vm.count("tool-name"))
        opts.toolName = v.single("tool-name");
    if (vm.count("cuda-api-version"))
        opts.cudaApiVersion = parseCudaApiVersion(v.single("cuda-api-version"));
    if (vm.count("suppress-debug-info") && !opts.debug)
        throw FatalError("Conflicting options '--suppress-debug-info' and 'no -g'");
    if (vm.count("disable-smem-reservation"))
        opts.disableSmemReservation =
            parseBool("disable-smem-reservation", v.single("disable-smem-reservation"));
    if (vm.count("machine")) {
        opts.machine = v.single("machine");
        if (opts.machine != "64")
            throw FatalError("option '--machine' only accepts 64, not '" + opts.machine + "'");
    }
    v.count("threads", opts.threads);
    v.count("max-decompressed-size", opts.limits.maxDecompressedBytes);
    v.count("max-archive-members", opts.limits.maxArchiveMembers);
    v.count("max-output-size", opts.limits.maxOutputBytes);
    if (vm.count("arch")) {
        opts.archText = v.single("arch");
        std::optional<ArchName> arch = ArchName::parse(opts.archText);
        if (!arch)
            throw FatalError("invalid value '" + opts.archText + "' for option '--arch'");
        opts.sm = arch->sm;
        opts.archSuffix = arch->suffix;
        opts.archKind = arch->kind;
    }
    return opts;
}

std::string helpText() {
    std::ostringstream os;
    os << "Usage  : culd [options] <objects>\n\n"
       << "culd accepts nvlink's command line. Options marked (not yet) are recognised\n"
       << "and refused until implemented.\n\n";
    for (const OptionSpec &o : optionTable) {
        std::string spelling = "--" + std::string(o.name);
        if (o.arg == Arg::Value)
            spelling += " <value>";
        if (*o.alias && std::string(o.alias) != o.name)
            spelling += "  (-" + std::string(o.alias) + ")";
        os << "  " << spelling << "\n        " << o.help
           << (o.support == Support::NotYet ? " (not yet)" : "") << "\n";
    }
    return os.str();
}

} // namespace culd
