// Line tables (.debug_line, .nv_debug_line_sass) linked sequence by
// sequence, for the targets that link .debug_frame entry by entry
// (CULD_ARCH_F_FRAME_BY_ENTRY: nvlink 13.0 on sm_100+). There nvlink drops
// the line-number sequence of a function the output does not carry
// (removed as dead, or a weak copy that lost) -- from the first opcode
// after the previous DW_LNE_end_sequence through its own -- and shortens
// the unit_length of its unit to match; it puts a unit's sequences in the
// order of their functions in the output's .symtab (measured on -lineinfo
// links, docs/nvlink-findings.md "Line tables"); and the offset into .debug_str
// that some units hold after their file table moves with the input's
// .debug_str (moveLineTableStrings). Elsewhere (sm_50..sm_90) the sections
// are linked whole. A sequence's function is the one its
// DW_LNE_set_address relocation names.
#include "culd/Bytes.h"
#include "culd/Context.h"
#include "culd/DebugFrame.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/Link.h"
#include "culd/SymbolOrder.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace culd {

using namespace elf;

namespace {

constexpr uint8_t kExtendedOpcode = 0;
constexpr uint8_t kEndSequence = 1;    // DW_LNE_end_sequence
constexpr uint8_t kSetAddress = 2;     // DW_LNE_set_address
constexpr uint8_t kFixedAdvancePc = 9; // DW_LNS_fixed_advance_pc: a u16 operand

// One line-number sequence: [begin, end) of the section, and where its
// DW_LNE_set_address operand is (UINT64_MAX: none).
struct Sequence {
    uint64_t begin = 0, end = 0, address = UINT64_MAX;
};

// One unit of a line-table section: where its unit_length is, its end, its
// sequences, and the 4-byte field some sm_100+ units carry after their file
// table, inside the header (UINT64_MAX: none).
struct LineUnit {
    uint64_t lengthField = 0, end = 0;
    std::vector<Sequence> sequences;
    uint64_t stringField = UINT64_MAX;
    // The header fields its line program is read with.
    uint8_t minInstLength = 1, lineRange = 1, opcodeBase = 1;
    int8_t lineBase = 0;
    std::vector<uint8_t> operandCounts; // of the standard opcodes 1 .. opcodeBase-1
};

class LineReader {
public:
    LineReader(ByteView bytes, std::string where) : bytes_(bytes), where_(std::move(where)) {}

    std::vector<LineUnit> units() {
        std::vector<LineUnit> out;
        for (uint64_t at = 0; at < bytes_.size;)
            out.push_back(unit(at, at));
        return out;
    }

private:
    LineUnit unit(uint64_t start, uint64_t &at) {
        LineUnit u;
        u.lengthField = start;
        uint64_t length = read(at, 4);
        if (length == 0xFFFFFFFFu)
            fail(start, "is in the 64-bit DWARF form, which culd does not link sequence by sequence");
        u.end = at + length;
        if (length > bytes_.size - at)
            fail(start, "runs past the end of the section");
        read(at, 2); // version
        uint64_t headerLength = read(at, 4);
        if (at > u.end || headerLength > u.end - at || headerLength < 5)
            fail(start, "has a header past its end");
        uint64_t program = at + headerLength;
        u.minInstLength = static_cast<uint8_t>(read(at, 1));
        read(at, 1); // default_is_stmt
        u.lineBase = static_cast<int8_t>(read(at, 1));
        u.lineRange = static_cast<uint8_t>(read(at, 1));
        uint8_t opcodeBase = static_cast<uint8_t>(read(at, 1));
        if (opcodeBase == 0 || opcodeBase - 1u > program - at)
            fail(start, "has a bad opcode_base");
        u.opcodeBase = opcodeBase;
        u.operandCounts.assign(bytes_.data + at, bytes_.data + at + opcodeBase - 1);
        const std::vector<uint8_t> &operands = u.operandCounts;
        at += opcodeBase - 1u;
        uint64_t tables = tablesEnd(start, at, program);
        if (program - tables == 4)
            u.stringField = tables;
        else if (program != tables)
            fail(start, "has " + std::to_string(program - tables) +
                            " bytes after its file table, which culd does not know");
        at = program;
        Sequence seq{at, at};
        while (at < u.end) {
            uint8_t op = static_cast<uint8_t>(readIn(at, 1, u.end));
            if (op == kExtendedOpcode) {
                uint64_t len = uleb(at, u.end);
                if (len == 0 || len > u.end - at)
                    fail(at, "has an extended opcode past the end of its unit");
                uint8_t sub = bytes_.data[at];
                if (sub == kSetAddress && seq.address == UINT64_MAX)
                    seq.address = at + 1;
                at += len;
                if (sub == kEndSequence) {
                    seq.end = at;
                    u.sequences.push_back(seq);
                    seq = Sequence{at, at};
                }
            } else if (op == kFixedAdvancePc) {
                readIn(at, 2, u.end);
            } else if (op < opcodeBase) {
                for (uint8_t k = 0; k < operands[op - 1]; ++k)
                    uleb(at, u.end);
            }
        }
        at = u.end;
        return u;
    }

