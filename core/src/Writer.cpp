// The writer: orders sections and symbols as nvlink does, numbers them,
// builds the string tables and relocation sections, describes the file as an
// ElfImage (the one layout engine, ElfWriter.h) that assigns every offset and
// writes the headers and the linker-made tables, then copies every input
// byte exactly once into the output buffer, patches relocations in place
// (sections in parallel) and writes the file atomically.
#include "culd/Bytes.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/ElfWriter.h"
#include "culd/Hex.h"
#include "culd/OutputFile.h"
#include "culd/StringTable.h"
#include "culd/Link.h"
#include "culd/Strings.h"
#include "culd/SymbolOrder.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

// Rank of a section in nvlink's output order; ties keep creation order.
// Constant-bank entries (.nv.constant<N>.<k>) precede the code; the
// parameter banks (.nv.constant0.<k>) follow the uninitialised memory
// windows where the plugin says so (CONST0_AFTER_DATA), the kernels' banks
// of compiler constants staying before the code (sm_100+ jump tables).
int orderRank(SectionKind kind, bool const0AfterData) {
    switch (kind) {
    case SectionKind::Shstrtab: return 0;
    case SectionKind::Strtab: return 1;
    case SectionKind::Symtab: return 2;
    case SectionKind::Debug: return 3;
    case SectionKind::Note: return 4;
    case SectionKind::NvInfo: return 5;
    case SectionKind::Compat: return 6;
    case SectionKind::NvInfoFunc: return 7;
    case SectionKind::Callgraph: return 8;
    case SectionKind::Prototype: return 9;
    case SectionKind::RelAction: return 10;
    case SectionKind::Reloc: return 11;
    case SectionKind::ConstantBank: return 12;
    case SectionKind::ConstantEntry: return const0AfterData ? 19 : 13;
    case SectionKind::Text: return 14;
    case SectionKind::GlobalInit: return 15;
    // Uninitialised memory windows keep their creation order.
    case SectionKind::SharedEntry:
    case SectionKind::SharedReserved:
    case SectionKind::SharedGlobal:
    case SectionKind::Global:
    case SectionKind::Local: return 16;
    case SectionKind::Mercury: return 21;
    default: return 20;
    }
}

int orderRank(const OutputSection &s, bool const0AfterData) {
    bool parameterBank = s.kind == SectionKind::ConstantEntry && s.bank == 0;
    return orderRank(s.kind, const0AfterData && parameterBank);
}

// Where a Mercury section goes (sm_100+): after every SASS section, the
// capsules first (in .text order), then the other twins in their SASS
// twins' order, the Mercury symbol table last.
int mercuryRank(const OutputSection &s, bool const0AfterData) {
    if (s.kind != SectionKind::Mercury)
        return 0;
    switch (s.mercuryKind) {
    case CULD_MERC_CODE: return 1;
    case CULD_MERC_SYMTAB: return 100;
    case CULD_MERC_RELA: return 2 + orderRank(SectionKind::Reloc, const0AfterData);
    default:
        return 2 + (s.twin ? orderRank(*s.twin, const0AfterData) : 20);
    }
}

class Writer {
public:
    explicit Writer(Context &ctx) : ctx_(ctx) {}

    void run() {
        makeSymtabSections();
        makeRelocationSections();
        orderSections();
        addExtendedSectionIndices();
        numberSymbols();
        renameBankSymbols();
        for (OutputSection *s : sections_)
            if (s->build)
                s->build(*s);
        writeSymtab();
        writeStringTables();
        ElfImage image = describeImage();
        image.layout();
        for (OutputSection *s : sections_)
            s->fileOffset = image.sections[s->index].offset;
        if (image.fileSize() > ctx_.opts.limits.maxOutputBytes)
            throw FatalError((ctx_.opts.outputFile.empty() ? std::string("the linked cubin")
                                                           : ctx_.opts.outputFile) +
                             ": the output would be " +
                             std::to_string(image.fileSize()) + " bytes, past the limit of " +
                             std::to_string(ctx_.opts.limits.maxOutputBytes) +
                             " (--max-output-size)");
        std::vector<uint8_t> bytes = image.serialize();
        copySections(image, bytes);
        // The plugin's finaliser sees the image exactly as it would be
        // written (a Mercury family may compile or patch it); a no-op for
        // plugins without one.
        ctx_.target.finalize(bytes, linkFlags(ctx_));
        // -o writes the file; libculd keeps the bytes too (both when its
        // caller, the culd command among them, gave -o).
        if (!ctx_.opts.outputFile.empty())
            writeFileAtomically(ctx_.opts.outputFile, bytes);
        if (ctx_.opts.outputBuffer)
            *ctx_.opts.outputBuffer = std::move(bytes);
    }

private:
    void makeSymtabSections() {
        shstrtab_ = ctx_.makeOutput(".shstrtab", SHT_STRTAB, 0);
        shstrtab_->kind = SectionKind::Shstrtab;
        strtab_ = ctx_.makeOutput(".strtab", SHT_STRTAB, 0);
        strtab_->kind = SectionKind::Strtab;
        symtab_ = ctx_.makeOutput(".symtab", SHT_SYMTAB, 0);
        symtab_->kind = SectionKind::Symtab;
        symtab_->addralign = 8;
        symtab_->entsize = 24;
        symtab_->linkSection = strtab_;
        makeMercurySymtab();
    }

