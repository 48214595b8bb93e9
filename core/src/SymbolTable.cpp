// Symbol creation and resolution: one Symbol per global name; strong beats
// weak, weak functions by register count, commons by size; conflicts are
// nvlink's errors.
#include "culd/Symbols.h"

#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvInfo.h"
#include "culd/SymbolDiagnostics.h"
#include "culd/SymbolNames.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

bool Symbol::isFunction() const { return type == STT_FUNC; }
bool Symbol::isEntry() const { return isFunction() && (other & STO_CUDA_ENTRY); }
bool Symbol::isCommon() const { return specialShndx == SHN_COMMON; }

Symbol *SymbolTable::intern(std::string_view name, bool *created) {
    auto [it, inserted] = byName_.try_emplace(name, nullptr);
    if (inserted) {
        Symbol &s = arena_.emplace_back();
        s.name = name;
        it->second = &s;
        order_.push_back(&s);
    }
    if (created)
        *created = inserted;
    return it->second;
}

Symbol *SymbolTable::find(std::string_view name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
}

Symbol *SymbolTable::makeLocal() {
    Symbol &s = arena_.emplace_back();
    s.isLocal = true;
    return &s;
}

FunctionInfo *SymbolTable::makeFunctionInfo() { return &funcArena_.emplace_back(); }

