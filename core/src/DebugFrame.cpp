// .debug_frame linked entry by entry, for targets whose plugin asks for it
// (CULD_ARCH_F_FRAME_BY_ENTRY: nvlink 13.0 on sm_100+). There nvlink
// rebuilds the section rather than concatenating it:
//  * the CIE and FDE of a function the output does not carry (removed as
//    dead, or a weak copy that lost to an earlier definition) are dropped;
//    a CIE goes when every FDE after it went;
//  * every FDE's CIE pointer is the output offset of the CIE before it. The
//    input's relocation there (R_CUDA_64 against the section symbol, whose
//    addend sm_100 ptxas takes from the *Mercury* frame's layout) is not
//    applied, nor listed by --preserve-relocs; nvlink writes the same value
//    with any addend and with no relocation at all;
//  * a function whose definition replaced an earlier weak copy (weak then
//    strong, or a later weak copy with fewer registers): the replaced
//    copy's FDE keeps its place and header but carries the winner's body
//    (address range and instructions) -- where the two copies' programs
//    agree; elsewhere nvlink rebuilds it through the Mercury code and
//    culd refuses --, and the winner's own entry is
//    rebuilt from its Mercury frame: the Mercury CIE verbatim instead of
//    its CIE, and an FDE of the location, the Mercury address range and
//    four zero bytes (docs/nvlink-findings.md, "Blackwell"); unless the
//    replaced copy's code refers to other symbols: then its entry goes and
//    the winner's stays as compiled (replacedFrameDropped, also for a copy
//    that replaced such a copy itself).
// Elsewhere (sm_50..sm_90) the section is linked whole and the addend is
// applied as it is, even where it misses the CIE.
#include "culd/DebugFrame.h"

#include "culd/Bytes.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace culd {

using namespace elf;

std::vector<FrameEntry> parseFrameEntries(ByteView bytes, const std::string &where) {
    std::vector<FrameEntry> entries;
    uint64_t at = 0;
    while (at < bytes.size) {
        auto truncated = [&] {
            return FatalError(where + ": frame entry at offset " + hex(at) +
                              " runs past the end of the section");
        };
        if (bytes.size - at < 4)
            throw truncated();
        FrameEntry e;
        e.begin = at;
        uint64_t length = readLittle(bytes.data + at, 4);
        uint64_t header = 4;
        if (length == 0xFFFFFFFFu) {
            if (bytes.size - at < 12)
                throw truncated();
            length = readLittle(bytes.data + at + 4, 8);
            header = 12;
            e.offsetWidth = 8;
        } else {
            e.offsetWidth = 4;
        }
        if (length > bytes.size - at - header || (length != 0 && length < e.offsetWidth))
            throw truncated();
        e.end = at + header + length;
        if (length != 0) {
            uint64_t id = readLittle(bytes.data + at + header, e.offsetWidth);
            e.isCie = e.offsetWidth == 8 ? id == UINT64_MAX : id == 0xFFFFFFFFu;
            if (!e.isCie) {
                e.ciePointerField = at + header;
                e.locationField = at + header + e.offsetWidth;
            }
        }
        entries.push_back(e);
        at = e.end;
    }
    return entries;
}

std::unordered_map<uint64_t, uint32_t> functionsByRelocatedOffset(const ObjectFile &file,
                                                                  const ElfSection &relocs) {
    std::unordered_map<uint64_t, uint32_t> functionAt;
    for (const ElfReloc &r : file.elf().relocations(relocs))
        if (r.symbol < file.symbols.size() && file.symbols[r.symbol] &&
            file.symbols[r.symbol]->isFunction())
            functionAt.emplace(r.offset, r.symbol);
    return functionAt;
}

std::optional<uint64_t> RecordLayout::linkedOffset(uint64_t inputOffset) const {
    auto it = std::upper_bound(kept.begin(), kept.end(), inputOffset,
                               [](uint64_t off, const Range &r) { return off < r.begin; });
    if (it == kept.begin())
        return std::nullopt;
    --it;
    if (inputOffset >= it->end || inputOffset - it->begin >= it->size(*this))
        return std::nullopt;
    return it->linked + (inputOffset - it->begin);
}

bool RecordLayout::isSelfOffsetField(uint64_t inputOffset) const {
    auto it = std::lower_bound(
        selfOffsets.begin(), selfOffsets.end(), inputOffset,
        [](const SelfOffset &s, uint64_t off) { return s.field + s.width <= off; });
    return it != selfOffsets.end() && it->field <= inputOffset;
}