    // The Mercury set's symbol table, named and typed as the inputs' (the
    // first one's), when the output carries a Mercury set.
    void makeMercurySymtab() {
        const ElfSection *input = nullptr;
        for (const auto &file : ctx_.files)
            if (!input && file->mercurySymtab)
                input = file->mercurySymtab;
        bool carried = std::any_of(ctx_.outputs.begin(), ctx_.outputs.end(),
                                   [](const OutputSection *o) { return o->twin != nullptr; });
        if (!input || !carried)
            return;
        mercurySymtab_ = ctx_.makeOutput(std::string(input->name), input->type, input->flags);
        mercurySymtab_->kind = SectionKind::Mercury;
        mercurySymtab_->mercuryKind = CULD_MERC_SYMTAB;
        mercurySymtab_->addralign = 8;
        mercurySymtab_->entsize = 24;
        mercurySymtab_->linkSection = strtab_;
    }

    // One .rela<x> / .rel<x> per patched section, in the order the first
    // relocation for it was kept.
    // Relocation sections are made in the order of what they hold; one
    // written empty takes the place its input section had.
    void makeRelocationSections() {
        std::map<std::tuple<OutputSection *, bool, bool>, OutputSection *> bySection;
        auto sectionFor = [&](OutputSection *target, bool rela, bool resolved,
                              const ElfSection *mercuryRela, const InputSection *patched) {
            OutputSection *&rel = bySection[{target, rela, resolved}];
            if (!rel && mercuryRela) {
                // A Mercury relocation section as its input: name, type,
                // flags; renamed as the section it patches was.
                rel = ctx_.makeOutput(renamedLike(mercuryRela->name, patched->name(), target->name),
                                      mercuryRela->type, mercuryRela->flags);
                rel->kind = SectionKind::Mercury;
                rel->mercuryKind = CULD_MERC_RELA;
                rel->linkToMercurySymtab = true;
                rel->addralign = 8;
                rel->entsize = 24;
                rel->infoSection = target;
                relocs_[rel];
            }
            if (!rel) {
                std::string prefix = resolved ? ".nv.resolvedrela" : rela ? ".rela" : ".rel";
                uint32_t type = resolved ? SHT_CUDA_RESOLVED_RELA : rela ? SHT_RELA : SHT_REL;
                rel = ctx_.makeOutput(prefix + target->name, type, SHF_INFO_LINK);
                rel->kind = SectionKind::Reloc;
                rel->addralign = 8;
                rel->entsize = rela || resolved ? 24 : 16;
                rel->linkToSymtab = true;
                rel->infoSection = target;
                relocs_[rel];
            }
            return rel;
        };
        const bool emptyAreRela = ctx_.target.relaOnly() || ctx_.opts.forceRela;
        auto empty = ctx_.emptyRelocationSections.begin();
        const auto emptyEnd = ctx_.emptyRelocationSections.end();
        for (size_t i = 0; i < ctx_.keptRelocs.size(); ++i) {
            for (; empty != emptyEnd && empty->position <= i; ++empty)
                sectionFor(empty->target, emptyAreRela, false, nullptr, nullptr);
            const RelocKeep &k = ctx_.keptRelocs[i];
            relocs_[sectionFor(k.target, k.rela, k.resolved, k.mercuryRela, k.mercuryPatched)].push_back(&k);
        }
        for (; empty != emptyEnd; ++empty)
            sectionFor(empty->target, emptyAreRela, false, nullptr, nullptr);
        for (auto &[rel, list] : relocs_) {
            std::vector<const RelocKeep *> entries = list;
            rel->build = [entries](OutputSection &self) {
                self.synthetic.clear();
                for (const RelocKeep *k : entries) {
                    uint32_t sym = k->symbol ? k->symbol->outIndex
                                             : (k->symbolSection && k->symbolSection->sectionSymbol
                                                    ? k->symbolSection->sectionSymbol->outIndex
                                                    : 0);
                    uint64_t info = (uint64_t(sym) << 32) | k->type;
                    uint64_t words[3] = {k->offset, info, static_cast<uint64_t>(k->addend)};
                    size_t n = self.entsize == 16 ? 16 : 24;
                    const uint8_t *p = reinterpret_cast<const uint8_t *>(words);
                    self.synthetic.insert(self.synthetic.end(), p, p + n);
                }
            };
        }
    }

