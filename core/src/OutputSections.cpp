// Merge: maps every live input section to an output section.
//
// Per-function sections (.text.<f>, .nv.info.<f>, .nv.constant<N>.<f>,
// .nv.shared.<f>, .nv.local.<f>) keep one output section each; module-wide
// data (.nv.global, .nv.global.init, .nv.constant<N>, debug sections) is
// concatenated by name in input order, each piece at its alignment. Nothing
// is copied: an output section is a list of (input section, offset) pieces.
#include "culd/Align.h"
#include "culd/Hex.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

bool isPerFunction(SectionKind k) {
    return k == SectionKind::Text || k == SectionKind::ConstantEntry ||
           k == SectionKind::SharedEntry || k == SectionKind::Local;
}

bool isMergedByName(SectionKind k) {
    return k == SectionKind::ConstantBank || k == SectionKind::Global ||
           k == SectionKind::GlobalInit || k == SectionKind::SharedGlobal ||
           k == SectionKind::SharedReserved || k == SectionKind::Debug;
}

// Executables carry standard section types for memory spaces; -r output
// keeps the CUDA types.
uint32_t outputType(const Context &ctx, const InputSection &in) {
    if (ctx.opts.relocatable)
        return in.header->type;
    switch (in.kind) {
    case SectionKind::ConstantBank:
    case SectionKind::ConstantEntry:
    case SectionKind::GlobalInit:
        return SHT_PROGBITS;
    case SectionKind::Global:
    case SectionKind::SharedEntry:
    case SectionKind::SharedGlobal:
    case SectionKind::SharedReserved:
    case SectionKind::Local:
        return SHT_NOBITS;
    default:
        return in.header->type;
    }
}

// What `in` keeps of its size when its weak definitions that lost to
// earlier ones go (never below nothing, whatever sizes a corrupt input gives).
uint64_t sizeWithoutLosers(const InputSection &in) {
    uint64_t lost = 0;
    for (auto [begin, end] : in.supersededData)
        lost += end - begin;
    return in.linkedSize() - std::min(lost, in.linkedSize());
}

class Merger {
public:
    explicit Merger(Context &ctx) : ctx_(ctx) {}

    void add(InputSection &in) {
        OutputSection *out = isFunctionBank(in)     ? functionBank(in)
                             : isPerFunction(in.kind) ? makeFor(in)
                                                      : findOrMake(in);
        // Under -r a shared variable's value is its alignment, not an
        // offset: nvlink concatenates the module-shared sections unpadded,
        // less the weak variables that lost (3 bytes and 0x18 of doubles:
        // 0x1b; sm_89).
        bool packed = ctx_.opts.relocatable && in.kind == SectionKind::SharedGlobal;
        uint64_t offset = packed ? out->size : alignTo(out->size, in.alignment());
        out->pieces.push_back({&in, offset});
        out->size = offset + (packed ? sizeWithoutLosers(in) : in.linkedSize());
        if (in.alignment() > out->addralign)
            out->addralign = in.alignment();
        in.out = out;
        in.outOffset = offset;
    }

    // The section dynamic shared memory is described in, before any input
    // brought one.
    void makeModuleShared() {
        OutputSection *&slot = byName_[".nv_debug.shared"];
        if (slot)
            return;
        slot = ctx_.makeOutput(".nv_debug.shared", madeSharedSectionType(ctx_),
                               SHF_WRITE | SHF_ALLOC);
        slot->kind = SectionKind::SharedGlobal;
        slot->addralign = 16;
    }

private:
    OutputSection *makeFor(const InputSection &in) {
        OutputSection *out = ctx_.makeOutput(std::string(in.name()), outputType(ctx_, in),
                                             in.header->flags);
        out->kind = in.kind;
        out->bank = in.bank;
        out->owner = in.owner;
        out->entsize = in.header->entsize;
        out->addralign = in.alignment();
        // sm_75..sm_89 keep the function's own register count in the top
        // byte of .text sh_info.
        if (in.kind == SectionKind::Text && ctx_.target.textInfoHasRegCount())
            out->infoHighByte = in.header->info >> 24;
        return out;
    }

    OutputSection *findOrMake(const InputSection &in) {
        OutputSection *&slot = byName_[in.name()];
        if (!slot)
            slot = makeFor(in);
        else if (slot->kind != in.kind)
            throw FatalError(in.file->name() + ": section '" + std::string(in.name()) +
                             "' conflicts with a section of the same name but another kind");
        return slot;
    }

    // A function's bank merged as it is (a kernel's, or a device function's
    // under -r or kept from a weak copy that lost: FunctionBanks.cpp) is one
    // section, whatever number of inputs it takes.
    static bool isFunctionBank(const InputSection &in) {
        return in.kind == SectionKind::ConstantEntry && in.owner;
    }
    OutputSection *functionBank(const InputSection &in) {
        OutputSection *&slot = functionBanks_[{in.owner, in.bank}];
        if (!slot)
            slot = makeFor(in);
        return slot;
    }