namespace {

// A frame section of a file, its entries and the symbol each FDE's
// initial-location relocation names, by offset.
struct FrameSection {
    const InputSection *section = nullptr;
    std::vector<FrameEntry> entries;
    std::unordered_map<uint64_t, uint32_t> functionAt;
};

FrameSection readFrameSection(const ObjectFile &file, const InputSection &frame,
                              const ElfSection *relocs) {
    FrameSection f;
    f.section = &frame;
    f.entries = parseFrameEntries(frame.bytes(), file.name() + ": section '" +
                                                     std::string(frame.name()) + "'");
    if (relocs)
        f.functionAt = functionsByRelocatedOffset(file, *relocs);
    return f;
}

// What a function's definition in `file` is to its frame entry. A replaced
// copy whose frame goes (InputSection::replacedFrameDropped) is lost: its
// entry goes and the winner's stays as compiled.
enum class FrameRole { Plain, Replacing, Replaced };

FrameRole frameRole(const ObjectFile &file, uint32_t symbolIndex) {
    const ElfSymbol &es = file.elf().symbols()[symbolIndex];
    const InputSection *own =
        es.shndx < file.sections.size() ? file.sections[es.shndx] : nullptr;
    const Symbol &sym = *file.symbols[symbolIndex];
    if (!own || es.isUndefined() || own->kind != SectionKind::Text)
        return FrameRole::Plain;
    if (sym.section == own)
        return own->replacedCopy && !own->replacedCopy->replacedFrameDropped
                   ? FrameRole::Replacing
                   : FrameRole::Plain;
    if (own->replacedLater && !own->lostToEarlier && !own->replacedFrameDropped)
        return FrameRole::Replaced;
    return FrameRole::Plain;
}

class FrameLinker {
public:
    explicit FrameLinker(Context &ctx) : ctx_(ctx) {}

    // Frame entries of definitions that replaced an earlier weak copy, by
    // their code: the replaced copies' entries take their bodies.
    void indexReplacingEntries() {
        for (auto &file : ctx_.files) {
            bool replacing = std::any_of(file->sections.begin(), file->sections.end(),
                                         [](const InputSection *s) {
                                             return s && s->replacedCopy;
                                         });
            if (!replacing)
                continue;
            for (const auto &[relocHeader, target] : file->relocSections)
                if (target && target->name() == ".debug_frame") {
                    const FrameSection &f = parsed(*file, *target, relocHeader);
                    for (const FrameEntry &e : f.entries) {
                        auto fn = f.functionAt.find(e.locationField);
                        if (!e.isCie && fn != f.functionAt.end() &&
                            frameRole(*file, fn->second) == FrameRole::Replacing)
                            winners_[file->symbols[fn->second]->section] = {
                                file.get(), fn->second, target, e};
                    }
                }
        }
    }

