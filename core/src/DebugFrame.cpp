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
//    with any addend and with no relocation at all.
// Elsewhere (sm_50..sm_90) the section is linked whole and the addend is
// applied as it is, even where it misses the CIE.
#include "culd/DebugFrame.h"

#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/Link.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace culd {

using namespace elf;

uint64_t readLittle(const uint8_t *p, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i)
        v |= uint64_t(p[i]) << (8 * i);
    return v;
}

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

std::optional<uint64_t> RecordLayout::linkedOffset(uint64_t inputOffset) const {
    auto it = std::upper_bound(kept.begin(), kept.end(), inputOffset,
                               [](uint64_t off, const Range &r) { return off < r.begin; });
    if (it == kept.begin())
        return std::nullopt;
    --it;
    if (inputOffset >= it->end)
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

class FrameLinker {
public:
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
        std::vector<FrameEntry> entries = parseFrameEntries(frame.bytes(), where);
        std::unordered_map<uint64_t, uint32_t> functionAt = locationSymbols(file, frame);

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
            if (fn != functionAt.end())
                refuseReplacingDefinition(file, fn->second, where);
            keep[i] = fn == functionAt.end() || !functionGone(file, fn->second);
            cieHasKeptFde |= keep[i];
        }
        closeCie();

        RecordLayout &layout = frame.records;
        layout.active = true;
        uint64_t linked = 0;
        for (size_t i = 0; i < entries.size(); ++i) {
            if (!keep[i])
                continue;
            const FrameEntry &e = entries[i];
            if (!layout.kept.empty() && layout.kept.back().end == e.begin)
                layout.kept.back().end = e.end;
            else
                layout.kept.push_back({e.begin, e.end, linked});
            linked += e.end - e.begin;
            if (cieOf[i] != SIZE_MAX)
                layout.selfOffsets.push_back(
                    {e.ciePointerField, entries[cieOf[i]].begin, e.offsetWidth});
        }
        layout.linkedSize = linked;
    }

    // The symbol each FDE's initial-location relocation names, by offset.
    std::unordered_map<uint64_t, uint32_t> locationSymbols(const ObjectFile &file,
                                                           const InputSection &frame) const {
        std::unordered_map<uint64_t, uint32_t> at;
        auto it = relocsOf_.find(&frame);
        if (it == relocsOf_.end())
            return at;
        for (const ElfReloc &r : file.elf().relocations(*it->second))
            if (r.symbol < file.symbols.size() && file.symbols[r.symbol] &&
                file.symbols[r.symbol]->isFunction())
                at.emplace(r.offset, r.symbol);
        return at;
    }

    // nvlink writes the frame entry of a definition that replaced an earlier
    // weak copy from the function's Mercury frame: the Mercury CIE, and an
    // FDE with the Mercury address range and no instructions (sm_100,
    // sm_120; weak then strong, or a later weak copy with fewer registers).
    // culd does not model that.
    static void refuseReplacingDefinition(const ObjectFile &file, uint32_t symbolIndex,
                                          const std::string &where) {
        const ElfSymbol &es = file.elf().symbols()[symbolIndex];
        const InputSection *own = es.shndx < file.sections.size() ? file.sections[es.shndx]
                                                                  : nullptr;
        if (own && own->replacedEarlier && !es.isUndefined())
            throw FatalError(where + ": the frame entry of '" + std::string(es.name) +
                             "', a definition that replaced an earlier weak one, is rebuilt "
                             "by nvlink in a way culd does not model on this target");
    }

    // The function an FDE describes is not in the output: its copy lost to
    // an earlier definition, or the winner was removed.
    static bool functionGone(const ObjectFile &file, uint32_t symbolIndex) {
        const Symbol &sym = *file.symbols[symbolIndex];
        return lostToEarlierDefinition(file, symbolIndex, sym) || isRemovedFromOutput(sym);
    }

    std::unordered_map<const InputSection *, const ElfSection *> relocsOf_;
};

} // namespace

void linkFramesByEntry(Context &ctx) {
    if (!ctx.target.linksFrameByEntry())
        return;
    FrameLinker linker;
    for (auto &file : ctx.files)
        linker.link(*file);
}

} // namespace culd