    static bool isEmpty(const OutputSection &s) {
        if (s.dropped)
            return true;
        if (s.kind == SectionKind::Shstrtab || s.kind == SectionKind::Strtab ||
            s.kind == SectionKind::Symtab || s.build || s.aliasOf ||
            s.mercuryKind == CULD_MERC_SYMTAB)
            return false;
        if (s.isNobits())
            return s.size == 0 && !s.keepWhenEmpty && s.kind != SectionKind::SharedEntry;
        return s.pieces.empty() ? s.synthetic.empty() : false;
    }

    void orderSections() {
        bool const0AfterData = ctx_.target.const0AfterData();
        for (OutputSection *s : ctx_.outputs)
            if (!isEmpty(*s))
                sections_.push_back(s);
        auto key = [const0AfterData](const OutputSection *s) {
            return std::make_pair(orderRank(*s, const0AfterData),
                                  mercuryRank(*s, const0AfterData));
        };
        std::stable_sort(sections_.begin(), sections_.end(),
                         [&key](const OutputSection *a, const OutputSection *b) {
                             return key(a) < key(b);
                         });
        for (size_t i = 0; i < sections_.size(); ++i)
            sections_[i]->index = static_cast<uint32_t>(i + 1);
    }

    // Past SHN_LORESERVE sections, ELF keeps the count in section 0 and the
    // section indices of symbols in a .symtab_shndx table beside .symtab.
    bool needsExtendedIndices() const { return sections_.size() + 1 >= SHN_LORESERVE; }

    void addExtendedSectionIndices() {
        if (!needsExtendedIndices())
            return;
        if (mercurySymtab_)
            throw FatalError("the output has more sections than a Mercury symbol table can "
                             "index; culd does not write .nv.merc.symtab_shndx yet");
        symtabShndx_ = ctx_.makeOutput(".symtab_shndx", SHT_SYMTAB_SHNDX, 0);
        symtabShndx_->kind = SectionKind::Symtab;
        symtabShndx_->addralign = 4;
        symtabShndx_->entsize = 4;
        symtabShndx_->linkSection = symtab_;
        sections_.insert(std::find(sections_.begin(), sections_.end(), symtab_) + 1, symtabShndx_);
        for (size_t i = 0; i < sections_.size(); ++i)
            sections_[i]->index = static_cast<uint32_t>(i + 1);
    }

    // Sections that get an STT_SECTION symbol in nvlink's output.
    bool hasSectionSymbol(const OutputSection &s) const {
        if (s.isNobits() && s.size == 0)
            return false; // nvlink names no empty memory window
        // sm_100+: nor one holding only the reservation.
        if (s.isSharedMemory() && !s.holdsVariables && !ctx_.opts.relocatable &&
            ctx_.target.emptyWindowsUnnamed())
            return false;
        // Under -r nor a window the linker made (for extern arrays) itself.
        if (s.isSharedMemory() && ctx_.opts.relocatable && s.pieces.empty())
            return false;
        switch (s.kind) {
        case SectionKind::Shstrtab:
        case SectionKind::Strtab:
        case SectionKind::Symtab:
        case SectionKind::NvInfo:
        case SectionKind::NvInfoFunc:
        case SectionKind::Compat:
        case SectionKind::Reloc:
        case SectionKind::Mercury: // the Mercury table names their twins' symbols
            return false;
        default:
            return true;
        }
    }

    Symbol *sectionSymbolFor(OutputSection *s) {
        if (!s || s->sectionSymbol || !hasSectionSymbol(*s) || !s->index)
            return nullptr;
        Symbol *sym = ctx_.symtab.makeLocal();
        sym->isSectionSymbol = true;
        sym->type = STT_SECTION;
        sym->outSection = s;
        s->sectionSymbol = sym;
        return sym;
    }

    // The reserved shared memory's symbols (.offset0, .cap), which the
    // linker defines where the target reserves some.
    static bool isReservedSmem(const Symbol &s) {
        return !s.isLocal && isReservedSharedSymbol(s.name);
    }

    bool emitsSymbol(const Symbol &s) const {
        if (!s.emitted || s.isSectionSymbol)
            return false;
        if (!s.isLocal && isLinkerProvided(s.name))
            return ctx_.opts.relocatable ||
                   (isReservedSmem(s) && ctx_.target.reservedSharedMemory());
        if (s.defined && s.section && !s.outSection &&
            (!s.section->isLive() || !s.section->out))
            return false;
        // The symbols of a kept bank of a weak copy that lost go with the
        // copy (nvlink 13.0 -r, sm_75-sm_89).
        if (s.isLocal && s.defined && s.section && s.section->keptLostBank)
            return false;
        if (s.isFunction() && s.defined && !s.live)
            return false;
        // An undefined symbol only live code referred to is gone with it.
        if (!s.isLocal && !s.defined && !ctx_.referencedFromLiveCode.count(&s))
            return false;
        // Shared variables and extern shared arrays stay only under -r, and
        // under -g where the layout placed them (it unmarks the others).
        if ((s.other & 0xE0) == STO_CUDA_SHARED && !ctx_.opts.relocatable && !ctx_.opts.debug)
            return false;
        // The compiler's unnamed undefined local placeholder never does,
        // nor a label it left undefined.
        if ((s.isLocal && !s.defined && s.name.empty()) || isUndefinedLabel(s))
            return false;
        // Compiler-internal locals (the parameter-area `_param`) stay out,
        // except that nvlink keeps them under --preserve-relocs and -r.
        if (s.isLocal && (s.other & 0x3) == 1 && !ctx_.opts.preserveRelocs &&
            !ctx_.opts.relocatable)
            return false;
        return true;
    }