    // Past the include directories (strings, then an empty one) and the
    // file names (a string and three ULEB128s each, then a 0 byte).
    uint64_t tablesEnd(uint64_t start, uint64_t at, uint64_t program) {
        while (string(start, at, program))
            ;
        while (string(start, at, program))
            for (int k = 0; k < 3; ++k)
                uleb(at, program);
        return at;
    }
    // Skips a NUL-terminated string; false when it was the empty one.
    bool string(uint64_t start, uint64_t &at, uint64_t end) {
        uint64_t from = at;
        while (at < end && bytes_.data[at] != 0)
            ++at;
        if (at == end)
            fail(start, "has a header table past the header");
        ++at;
        return at - from > 1;
    }

    uint64_t read(uint64_t &at, unsigned width) { return readIn(at, width, bytes_.size); }
    uint64_t readIn(uint64_t &at, unsigned width, uint64_t end) {
        if (width > end - at || at > end)
            fail(at, "runs past the end of its unit");
        uint64_t v = readLittle(bytes_.data + at, width);
        at += width;
        return v;
    }
    uint64_t uleb(uint64_t &at, uint64_t end) {
        uint64_t v = 0;
        for (unsigned shift = 0;; shift += 7) {
            uint8_t b = static_cast<uint8_t>(readIn(at, 1, end));
            if (shift < 64)
                v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
    }
    [[noreturn]] void fail(uint64_t at, const std::string &what) const {
        throw FatalError(where_ + ": the line-number unit at offset " + hex(at) + " " + what);
    }

    ByteView bytes_;
    std::string where_;
};

// The line-number sequence of code the target rewrote (sm_100+ kernels that
// lose their fence placeholders, CodeRewrite.cpp). nvlink moves each row to
// the instruction it named (one at a removed instruction to the next kept
// one, the end of the sequence to the end of the new code) and encodes the
// rows again as ptxas does: a special opcode where both the line and the
// address advance and one fits, otherwise DW_LNS_advance_line where the
// line advances, DW_LNS_advance_pc (its operand a signed LEB128) where the
// address does, and DW_LNS_copy; other opcodes stay where they were
// (docs/nvlink-findings.md, "Line tables"). culd encodes the rows as they
// were first and refuses a sequence that does not come out as its input:
// one ptxas encoded another way.
class MovedSequence {
public:
    MovedSequence(ByteView bytes, const LineUnit &unit, const Sequence &seq, std::string where)
        : bytes_(bytes), unit_(unit), seq_(seq), where_(std::move(where)) {
        read();
    }

    std::vector<uint8_t> movedTo(const InputSection &code) const {
        if (encode([](uint64_t address) { return address; }) !=
            std::vector<uint8_t>(bytes_.data + seq_.begin, bytes_.data + seq_.end))
            fail("is not encoded the way culd encodes it again");
        return encode([&code](uint64_t address) { return code.linkedAtOrAfter(address); });
    }

private:
    // A row: the opcodes kept as they are before it, its line advance and
    // its address (from the sequence's start). The end of the sequence is
    // a last row, emitted by DW_LNE_end_sequence.
    struct Row {
        std::vector<uint8_t> before;
        int64_t lineAdvance = 0;
        uint64_t address = 0;
    };