bool isDeviceSyscall(std::string_view name) {
    static const std::string_view names[] = {"vprintf", "malloc", "free", "__assertfail",
                                             "__cuda_syscall_32f", "__cudaCDP2Malloc"};
    if (name.substr(0, 14) == "__cuda_syscall")
        return true;
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

bool isLinkerProvided(std::string_view name) {
    static const std::string_view names[] = {
        "__UFT_OFFSET", "__UFT_CANONICAL", "__UDT_OFFSET", "__UDT_CANONICAL", "__UFT",
        "__UDT",        "__UFT_END",       "__UDT_END",    ".nv.reservedSmem.offset0",
        ".nv.reservedSmem.begin", ".nv.reservedSmem.cap"};
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

bool isReservedSharedSymbol(std::string_view name) {
    return name.rfind(".nv.reservedSmem.", 0) == 0;
}

bool isPtxConst0Size(const Symbol &s) {
    return !s.defined && s.name == ".nv.ptx.const0.size";
}

bool isUndefinedVariable(const Symbol &s) {
    return !s.defined && !s.isLocal && !s.isSectionSymbol && !s.isFunction() &&
           (s.type == STT_OBJECT || s.type == STT_CUDA_OBJECT) && !isLinkerProvided(s.name) &&
           !isExternSharedArray(s);
}

bool isUndefinedLabel(const Symbol &s) {
    return s.isLocal && !s.defined && !s.isSectionSymbol && s.name.rfind("$L__", 0) == 0;
}

bool lostToEarlierDefinition(const ObjectFile &file, uint32_t symbolIndex, const Symbol &sym) {
    const ElfSymbol &es = file.elf().symbols()[symbolIndex];
    if (sym.isLocal || !sym.defined || sym.file == &file || es.isUndefined())
        return false;
    if (es.type() == STT_FUNC) {
        const InputSection *own =
            es.shndx < file.sections.size() ? file.sections[es.shndx] : nullptr;
        return own && own->lostToEarlier;
    }
    return sym.file->order() < file.order();
}

bool descriptionDropped(const ObjectFile &file, uint32_t symbolIndex, const Symbol &sym) {
    if (lostToEarlierDefinition(file, symbolIndex, sym))
        return true;
    const ElfSymbol &es = file.elf().symbols()[symbolIndex];
    const InputSection *own = es.shndx < file.sections.size() ? file.sections[es.shndx] : nullptr;
    return es.type() == STT_FUNC && own && !es.isUndefined() && own->replacedFrameDropped;
}

bool describedFunctionGone(const ObjectFile &file, uint32_t symbolIndex) {
    const Symbol &sym = *file.symbols[symbolIndex];
    return descriptionDropped(file, symbolIndex, sym) || isRemovedFromOutput(sym);
}

bool hasRelocations(const InputSection &section) {
    for (const auto &[relocHeader, target] : section.file->relocSections)
        if (target == &section && relocHeader->size)
            return true;
    return false;
}

bool isRemovedFromOutput(const Symbol &sym) {
    return (sym.section && !sym.section->isLive()) ||
           (sym.isFunction() && sym.defined && !sym.live);
}

namespace {

// Per-function sections name their .text section through sh_info.
InputSection *textSectionOf(ObjectFile &file, const InputSection &s) {
    uint32_t idx = s.header->infoIndex();
    if (idx == 0 || idx >= file.sections.size())
        return nullptr;
    InputSection *text = file.sections[idx];
    return text && text->kind == SectionKind::Text ? text : nullptr;
}

void createSections(Context &ctx, ObjectFile &file) {
    const ElfFile &elf = file.elf();
    file.sections.assign(elf.sections().size(), nullptr);
    for (const ElfSection &hdr : elf.sections()) {
        uint32_t bank = 0;
        // The plugin knows its family's Mercury shadow sections.
        const culd_mercury_kind mercury = ctx.target.mercuryKind(hdr);
        SectionKind kind = mercury != CULD_MERC_NONE ? SectionKind::Mercury
                                                     : classifySection(hdr, &bank);
        if (kind == SectionKind::Ignored)
            continue;
        if (kind == SectionKind::Mercury && !ctx.target.isMercury())
            throw FatalError(file.name() + ": section '" + std::string(hdr.name) +
                             "' is Mercury code, which " + ctx.target.name() +
                             " cannot use");
        if (kind == SectionKind::Unsupported)
            throw FatalError(file.name() + ": section '" + std::string(hdr.name) +
                             "' is not supported yet");
        InputSection *s = file.makeSection(hdr, kind);
        s->bank = bank;
        s->mercuryKind = static_cast<uint8_t>(mercury);
        file.sections[hdr.index] = s;
    }
    for (const ElfSection &hdr : elf.sections())
        if (InputSection *s = file.sections[hdr.index]; s && s->kind == SectionKind::Reloc)
            file.relocSections.push_back({&hdr, file.sections[hdr.infoIndex()]});
}

// Global REGCOUNT records of one file's .nv.info: symbol index -> registers.
std::unordered_map<uint32_t, uint32_t> regCountsOf(const ObjectFile &file) {
    std::unordered_map<uint32_t, uint32_t> counts;
    const ElfSection *info = file.elf().findSection(".nv.info");
    if (!info)
        return counts;
    for (const NvInfoRecord &r : parseNvInfo(info->data, {file.name(), info->name}))
        if (r.code == EIATTR_REGCOUNT && r.wordCount() >= 2)
            counts.emplace(r.word(0), r.word(1));
    return counts;
}

void fill(Symbol &s, const ElfSymbol &es, ObjectFile &file, InputSection *section) {
    s.file = &file;
    s.section = section;
    s.inputIndex = es.index;
    s.value = es.value;
    s.size = es.size;
    s.binding = es.bind();
    s.type = es.type();
    s.other = es.other;
    s.specialShndx = (es.rawShndx == SHN_ABS || es.rawShndx == SHN_COMMON) ? es.rawShndx : 0;
    s.defined = !es.isUndefined();
}

// Drops everything a losing definition brought: its section (and, through
// the owner link, its per-function sections) is no longer live.
void discard(InputSection *section) {
    if (section && section->kind == SectionKind::Text)
        section->live = false;
}

// A new definition that loses to the one already there.
void discardLoser(InputSection *section) {
    discard(section);
    if (section && section->kind == SectionKind::Text)
        section->lostToEarlier = true;
}

constexpr uint8_t kMemorySpaceBits = STO_CUDA_GLOBAL | STO_CUDA_SHARED | STO_CUDA_CONSTANT;
constexpr uint8_t kManagedBit = 0x04; // st_other of a __managed__ variable

} // namespace

namespace {

class Resolver {
public:
    explicit Resolver(Context &ctx) : ctx_(ctx) {}

    void add(ObjectFile &file, const ElfSymbol &es, Symbol *&slot) {
        Symbol *s = ctx_.symtab.intern(es.name);
        slot = s;
        InputSection *section = es.shndx < file.sections.size() ? file.sections[es.shndx] : nullptr;
        if (s->file && !mismatched_.count(s) && !attributesAgree(es, file, *s))
            mismatched_.insert(s); // reported once; the definition checks go on
        if (es.isUndefined()) {
            if (!s->file)
                fill(*s, es, file, nullptr);
            if (!s->defined)
                ctx_.undefinedReferrers[s].push_back(&file);
            return;
        }
        if (!s->defined) {
            fill(*s, es, file, section);
            return;
        }
        if (es.rawShndx == SHN_COMMON || s->isCommon())
            return resolveCommon(*s, es, file, section);
        bool newWeak = es.bind() == STB_WEAK, oldWeak = s->binding == STB_WEAK;
        if (!newWeak && !oldWeak)
            return conflict(es, file, "Multiple definition of '" + std::string(es.name) + "' in '" +
                            file.name() + "', first defined in '" + s->file->name() + "'");
        // A kernel defined weak in one input and strong in another (an
        // explicit specialization of a template kernel another unit
        // instantiates): on sm_75-sm_90 nvlink keeps both definitions'
        // parameter banks in the kernel's .nv.constant0 (0x168 + 0x168 on
        // sm_89), in either order; culd kept one. Not modelled: refused.
        if (newWeak != oldWeak && (es.other & STO_CUDA_ENTRY))
            throw FatalError(file.name() + ": kernel '" + demangleForMessage(es.name) +
                             "' is defined both weak and strong (first in '" +
                             s->file->name() + "'), which culd does not link yet");
        if (oldWeak && !newWeak)
            return replace(*s, es, file, section);
        if (!oldWeak && newWeak) {
            if (section && es.type() != STT_FUNC)
                ++section->supersededDefinitions;
            return discardLoser(section);
        }
        resolveWeakPair(*s, es, file, section);
    }

    // nvlink compares every occurrence of a name, references included,
    // with the first one (the first definition once there is one): kernel
    // or not, memory space, managed or not, and the size of data. Sizes of
    // 0 (an `extern int a[]` reference) and commons are not compared. One
    // mismatch is reported per name; two definitions are then still a
    // multiple definition.
    bool attributesAgree(const ElfSymbol &es, const ObjectFile &file, const Symbol &first) {
        auto where = [&] {
            return "' in '" + file.name() + "', first specified in '" + first.file->name() + "'";
        };
        bool func = es.type() == STT_FUNC, firstFunc = first.type == STT_FUNC;
        if (func && firstFunc && (es.other & STO_CUDA_ENTRY) != (first.other & STO_CUDA_ENTRY)) {
            conflict(es, file, "Function '" + demangleForMessage(es.name) +
                     "' not declared __global__ in all source files");
            return false;
        }
        if (func || firstFunc)
            return true;
        uint8_t space = es.other & kMemorySpaceBits, firstSpace = first.other & kMemorySpaceBits;
        if (space && firstSpace && space != firstSpace) {
            conflict(es, file, "Memory space doesn't match for '" + std::string(es.name) + where());
            return false;
        }
        if ((es.other & kManagedBit) != (first.other & kManagedBit)) {
            conflict(es, file,
                     "Managed attribute doesn't match for '" + std::string(es.name) + where());
            return false;
        }
        if (es.rawShndx == SHN_COMMON || first.isCommon() || !es.size || !first.size)
            return true;
        if (es.size != first.size) {
            conflict(es, file, "Size doesn't match for '" + std::string(es.name) + where());
            return false;
        }
        return true;
    }

    // Like nvlink, every conflict of one input is reported, and the link
    // gives up after the first input that had any ("merge_elf failed"): the
    // inputs after it are not looked at.
    void failOnConflicts() {
        if (functionConflicts_.empty() && dataConflicts_.empty())
            return;
        for (const auto *list : {&functionConflicts_, &dataConflicts_})
            for (const Diagnostic &diagnostic : *list)
                Diagnostics::get().report(diagnostic);
        throw FatalError("");
    }

private:
    // Weak data that lost to an earlier weak definition. (One replaced by a
    // later definition was merged already; nvlink leaves it alone.)
    static void supersede(const ElfSymbol &es, InputSection *section) {
        if (!section)
            return;
        ++section->supersededDefinitions;
        section->supersededData.push_back({es.value, es.value + es.size});
    }

    // nvlink takes an input's functions before its data, so their conflicts
    // come first; the messages wait for the end of the input.
    // Each names the symbol demangled too, and the input (the archive and
    // member apart) for --diagnostics-format=json.
    void conflict(const ElfSymbol &es, const ObjectFile &file, const std::string &message) {
        (es.type() == STT_FUNC ? functionConflicts_ : dataConflicts_)
            .push_back(describeSymbolProblem(ctx_, es.name, file, message));
    }

    void replace(Symbol &s, const ElfSymbol &es, ObjectFile &file, InputSection *section) {
        discard(s.section);
        if (section && section->kind == SectionKind::Text && s.section &&
            s.section->kind == SectionKind::Text) {
            section->replacedCopy = s.section;
            s.section->replacedLater = true;
            // Whether the replaced copy's frame description goes is decided
            // by its references, not its frame (nvlink 13.0, sm_90+: a leaf
            // with a 0x108-byte frame keeps it, a kernel without a frame that
            // calls a function or reads sinf's table loses it); a copy that
            // replaced such a copy counts as one (111-weak-replaced-chain).
            s.section->replacedFrameDropped =
                ctx_.target.replacedFramesDropped() &&
                (hasRelocations(*s.section) ||
                 (s.section->replacedCopy && s.section->replacedCopy->replacedFrameDropped));
        }
        bool addressTaken = s.other & 0x08;
        fill(s, es, file, section);
        if (addressTaken)
            s.other |= 0x08;
    }

    void resolveCommon(Symbol &s, const ElfSymbol &es, ObjectFile &file, InputSection *section) {
        // An initialised definition replaces a common; of two commons the
        // larger wins.
        if (es.rawShndx != SHN_COMMON) {
            if (s.isCommon())
                fill(s, es, file, section);
            return;
        }
        if (s.isCommon() && es.size > s.size)
            s.size = es.size;
    }

    void resolveWeakPair(Symbol &s, const ElfSymbol &es, ObjectFile &file,
                         InputSection *section) {
        if (es.type() != STT_FUNC)
            return supersede(es, section); // the first weak data definition wins
        // Weak functions: fewer registers wins; otherwise the first one.
        uint32_t oldRegs = regCount(*s.file, s.inputIndex);
        uint32_t newRegs = regCount(file, es.index);
        if (newRegs < oldRegs)
            replace(s, es, file, section);
        else
            discardLoser(section);
    }

    // Parsed once per file: weak conflicts can be many (one per template
    // instantiation a file shares), and .nv.info is per file, not per symbol.
    uint32_t regCount(const ObjectFile &file, uint32_t inputSym) {
        auto it = regCounts_.find(&file);
        if (it == regCounts_.end())
            it = regCounts_.emplace(&file, regCountsOf(file)).first;
        auto found = it->second.find(inputSym);
        return found == it->second.end() ? 0 : found->second;
    }

    Context &ctx_;
    std::vector<Diagnostic> functionConflicts_, dataConflicts_;
    std::unordered_set<const Symbol *> mismatched_;
    std::unordered_map<const ObjectFile *, std::unordered_map<uint32_t, uint32_t>> regCounts_;
};

void createLocal(Context &ctx, ObjectFile &file, const ElfSymbol &es, Symbol *&slot) {
    Symbol *s = ctx.symtab.makeLocal();
    InputSection *section = es.shndx < file.sections.size() ? file.sections[es.shndx] : nullptr;
    fill(*s, es, file, section);
    s->name = es.name;
    s->isSectionSymbol = es.type() == STT_SECTION;
    slot = s;
}

// Ties per-function sections to their function symbol.
void assignOwners(ObjectFile &file) {
    for (InputSection *s : file.sections) {
        if (!s)
            continue;
        if (s->kind == SectionKind::Text) {
            uint32_t symIdx = s->header->infoIndex();
            if (symIdx < file.symbols.size())
                s->owner = file.symbols[symIdx];
            s->text = s;
        }
    }
    for (InputSection *s : file.sections) {
        if (!s || s->kind == SectionKind::Text)
            continue;
        if (InputSection *text = textSectionOf(file, *s)) {
            s->owner = text->owner;
            s->text = text;
        }
    }
}

// An uninitialised-data section (.nv.global) that holds nothing but weak
// definitions which lost to earlier ones is not merged at all (nvlink's
// output shows no room for it); initialised data (.nv.global.init,
// .nv.constant<N>) keeps the losers' bytes. Under -r the module's shared
// variables (.nv_debug.shared) go the same way: one copy of a weak one
// stays (a function-local static __shared__ of an inline function in two
// units: 0x10 bytes, not 0x20; sm_89, sm_90, sm_100, sm_120); where such a
// section holds other variables too, it loses the losers' bytes only
// (OutputSections.cpp). Also sorts the superseded ranges for the
// relocation pass.
void dropSupersededGlobals(ObjectFile &file, bool relocatable) {
    std::unordered_map<const InputSection *, size_t> definitions;
    for (const ElfSymbol &es : file.elf().symbols())
        if (!es.isUndefined() && es.type() != STT_SECTION && es.shndx < file.sections.size() &&
            file.sections[es.shndx])
            ++definitions[file.sections[es.shndx]];
    for (InputSection *s : file.sections) {
        if (!s || !s->supersededDefinitions)
            continue;
        std::sort(s->supersededData.begin(), s->supersededData.end());
        bool moduleShared = relocatable && s->kind == SectionKind::SharedGlobal;
        if ((s->kind == SectionKind::Global || moduleShared) &&
            definitions[s] == s->supersededDefinitions)
            s->live = false;
    }
}

} // namespace

void resolveSymbols(Context &ctx) {
    Resolver resolver(ctx);
    for (auto &file : ctx.files) {
        createSections(ctx, *file);
        const std::vector<ElfSymbol> &syms = file->elf().symbols();
        file->symbols.assign(syms.size(), nullptr);
        for (size_t i = 1; i < syms.size(); ++i) {
            const ElfSymbol &es = syms[i];
            if (es.bind() == STB_LOCAL)
                createLocal(ctx, *file, es, file->symbols[i]);
            else
                resolver.add(*file, es, file->symbols[i]);
        }
        resolver.failOnConflicts();
        assignOwners(*file);
        // Mercury sections follow their SASS twins, owners included.
        pairMercurySections(ctx, *file);
        dropSupersededGlobals(*file, ctx.opts.relocatable);
    }
}

namespace {

// Symbols whose only references were in code dead-code elimination removed
// are no error (libcudadevrt references retired entry points that way). Each
// maps to the first section whose relocations refer to it.
std::unordered_map<const Symbol *, const InputSection *> referencedFrom(Context &ctx,
                                                                        bool reachableOnly) {
    std::unordered_map<const Symbol *, const InputSection *> used;
    for (auto &file : ctx.files)
        for (auto &[relocHeader, target] : file->relocSections) {
            if (!target || !(reachableOnly ? target->isReachable() : target->isLive()))
                continue;
            for (const ElfReloc &r : file->elf().relocations(*relocHeader))
                if (r.symbol < file->symbols.size() && file->symbols[r.symbol])
                    used.emplace(file->symbols[r.symbol], target);
        }
    return used;
}

bool mayStayUndefined(const Context &ctx, const Symbol &s) {
    if (s.defined || isDeviceSyscall(s.name) || isLinkerProvided(s.name))
        return true;
    // extern __shared__ arrays are placed by the linker.
    if ((s.other & 0xE0) == STO_CUDA_SHARED)
        return true;
    return s.type != STT_FUNC && ctx.opts.allowUndefinedGlobals;
}

} // namespace

void reportUndefined(Context &ctx) {
    // The writer also needs this: only undefined symbols that live code
    // references reach the output's symbol table.
    ctx.referencedFromLiveCode.clear();
    for (const auto &entry : referencedFrom(ctx, false))
        ctx.referencedFromLiveCode.insert(entry.first);
    // A relocatable link may leave anything undefined for the next link.
    // nvlink 13.0 writes an undefined variable with the value -1
    // (CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE, assignDataValues); what older
    // toolkits write is not measured, so a target without the flag, or an
    // input from such a toolkit (ELF ABI v7), is refused.
    if (ctx.opts.relocatable) {
        bool measured = ctx.target.undefinedDataMinusOne() && !ctx.anyInputElfAbiV7();
        for (Symbol *s : ctx.symtab.globals())
            if (!measured && isUndefinedVariable(*s) && ctx.referencedFromLiveCode.count(s))
                throw FatalError("undefined variable '" + std::string(s->name) +
                                 "' in a relocatable link (-r) is not supported for these "
                                 "inputs: what nvlink writes for it is measured only for "
                                 "CUDA 13 cubins of sm_75 and later");
        return;
    }
    // A debug link keeps unreachable code, whose references are no error.
    const auto used = referencedFrom(ctx, true);
    std::vector<Symbol *> candidates;
    for (Symbol *s : ctx.symtab.globals())
        if (!mayStayUndefined(ctx, *s))
            candidates.push_back(s);
    for (Symbol *s : candidates) {
        auto it = used.find(s);
        if (it == used.end())
            continue;
        // One line per symbol, naming the first file that referred to it
        // (even when that file's reference was in removed code).
        const std::vector<ObjectFile *> &referrers = ctx.undefinedReferrers[s];
        if (!referrers.empty())
            Diagnostics::get().report(
                describeUndefined(ctx, *s, *referrers.front(), it->second));
    }
    // The caller stops the link on these errors (runLink, after the call
    // graph dump nvlink still prints).
}

} // namespace culd
