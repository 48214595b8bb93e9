// The link as a list of passes over one Context.
#pragma once

#include "culd/Options.h"
#include "culd/PluginRegistry.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace culd {

struct Context;
struct InputSection;
class ObjectFile;
struct Symbol;

// Runs every pass and writes opts.outputFile (Link.cpp). Throws FatalError,
// or ErrorsReported when errors were printed as they were found; either way
// no output file is left behind.
void runLink(const Options &opts, const Plugin &plugin);

// --gen-host-linker-script: writes the host linker script instead of
// linking (HostLinkerScript.cpp).
void writeHostLinkerScript(const Options &opts);

// What a plugin hook must know of the link (CULD_LINK_F_*): -g, and
// whether some input carries -G debug info (Link.cpp).
uint32_t linkFlags(const Context &ctx);

// The passes, in the order runLink calls them (each in its own .cpp).
void readInputs(Context &ctx);             // InputFiles.cpp
// -lto: whether the link is one of LTO IR only, which linkTimeOptimize
// does instead of the passes below (warns when there is no LTO IR; refuses
// LTO IR mixed with other inputs and options the LTO link cannot honour).
bool isLtoLink(Context &ctx);              // Lto.cpp
void linkTimeOptimize(Context &ctx);       // Lto.cpp: nvJitLink, ptxas, the output
// The linked PTX with the `.target` nvlink's has: the family's base SM for
// an a/f target (Lto.cpp).
void retargetPtxAsNvlink(std::string &ptx, const Options &opts);
void resolveSymbols(Context &ctx);         // SymbolTable.cpp
void buildCallGraph(Context &ctx);         // CallGraph.cpp
void markLive(Context &ctx);               // MarkLive.cpp
// Cubins made for another SM of the family whose kept code the target
// would regenerate, and whose fatbin holds PTX: throws RelinkFromPtx.
void chooseCrossTargetCode(Context &ctx);  // CrossTarget.cpp
// The link starts again, compiling these inputs' PTX (input name ->
// the function that cannot take the fast path, for the warning).
struct RelinkFromPtx {
    std::map<std::string, std::string> inputs;
};
// The first kept function of `file` (made for another SM of the target's
// family) that cannot take the fast path to the target; nullptr if none.
const InputSection *functionOffFastPath(const Context &ctx, const ObjectFile &file);
std::string functionName(const InputSection &text); // CrossTarget.cpp
// "'<input>': function '<f>', compiled for <sm>, cannot take the fast path
// to <target>; nvlink recompiles it, which culd cannot do": the start of
// the warning and of the refusal (CrossTarget.cpp).
std::string offFastPathMessage(const std::string &input, const std::string &function,
                               const std::string &compiledFor, const std::string &target);
void reportUndefined(Context &ctx);        // SymbolTable.cpp
void analyzeCallGraph(Context &ctx);       // CallGraphAnalysis.cpp
void warnUnboundedStacks(Context &ctx);    // CallGraphAnalysis.cpp (recursion: stack unknown)
// Targets that rebuild .debug_frame: which of its entries each input keeps.
void rewriteCode(Context &ctx);            // CodeRewrite.cpp (the plugin's rewrite_code)
void linkFramesByEntry(Context &ctx);     // DebugFrame.cpp
void linkLineTablesBySequence(Context &ctx); // DebugLine.cpp (the same targets)
void moveLineTableStrings(Context &ctx);   // DebugLine.cpp (after merge)
void clearRepeatedRegisterRanges(Context &ctx); // DebugRegisters.cpp (the same targets)
// Which constant banks of weak copies that lost stay (sm_75-sm_89).
void keepLostCopyBanks(Context &ctx);      // FunctionBanks.cpp
void createOutputSections(Context &ctx);   // OutputSections.cpp
// The type of a shared-memory section the linker makes: SHT_NOBITS in an
// executable, the CUDA type in a relocatable cubin (OutputSections.cpp).
uint32_t madeSharedSectionType(const Context &ctx);
void checkRegisterLimits(Context &ctx);    // RegisterLimits.cpp
void placeFunctionBanks(Context &ctx);     // FunctionBanks.cpp
void layoutMemory(Context &ctx);           // Layout.cpp
// The size of the user constant bank as laid out, 0xffffffff without one
// (what .nv.ptx.const0.size stands for; Layout.cpp).
uint64_t ptxConst0Size(const Context &ctx);
void createMercurySections(Context &ctx);  // MercurySet.cpp (sm_100+ shadow set)
void pairMercurySections(Context &ctx, ObjectFile &file); // MercurySet.cpp (read time)
// Part of layoutMemory: the .nv.shared.reserved.<x> variables.
void layOutReservedShared(Context &ctx);  // ReservedShared.cpp
// The variables of .nv.shared.reserved.<x> that won, by the input section
// defining them (ReservedShared.cpp; MercurySet.cpp keeps those sections'
// Mercury copies).
using ReservedSharedVariables =
    std::unordered_map<const InputSection *, std::vector<Symbol *>>;
ReservedSharedVariables reservedSharedVariables(const Context &ctx);
void processRelocations(Context &ctx);     // Relocations.cpp
// Part of processRelocations: the relocation sections written even empty.
void synthesizeMetadata(Context &ctx);     // SyntheticSections.cpp
// Part of synthesizeMetadata: the output's .nv.compat CAN_FASTPATH_FINALIZE
// mask from the code kept of each input with a mask (nullopt: none has one).
using FastpathMasks = std::vector<std::pair<const ObjectFile *, uint32_t>>;
std::optional<uint32_t> linkedFastpathMask(const Context &ctx,
                                           const FastpathMasks &masks); // FastpathMask.cpp
// Stops here if any error was reported. Then the file: section and symbol
// order, symbol table, relocation sections, and the ELF image laid out and
// serialised by the layout engine (ElfWriter.h), written atomically.
void writeOutput(Context &ctx);            // Writer.cpp
// After the cubin, as options ask:
void writeRegistrationFile(Context &ctx);  // RegistrationFile.cpp (--register-link-binaries)
void dumpCallGraph(Context &ctx);          // CallGraphDump.cpp (--dump-callgraph*, after undefined)
// A function as --dump-callgraph (and --dump-callgraph-no-demangle) names it.
std::string callGraphName(const Context &ctx, const Symbol &f); // CallGraphDump.cpp
void writeDotFile(Context &ctx);           // CallGraphDump.cpp (--dot-file)
void reportResources(Context &ctx);        // Report.cpp (-v)
void writeMapFile(Context &ctx);           // MapFile.cpp (-Map, --print-map)
// Symbol questions, answered on stdout as the link goes:
void traceSymbols(Context &ctx);           // TraceSymbol.cpp (--trace-symbol, after resolve)
void printWhyLive(Context &ctx);           // WhyLive.cpp (--why-live, after mark-live)

// A device function's own constant bank, which placeFunctionBanks copies
// into the banks of the kernels reaching it (not merged as it is).
bool isDeviceFunctionConstants(const Context &ctx, const InputSection &s); // FunctionBanks.cpp

} // namespace culd