    void read() {
        if (unit_.lineRange == 0 || unit_.minInstLength == 0)
            fail("has a unit header with line_range or min_inst_length 0");
        uint64_t at = seq_.begin, address = 0;
        Row row;
        bool advanced = false;
        auto keep = [&](uint64_t from) {
            if (advanced)
                fail("has an opcode between a row's advances");
            row.before.insert(row.before.end(), bytes_.data + from, bytes_.data + at);
        };
        while (at < seq_.end) {
            uint64_t from = at;
            uint8_t op = bytes_.data[at++];
            if (op >= unit_.opcodeBase) { // special opcode: advance both, emit a row
                uint32_t adjusted = op - unit_.opcodeBase;
                address += uint64_t(adjusted / unit_.lineRange) * unit_.minInstLength;
                row.lineAdvance += unit_.lineBase + int64_t(adjusted % unit_.lineRange);
                emit(row, address, advanced);
            } else if (op == kCopy) {
                emit(row, address, advanced);
            } else if (op == kAdvancePc) {
                address += uleb(at) * unit_.minInstLength;
                advanced = true;
            } else if (op == kAdvanceLine) {
                row.lineAdvance += sleb(at);
                advanced = true;
            } else if (op == kExtendedOpcode) {
                uint64_t length = uleb(at);
                if (length == 0 || length > seq_.end - at)
                    fail("has an extended opcode past its end");
                uint8_t sub = bytes_.data[at];
                at += length;
                if (sub == kEndSequence) {
                    row.address = address;
                    end_ = row;
                    return;
                }
                if (sub == kSetAddress && from != seq_.begin)
                    fail("sets its address again");
                keep(from);
            } else if (op == kConstAddPc || op == kFixedAdvancePc) {
                fail("advances with opcode " + hex(op));
            } else {
                for (uint8_t k = 0; k < unit_.operandCounts[op - 1]; ++k)
                    uleb(at);
                keep(from);
            }
        }
        fail("has no DW_LNE_end_sequence");
    }

    void emit(Row &row, uint64_t address, bool &advanced) {
        row.address = address;
        rows_.push_back(std::move(row));
        row = Row{};
        advanced = false;
    }

    template <typename Map> std::vector<uint8_t> encode(Map addressOf) const {
        std::vector<uint8_t> out;
        uint64_t at = 0;
        for (const Row &row : rows_) {
            out.insert(out.end(), row.before.begin(), row.before.end());
            uint64_t to = addressOf(row.address);
            emitRow(row.lineAdvance, advanceOf(at, to), out);
            at = to;
        }
        out.insert(out.end(), end_.before.begin(), end_.before.end());
        if (end_.lineAdvance != 0)
            fail("advances its line at its end");
        uint64_t advance = advanceOf(at, addressOf(end_.address));
        if (advance != 0)
            advancePc(advance, out);
        out.insert(out.end(), {kExtendedOpcode, 1, kEndSequence});
        return out;
    }

    // An address advance in units of min_inst_length.
    uint64_t advanceOf(uint64_t from, uint64_t to) const {
        if (to < from || (to - from) % unit_.minInstLength != 0)
            fail("has rows out of address order");
        return (to - from) / unit_.minInstLength;
    }

    void emitRow(int64_t lineAdvance, uint64_t advance, std::vector<uint8_t> &out) const {
        int64_t line = lineAdvance - unit_.lineBase;
        if (lineAdvance != 0 && advance != 0 && line >= 0 && line < unit_.lineRange) {
            uint64_t special = uint64_t(line) + unit_.lineRange * advance + unit_.opcodeBase;
            if (special <= 0xff) {
                out.push_back(static_cast<uint8_t>(special));
                return;
            }
        }
        if (lineAdvance != 0) {
            out.push_back(kAdvanceLine);
            appendSleb(lineAdvance, out);
        }
        if (advance != 0)
            advancePc(advance, out);
        out.push_back(kCopy);
    }

    // ptxas writes DW_LNS_advance_pc's unsigned operand as a signed LEB128
    // (0x50 is `d0 00`, 0x30 is `30`).
    static void advancePc(uint64_t advance, std::vector<uint8_t> &out) {
        out.push_back(kAdvancePc);
        appendSleb(static_cast<int64_t>(advance), out);
    }
    static void appendSleb(int64_t value, std::vector<uint8_t> &out) {
        for (bool more = true; more;) {
            uint8_t b = value & 0x7f;
            value >>= 7;
            more = !((value == 0 && !(b & 0x40)) || (value == -1 && (b & 0x40)));
            out.push_back(static_cast<uint8_t>(more ? b | 0x80 : b));
        }
    }

    uint64_t uleb(uint64_t &at) const {
        std::optional<uint64_t> v = readUleb(bytes_.data, at, seq_.end);
        if (!v)
            fail("runs past its end");
        return *v;
    }
    int64_t sleb(uint64_t &at) const {
        int64_t value = 0;
        unsigned shift = 0;
        uint8_t b = 0x80;
        while (b & 0x80) {
            if (at >= seq_.end || shift >= 64)
                fail("runs past its end");
            b = bytes_.data[at++];
            value |= int64_t(b & 0x7f) << shift;
            shift += 7;
        }
        if (shift < 64 && (b & 0x40))
            value |= -(int64_t(1) << shift);
        return value;
    }
    [[noreturn]] void fail(const std::string &why) const {
        throw FatalError(where_ + ": the line-number sequence at offset " + hex(seq_.begin) +
                         " of code the target rewrote " + why + ", which culd cannot move");
    }

