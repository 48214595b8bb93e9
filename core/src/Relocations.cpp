// The relocation pass: every input relocation of a live section is either
// resolved now (recorded for the writer to patch in place) or kept for the
// driver (written to the output's .rel/.rela sections). The decision follows
// the plugin's resolver class:
//   LINKER -> apply; DRIVER -> keep; EITHER -> apply when the target is a
//   link-time offset (shared, constant, local, non-alloc data), keep when it
//   is code or global memory; NONE -> drop.
#include "culd/Context.h"
#include "culd/Hex.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace culd {

using namespace elf;

namespace {

culd_target_kind targetKind(const Symbol &s) {
    // extern __shared__ arrays stay undefined but are placed by the linker.
    if (!s.section && !s.defined && (s.other & 0xE0) == STO_CUDA_SHARED)
        return CULD_TARGET_SHARED;
    if (!s.section)
        return s.defined ? CULD_TARGET_OTHER : CULD_TARGET_UNDEFINED;
    switch (s.section->kind) {
    case SectionKind::Text:
        return CULD_TARGET_CODE;
    case SectionKind::Global:
    case SectionKind::GlobalInit:
        return CULD_TARGET_GLOBAL;
    case SectionKind::SharedEntry:
    case SectionKind::SharedGlobal:
    case SectionKind::SharedReserved:
        return CULD_TARGET_SHARED;
    case SectionKind::ConstantBank:
    case SectionKind::ConstantEntry:
        return CULD_TARGET_CONSTANT;
    case SectionKind::Local:
        return CULD_TARGET_LOCAL;
    default:
        return CULD_TARGET_OTHER;
    }
}

bool insideSupersededData(const InputSection &s, uint64_t offset) {
    const auto &ranges = s.supersededData;
    auto it = std::upper_bound(ranges.begin(), ranges.end(),
                               std::make_pair(offset, UINT64_MAX));
    return it != ranges.begin() && offset < std::prev(it)->second;
}

bool resolvedAtLinkTime(culd_target_kind k) {
    return k == CULD_TARGET_SHARED || k == CULD_TARGET_CONSTANT || k == CULD_TARGET_LOCAL ||
           k == CULD_TARGET_OTHER;
}

// The name of the section a section symbol stands for.
std::string_view sectionNamedBy(const ObjectFile &file, uint32_t symbolIndex) {
    const ElfSymbol &es = file.elf().symbols()[symbolIndex];
    return es.shndx < file.elf().sections().size() ? file.elf().section(es.shndx).name
                                                   : std::string_view("?");
}

// A section's relocations in the order they are kept: the input's, or,
// where its records were linked out of input order, by the offset each
// patches in the output (those of dropped records last; they are not kept).
std::vector<ElfReloc> inLinkedOrder(const InputSection &target, std::vector<ElfReloc> relocs) {
    if (target.records.permuted)
        std::stable_sort(relocs.begin(), relocs.end(), [&](const ElfReloc &a, const ElfReloc &b) {
            return target.linkedOffset(a.offset).value_or(UINT64_MAX) <
                   target.linkedOffset(b.offset).value_or(UINT64_MAX);
        });
    return relocs;
}

class RelocationScanner {
public:
    explicit RelocationScanner(Context &ctx) : ctx_(ctx), ptxConst0Size_(ptxConst0Size(ctx)) {}

    void scanFile(ObjectFile &file) {
        for (auto &[relocHeader, target] : file.relocSections) {
            if (!target || !target->isLive() || !target->out)
                continue;
            // Its place, should nothing be kept in it: nvlink writes a
            // function's SASS and Mercury relocation sections as a pair.
            forEachOutput(*target, [&](OutputSection &out) {
                if (out.keepsRelocationSection)
                    ctx_.emptyRelocationSections.push_back({&out, ctx_.keptRelocs.size()});
            });
            bool rela = relocHeader->type == SHT_RELA;
            for (const ElfReloc &r : inLinkedOrder(*target, file.elf().relocations(*relocHeader)))
                scan(file, *relocHeader, *target, r, rela);
        }
    }

