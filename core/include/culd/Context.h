// Everything one link knows, threaded through the passes in Link.cpp.
#pragma once

#include "culd/CallGraph.h"
#include "culd/InputFiles.h"
#include "culd/NvJitLink.h"
#include "culd/Options.h"
#include "culd/Target.h"
#include "culd/Relocations.h"
#include "culd/Sections.h"
#include "culd/StringTable.h"
#include "culd/Symbols.h"

#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace culd {

struct Context {
    Context(const Options &o, const Target &t) : opts(o), target(t) {}

    const Options &opts;
    // Every per-arch question goes to the target (and through it to the
    // plugin); passes never read the plugin's C structs.
    const Target &target;

    std::vector<std::unique_ptr<ObjectFile>> files;
    // Mappings that inputs view into (host objects, archives, fatbins).
    std::vector<std::unique_ptr<MappedFile>> keepAlive;
    SymbolTable symtab;
    // Archive members by the name messages give them ("libx.a:m.o", as
    // nvlink writes it): the archive and the member, for tools
    // (--diagnostics-format=json).
    std::unordered_map<std::string, std::pair<std::string, std::string>> archiveMembers;
    // Every file that referenced a symbol while it was undefined.
    std::unordered_map<Symbol *, std::vector<ObjectFile *>> undefinedReferrers;
    // Symbols that relocations of live sections refer to (after DCE).
    std::unordered_set<const Symbol *> referencedFromLiveCode;
    CallGraph callGraph;
    CallGraphWalker walker;
    // The output .strtab; prototype strings go in first, as nvlink does.
    StringTable strtab;

    // Output sections in creation order; the writer orders them.
    std::deque<OutputSection> outputArena;
    std::vector<OutputSection *> outputs;

    // Where extern __shared__ arrays sit for the code of each function that
    // uses them: kernels sharing such a function agree on one offset, others
    // each have their own (set by the layout, read by the relocation pass).
    std::unordered_map<const Symbol *, uint64_t> externSharedOffsets;
    // Under -r: the `externsharedinstance` symbol that each kernel's own
    // references to extern __shared__ arrays now name (Layout.cpp), and the
    // symbols in kernel order.
    std::unordered_map<const Symbol *, Symbol *> externSharedInstanceOf;
    std::vector<Symbol *> externSharedInstances;
    // Whether module shared variables remain after the layout (some are
    // reached by several kernels); -g symbol values depend on it.
    bool moduleSharedHoldsVariables = false;

    // Relocations left for the driver, in input order.
    std::vector<RelocKeep> keptRelocs;
    // Relocation sections written although nothing is left in them
    // (Relocations.cpp), each with its place in that order: the number
    // of keptRelocs before it.
    struct EmptyRelocationSection {
        OutputSection *target = nullptr;
        size_t position = 0;
    };
    std::vector<EmptyRelocationSection> emptyRelocationSections;

    // Host objects read (in link order): their module ids go to
    // --register-link-binaries, their host-reference lists to dead-code
    // elimination.
    struct HostModule {
        std::string moduleId;
        std::vector<std::string> kernelPatterns, variablePatterns;
        bool hasHostInfo = false;
        bool systemLibrary = false; // libcudadevrt
    };
    std::vector<HostModule> hostModules;
    // Fatbins and host objects (by the name messages give them) whose PTX
    // culd compiles instead of the cubin for another SM it would otherwise
    // take, each with the function that made it necessary (for the
    // warning): a second run of the link asks for them (CrossTarget.cpp).
    std::map<std::string, std::string> ptxInsteadOfCubin;
    // Inputs that contribute device code without host information (cubins,
    // fatbins, PTX), which makes host-info DCE unsafe.
    bool inputsWithoutHostInfo = false;
    // How many kernels are roots of dead-code elimination (Symbol::rootKernel).
    // With fewer than two, nvlink treats the link as a single-entry one (see
    // SyntheticSections.cpp).
    size_t rootKernels = 0;
    // Whether host-reference lists chose the root kernels (markLive):
    // --why-live says so.
    bool rootsFromHostInfo = false;

    // Link-time optimisation (-lto): the inputs whose entry for the target
    // is LTO IR, in link order. nvJitLink gets each whole (the host object,
    // fatbin or .ltoir file) and chooses the entry itself, since culd cannot
    // decode compressed LTO IR (Lto.cpp).
    struct LtoInput {
        std::string name;
        ByteView bytes;
        JitLinkInput type;
    };
    std::vector<LtoInput> ltoInputs;
    // libcudadevrt was among the inputs (whether or not its code joins).
    bool deviceRuntimeRead = false;

    // The .note.nv.cuinfo section: its index goes into e_flags bits 24-31.
    OutputSection *cuinfo = nullptr;

    OutputSection *makeOutput(std::string name, uint32_t type, uint64_t flags);
    // Whether some input comes from a toolkit before CUDA 12 (ELF ABI v7):
    // what nvlink does with those under -r is not measured.
    bool anyInputElfAbiV7() const;
};

} // namespace culd