    // Null; section and local symbols (and weak ones) in creation order;
    // then globals in order of appearance (SymbolOrder.h).
    void numberSymbols() {
        locals_.push_back(nullptr);
        std::unordered_set<const Symbol *> placed;
        auto place = [&](std::vector<Symbol *> &list, Symbol *s) {
            if (s && placed.insert(s).second)
                list.push_back(s);
        };
        // Where the plugin says so, the kernels' constant banks get their
        // section symbols only after the globals (nvlink makes them at
        // layout and does not re-sort the table; a module bank such as
        // .nv.constant3 stays among the locals, and so does a bank with a
        // Mercury twin -- the jump tables' -- which the Mercury table
        // mirrors).
        auto late = [&](const OutputSection *s) {
            return ctx_.target.lateSectionSymbolsLast() &&
                   s->kind == SectionKind::ConstantEntry && !s->shadow;
        };
        for (OutputSection *s : sections_)
            if (s->kind == SectionKind::Note)
                place(locals_, sectionSymbolFor(s));
        SymbolTableVisitor visitor;
        visitor.carries = [&](const Symbol &s) { return emitsSymbol(s); };
        visitor.sectionSymbol = [&](Symbol &s) {
            if (s.section && s.section->isLive() && s.section->out && !late(s.section->out))
                place(locals_, sectionSymbolFor(s.section->out));
        };
        visitor.local = [&](Symbol &s) { place(locals_, &s); };
        visitor.global = [&](Symbol &s) { place(globals_, &s); };
        visitSymbolsInTableOrder(ctx_, visitor);
        // Sections the linker made get their symbols last among the locals,
        // followed by its -r `externsharedinstance` symbols.
        for (OutputSection *s : sections_)
            if (!late(s))
                place(locals_, sectionSymbolFor(s));
        for (Symbol *s : ctx_.externSharedInstances)
            place(locals_, s);
        for (OutputSection *s : sections_)
            if (late(s))
                place(lateLocals_, sectionSymbolFor(s));
        uint32_t index = 0;
        for (Symbol *s : locals_)
            if (s)
                s->outIndex = ++index;
        for (Symbol *s : globals_)
            s->outIndex = ++index;
        for (Symbol *s : lateLocals_)
            s->outIndex = ++index;
    }

    // Under -r a Mercury family's linker renames the jump-table symbols
    // of the functions' compiler constants after the function, counting
    // them per input file in symbol-table order (nvlink 13.0, sm_100+).
    void renameBankSymbols() {
        std::string_view prefix = ctx_.target.relocatableBankSymbolPrefix();
        if (!ctx_.opts.relocatable || prefix.empty())
            return;
        for (auto &file : ctx_.files) {
            uint32_t ordinal = 0;
            for (const Symbol *s : file->symbols) {
                const InputSection *bank = s && s->isLocal && !s->isSectionSymbol ? s->section
                                                                                   : nullptr;
                if (!bank || !bank->owner || !bank->shadow ||
                    bank->shadow->mercuryKind != CULD_MERC_FUNCTION_BANK)
                    continue;
                renamed_[s] = std::string(prefix) + std::string(bank->owner->name) + "." +
                              std::to_string(++ordinal);
            }
        }
    }

    // One .symtab entry as nvlink writes it.
    Sym64 symtabEntry(const Symbol &s, uint32_t *sectionIndex) {
        Sym64 e{};
        OutputSection *sec = outputSectionOf(s);
        auto renamed = renamed_.find(&s);
        // A section symbol is named after its section (nvlink 13.0 and
        // 11.8, every arch; its Mercury mirror keeps the name).
        e.name = s.isSectionSymbol ? (sec ? ctx_.strtab.add(sec->name) : 0)
                                   : ctx_.strtab.add(renamed == renamed_.end() ? s.name
                                                                             : renamed->second);
        uint8_t type = s.type;
        if (type == STT_CUDA_OBJECT && !ctx_.opts.relocatable)
            type = STT_OBJECT;
        if (!s.isLocal && isLinkerProvided(s.name) && ctx_.target.linkerSymbolsAreCudaObjects())
            type = STT_CUDA_OBJECT;
        uint8_t bind = s.weakAmongLocals ? STB_WEAK : s.isLocal ? STB_LOCAL : s.binding;
        if (!s.isLocal && s.binding == STB_WEAK && !s.defined)
            bind = STB_GLOBAL; // nvlink leaves still-undefined weak references GLOBAL
        e.info = symInfo(bind, type);
        e.other = ctx_.opts.relocatable ? s.other : static_cast<uint8_t>(s.other & ~0xE0);
        *sectionIndex = sec ? sec->index : (s.specialShndx ? s.specialShndx : SHN_UNDEF);
        e.shndx = sec && *sectionIndex >= SHN_LORESERVE ? SHN_XINDEX
                                                        : static_cast<uint16_t>(*sectionIndex);
        e.value = s.isSectionSymbol ? 0 : s.finalValue + debuggerSharedReserve(s);
        e.size = s.isSectionSymbol ? 0 : s.size;
        return e;
    }