    // The Mercury set's relocations, decided as their SASS twins', with
    // section symbols standing for the Mercury twins of their sections.
    // Scanned first, into `kept`, so that the SASS scan knows which twins
    // keep one; their sections follow every SASS one (nvlink's order).
    void scanMercuryFile(ObjectFile &file, std::vector<RelocKeep> &kept) {
        kept_ = &kept;
        for (auto &[relocHeader, target] : file.mercuryRelocSections) {
            if (!target || !target->isLive() || !target->out)
                continue;
            mercuryRela_ = relocHeader;
            for (const ElfReloc &r : file.elf().relocations(*relocHeader))
                scan(file, *relocHeader, *target, r, true);
            mercuryRela_ = nullptr;
        }
        kept_ = &ctx_.keptRelocs;
    }

private:
    void scan(ObjectFile &file, const ElfSection &relocHeader, InputSection &target,
              const ElfReloc &r, bool rela) {
        Symbol *sym = r.symbol < file.symbols.size() ? file.symbols[r.symbol] : nullptr;
        const culd_reloc_desc *desc = ctx_.target.reloc(r.type);
        if (!desc)
            throw FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                             "': unexpected reloc type " + hex(r.type) + " at offset " +
                             hex(r.offset));
        // The plugin's row may need a newer architecture class than the
        // target's (nvlink: "Relocation %s not supported on %s").
        if (!ctx_.target.relocAllowed(*desc))
            throw FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                             "': relocation " + desc->name + " at offset " + hex(r.offset) +
                             " is not supported on " + ctx_.target.name());
        if (desc->resolver == CULD_RESOLVE_NONE || !sym)
            return;
        // A section linked record by record: relocations of dropped records
        // go with them, and the fields the linker fills itself take none.
        std::optional<uint64_t> linked = target.linkedOffset(r.offset);
        if (!linked || target.records.isSelfOffsetField(r.offset))
            return;
        const uint64_t offset = target.outOffset + *linked;
        // A section symbol of a section culd does not link (a note, a symbol
        // table) has nowhere to point: refuse rather than guess.
        if (sym->isSectionSymbol && !sym->section)
            throw FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                             "': relocation at offset " + hex(r.offset) +
                             " refers to section '" +
                             std::string(sectionNamedBy(file, r.symbol)) +
                             "', which is not linked");
        // Placeholders nvlink resolves itself vanish, except a capsule's
        // (CULD_MERC_CODE) references to the reserved shared memory
        // (.nv.reservedSmem.*), which nvlink leaves for the driver.
        if (!sym->isLocal && isLinkerProvided(sym->name) && !sym->defined) {
            if (target.mercuryKind == CULD_MERC_CODE && isReservedSharedSymbol(sym->name))
                keep(target, offset, *desc, *sym, r.addend, rela, false);
            return;
        }
        // libcudadevrt (__cudaCDP2MemcpyAsync, __cudaCDP2MemsetAsync) reads
        // the size of PTX's constant bank 0 from this undefined local:
        // nvlink patches it into the SASS, -r too, and leaves a capsule's
        // bytes as they are, in a final link too (a device-side
        // cudaMemcpyAsync, sm_100 and sm_120, with and without __constant__
        // data; culd wrote the size there, exit 0: the CUDA
        // cdpAdvancedQuicksort sample).
        if (isPtxConst0Size(*sym)) {
            if (target.mercuryKind == CULD_MERC_CODE)
                return;
            record(*target.out, offset, *desc, *sym, CULD_TARGET_OTHER, r.addend, !rela, nullptr,
                   ptxConst0Size_);
            return;
        }
        // A weak definition that lost to an earlier one takes the relocations
        // of its frame and line-table entries with it, UNUSED_CLEAR included:
        // its frame keeps its original address range even when the winner is
        // removed later. Its .debug_info and .debug_loc relocations stay, now
        // naming the winner. (One that was replaced by a later definition had
        // all its relocations merged already; nvlink keeps them, on sm_90+
        // unless its code refers to other symbols: see descriptionDropped.)
        const InputSection &role = target.twin ? *target.twin : target;
        if (role.kind == SectionKind::Debug && describesFunctionsOneByOne(role) &&
            descriptionDropped(file, r.symbol, *sym))
            return;
        // UNUSED_CLEAR types zero a field (a debug frame's address range)
        // only when the function it describes was removed.
        bool dead = isRemovedFromOutput(*sym);
        if (isClear(*desc)) {
            if (dead)
                record(*target.out, offset, *desc, *sym, CULD_TARGET_OTHER, 0, false);
            return;
        }
        if (dead)
            return;
        if (sym->defined && sym->section && !sym->section->out && !isShared(*sym) &&
            !isDeviceFunctionConstants(ctx_, *sym->section))
            return;
        // The bytes of a weak data definition that lost stay, unrelocated
        // (in a Mercury alias too: it shares its twin's bytes).
        if (insideSupersededData(role, r.offset))
            return;
        // A compiler label ptxas left undefined in debug information
        // ($L__tmp95 in a -G unit's .debug_loc, sm_100+) names nothing:
        // nvlink drops the relocation and the field keeps its bytes.
        if (isUndefinedLabel(*sym) && role.kind == SectionKind::Debug)
            return;
        // Any other undefined local names something only the linker knows
        // and culd has no model for: refuse rather than guess.
        if (sym->isLocal && !sym->defined && !sym->name.empty())
            throw FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                             "': relocation " + hex(r.type) + " at offset " + hex(r.offset) +
                             " against undefined local symbol '" + std::string(sym->name) +
                             "', which culd does not resolve");

        // Under -r a kernel's own references to extern __shared__ arrays
        // name its `externsharedinstance` instead, for the final link
        // (Layout.cpp); a device function's resolve to 0 below.
        bool code = target.kind == SectionKind::Text || target.mercuryKind == CULD_MERC_CODE;
        if (ctx_.opts.relocatable && isExternSharedArray(*sym) && code && target.owner)
            if (auto it = ctx_.externSharedInstanceOf.find(target.owner);
                it != ctx_.externSharedInstanceOf.end())
                return keep(target, offset, *desc, *it->second, r.addend, rela, false);
        // Under -r nvlink leaves a reference to a weak shared variable (a
        // function-local static __shared__ of an inline function) for the
        // final link, which may still replace it; one copy stays
        // (dropSupersededGlobals).
        if (ctx_.opts.relocatable && isShared(*sym) && sym->binding == STB_WEAK)
            return keep(target, offset, *desc, *sym, r.addend, rela, false);
        culd_target_kind kind = targetKind(*sym);
        bool apply = desc->resolver == CULD_RESOLVE_LINKER ||
                     (desc->resolver == CULD_RESOLVE_EITHER && resolvedAtLinkTime(kind));
        // Under -r a weak __constant__ variable (C++17 `inline __constant__`)
        // may still be replaced: nvlink leaves the references to it for the
        // final link (sm_89, sm_90, sm_120).
        if (apply && ctx_.opts.relocatable && kind == CULD_TARGET_CONSTANT &&
            sym->binding == STB_WEAK && !sym->isLocal)
            apply = false;
        // Where line tables are rebuilt at the final link (sm_100+), -r
        // leaves the debug info's references to .debug_line (each unit's
        // DW_AT_stmt_list) for it; the other debug references are applied.
        if (apply && ctx_.opts.relocatable && ctx_.target.linksFrameByEntry() &&
            sym->isSectionSymbol && sym->section && sym->section->name() == ".debug_line")
            apply = false;
        // Under -r nvlink resolves a reference to a __constant__ variable no
        // input defines to -1 and drops the relocation: the final link
        // cannot place it and the code reads c[bank][0xffff] (measured on
        // sm_89: the defining unit linked later changes nothing). culd
        // refuses rather than write code that has lost its reference.
        if (apply && ctx_.opts.relocatable && isUndefinedVariable(*sym))
            throw FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                             "': relocation " + ctx_.target.relocName(r.type) + " at offset " +
                             hex(r.offset) + " against the undefined variable '" +
                             std::string(sym->name) +
                             "' in a relocatable link (-r): nvlink writes -1 there and drops "
                             "the reference, which the final link then cannot resolve; define "
                             "it in a unit of this link");
        // A capsule (CULD_MERC_CODE) is not the linker's to patch: its
        // relocations address the code the finaliser expands it to, and
        // nvlink drops what it resolves there.
        if (apply && target.mercuryKind == CULD_MERC_CODE) {
            // Except constant-bank offsets (a jump table's in its kernels'
            // banks, a __constant__ operand's): nvlink writes each into the
            // capsule's record of the instruction, which the plugin finds
            // from the SASS twin's instruction the paired relocation
            // patches. An instruction without a record has none to write.
            bool functionBank = sym->section && sym->section->shadow &&
                                sym->section->shadow->mercuryKind == CULD_MERC_FUNCTION_BANK;
            if (functionBank || kind == CULD_TARGET_CONSTANT)
                if (std::optional<uint64_t> field = capsuleField(file, relocHeader, target, r))
                    record(*target.out, target.outOffset + *field, *desc, *sym, kind, r.addend,
                           !rela, target.owner);
            return;
        }
        if (!apply)
            return keep(target, offset, *desc, *sym, r.addend, rela, false);
        // Each copy would need its own patch (FunctionBanks.cpp refuses the
        // SASS ones before this).
        if (!target.copies.empty())
            throw FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                             "': relocation " + hex(r.type) + " at offset " + hex(r.offset) +
                             " patches a section copied into several kernels' banks, which "
                             "culd does not support yet");
        RelocApply &a = record(*target.out, offset, *desc, *sym, kind, r.addend, !rela, target.owner);
        // Without -g a final link has dropped extern __shared__ arrays by
        // the time debug data is relocated: the debug info gives them
        // address -1 (plus the addend, the reserved shared memory on
        // sm_90+). Under -r they are defined, at 0 (.nv_debug.shared), and
        // the debug info gets that (sm_75-sm_90, -G units; difftest seeds
        // 86023 and 86027).
        if (role.kind == SectionKind::Debug && !ctx_.opts.debug && !ctx_.opts.relocatable &&
            isExternSharedArray(*sym))
            a.symbolValue = UINT64_MAX;
        // --preserve-relocs lists what was resolved in debug data in
        // .nv.resolvedrela<section> (what nvlink 13.0 was seen to keep).
        if (ctx_.opts.preserveRelocs && ctx_.target.keepsResolvedRelocs() &&
            role.kind == SectionKind::Debug)
            keep(target, offset, *desc, *sym, r.addend, true, true);
    }

    // Where relocation `r` of a capsule goes (nullopt: the capsule holds no
    // field for it). The plugin decodes the capsule as linked, given the
    // linked SASS twin's instruction the paired relocation patches.
    std::optional<uint64_t> capsuleField(const ObjectFile &file, const ElfSection &relocHeader,
                                         const InputSection &capsule, const ElfReloc &r) {
        auto fail = [&](const std::string &why) {
            return FatalError(file.name() + ": section '" + std::string(relocHeader.name) +
                              "': relocation " + ctx_.target.relocName(r.type) + " at offset " +
                              hex(r.offset) + " against '" +
                              std::string(file.symbols[r.symbol]->name) + "': " + why);
        };
        const InputSection *twin = capsule.twin;
        if (!twin)
            throw fail("the capsule has no SASS twin to pair it with");
        const TwinReloc &paired = pairedTwinRelocation(file, relocHeader, capsule, r, fail);
        std::optional<uint64_t> twinOffset = twin->linkedOffset(paired.offset);
        if (!twinOffset)
            throw fail("its SASS twin's instruction was removed");
        ByteView bytes = capsule.rewritten.empty()
                             ? capsule.bytes()
                             : ByteView{capsule.rewritten.data(), capsule.rewritten.size()};
        try {
            std::optional<uint64_t> field = ctx_.target.capsuleField(bytes, r.type, *twinOffset);
            uint64_t width = bytesTouched(*ctx_.target.reloc(r.type));
            if (field && (*field >= bytes.size || bytes.size - *field < width))
                throw FatalError("the plugin placed it at " + hex(*field) +
                                 ", outside the capsule");
            return field;
        } catch (const FatalError &e) {
            throw fail(e.what());
        }
    }

    // A capsule's relocations against a symbol pair with its SASS twin's in
    // offset order: the capsule keeps the twin's instruction order (bench/'s
    // workload: 995 of 995 pairs hold the same addend and land on a record
    // of the twin's kind). Refused where the counts or addends differ.
    struct TwinReloc {
        uint64_t offset = 0;
        int64_t addend = 0;
        bool rela = false;
    };
    template <typename Fail>
    const TwinReloc &pairedTwinRelocation(const ObjectFile &file, const ElfSection &relocHeader,
                                          const InputSection &capsule, const ElfReloc &r,
                                          Fail fail) {
        if (&relocHeader != indexedCapsule_) {
            indexedCapsule_ = &relocHeader;
            twinRelocs_.clear();
            capsuleOffsets_.clear();
            for (const ElfSection *header : relocationSectionsOf(file, *capsule.twin))
                for (const ElfReloc &t : file.elf().relocations(*header))
                    twinRelocs_[t.symbol].push_back({t.offset, t.addend, header->type != SHT_REL});
            for (const ElfReloc &c : file.elf().relocations(relocHeader))
                capsuleOffsets_[c.symbol].push_back(c.offset);
            for (auto &[symbol, relocs] : twinRelocs_)
                std::sort(relocs.begin(), relocs.end(),
                          [](const TwinReloc &a, const TwinReloc &b) { return a.offset < b.offset; });
            for (auto &[symbol, offsets] : capsuleOffsets_)
                std::sort(offsets.begin(), offsets.end());
        }
        const std::vector<TwinReloc> &twins = twinRelocs_[r.symbol];
        const std::vector<uint64_t> &mine = capsuleOffsets_[r.symbol];
        if (twins.size() != mine.size())
            throw fail(std::to_string(twins.size()) + " relocations of the SASS twin and " +
                       std::to_string(mine.size()) +
                       " of the capsule use the symbol; culd pairs them one to one");
        auto at = std::lower_bound(mine.begin(), mine.end(), r.offset);
        if (at == mine.end() || *at != r.offset || (at + 1 != mine.end() && at[1] == r.offset))
            throw fail("the capsule has more than one relocation at the offset");
        const TwinReloc &paired = twins[static_cast<size_t>(at - mine.begin())];
        if (paired.rela && paired.addend != r.addend)
            throw fail("its SASS twin's paired relocation at " + hex(paired.offset) +
                       " has another addend (" + std::to_string(paired.addend) + ")");
        return paired;
    }

    // The relocation sections (.rel, .rela) of `s` in `file`, from an
    // index of the file's relocation sections built on first use.
    const std::vector<const ElfSection *> &relocationSectionsOf(const ObjectFile &file,
                                                                const InputSection &s) {
        if (&file != indexedFile_) {
            indexedFile_ = &file;
            relocationSectionsOf_.clear();
            for (const auto &[header, target] : file.relocSections)
                if (target)
                    relocationSectionsOf_[target].push_back(header);
        }
        static const std::vector<const ElfSection *> none;
        auto it = relocationSectionsOf_.find(&s);
        return it == relocationSectionsOf_.end() ? none : it->second;
    }

    // The debug sections whose entries nvlink drops the relocations of
    // with a weak copy that lost (seen with -G inputs, sm_75 to sm_90).
    static bool describesFunctionsOneByOne(const InputSection &debug) {
        std::string_view name = debug.name();
        return name == ".debug_frame" || name == ".debug_line" || name == ".nv_debug_line_sass";
    }

    static bool isClear(const culd_reloc_desc &d) {
        return d.num_actions > 0 && d.actions[0].kind == CULD_VK_CLEAR;
    }

    static bool isShared(const Symbol &s) { return s.section && s.section->isSharedMemory(); }

    RelocApply &record(OutputSection &out, uint64_t offset, const culd_reloc_desc &desc,
                       const Symbol &sym, culd_target_kind kind, int64_t addend, bool rel,
                       const Symbol *function = nullptr,
                       std::optional<uint64_t> value = std::nullopt) {
        RelocApply a;
        a.offset = offset;
        a.desc = &desc;
        a.symbolValue = value ? *value : valueOf(sym, function);
        a.symbolSize = sym.size;
        a.addend = addend;
        a.addendInField = rel;
        a.targetKind = kind;
        if (sym.section && (sym.section->kind == SectionKind::ConstantBank ||
                            sym.section->kind == SectionKind::ConstantEntry))
            a.cbank = sym.section->bank;
        out.applies.push_back(a);
        return out.applies.back();
    }

    // An extern __shared__ array's offset depends on the code using it.
    uint64_t valueOf(const Symbol &sym, const Symbol *function) const {
        if (function && isExternSharedArray(sym)) {
            auto it = ctx_.externSharedOffsets.find(function);
            if (it != ctx_.externSharedOffsets.end())
                return it->second;
        }
        if (sym.isSectionSymbol)
            return sym.section && !isShared(sym) ? placed(*sym.section).outOffset : 0;
        return sym.finalValue;
    }

    // Where a section symbol points: the section, or in a Mercury
    // relocation its Mercury twin where it has one (.debug_frame ->
    // .nv.merc.debug_frame; .nv.global has none and stands for itself).
    const InputSection &placed(const InputSection &s) const {
        return mercuryRela_ && s.shadow && s.shadow->out ? *s.shadow : s;
    }

    // Calls `f` on every output holding `s`: its place, then its copies.
    template <typename F> static void forEachOutput(const InputSection &s, F f) {
        f(*s.out);
        for (OutputSection *copy : s.copies)
            f(*copy);
    }

    // Kept once in every output holding the patched section.
    void keep(InputSection &target, uint64_t offset, const culd_reloc_desc &desc, Symbol &sym,
              int64_t addend, bool rela, bool resolved) {
        forEachOutput(target, [&](OutputSection &out) {
            keepIn(out, target, offset, desc, sym, addend, rela, resolved);
        });
    }

    void keepIn(OutputSection &out, const InputSection &target, uint64_t offset,
                const culd_reloc_desc &desc, Symbol &sym, int64_t addend, bool rela,
                bool resolved) {
        RelocKeep k;
        k.resolved = resolved;
        k.target = &out;
        k.offset = offset;
        // Unified types become plain ones in an executable; a relocatable
        // link keeps them for the final link (as nvlink 13.0 was seen to).
        bool plain = (desc.flags & CULD_RELOC_F_UNIFIED) && !ctx_.opts.relocatable;
        k.type = plain ? desc.plain_type : desc.type;
        k.addend = addend;
        k.rela = rela || ctx_.target.relaOnly() || ctx_.opts.forceRela;
        k.mercuryRela = mercuryRela_;
        k.mercuryPatched = mercuryRela_ ? &target : nullptr;
        // Its SASS twin's relocation section is then written, even empty
        // (14-static-shared: a capsule's ABS32 to .nv.reservedSmem.cap).
        OutputSection *twin = out.twin ? out.twin : target.twin ? target.twin->out : nullptr;
        if (mercuryRela_ && twin)
            twin->keepsRelocationSection = true;
        if (sym.isSectionSymbol) {
            // A Mercury section is named in the Mercury table by its SASS
            // twin's section symbol, which the table mirrors with the
            // twin's index (-g: .nv.merc.debug_info's reference to
            // .nv.merc.debug_line).
            OutputSection *named = placed(*sym.section).out;
            k.symbolSection = named->twin ? named->twin : named;
            k.addend += static_cast<int64_t>(placed(*sym.section).outOffset);
        } else {
            k.symbol = &sym;
        }
        kept_->push_back(k);
    }

    Context &ctx_;
    const uint64_t ptxConst0Size_;
    // The Mercury relocation section being scanned, if any, and where kept
    // relocations go.
    const ElfSection *mercuryRela_ = nullptr;
    std::vector<RelocKeep> *kept_ = &ctx_.keptRelocs;
    // capsuleField's indices: a file's relocation sections by target, and
    // one capsule's relocation section's and its SASS twin's relocations by
    // symbol, in offset order.
    const ObjectFile *indexedFile_ = nullptr;
    std::unordered_map<const InputSection *, std::vector<const ElfSection *>>
        relocationSectionsOf_;
    const ElfSection *indexedCapsule_ = nullptr;
    std::unordered_map<uint32_t, std::vector<TwinReloc>> twinRelocs_;
    std::unordered_map<uint32_t, std::vector<uint64_t>> capsuleOffsets_;
};

} // namespace

void processRelocations(Context &ctx) {
    RelocationScanner scanner(ctx);
    std::vector<RelocKeep> mercury;
    for (auto &file : ctx.files)
        scanner.scanMercuryFile(*file, mercury);
    for (auto &file : ctx.files)
        scanner.scanFile(*file);
    ctx.keptRelocs.insert(ctx.keptRelocs.end(), mercury.begin(), mercury.end());
}

} // namespace culd
