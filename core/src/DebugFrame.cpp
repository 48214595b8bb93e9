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
//    differ, with the copy's rows that land on the winner's Mercury code
//    added (rowsThroughWinner) --, and the winner's own entry is
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

namespace {

// Walks one call-frame program instruction by instruction.
class ProgramReader {
public:
    ProgramReader(ByteView bytes, uint64_t begin, uint64_t end, const std::string &where)
        : bytes_(bytes), at_(begin), end_(end), where_(where) {}

    std::vector<FrameInstruction> read() {
        std::vector<FrameInstruction> program;
        while (at_ < end_) {
            FrameInstruction insn;
            insn.begin = at_;
            uint8_t op = bytes_.data[at_++];
            if ((op & 0xc0) == 0x40) { // DW_CFA_advance_loc: delta in the opcode
                insn.advance = true;
                insn.delta = op & 0x3f;
            } else if (op >= 0x02 && op <= 0x04) { // advance_loc1/2/4
                insn.advance = true;
                insn.width = op == 0x02 ? 1 : op == 0x03 ? 2 : 4;
                if (end_ - at_ < insn.width)
                    throw fail();
                insn.delta = readLittle(bytes_.data + at_, insn.width);
                at_ += insn.width;
            } else {
                skipOperands(op);
            }
            insn.end = at_;
            program.push_back(insn);
        }
        return program;
    }

private:
    FatalError fail(const std::string &why = "runs past its entry") const {
        return FatalError(where_ + ": the call-frame program at offset " + hex(at_) + " " + why);
    }
    void leb() {
        if (!readUleb(bytes_.data, at_, end_))
            throw fail();
    }
    void block() {
        std::optional<uint64_t> length = readUleb(bytes_.data, at_, end_);
        if (!length || *length > end_ - at_)
            throw fail();
        at_ += *length;
    }
    void skipOperands(uint8_t op) {
        switch (op & 0xc0) {
        case 0x80: // DW_CFA_offset: register in the opcode, ULEB offset
            return leb();
        case 0xc0: // DW_CFA_restore
            return;
        default:
            break;
        }
        switch (op) {
        case 0x00: case 0x0a: case 0x0b: // nop, remember_state, restore_state
            return;
        case 0x06: case 0x07: case 0x08: case 0x0d: case 0x0e: case 0x13:
            return leb(); // one LEB128
        case 0x05: case 0x09: case 0x0c: case 0x11: case 0x12: case 0x14: case 0x15:
            leb();
            return leb(); // two
        case 0x0f: // def_cfa_expression
            return block();
        case 0x10: case 0x16: // expression, val_expression
            leb();
            return block();
        default:
            at_ -= 1;
            throw fail("holds opcode " + hex(op) + ", which culd does not read");
        }
    }

    ByteView bytes_;
    uint64_t at_, end_;
    const std::string &where_;
};

} // namespace

std::vector<FrameInstruction> parseFrameProgram(ByteView bytes, uint64_t begin, uint64_t end,
                                                const std::string &where) {
    return ProgramReader(bytes, begin, end, where).read();
}