    // Shared variables kept for the debugger (-g) read in .symtab as
    // addresses after the reserved shared memory (sm_90+); code, and the
    // Mercury table (sm_100+), keep the plain offsets. Extern arrays (in
    // .nv_debug.shared) get the reserve only while that section holds
    // coloured variables, as nvlink 13.0 does -- or, where the window kept
    // for them always spans the reservation (sm_100+), always.
    uint64_t debuggerSharedReserve(const Symbol &s) const {
        if (s.isSectionSymbol || (s.other & 0xE0) != STO_CUDA_SHARED || ctx_.opts.relocatable ||
            !(s.defined || ctx_.moduleSharedHoldsVariables ||
              ctx_.target.moduleSharedSpansReservation()))
            return 0;
        return reservedSharedMemory();
    }

    static OutputSection *outputSectionOf(const Symbol &s) {
        return s.outSection ? s.outSection : (s.section ? s.section->out : nullptr);
    }

    // The same symbol in the Mercury table: its section's Mercury twin where
    // there is one; the type, size and st_other its defining file's Mercury
    // table gives it (data stays STT_CUDA_OBJECT with its memory space); a
    // value in the twin where the twin has bytes of its own, the linker's
    // symbols 0.
    Sym64 mercuryEntry(const Symbol &s, Sym64 e) const {
        OutputSection *sec = outputSectionOf(s);
        OutputSection *twin = sec && sec->shadow ? sec->shadow : nullptr;
        if (twin)
            e.shndx = static_cast<uint16_t>(twin->index);
        if (s.isSectionSymbol) {
            // .text.f for .nv.capmerc.text.f; .nv.constant.user for the
            // alias .nv.merc.nv.constant.user, whose SASS twin is
            // .nv.constant3.
            if (auto name = twin ? mercurySectionSymbolName(twin->name) : std::nullopt)
                e.name = ctx_.strtab.add(*name);
            return e;
        }
        const ElfSymbol *in = mercuryInput(s);
        bool linkerMade = !s.isLocal && isLinkerProvided(s.name);
        if (in) {
            uint8_t type = linkerMade || retypedByLink(s) ? symType(e.info) : in->type();
            e.info = symInfo(symBind(e.info), type);
            e.other = in->other;
            e.size = in->size;
        }
        e.value -= debuggerSharedReserve(s);
        if (linkerMade)
            e.value = in ? in->value : 0;
        else if (twin && !twin->aliasOf && in && s.section && s.section->shadow)
            e.value = laidOutPerVariable(*s.section) ? s.section->shadow->outOffset
                                                     : in->value + s.section->shadow->outOffset;
        return e;
    }

    // The reserved shared memory's variables are placed one by one, not by
    // their input values (ReservedShared.cpp); in the Mercury twin each
    // sits at the start of its section's copy (sm_110, measured).
    bool laidOutPerVariable(const InputSection &section) const {
        return section.kind == SectionKind::SharedReserved && !ctx_.opts.relocatable;
    }

    // The link gave it another type than its input's .symtab has (-r's
    // .nv.ptx.const0.size, Relocations.cpp); the Mercury table follows.
    static bool retypedByLink(const Symbol &s) {
        const ObjectFile *file = s.file;
        if (!file || s.inputIndex >= file->elf().symbols().size())
            return false;
        return file->elf().symbols()[s.inputIndex].type() != s.type;
    }

    static const ElfSymbol *mercuryInput(const Symbol &s) {
        const ObjectFile *file = s.file;
        if (!file || s.inputIndex >= file->mercurySymbols.size())
            return nullptr;
        return &file->mercurySymbols[s.inputIndex];
    }

    // The inputs' Mercury tables name a Mercury section's symbol after the
    // section less a prefix (".nv.capmerc" of .nv.capmerc.text.f, ".nv.merc"
    // of .nv.merc.nv.constant.user): the prefixes they use.
    void collectMercuryNamePrefixes() {
        for (auto &file : ctx_.files)
            for (const ElfSymbol &sym : file->mercurySymbols) {
                if (sym.type() != STT_SECTION || sym.shndx >= file->sections.size() ||
                    sym.name.empty() || !file->sections[sym.shndx])
                    continue;
                std::string_view section = file->sections[sym.shndx]->name();
                if (section.size() > sym.name.size() && endsWith(section, sym.name)) {
                    std::string_view prefix = section.substr(0, section.size() - sym.name.size());
                    if (std::find(mercuryNamePrefixes_.begin(), mercuryNamePrefixes_.end(),
                                  prefix) == mercuryNamePrefixes_.end())
                        mercuryNamePrefixes_.push_back(prefix);
                }
            }
    }