    void link(ObjectFile &file) {
        for (const auto &[relocHeader, target] : file.relocSections)
            if (target && target->name() == ".debug_frame")
                relocsOf_[target] = relocHeader;
        for (InputSection *s : file.sections)
            if (s && s->isLive() && s->name() == ".debug_frame")
                layOut(file, *s);
    }

private:
    void layOut(ObjectFile &file, InputSection &frame) {
        const std::string where = file.name() + ": section '.debug_frame'";
        auto relocs = relocsOf_.find(&frame);
        const FrameSection &frameSection =
            parsed(file, frame, relocs == relocsOf_.end() ? nullptr : relocs->second);
        const std::vector<FrameEntry> &entries = frameSection.entries;
        const std::unordered_map<uint64_t, uint32_t> &functionAt = frameSection.functionAt;

        // Which entries stay: an FDE unless its function is gone, a CIE
        // unless it had FDEs and all of them went.
        std::vector<bool> keep(entries.size(), true);
        size_t cie = SIZE_MAX;
        bool cieHasFde = false, cieHasKeptFde = false;
        auto closeCie = [&] {
            if (cie != SIZE_MAX && cieHasFde && !cieHasKeptFde)
                keep[cie] = false;
        };
        std::vector<size_t> cieOf(entries.size(), SIZE_MAX);
        for (size_t i = 0; i < entries.size(); ++i) {
            const FrameEntry &e = entries[i];
            if (e.isCie) {
                closeCie();
                cie = i;
                cieHasFde = cieHasKeptFde = false;
                continue;
            }
            if (e.end == e.begin + 4) // terminator
                continue;
            if (cie == SIZE_MAX)
                throw FatalError(where + ": frame entry at offset " + hex(e.begin) +
                                 " has no CIE before it, which culd cannot link");
            cieOf[i] = cie;
            cieHasFde = true;
            auto fn = functionAt.find(e.locationField);
            keep[i] = fn == functionAt.end() || !describedFunctionGone(file, fn->second);
            cieHasKeptFde |= keep[i];
        }
        closeCie();

        // The entries nvlink rebuilds.
        std::vector<std::vector<uint8_t>> rebuilt(entries.size());
        for (size_t i = 0; i < entries.size(); ++i) {
            auto fn = functionAt.find(entries[i].locationField);
            if (!keep[i] || entries[i].isCie || fn == functionAt.end())
                continue;
            switch (frameRole(file, fn->second)) {
            case FrameRole::Plain:
                break;
            case FrameRole::Replaced:
                rebuilt[i] = withWinnersBody(frame, entries[i], fn->second, file, where);
                break;
            case FrameRole::Replacing: {
                if (std::count(cieOf.begin(), cieOf.end(), cieOf[i]) != 1)
                    throw FatalError(where + ": the CIE of '" +
                                     std::string(file.symbols[fn->second]->name) +
                                     "' is shared with other entries, which culd does not "
                                     "rebuild from the Mercury frame");
                std::vector<uint8_t> mercuryCie;
                rebuilt[i] = fromMercuryFrame(frame, entries[i], fn->second, file, where,
                                              mercuryCie);
                rebuilt[cieOf[i]] = std::move(mercuryCie);
                break;
            }
            }
        }

        RecordLayout &layout = frame.records;
        layout.active = true;
        uint64_t linked = 0;
        for (size_t i = 0; i < entries.size(); ++i) {
            if (!keep[i])
                continue;
            const FrameEntry &e = entries[i];
            uint32_t replacement = 0;
            uint64_t size = e.end - e.begin;
            if (!rebuilt[i].empty()) {
                size = rebuilt[i].size();
                layout.replacements.push_back(std::move(rebuilt[i]));
                replacement = static_cast<uint32_t>(layout.replacements.size());
            }
            if (!replacement && !layout.kept.empty() && !layout.kept.back().replacement &&
                layout.kept.back().end == e.begin)
                layout.kept.back().end = e.end;
            else
                layout.kept.push_back({e.begin, e.end, linked, replacement});
            linked += size;
            if (cieOf[i] != SIZE_MAX)
                layout.selfOffsets.push_back(
                    {e.ciePointerField, entries[cieOf[i]].begin, e.offsetWidth});
        }
        layout.linkedSize = linked;
    }

    // The replaced copy's entry: its own header (length, CIE pointer,
    // location), then the winner's address range and instructions. That is
    // what nvlink writes only where the two copies' call-frame programs
    // agree: otherwise it maps the replaced copy's rows through the
    // winner's Mercury code (a weak copy whose return is 6 instructions in
    // keeps a row there inside a winner's 7-instruction program; one whose
    // return is 4 instructions in does not, and a winner shorter than the
    // copy can gain a row past its own return), which culd cannot see.
    std::vector<uint8_t> withWinnersBody(const InputSection &frame, const FrameEntry &e,
                                         uint32_t symbolIndex, const ObjectFile &file,
                                         const std::string &where) {
        const std::string name(file.symbols[symbolIndex]->name);
        auto winner = winners_.find(file.symbols[symbolIndex]->section);
        if (winner == winners_.end())
            throw FatalError(where + ": the frame entry of '" + name +
                             "', whose definition was replaced, has no winning entry to take");
        const Winner &w = winner->second;
        requireWide(e, where);
        requireWide(w.entry, where);
        const uint8_t *own = frame.bytes().data;
        const uint8_t *theirs = w.frame->bytes().data;
        if (!sameProgram(frame, e, *w.frame, w.entry) ||
            !sameMercuryProgram(file, symbolIndex, *w.file, w.symbolIndex))
            throw FatalError(where + ": the frame entry of '" + demangleForMessage(name) +
                             "', a weak copy replaced by the definition in " + w.file->name() +
                             ", has call-frame instructions other than the winner's; nvlink "
                             "rebuilds it on " + ctx_.target.name() +
                             " from the Mercury code, which culd does not model");
        std::vector<uint8_t> out(own + e.begin, own + e.locationField + kAddressSize);
        out.insert(out.end(), theirs + w.entry.locationField + kAddressSize, theirs + w.entry.end);
        writeLittle(out.data() + 4, out.size() - kWideHeader, 8);
        return out;
    }