uint64_t cieCodeAlignment(ByteView bytes, const FrameEntry &cie, const std::string &where) {
    uint64_t at = cie.begin + (cie.offsetWidth == 8 ? 12 : 4) + cie.offsetWidth;
    auto fail = [&] {
        return FatalError(where + ": the CIE at offset " + hex(cie.begin) +
                          " is not one culd can read");
    };
    if (at + 2 > cie.end)
        throw fail();
    uint8_t version = bytes.data[at++];
    if (bytes.data[at++] != 0) // augmentation ""
        throw fail();
    if (version >= 4)
        at += 2;
    std::optional<uint64_t> codeAlign = readUleb(bytes.data, at, cie.end);
    if (!codeAlign)
        throw fail();
    return *codeAlign;
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
    // A replacing definition: its file, symbol, frame section and entry.
    struct Winner {
        const ObjectFile *file;
        uint32_t symbolIndex;
        const InputSection *frame;
        FrameEntry entry;
    };
    // A function's FDE in its file's Mercury frame, and the CIE before it.
    struct MercuryEntry {
        const InputSection *frame = nullptr;
        const FrameEntry *fde = nullptr, *cie = nullptr;
    };

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
            FrameRole role = frameRole(file, fn->second);
            // The code rewrite moved the winner's entry (CodeRewrite.cpp);
            // what nvlink rebuilds from it then is not measured (a weak
            // kernel with a fence replaced by an explicit specialization).
            const InputSection *code = file.symbols[fn->second]->section;
            if (role != FrameRole::Plain && code && code->isRewrittenCode())
                throw FatalError(where + ": the frame entry of '" +
                                 demangleForMessage(std::string(file.symbols[fn->second]->name)) +
                                 "', whose weak copy a definition with code the target rewrites "
                                 "replaced, is rebuilt by nvlink in a way culd does not model");
            switch (role) {
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
    // location), then the winner's address range and call-frame program.
    // Where the two copies' programs differ, nvlink maps the copy's Mercury
    // rows through the winner's Mercury code and adds those that land where
    // a Mercury instruction starts to that program (rowsThroughWinner).
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
        requireAddressRange(e, where);
        requireAddressRange(w.entry, where);
        std::vector<uint8_t> out(frame.bytes().data + e.begin,
                                 frame.bytes().data + e.locationField + kAddressSize);
        const uint8_t *theirs = w.frame->bytes().data;
        if (sameProgram(frame, e, *w.frame, w.entry) &&
            sameMercuryProgram(file, symbolIndex, *w.file, w.symbolIndex)) {
            out.insert(out.end(), theirs + w.entry.locationField + kAddressSize,
                       theirs + w.entry.end);
        } else {
            Additions added = rowsThroughWinner(file, symbolIndex, w, where);
            out.insert(out.end(), theirs + w.entry.locationField + kAddressSize,
                       theirs + w.entry.locationField + 2 * kAddressSize);
            appendWithRows(*w.frame, w.entry, winnersCodeAlignment(w, where), added, where, out);
        }
        writeLittle(out.data() + 4, out.size() - kWideHeader, 8);
        return out;
    }

    // What a replaced copy's Mercury call-frame rows add to the winner's
    // program: rules at location 0, and rows (advances without rules).
    // nvlink 13.0 maps each row through the winner's Mercury code: one past
    // its end or inside an instruction adds nothing, one where an
    // instruction starts a row at that instruction's SASS, which the winner
    // may have already; rules at 0 come first where the winner has none
    // there (docs/nvlink-findings.md, "Blackwell"). culd knows the winner's
    // Mercury code only at its end, a return (Target::codeTail), that the
    // winner's last rows name in both sets: it maps rows from the return on
    // and refuses a row before it, and rules it has not seen nvlink keep.
    struct Additions {
        std::vector<uint8_t> rulesAtStart;
        std::vector<uint64_t> rows;
    };
    Additions rowsThroughWinner(const ObjectFile &file, uint32_t symbolIndex, const Winner &w,
                                const std::string &where) {
        const std::string name = demangleForMessage(std::string(file.symbols[symbolIndex]->name));
        auto refuse = [&](const std::string &why) {
            return FatalError(where + ": the frame entry of '" + name +
                              "', a weak copy replaced by the definition in " + w.file->name() +
                              ", has call-frame instructions other than the winner's; nvlink "
                              "rebuilds it on " + ctx_.target.name() +
                              " through the winner's Mercury code, " + why);
        };
        const InputSection *code = w.file->symbols[w.symbolIndex]->section;
        MercuryEntry copy = mercuryEntry(file, symbolIndex);
        MercuryEntry winner = mercuryEntry(*w.file, w.symbolIndex);
        if (!code || !copy.fde || !winner.fde)
            throw refuse("which culd does not model here");
        requireAddressRange(*copy.fde, where);
        requireAddressRange(*winner.fde, where);
        std::optional<culd_code_tail> tail = ctx_.target.codeTail(code->bytes());
        const uint64_t mercuryEnd = addressRange(*winner.frame, *winner.fde);
        std::vector<Row> winnerRows = rowsOf(*w.frame, w.entry, winnersCodeAlignment(w, where),
                                             where);
        std::vector<Row> winnerMercuryRows =
            rowsOf(*winner.frame, *winner.fde, mercuryCodeAlignment(winner, where), where);
        if (!tail || tail->return_mercury_size > mercuryEnd || winnerRows.size() < 2 ||
            winnerMercuryRows.size() < 2 || winnerRows.back().at != tail->return_offset ||
            winnerMercuryRows.back().at != mercuryEnd - tail->return_mercury_size)
            throw refuse("which culd models only where that code ends with the return its "
                         "frame rows name");
        const uint64_t returnAt = mercuryEnd - tail->return_mercury_size;
        Additions added;
        for (const Row &row : rowsOf(*copy.frame, *copy.fde, mercuryCodeAlignment(copy, where),
                                     where)) {
            if (row.at > mercuryEnd || (row.at > returnAt && row.at < mercuryEnd))
                continue; // lands on no Mercury instruction's start
            if (row.at == 0) {
                const std::vector<uint8_t> &theirs = winnerRows.front().rules;
                if (theirs.empty())
                    added.rulesAtStart = row.rules;
                else if (!row.rules.empty() && row.rules != theirs)
                    throw refuse("and culd has not seen what nvlink does where both have "
                                 "other rules at its start");
                continue;
            }
            if (row.at < returnAt)
                throw refuse("which culd models only from the winner's return on (the copy "
                             "has a row at " + hex(row.at) + " of its Mercury code)");
            if (!row.rules.empty())
                throw refuse("and culd has not seen what nvlink does with the rules of a row "
                             "it maps");
            if (row.at == mercuryEnd)
                added.rows.push_back(tail->padding_offset);
        }
        return added;
    }

    // A row of a call-frame program: the location an advance reaches (the
    // first row, at 0, holds what comes before any advance) and the rules
    // that follow it up to the next advance, DW_CFA_nop left out.
    struct Row {
        uint64_t at = 0;
        std::vector<uint8_t> rules;
    };
    std::vector<Row> rowsOf(const InputSection &frame, const FrameEntry &e, uint64_t codeAlign,
                            const std::string &where) {
        std::vector<Row> rows{Row{}};
        const uint8_t *bytes = frame.bytes().data;
        uint64_t from = e.locationField + 2 * kAddressSize;
        for (const FrameInstruction &insn : parseFrameProgram(frame.bytes(), from, e.end, where)) {
            if (insn.advance)
                rows.push_back({rows.back().at + insn.delta * codeAlign, {}});
            else if (bytes[insn.begin] != kNop)
                rows.back().rules.insert(rows.back().rules.end(), bytes + insn.begin,
                                         bytes + insn.end);
        }
        return rows;
    }

    // The winner's program with the additions: the rules first, then
    // advances to the rows (DW_CFA_advance_loc4, as ptxas writes them; an
    // advance across one is split), padded with DW_CFA_nop to the next
    // multiple of 8 bytes of the whole entry.
    void appendWithRows(const InputSection &frame, const FrameEntry &e, uint64_t codeAlign,
                        const Additions &added, const std::string &where,
                        std::vector<uint8_t> &out) {
        std::vector<uint64_t> rows = added.rows;
        std::sort(rows.begin(), rows.end());
        out.insert(out.end(), added.rulesAtStart.begin(), added.rulesAtStart.end());
        const uint8_t *bytes = frame.bytes().data;
        uint64_t location = 0;
        size_t next = 0;
        auto advanceTo = [&](uint64_t to) {
            if ((to - location) / codeAlign > UINT32_MAX)
                throw FatalError(where + ": a frame row at " + hex(to) +
                                 " is too far for a location advance");
            out.push_back(kAdvanceLoc4);
            out.resize(out.size() + 4);
            writeLittle(out.data() + out.size() - 4, (to - location) / codeAlign, 4);
            location = to;
        };
        auto skipReached = [&] {
            while (next < rows.size() && rows[next] <= location)
                ++next;
        };
        uint64_t from = e.locationField + 2 * kAddressSize;
        std::vector<FrameInstruction> program = parseFrameProgram(frame.bytes(), from, e.end, where);
        while (!program.empty() && !program.back().advance && bytes[program.back().begin] == kNop)
            program.pop_back();
        for (const FrameInstruction &insn : program) {
            if (!insn.advance) {
                out.insert(out.end(), bytes + insn.begin, bytes + insn.end);
                continue;
            }
            uint64_t to = location + insn.delta * codeAlign;
            skipReached();
            if (next == rows.size() || rows[next] >= to) {
                out.insert(out.end(), bytes + insn.begin, bytes + insn.end);
                location = to;
                continue;
            }
            for (; next < rows.size() && rows[next] < to; ++next)
                advanceTo(rows[next]);
            advanceTo(to);
        }
        skipReached();
        for (; next < rows.size(); ++next)
            advanceTo(rows[next]);
        while ((out.size() % 8) != 0)
            out.push_back(kNop);
        for (uint64_t row : rows)
            if (row % codeAlign != 0)
                throw FatalError(where + ": a frame row at " + hex(row) +
                                 " is off the code alignment");
    }

    // The code alignment of the winner's CIE, and of a Mercury entry's.
    uint64_t winnersCodeAlignment(const Winner &w, const std::string &where) {
        const FrameEntry *cie = cieBefore(parsed(*w.file, *w.frame, nullptr).entries, w.entry);
        return checkedAlignment(cie ? cieCodeAlignment(w.frame->bytes(), *cie, where) : 0, where);
    }
    uint64_t mercuryCodeAlignment(const MercuryEntry &m, const std::string &where) {
        return checkedAlignment(m.cie ? cieCodeAlignment(m.frame->bytes(), *m.cie, where) : 0,
                                where);
    }
    static uint64_t checkedAlignment(uint64_t align, const std::string &where) {
        if (align == 0)
            throw FatalError(where + ": a replaced copy's frame entry has no CIE culd can read");
        return align;
    }
    static const FrameEntry *cieBefore(const std::vector<FrameEntry> &entries,
                                       const FrameEntry &fde) {
        const FrameEntry *cie = nullptr;
        for (const FrameEntry &x : entries) {
            if (x.begin >= fde.begin)
                break;
            if (x.isCie)
                cie = &x;
        }
        return cie;
    }
    static uint64_t addressRange(const InputSection &frame, const FrameEntry &fde) {
        return readLittle(frame.bytes().data + fde.locationField + kAddressSize, kAddressSize);
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
        requireAddressRange(e, where);
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
    // An FDE long enough for its initial location and address range.
    static void requireAddressRange(const FrameEntry &e, const std::string &where) {
        if (e.locationField + 2 * kAddressSize > e.end)
            throw FatalError(where + ": the frame entry at offset " + hex(e.begin) +
                             " is too short for its address range");
    }
    static constexpr uint64_t kWideHeader = 12;
    static constexpr uint64_t kAddressSize = 8;
    static constexpr uint8_t kNop = 0x00;         // DW_CFA_nop
    static constexpr uint8_t kAdvanceLoc4 = 0x04; // DW_CFA_advance_loc4

    Context &ctx_;
    std::unordered_map<const InputSection *, FrameSection> parsed_;
    std::unordered_map<const InputSection *, const ElfSection *> relocsOf_;
    // A replacing definition's code -> its entry.
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