    // A Mercury output section's symbol name, as the inputs name theirs
    // (nvlink: 1,524 of 1,524 in the fixtures); its SASS twin's where no
    // input shows how.
    std::optional<std::string_view> mercurySectionSymbolName(std::string_view section) const {
        for (std::string_view prefix : mercuryNamePrefixes_)
            if (section.size() > prefix.size() && startsWith(section, prefix))
                return section.substr(prefix.size());
        return std::nullopt;
    }

    void writeSymtab() {
        if (mercurySymtab_)
            collectMercuryNamePrefixes();
        std::vector<uint8_t> &out = symtab_->synthetic;
        out.assign(24, 0);
        std::vector<uint8_t> *shndx = symtabShndx_ ? &symtabShndx_->synthetic : nullptr;
        if (shndx)
            shndx->assign(4, 0);
        std::vector<uint8_t> *mercury = mercurySymtab_ ? &mercurySymtab_->synthetic : nullptr;
        if (mercury)
            mercury->assign(24, 0);
        auto append = [](std::vector<uint8_t> &to, const Sym64 &e) {
            const uint8_t *p = reinterpret_cast<const uint8_t *>(&e);
            to.insert(to.end(), p, p + sizeof(e));
        };
        auto emit = [&](const Symbol &s, bool mirrored) {
            uint32_t index = 0;
            Sym64 e = symtabEntry(s, &index);
            if (shndx) {
                uint32_t word = e.shndx == SHN_XINDEX ? index : 0;
                const uint8_t *w = reinterpret_cast<const uint8_t *>(&word);
                shndx->insert(shndx->end(), w, w + 4);
            }
            append(out, e);
            if (mercury && mirrored)
                append(*mercury, mercuryEntry(s, e));
        };
        // The Mercury table mirrors .symtab up to the constant banks' late
        // section symbols, which have no Mercury twin.
        for (Symbol *s : locals_)
            if (s)
                emit(*s, true);
        for (Symbol *s : globals_)
            emit(*s, true);
        for (Symbol *s : lateLocals_)
            emit(*s, false);
        // sh_info: one past the last local, wherever the locals are.
        symtab_->rawInfo = static_cast<uint32_t>(
            lateLocals_.empty() ? locals_.size()
                                : locals_.size() + globals_.size() + lateLocals_.size());
        if (mercurySymtab_)
            mercurySymtab_->rawInfo = static_cast<uint32_t>(locals_.size());
    }

    void writeStringTables() {
        StringTable shstr;
        for (OutputSection *s : sections_)
            shNames_[s] = shstr.add(s->name);
        shstrtab_->synthetic = shstr.bytes();
        strtab_->synthetic = ctx_.strtab.bytes();
    }

    // The output as the layout engine sees it: sections in index order,
    // program headers by the sections they cover, the header fields.
    ElfImage describeImage() const {
        ElfImage image;
        for (const OutputSection *s : sections_)
            image.addSection(describeSection(*s));
        image.programHeaders = programHeaders();
        image.header = imageHeader();
        return image;
    }

    ImageSection describeSection(const OutputSection &s) const {
        ImageSection out;
        out.name = s.name;
        out.nameOffset = shNames_.at(&s);
        out.type = s.type;
        out.flags = s.flags;
        if (s.name == ".note.nv.cuinfo" && !compatIndex())
            out.flags &= ~SHF_INFO_LINK;
        out.link = s.linkSection ? s.linkSection->index : (s.linkToSymtab ? symtab_->index : 0);
        if (s.linkToMercurySymtab && mercurySymtab_)
            out.link = mercurySymtab_->index;
        if (s.kind == SectionKind::Text)
            out.link = symtab_->index;
        out.info = sectionInfo(s);
        out.addralign = s.addralign;
        out.entsize = s.entsize;
        // Input pieces are copied (and patched) by copySections; the tables
        // the linker made are borrowed as they are.
        if (s.aliasOf)
            out.content = AliasOf{s.aliasOf->index};
        else if (s.isNobits())
            out.content = NoFileData{s.size};
        else if (!s.pieces.empty())
            out.content = FilledLater{s.size};
        else
            out.content = ByteView{s.synthetic.data(), s.synthetic.size()};
        return out;
    }