    Context &ctx_;
    std::unordered_map<std::string_view, OutputSection *> byName_;
    std::map<std::pair<const Symbol *, uint32_t>, OutputSection *> functionBanks_;
};

static bool isGlobalOrModuleShared(const InputSection *s) {
    return s && (s->kind == SectionKind::Global || s->kind == SectionKind::SharedGlobal);
}

// Whether the section symbol of `file`'s .nv.global comes before that of
// its module shared memory; false where module shared memory has none (an
// -r output's, which the linker made).
static bool globalSectionSymbolFirst(const ObjectFile &file) {
    bool global = false;
    for (const ElfSymbol &es : file.elf().symbols()) {
        if (es.type() != STT_SECTION || es.shndx >= file.sections.size())
            continue;
        const InputSection *s = file.sections[es.shndx];
        if (!isGlobalOrModuleShared(s))
            continue;
        if (s->kind == SectionKind::SharedGlobal)
            return global;
        global = true;
    }
    return false;
}

// Whether .nv.global stays ahead of module shared memory in the output: the
// first variable `file`'s own symbol table defines in either decides by
// where it lies -- except a global or weak one in .nv.global, which keeps
// it ahead only where that section's own symbol comes before module shared
// memory's (an -r output's module shared memory has none). With no
// variable, module shared memory goes first. Reserved
// shared memory (sm_110's weak `__nv_reservedSMEM_gb10b_war_var`) does not
// count: it goes ahead of .nv.global (corpus 108).
bool globalStaysAhead(const ObjectFile &file) {
    for (const ElfSymbol &es : file.elf().symbols()) {
        if (es.isUndefined() || es.type() == STT_SECTION || es.shndx >= file.sections.size())
            continue;
        const InputSection *s = file.sections[es.shndx];
        if (!isGlobalOrModuleShared(s))
            continue;
        if (s->kind != SectionKind::Global)
            return false;
        return es.bind() == STB_LOCAL || globalSectionSymbolFirst(file);
    }
    return false;
}

// `file`'s .text sections in the order of its symbol table: each where its
// first function symbol is, any without one after them in section order. A
// function whose definition here lost to a later file's takes the winner's
// code at this place (nvlink made the output section for the first
// definition and replaced its contents: corpus 55, 20, 148).
static std::vector<InputSection *>
codeInSymbolTableOrder(const ObjectFile &file, std::unordered_set<const InputSection *> &taken) {
    std::vector<InputSection *> code;
    auto take = [&](InputSection *s) {
        if (s && s->isLive() && s->kind == SectionKind::Text && taken.insert(s).second)
            code.push_back(s);
    };
    const std::vector<ElfSymbol> &symbols = file.elf().symbols();
    for (size_t i = 0; i < symbols.size(); ++i) {
        const ElfSymbol &es = symbols[i];
        if (es.type() != STT_FUNC || es.isUndefined() || es.shndx >= file.sections.size())
            continue;
        InputSection *own = file.sections[es.shndx];
        const Symbol *sym = i < file.symbols.size() ? file.symbols[i] : nullptr;
        bool lost = own && !own->isLive() && sym && sym->section && sym->section->file != &file;
        take(lost ? sym->section : own);
    }
    for (InputSection *s : file.sections)
        take(s);
    return code;
}

// nvlink merges a file's code first, in the order of the file's symbol
// table (codeInSymbolTableOrder), then its other sections in section order.
// The two orders part where a file lists weak functions or ptxas's math
// helpers ahead of earlier sections, and in libcudadevrt's member, which
// lists its memset and memcpy kernels in the reverse of their sections. Over
// the 1,336 corpus links both linkers make (cubins, host objects, -r) this
// gives nvlink's order of .text, .nv.shared.<k> and capsules in all (the
// section order with weak functions first: 1,164). The order matters where
// nvlink makes a kernel's shared-memory window as it merges
// its code (generated seed 101535 with libcudadevrt: a 0x808-byte window's
// padding moves the segment's size). It also merges the file's module
// shared memory (.nv_debug.shared) and reserved shared memory
// (.nv.shared.reserved.<x>, sm_110: `.nv.shared.<k> .nv.global
// .nv.shared.reserved.0` links as `.nv.shared.<k> .nv.shared.reserved.0
// .nv.global`) before its .nv.global -- unless globalStaysAhead. A local
// variable first in the symbol table keeps its own section first (a static
// __device__ variable or libcu++'s customization-point objects in
// .nv.global: corpus 163; a function's static __shared__ array in module
// shared memory); so does a global or weak one (Thrust, whose symbol
// tables list CUB's weak __shared__ arrays ahead of libcu++'s locals) --
// but one in .nv.global only where that section's own symbol comes first
// (a __device__ variable declared before a namespace-scope __shared__
// array: corpus 179; not an -r output, whose module shared memory has no
// section symbol).
std::vector<InputSection *> mergeOrder(ObjectFile &file,
                                       std::unordered_set<const InputSection *> &codeTaken) {
    std::vector<InputSection *> code = codeInSymbolTableOrder(file, codeTaken), rest, moduleShared;
    for (InputSection *s : file.sections) {
        if (!s || !s->isLive() || s->kind == SectionKind::Text)
            continue;
        if (s->kind == SectionKind::SharedGlobal || s->kind == SectionKind::SharedReserved)
            moduleShared.push_back(s);
        else
            rest.push_back(s);
    }
    auto global = std::find_if(rest.begin(), rest.end(), [](const InputSection *s) {
        return s->kind == SectionKind::Global;
    });
    if (global != rest.end() && globalStaysAhead(file))
        ++global;
    rest.insert(global, moduleShared.begin(), moduleShared.end());
    code.insert(code.end(), rest.begin(), rest.end());
    return code;
}