    // An FDE's call-frame instructions: what follows its address range.
    static ByteView program(const InputSection &frame, const FrameEntry &e) {
        uint64_t from = std::min(e.locationField + 2 * kAddressSize, e.end);
        return {frame.bytes().data + from, static_cast<size_t>(e.end - from)};
    }
    static bool sameProgram(const InputSection &a, const FrameEntry &ea, const InputSection &b,
                            const FrameEntry &eb) {
        ByteView pa = program(a, ea), pb = program(b, eb);
        return pa.size == pb.size && std::equal(pa.data, pa.data + pa.size, pb.data);
    }
    bool sameMercuryProgram(const ObjectFile &a, uint32_t symbolA, const ObjectFile &b,
                            uint32_t symbolB) {
        MercuryEntry ma = mercuryEntry(a, symbolA), mb = mercuryEntry(b, symbolB);
        return ma.fde && mb.fde && sameProgram(*ma.frame, *ma.fde, *mb.frame, *mb.fde);
    }

    // The winner's entry, from its Mercury frame: the FDE of its location
    // there gives the Mercury CIE before it and the address range.
    std::vector<uint8_t> fromMercuryFrame(const InputSection &frame, const FrameEntry &e,
                                          uint32_t symbolIndex, const ObjectFile &file,
                                          const std::string &where,
                                          std::vector<uint8_t> &mercuryCie) {
        requireWide(e, where);
        MercuryEntry m = mercuryEntry(file, symbolIndex);
        if (!m.fde || !m.cie || m.fde->locationField + 2 * kAddressSize > m.fde->end)
            throw FatalError(where + ": the frame entry of '" +
                             std::string(file.symbols[symbolIndex]->name) +
                             "', a definition that replaced an earlier weak one, is rebuilt by "
                             "nvlink from its Mercury frame, which has no entry for it");
        const uint8_t *bytes = m.frame->bytes().data;
        mercuryCie.assign(bytes + m.cie->begin, bytes + m.cie->end);
        std::vector<uint8_t> out(frame.bytes().data + e.begin,
                                 frame.bytes().data + e.locationField + kAddressSize);
        out.insert(out.end(), bytes + m.fde->locationField + kAddressSize,
                   bytes + m.fde->locationField + 2 * kAddressSize);
        out.insert(out.end(), 4, 0);
        writeLittle(out.data() + 4, out.size() - kWideHeader, 8);
        return out;
    }

    // A function's FDE in its file's Mercury frame, and the CIE before it.
    struct MercuryEntry {
        const InputSection *frame = nullptr;
        const FrameEntry *fde = nullptr, *cie = nullptr;
    };
    MercuryEntry mercuryEntry(const ObjectFile &file, uint32_t symbolIndex) {
        for (const auto &[relocHeader, target] : file.mercuryRelocSections) {
            if (!target || target->name() != ".nv.merc.debug_frame")
                continue;
            const FrameSection &merc = parsed(file, *target, relocHeader);
            const FrameEntry *cie = nullptr;
            for (const FrameEntry &m : merc.entries) {
                if (m.isCie) {
                    cie = &m;
                    continue;
                }
                auto fn = merc.functionAt.find(m.locationField);
                if (fn != merc.functionAt.end() && fn->second == symbolIndex)
                    return {target, &m, cie};
            }
        }
        return {};
    }

    // A frame section read once: files with replaced definitions are read
    // by the index and again when laid out, a Mercury frame once per
    // function rebuilt from it.
    const FrameSection &parsed(const ObjectFile &file, const InputSection &frame,
                               const ElfSection *relocs) {
        auto it = parsed_.find(&frame);
        if (it == parsed_.end())
            it = parsed_.emplace(&frame, readFrameSection(file, frame, relocs)).first;
        return it->second;
    }

    // The 64-bit DWARF form ptxas writes (0xffffffff, then a u64 length).
    static void requireWide(const FrameEntry &e, const std::string &where) {
        if (e.offsetWidth != 8)
            throw FatalError(where + ": the frame entry at offset " + hex(e.begin) +
                             " is in the 32-bit form, which culd does not rebuild");
    }
    static constexpr uint64_t kWideHeader = 12;
    static constexpr uint64_t kAddressSize = 8;

    Context &ctx_;
    std::unordered_map<const InputSection *, FrameSection> parsed_;
    std::unordered_map<const InputSection *, const ElfSection *> relocsOf_;
    // A replacing definition's code -> its file, symbol, frame section and
    // entry.
    struct Winner {
        const ObjectFile *file;
        uint32_t symbolIndex;
        const InputSection *frame;
        FrameEntry entry;
    };
    std::unordered_map<const InputSection *, Winner> winners_;
};

} // namespace

void linkFramesByEntry(Context &ctx) {
    if (!ctx.target.linksFrameByEntry())
        return;
    FrameLinker linker(ctx);
    linker.indexReplacingEntries();
    for (auto &file : ctx.files)
        linker.link(*file);
}

} // namespace culd