    // The plugin's program header layout (none for -r):
    //  * CULD_PHDR_CODE_DATA (sm_50..sm_90): PHDR, LOAD R+X over constant
    //    banks and code, LOAD R+W over the data windows (when any), LOAD R+X
    //    over the program header table again;
    //  * CULD_PHDR_SPLIT (sm_100+): PHDR and its LOAD (R), LOAD R over the
    //    module constant banks, LOAD R+X over the code, LOAD R+W over the
    //    data windows, LOAD R over the kernels' constant banks (each when
    //    there is something to cover).
    std::vector<OutputProgramHeader> programHeaders() const {
        const uint32_t layout = ctx_.target.programHeaderLayout();
        if (ctx_.opts.relocatable || layout == CULD_PHDR_NONE)
            return {};
        const bool split = layout == CULD_PHDR_SPLIT;
        OutputProgramHeader table;
        table.type = PT_PHDR;
        table.flags = split ? PF_R : PF_R | PF_X;
        table.align = 8;
        table.source = SegmentSource::ProgramHeaderTable;
        std::vector<OutputProgramHeader> out{table};
        table.type = PT_LOAD;
        if (split)
            out.push_back(table);
        // The kinds' sections, of those before the code (`early`), after it
        // or all (nullopt).
        const uint32_t firstCode = firstCodeIndex();
        auto segment = [&](std::initializer_list<SectionKind> kinds, uint32_t flags,
                           std::optional<bool> early = std::nullopt) {
            OutputProgramHeader p;
            p.type = PT_LOAD;
            p.flags = flags;
            p.align = 8;
            p.source = SegmentSource::Sections;
            // An alias counts as its twin (nvlink's segment then counts
            // the shared bytes twice).
            auto covered = [&](const OutputSection *s) {
                SectionKind k = s->aliasOf ? s->aliasOf->kind : s->kind;
                return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
            };
            for (const OutputSection *s : sections_)
                if (covered(s) && (!early || *early == (s->index < firstCode)))
                    p.sections.push_back(s->index);
            if (!p.sections.empty())
                out.push_back(p);
        };
        const auto data = {SectionKind::GlobalInit,   SectionKind::Global,
                           SectionKind::SharedEntry,  SectionKind::SharedGlobal,
                           SectionKind::SharedReserved, SectionKind::Local};
        if (split) {
            // The constant banks before the code (.nv.constant3 and its
            // Mercury alias, the kernels' jump tables) get their own segment;
            // the parameter banks after the data close.
            const auto constants = {SectionKind::ConstantBank, SectionKind::ConstantEntry};
            segment(constants, PF_R, true);
            segment({SectionKind::Text}, PF_R | PF_X);
            segment(data, PF_R | PF_W);
            segment(constants, PF_R, false);
            return out;
        }
        segment({SectionKind::ConstantBank, SectionKind::ConstantEntry, SectionKind::Text},
                PF_R | PF_X);
        segment(data, PF_R | PF_W);
        out.push_back(table);
        return out;
    }

    // Index of the first code section (past the last section when none).
    uint32_t firstCodeIndex() const {
        for (const OutputSection *s : sections_)
            if (s->kind == SectionKind::Text)
                return s->index;
        return static_cast<uint32_t>(sections_.size() + 1);
    }

    uint32_t sectionInfo(const OutputSection &s) const {
        if (s.kind == SectionKind::Symtab)
            return s.rawInfo;
        if (s.kind == SectionKind::Text && s.owner)
            return s.owner->outIndex | (s.infoHighByte << 24);
        // A capsule names its function, as its twin .text does.
        if (s.mercuryKind == CULD_MERC_CODE && s.owner)
            return s.owner->outIndex;
        if (s.infoSection)
            return s.infoSection->index;
        if (s.kind == SectionKind::Note && s.name == ".note.nv.cuinfo")
            return compatIndex(); // 0 where there is no .nv.compat
        return s.rawInfo;
    }

    uint64_t reservedSharedMemory() const {
        return ctx_.opts.disableSmemReservation ? 0 : ctx_.target.reservedSharedMemory();
    }

    uint32_t compatIndex() const {
        for (OutputSection *s : sections_)
            if (s->kind == SectionKind::Compat)
                return s->index;
        return 0;
    }

    // The OS/ABI identification of the first input; without device inputs,
    // the target's own (a link of host objects without device code is valid
    // and gives an empty cubin, as with nvlink). The rest of e_ident is
    // nvlink's own: version 1, zero padding, whatever the input holds there.
    ImageHeader imageHeader() const {
        ImageHeader h;
        bool v7 = ctx_.target.elfAbiV7();
        h.osabi = v7 ? ELFOSABI_CUDA_V7 : ELFOSABI_CUDA_V8;
        h.abiVersion = v7 ? 7 : 8;
        if (!ctx_.files.empty()) {
            const ElfHeader &in = ctx_.files.front()->elf().header();
            h.osabi = in.ident[7];
            h.abiVersion = in.ident[8];
            // Older toolkits store their version here (118 for CUDA 11.8).
            h.version = in.version;
        }
        h.elfClass = ELFCLASS64;
        h.type = ctx_.opts.relocatable ? ET_REL : ET_EXEC;
        h.machine = EM_CUDA;
        h.flags = elfFlags();
        h.shstrndx = shstrtab_->index;
        // nvlink -r still records the program-header entry size where the
        // plugin says so (below sm_100).
        h.phentsizeWithoutProgramHeaders =
            ctx_.opts.relocatable && ctx_.target.relocatableRecordsPhentsize() ? sizeof(Phdr64)
                                                                               : 0;
        return h;
    }

