// Symbols and the global symbol table.
//
// Like lld, there is one Symbol per global name, replaced in place as
// resolution proceeds; local symbols belong to their file. Symbols live in
// an arena (std::deque: stable addresses, no per-symbol allocation) and are
// found by name once per input symbol; afterwards everything holds the
// pointer.
#pragma once

#include "culd/Elf.h"

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace culd {

class ObjectFile;
struct InputSection;
struct OutputSection;
struct Symbol;

// Per-function facts gathered from .nv.info and the call graph.
struct FunctionInfo {
    uint32_t regCount = 0;
    uint32_t frameSize = 0;
    uint32_t crsStackSize = 0; // EIATTR_CRS_STACK_SIZE of its .nv.info.<f>
    uint32_t numBarriers = 0;  // EIATTR_NUM_BARRIERS of its .nv.info.<f>
    uint32_t maxRegCount = 0;  // EIATTR_MAXREG_COUNT of its .nv.info.<f> (a kernel's limit)
    std::vector<Symbol *> externKernels; // kernels its EIATTR_EXTERNS names
    bool hasNumBarriers = false;
    // Its EXTERNS record came before its NUM_BARRIERS one in the input.
    bool externsBeforeBarriers = false;
    bool hasRegCount = false, hasFrameSize = false, hasCrsStack = false, hasMaxRegCount = false;
    std::vector<Symbol *> callees;      // direct calls (.nv.callgraph)
    // What it may reach through function pointers (buildCallGraph): the
    // address-taken functions of the prototypes it calls through (not the
    // functions whose address it only takes).
    std::vector<Symbol *> indirectCallees;
    bool isEntry = false;
    bool addressTaken = false;
    // Set by markLive: the live function whose call first made this one
    // live (null for a root), so that a diagnostic can say why it lives.
    Symbol *reachedFrom = nullptr;
    // Through the call graph (analyzeCallGraph): over everything this
    // function reaches, itself included.
    uint32_t reachRegs = 0;      // most registers
    uint32_t reachBarriers = 0;  // most named barriers
    uint64_t deepestStack = 0;   // largest frame-size sum along a call path
    bool reachesRecursion = false;
    uint32_t walkStamp = 0;      // CallGraphWalker's visited mark
    // For kernels, what finalisation reports (-v).
    uint32_t propagatedRegs = 0;
    uint64_t stackSize = 0;
};

struct Symbol {
    std::string_view name;
    ObjectFile *file = nullptr;       // defining file; first referrer while undefined
    InputSection *section = nullptr;  // null for undefined, ABS, COMMON
    uint32_t inputIndex = 0;          // index in `file`'s .symtab
    uint64_t value = 0;
    uint64_t size = 0;
    uint8_t binding = 0;              // STB_*
    uint8_t type = 0;                 // STT_*
    uint8_t other = 0;                // st_other (CUDA memory space bits)
    uint16_t specialShndx = 0;        // SHN_ABS / SHN_COMMON, else 0
    bool isLocal = false;
    bool defined = false;
    bool live = true;
    // A kernel dead-code elimination keeps for itself (every kernel, or those
    // named by host references or --kernels-used), not only because some
    // function takes its address.
    bool rootKernel = false;
    bool isSectionSymbol = false;
    // Filed among the locals yet bound STB_WEAK: nvlink's -r
    // `externsharedinstance` symbols (Layout.cpp).
    bool weakAmongLocals = false;
    bool emitted = true;              // false: not written to .symtab

    FunctionInfo *func = nullptr;     // for functions

    // Set by layout: the value written to the output and used by relocations
    // (offset inside the output section, or inside the shared window).
    uint64_t finalValue = 0;

    // Set while writing.
    uint32_t outIndex = 0;
    // Section symbols: their section. Shared variables under -g: the window
    // the layout put them in, when that is not their input section's.
    OutputSection *outSection = nullptr;

    bool isFunction() const;
    bool isEntry() const;
    bool isCommon() const;
};

// An extern __shared__ array (dynamic shared memory): a shared-space name
// that no input defines.
inline bool isExternSharedArray(const Symbol &s) {
    return !s.isSectionSymbol && !s.defined && !s.section &&
           (s.other & 0xE0) == elf::STO_CUDA_SHARED;
}

class SymbolTable {
public:
    // The symbol for a global name, created undefined on first use.
    Symbol *intern(std::string_view name, bool *created = nullptr);
    Symbol *find(std::string_view name) const;

    // A new file-local symbol (not in the name map).
    Symbol *makeLocal();
    FunctionInfo *makeFunctionInfo();

    // Globals in order of first appearance (deterministic).
    const std::vector<Symbol *> &globals() const { return order_; }

private:
    std::deque<Symbol> arena_;
    std::deque<FunctionInfo> funcArena_;
    std::unordered_map<std::string_view, Symbol *> byName_;
    std::vector<Symbol *> order_;
};

// Names of CUDA system calls that may stay undefined in an executable (the
// driver provides them).
bool isDeviceSyscall(std::string_view name);

// Synthetic names nvlink resolves itself (UFT/UDT placeholders, reserved
// shared memory) which never reach the output as ordinary undefined symbols.
bool isLinkerProvided(std::string_view name);
// The linker's symbols for the reserved shared memory (.nv.reservedSmem.*).
bool isReservedSharedSymbol(std::string_view name);
// libcudadevrt's undefined local `.nv.ptx.const0.size`: the size of PTX's
// constant bank 0 (the module's __constant__ data), which the linker writes
// (Relocations.cpp; under -r its value too, assignDataValues).
bool isPtxConst0Size(const Symbol &s);
// A variable (extern __device__ or __constant__) no input defines; the
// linker's own names and extern __shared__ arrays are not.
bool isUndefinedVariable(const Symbol &s);
// A compiler label (`$L__tmp95`) an input names without defining it: ptxas
// leaves some in -G debug information; nvlink resolves nothing to them and
// writes none to its output.
bool isUndefinedLabel(const Symbol &s);

// `file` names the global `sym` with its .symtab entry `symbolIndex`: whether
// its own definition there lost to an earlier file's. For a function that
// is decided when the file was resolved: a weak copy that lost to an
// earlier one stays lost even when a later strong definition wins in the
// end.
bool lostToEarlierDefinition(const ObjectFile &file, uint32_t symbolIndex, const Symbol &sym);

// Whether nvlink drops what describes `file`'s copy of `sym` (its frame and
// line-table entries): a copy that lost to an earlier definition, and on
// targets with CULD_ARCH_F_REPLACED_FRAMES_DROPPED a function's copy whose
// code refers to other symbols that a later definition replaced (corpus
// cases 110-weak-replaced-with-frame, 119-weak-replaced-references), or one
// that had replaced such a copy (111-weak-replaced-chain).
bool descriptionDropped(const ObjectFile &file, uint32_t symbolIndex, const Symbol &sym);
// The function that `file`'s symbol names is not in the output as that
// file's copy: its description goes (above), or the function was removed.
bool describedFunctionGone(const ObjectFile &file, uint32_t symbolIndex);

// A relocation applies to the section: for code, it refers to other symbols
// (a call, the address of data such as sinf's __cudart_i2opi_f table).
bool hasRelocations(const InputSection &section);

// Whether what `sym` names is not in the output: a function removed as
// dead, or anything whose section was dropped.
bool isRemovedFromOutput(const Symbol &sym);


} // namespace culd