bool refersToExternShared(const ObjectFile &file) {
    return std::any_of(file.symbols.begin(), file.symbols.end(),
                       [](const Symbol *s) { return s && isExternSharedArray(*s); });
}

// A constant bank the hardware cannot hold is refused, -r too (nvlink's
// message for the __constant__ bank; another bank over the limit is not seen
// from nvcc output, so culd names it in its own words).
void checkConstantBankSizes(const Context &ctx) {
    uint64_t max = ctx.target.maxConstantBankSize();
    if (!max)
        return;
    for (const OutputSection *out : ctx.outputs) {
        if (out->kind != SectionKind::ConstantBank && out->kind != SectionKind::ConstantEntry)
            continue;
        if (out->size <= max)
            continue;
        // nvlink reports it as an error (exit 255), not a fatal one.
        if (out->kind == SectionKind::ConstantBank && out->bank == ctx.target.userConstantBank())
            Diagnostics::get().error("File uses too much global constant data (" +
                                     hex(out->size) + " bytes, " + hex(max) + " max)");
        else
            Diagnostics::get().error("section '" + out->name + "' uses too much constant data (" +
                                     hex(out->size) + " bytes, " + hex(max) + " max)");
        throw ErrorsReported();
    }
}

} // namespace

// Under -r nvlink keeps one copy of the reserved shared memory: an input's
// .nv.shared.reserved.<x> whose variables all lost to an earlier weak
// definition (sm_110's `__nv_reservedSMEM_gb10b_war_var`, which every input
// carries) is dropped with its Mercury twin (corpus case
// 103-jump-tables-relocatable, sm_110). A final link lays the winners out
// one by one instead (ReservedShared.cpp).
void dropLosingReservedCopies(Context &ctx) {
    if (!ctx.opts.relocatable)
        return;
    ReservedSharedVariables winners = reservedSharedVariables(ctx);
    for (auto &file : ctx.files)
        for (InputSection *s : file->sections) {
            if (!s || s->kind != SectionKind::SharedReserved || !s->isLive() ||
                winners.count(s) || s->supersededDefinitions == 0)
                continue;
            s->live = false;
            if (s->shadow)
                s->shadow->live = false;
        }
}

uint32_t madeSharedSectionType(const Context &ctx) {
    return ctx.opts.relocatable ? SHT_CUDA_SHARED : SHT_NOBITS;
}

void createOutputSections(Context &ctx) {
    dropLosingReservedCopies(ctx);
    Merger merger(ctx);
    std::unordered_set<const InputSection *> codeTaken;
    for (auto &file : ctx.files) {
        std::vector<InputSection *> lostBanks;
        for (InputSection *s : mergeOrder(*file, codeTaken))
            if (s->standsAlone)
                lostBanks.push_back(s);
            else if ((isPerFunction(s->kind) || isMergedByName(s->kind)) &&
                     !isDeviceFunctionConstants(ctx, *s))
                merger.add(*s);
        // A kept bank of a weak copy that lost, standing alone, comes after
        // the rest of its input (nvlink 13.0, sm_89: after the input's
        // kernel banks, before a later input's).
        for (InputSection *s : lostBanks)
            merger.add(*s);
        // Without an input .nv_debug.shared, nvlink makes one once it has
        // merged the first file that refers to an extern __shared__ array
        // (after that file's .nv.global, before a later file's; -r too).
        if (refersToExternShared(*file))
            merger.makeModuleShared();
    }
    // Per-function banks and memory windows point at their code (sh_info).
    for (auto &file : ctx.files)
        for (InputSection *s : file->sections)
            if (s && s->out && s->kind != SectionKind::Text && s->text && s->text->out &&
                isPerFunction(s->kind))
                s->out->infoSection = s->text->out;
    checkConstantBankSizes(ctx);
}

} // namespace culd