    static constexpr uint8_t kCopy = 1, kAdvancePc = 2, kAdvanceLine = 3, kConstAddPc = 8;
    ByteView bytes_;
    const LineUnit &unit_;
    const Sequence &seq_;
    std::string where_;
    std::vector<Row> rows_;
    Row end_;
};

bool isLineTable(const InputSection &s) {
    return s.name() == ".debug_line" || s.name() == ".nv_debug_line_sass";
}

// Each function the output carries, by its place in the output's .symtab.
using TableRanks = std::unordered_map<const Symbol *, uint64_t>;

TableRanks functionTableRanks(const Context &ctx) {
    TableRanks ranks;
    SymbolTableVisitor visitor;
    visitor.carries = [](const Symbol &s) {
        return s.isFunction() && s.defined && s.live && s.section && s.section->isLive();
    };
    visitor.sectionSymbol = [](Symbol &) {};
    visitor.local = visitor.global = [&](Symbol &s) { ranks.emplace(&s, ranks.size()); };
    visitSymbolsInTableOrder(ctx, visitor);
    return ranks;
}

// A kept sequence and the table rank of its function (none: no function
// the output carries is named).
struct KeptSequence {
    const Sequence *sequence;
    std::optional<uint64_t> rank;
    const InputSection *rewrittenCode = nullptr; // its function's, where the target rewrote it
};

// The kept sequences of a unit in the order of their functions in the
// output's symbol table. Sequences that name none stay where they are, as
// long as the others need no reordering around them.
std::vector<KeptSequence> orderedByFunction(const std::vector<KeptSequence> &kept,
                                            const std::string &where) {
    auto byRank = [](const KeptSequence &a, const KeptSequence &b) { return *a.rank < *b.rank; };
    std::vector<KeptSequence> named;
    for (const KeptSequence &k : kept)
        if (k.rank)
            named.push_back(k);
    if (std::is_sorted(named.begin(), named.end(), byRank))
        return kept;
    if (named.size() != kept.size())
        for (const KeptSequence &k : kept)
            if (!k.rank)
                throw FatalError(where + ": the line-number sequence at offset " +
                                 hex(k.sequence->begin) +
                                 " names no function of the output, and the other sequences of "
                                 "its unit are reordered by function: culd cannot place it");
    std::stable_sort(named.begin(), named.end(), byRank);
    return named;
}

// Links one line table sequence by sequence: the sequences of functions the
// output does not carry go and their units shrink; the others come in the
// order of their functions in the output's symbol table (nvlink rebuilds
// these tables function by function: difftest seed 61015 put a function
// another input called first).
void linkSequences(ObjectFile &file, InputSection &table, const ElfSection &relocs,
                   const TableRanks &ranks) {
    std::string where = file.name() + ": section '" + std::string(table.name()) + "'";
    const std::unordered_map<uint64_t, uint32_t> functionAt =
        functionsByRelocatedOffset(file, relocs);
    RecordLayout layout;
    std::vector<FieldPatch> lengths;
    bool changed = false;
    auto link = [&](uint64_t begin, uint64_t end) {
        if (end > begin)
            layout.kept.push_back({begin, end, layout.linkedSize, 0});
        layout.linkedSize += end - begin;
    };
    auto linkInstead = [&](const Sequence &s, std::vector<uint8_t> bytes) {
        layout.kept.push_back({s.begin, s.end, layout.linkedSize, 0});
        layout.linkedSize += bytes.size();
        layout.replacements.push_back(std::move(bytes));
        layout.kept.back().replacement = static_cast<uint32_t>(layout.replacements.size());
    };
    for (const LineUnit &u : LineReader(table.bytes(), where).units()) {
        uint64_t program = u.sequences.empty() ? u.end : u.sequences.front().begin;
        uint64_t tail = u.sequences.empty() ? u.end : u.sequences.back().end;
        std::vector<KeptSequence> kept;
        uint64_t dropped = 0;
        for (const Sequence &s : u.sequences) {
            auto fn = functionAt.find(s.address);
            if (fn != functionAt.end() && describedFunctionGone(file, fn->second)) {
                dropped += s.end - s.begin;
                continue;
            }
            std::optional<uint64_t> rank;
            const InputSection *rewritten = nullptr;
            if (fn != functionAt.end()) {
                const Symbol *function = file.symbols[fn->second];
                if (auto r = ranks.find(function); r != ranks.end())
                    rank = r->second;
                if (function->section && function->section->isRewrittenCode()) {
                    // Another file's code: this sequence is of a weak copy
                    // that definition replaced; not measured.
                    if (function->section->file != &file)
                        throw FatalError(where + ": the line-number sequence at offset " +
                                         hex(s.begin) + " is of a weak copy replaced by code "
                                         "the target rewrites, which culd cannot move");
                    rewritten = function->section;
                }
            }
            kept.push_back({&s, rank, rewritten});
        }
        std::vector<KeptSequence> ordered = orderedByFunction(kept, where);
        bool reordered = false;
        for (size_t i = 0; i < kept.size(); ++i)
            reordered |= kept[i].sequence != ordered[i].sequence;
        link(u.lengthField, program);
        int64_t grown = -static_cast<int64_t>(dropped);
        for (const KeptSequence &k : ordered) {
            if (!k.rewrittenCode) {
                link(k.sequence->begin, k.sequence->end);
                continue;
            }
            std::vector<uint8_t> moved =
                MovedSequence(table.bytes(), u, *k.sequence, where).movedTo(*k.rewrittenCode);
            grown += static_cast<int64_t>(moved.size()) -
                     static_cast<int64_t>(k.sequence->end - k.sequence->begin);
            linkInstead(*k.sequence, std::move(moved));
            changed = true;
        }
        link(tail, u.end);
        if (grown != 0)
            lengths.push_back({u.lengthField,
                               readLittle(table.bytes().data + u.lengthField, 4) +
                                   static_cast<uint64_t>(grown),
                               4});
        layout.permuted |= reordered;
        changed |= reordered || dropped;
    }
    if (!changed)
        return;
    if (table.records.active || !table.patches.empty())
        throw FatalError(where + ": its line sequences and its fields are both rewritten, "
                                 "which culd does not support");
    std::sort(layout.kept.begin(), layout.kept.end(),
              [](const RecordLayout::Range &a, const RecordLayout::Range &b) {
                  return a.begin < b.begin;
              });
    layout.active = true;
    table.records = std::move(layout);
    table.patches = std::move(lengths);
}

// The field after a unit's file table is an offset into its input's
// .debug_str, which nvlink moves with that input's piece of the output's
// (no relocation says so: 0 became 0x32 behind an earlier input's 50-byte
// .debug_str, difftest seeds 61014, 61026).
void moveLineStrings(ObjectFile &file, InputSection &table) {
    const InputSection *strings = nullptr;
    for (const InputSection *s : file.sections)
        if (s && s->isLive() && s->name() == ".debug_str" && s->out)
            strings = s;
    std::string where = file.name() + ": section '" + std::string(table.name()) + "'";
    for (const LineUnit &u : LineReader(table.bytes(), where).units()) {
        if (u.stringField == UINT64_MAX)
            continue;
        if (!strings)
            throw FatalError(where + ": the line-number unit at offset " + hex(u.lengthField) +
                             " refers to a .debug_str its input does not have");
        uint64_t value = readLittle(table.bytes().data + u.stringField, 4) + strings->outOffset;
        table.patches.push_back({u.stringField, value, 4});
    }
    std::sort(table.patches.begin(), table.patches.end(),
              [](const FieldPatch &a, const FieldPatch &b) { return a.offset < b.offset; });
}

} // namespace

void moveLineTableStrings(Context &ctx) {
    if (!ctx.target.linksFrameByEntry())
        return;
    for (auto &file : ctx.files)
        for (InputSection *s : file->sections)
            if (s && s->isLive() && s->out && s->name() == ".debug_line")
                moveLineStrings(*file, *s);
}

void linkLineTablesBySequence(Context &ctx) {
    if (!ctx.target.linksFrameByEntry())
        return;
    // The walk over every symbol is made once, and only for links that
    // carry line tables (-lineinfo, -G).
    std::optional<TableRanks> ranks;
    for (auto &file : ctx.files)
        for (const auto &[relocHeader, target] : file->relocSections)
            if (target && target->isLive() && isLineTable(*target)) {
                if (!ranks)
                    ranks = functionTableRanks(ctx);
                linkSequences(*file, *target, *relocHeader, *ranks);
            }
}

} // namespace culd
