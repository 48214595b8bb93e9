// The link configuration, parsed from nvlink's command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace culd {

// Bounds on the work hostile input can make culd do; each has an option to
// raise it (README, "Limits").
struct InputLimits {
    uint64_t maxDecompressedBytes = uint64_t(4) << 30; // all fatbin entries of a link
    uint64_t maxArchiveMembers = uint64_t(1) << 20;    // members of all archives of a link
    uint64_t maxOutputBytes = uint64_t(4) << 30;       // the output file
};

// The CUDA toolkit whose nvlink culd reproduces, as its notes and
// attributes spell versions (130 = 13.0): newer inputs are refused.
constexpr uint32_t kToolkitVersion = 130;

// An input handed over in memory (libculd's culdLinkAddData): read from
// these bytes instead of the file its name would be. The bytes outlive the
// link.
// What -arch names: a real SM (sm_XX), a virtual one (compute_XX) or an LTO
// target (lto_XX).
enum class ArchKind : uint8_t { Real, Virtual, Lto };

struct InputBuffer {
    const uint8_t *data = nullptr;
    uint64_t size = 0;
};

struct Options {
    // What to do.
    bool showHelp = false;
    bool showVersion = false;
    bool listPlugins = false;

    // Target and output.
    std::string archText;           // as given: "sm_90a"
    uint32_t sm = 0;
    char archSuffix = 0;            // 'a', 'f' or 0
    ArchKind archKind = ArchKind::Real;
    std::string outputFile;
    bool relocatable = false;       // -r
    bool debug = false;             // -g

    // Inputs in command-line order (files and -l libraries).
    std::vector<std::string> inputs;
    // Empty, or one entry per `inputs` entry: a non-null one is that input's
    // bytes in memory, its name used only in diagnostics.
    std::vector<InputBuffer> inputBuffers;
    // Non-null (libculd): the linked cubin goes here too (and only here
    // without -o).
    std::vector<uint8_t> *outputBuffer = nullptr;
    std::vector<std::string> libraryPaths;   // -L
    std::vector<std::string> libraries;      // -l (kept in order with inputs)
    std::vector<std::string> pluginDirs;     // --plugin-dir

    // Diagnostics.
    bool verbose = false;
    bool disableWarnings = false;
    bool warningsAsErrors = false;
    bool disableInfos = false;
    bool reportArch = false;
    bool jsonDiagnostics = false;    // --diagnostics-format=json
    bool suppressStackSizeWarning = false;
    bool suppressArchWarning = false;
    bool extraWarnings = false;

    // Link behaviour.
    bool preserveRelocs = false;
    bool forceRela = false;
    bool disableSmemReservation = false;
    bool keepSystemLibraries = false;
    bool ignoreHostInfo = false;
    bool useHostInfo = false;
    bool allowUndefinedGlobals = false;
    std::vector<std::string> kernelsUsed;
    std::vector<std::string> variablesUsed;
    bool dumpCallgraph = false;
    bool dumpCallgraphNoDemangle = false;
    std::string dotFile;
    // Link map and symbol questions, as lld has them (MapFile.cpp,
    // WhyLive.cpp, TraceSymbol.cpp).
    std::string mapFile;            // -Map FILE ('-': stdout)
    bool printMap = false;          // --print-map: the map on stdout
    std::vector<std::string> whyLive;      // --why-live SYM
    std::vector<std::string> traceSymbols; // --trace-symbol SYM (-y)
    std::string cpuArch;
    std::string hostLinkerScript;   // --gen-host-linker-script lcs-abs|lcs-aug
    std::string hostCcbin;          // --host-ccbin (default gcc)
    std::string ptxasPath;          // --ptxas-path
    std::string registerLinkBinaries; // --register-link-binaries FILE
    std::string timeFile;           // -time FILE ('-': stdout)

    // Link-time optimisation (Lto.cpp).
    bool lto = false;               // -lto / -dlto
    bool emitPtx = false;           // -emit-ptx: the linked PTX is the output
    std::string nvvmPath;           // -nvvmpath (<cuda>/nvvm)
    std::vector<std::string> xnvvm;  // -Xnvvm, one option each
    std::vector<std::string> xptxas; // -Xptxas, one word each
    uint32_t maxRegCount = 0;       // -maxrregcount (0: not given)
    uint32_t splitCompile = 0;      // -split-compile (0: not given)
    uint32_t splitCompileExtended = 0; // -split-compile-extended (0: not given)
    // Non-null (libculd): the linked PTX of an LTO link goes here too.
    std::string *ltoPtxBuffer = nullptr;
    std::string toolName = "culd";  // --tool-name: the linker's own tkinfo record
    uint32_t cudaApiVersion = 0;    // --cuda-api-version as 130; 0: not given
    std::string machine = "64";
    unsigned threads = 0;           // 0 = hardware concurrency (max 2 used)
    InputLimits limits;
};

// Parses argv (without argv[0]) in nvlink's syntax: `-arch=sm_90`,
// `-arch sm_90`, `--arch sm_90`, `-o out`, `-lfoo`, `-L dir`, `-Werror`,
// `--disable-smem-reservation=true`, `-optf file`, `@file`.
// Throws FatalError for unknown options, bad values, and options that culd
// recognises but does not implement yet ("... is not supported yet").
Options parseOptions(const std::vector<std::string> &args);

// A link's command line as the culd command hands it to libculd: the
// options (canonical `--name=value` tokens, options files expanded; -o among
// them) and the input files, in order.
struct LinkCommandLine {
    std::vector<std::string> options;
    std::vector<std::string> inputs;
};
LinkCommandLine splitLinkCommandLine(const std::vector<std::string> &args);

// Help text for --help.
std::string helpText();

} // namespace culd