    // ABI v8: (cuinfo index << 24) | (SM << 8) | the arch's low byte.
    // ABI v7 (CUDA <= 12): (virtual SM << 16) | fixed bits | SM.
    uint32_t elfFlags() const {
        uint32_t sm = ctx_.target.sm();
        if (ctx_.target.elfAbiV7())
            return (sm << 16) | ctx_.target.elfFlagsLow() | sm;
        uint32_t cuinfo = ctx_.cuinfo ? ctx_.cuinfo->index : 0;
        return (std::min<uint32_t>(cuinfo, 0xFF) << 24) | (sm << 8) | ctx_.target.elfFlagsLow();
    }

    // Copies each section's input pieces once and patches its relocations,
    // spread over the worker threads (each section is written by exactly one).
    void copySections(const ElfImage &image, std::vector<uint8_t> &bytes) {
        unsigned threads = ctx_.opts.threads ? ctx_.opts.threads
                                             : std::max(1u, std::thread::hardware_concurrency());
        std::vector<OutputSection *> work;
        for (OutputSection *s : sections_)
            if (!s->isNobits() && !s->pieces.empty())
                work.push_back(s);
        std::vector<std::string> errors(threads);
        Diagnostics &diagnostics = Diagnostics::get();
        auto worker = [&](unsigned id) {
            // Plugin warnings go to this link's diagnostics, whatever thread.
            DiagnosticsScope scope(diagnostics);
            try {
                for (size_t i = id; i < work.size(); i += threads)
                    fill(*work[i], bytes.data() + image.sections[work[i]->index].offset);
            } catch (const FatalError &e) {
                errors[id] = e.what();
            }
        };
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < threads && t < work.size(); ++t)
            pool.emplace_back(worker, t);
        worker(0);
        for (std::thread &t : pool)
            t.join();
        for (const std::string &e : errors)
            if (!e.empty())
                throw FatalError(e);
    }

    void fill(OutputSection &s, uint8_t *dst) {
        for (const SectionPiece &p : s.pieces) {
            if (!p.input->rewritten.empty())
                std::memcpy(dst + p.offset, p.input->rewritten.data(), p.input->rewritten.size());
            else if (p.input->records.active)
                fillRecords(*p.input, dst + p.offset, p.offset);
            else if (!p.input->bytes().empty())
                std::memcpy(dst + p.offset, p.input->bytes().data, p.input->bytes().size);
            writePatches(*p.input, dst + p.offset);
        }
        if (!s.applies.empty())
            applyRelocations(ctx_.target.plugin(), ctx_.target.sm(), s.name, s.type, s.flags, dst,
                             s.size, s.applies);
    }

    // The kept records of a section linked record by record, then the
    // section offsets the linker writes into them (little-endian).
    static void fillRecords(const InputSection &in, uint8_t *dst, uint64_t pieceOffset) {
        const RecordLayout &layout = in.records;
        for (const RecordLayout::Range &r : layout.kept) {
            const uint8_t *src = r.replacement ? layout.replacements[r.replacement - 1].data()
                                               : in.bytes().data + r.begin;
            std::memcpy(dst + r.linked, src, r.size(layout));
        }
        for (const RecordLayout::SelfOffset &f : layout.selfOffsets)
            writeLittle(dst + *layout.linkedOffset(f.field),
                        pieceOffset + *layout.linkedOffset(f.target), f.width);
    }

    // The fields the linker rewrites in a piece, where they were linked.
    static void writePatches(const InputSection &in, uint8_t *dst) {
        for (const FieldPatch &f : in.patches) {
            std::optional<uint64_t> at = in.linkedOffset(f.offset);
            if (!at)
                throw FatalError("internal error: a field of section '" +
                                 std::string(in.name()) + "' at offset " + hex(f.offset) +
                                 " is rewritten but not linked");
            writeLittle(dst + *at, f.value, f.width);
        }
    }

    Context &ctx_;
    std::vector<OutputSection *> sections_;
    OutputSection *shstrtab_ = nullptr, *strtab_ = nullptr, *symtab_ = nullptr;
    OutputSection *symtabShndx_ = nullptr; // only past SHN_LORESERVE sections
    OutputSection *mercurySymtab_ = nullptr; // where the output carries a Mercury set
    std::vector<std::string_view> mercuryNamePrefixes_;
    std::map<OutputSection *, std::vector<const RelocKeep *>> relocs_;
    std::vector<Symbol *> locals_, globals_, lateLocals_;
    std::unordered_map<const Symbol *, std::string> renamed_; // renameBankSymbols
    std::unordered_map<const OutputSection *, uint32_t> shNames_;
};

} // namespace

void writeOutput(Context &ctx) { Writer(ctx).run(); }

} // namespace culd
