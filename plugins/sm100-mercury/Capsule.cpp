// A capsule is the Mercury form of one function, stored as differences from
// its SASS twin (.text.<f>), one bit per SASS instruction:
//
//   u32 the twin's section index     u32 flags     u32 n (instructions)
//   n bits, little-endian, padded to 4 bytes: a clear bit means the
//     instruction has a record of its own, a set bit that it has none
//   the records, in instruction order, one per clear bit
//
// The first byte of a record gives its size: 0x01 and 0x02 open records of
// 16 and 32 bytes, 0x41 and 0x42 short ones of 4 bytes, 0x50 and 0xd0 ones
// of 2; 0x51 and 0xd1 open 2-byte prefixes that belong to the record after
// them and take no bit. Measured on 7017 capsules of ptxas 13.0 (every
// generated, fixture and libcudadevrt one at hand): each walks to its last
// byte with exactly one record per clear bit. Any other first byte stops
// the walk: culd then refuses rather than guess.
//
// The 2-byte records and prefixes carry a count v = byte1 << 1 | bit 7 of
// byte0. A prefix stands for v - 1 SASS instructions with no Mercury
// instruction of their own, just before the instruction of its record: the
// twin's instructions up to its last non-NOP are exactly the capsule's n
// plus every prefix's v - 1 (23708 of 23708 capsules). The last record, a
// 0x50/0xd0 one, counts the twin's trailing NOPs plus one. When nvlink
// removes a kernel's fence placeholders (SASS-only instructions) it lowers
// the prefix that counted them, drops a prefix left counting none, and
// rewrites the last record for the new padding; nothing else changes
// (every capsule of the kernels rewritten in the generated and Thrust/CUB
// sets).
//
// Where a linker-resolved value goes. The capsule's relocations address the
// code it expands to, so the SASS twin's relocation against the same symbol
// (paired by the core) names the instruction. An instruction without a
// record of its own is expanded from its SASS twin, which already carries
// the value: nvlink writes nothing into the capsule. An instruction with a
// record holds it there: a constant-bank operand's 32-byte record opens
// `02 22 <form> 06` and keeps the offset at +0x1c, zero in the compiler's
// output, and nvlink writes there what it writes into the SASS twin. The
// form goes with the relocation (bytes 4-7, the operand's type, vary):
//   0x0e  an immediate operand c[bank][imm], R_MERCURY_ABS16 (the twin's
//         R_CUDA_CONST_FIELD21_38)
//   0x0c  a load LDC c[bank][R + imm], R_MERCURY_ABS16: a jump table read
//         from the function's bank, or an indexed __constant__ element
//   0x08  a wider immediate operand, R_MERCURY_ABS32 (the twin's
//         R_CUDA_CONST_FIELD22_37)
// Measured with nvlink 13.0 on sm_100-sm_121: 3267 of 3267 jump-table
// relocations; 995 of 995 immediate operands of bench/'s workload (sm_100,
// 1150 on sm_110/sm_120), and every one of 8 generated programs of mixed
// int/float/double/struct __constant__ reads (records of every form). The
// bases of register-indexed loads (R_CUDA_ABS16_32, 1044 of 1044 on the
// workload) sit on instructions without a record. The SASS index counts
// the instructions a prefix stands for (calls' records, 732 of 732, are
// found only that way).
#include "Capsule.h"
#include "Hex.h"

#include <culd-nvidia/Nvidia.h>

#include <cstring>
#include <optional>
#include <vector>

namespace culd::mercury {

namespace {

constexpr size_t kHeaderSize = 12;
constexpr uint64_t kInstructionSize = 16;
constexpr uint64_t kOperandRecordSize = 32;
constexpr uint64_t kOperandFieldOffset = 0x1c;
constexpr uint32_t kMercuryAbs32 = nvidia::kMercuryTypeBase + 0x03;
constexpr uint32_t kMercuryAbs16 = nvidia::kMercuryTypeBase + 0x04;

// Whether `record` is a constant-bank operand whose field a relocation of
// `relocType` patches, and the field's width.
bool isOperandFor(const uint8_t *record, uint64_t size, uint32_t relocType, unsigned &width) {
    if (size != kOperandRecordSize || record[0] != 0x02 || record[1] != 0x22 || record[3] != 0x06)
        return false;
    const uint8_t form = record[2];
    width = relocType == kMercuryAbs32 ? 4 : 2;
    return (relocType == kMercuryAbs16 && (form == 0x0c || form == 0x0e)) ||
           (relocType == kMercuryAbs32 && form == 0x08);
}

// A record without the prefixes before it; `sassOnly` counts the SASS
// instructions those prefixes stand for, just before its own.
struct Record {
    uint64_t offset = 0, size = 0;
    uint64_t sassOnly = 0;
};

// Size of the record opening with `lead`, 0 for a first byte never seen.
uint64_t recordSize(uint8_t lead, bool &prefix) {
    prefix = lead == 0x51 || lead == 0xd1;
    switch (lead) {
    case 0x01:
    case 0x02:
        return 16u * lead;
    case 0x41:
    case 0x42:
        return 4;
    case 0x50:
    case 0xd0:
    case 0x51:
    case 0xd1:
        return 2;
    default:
        return 0;
    }
}

uint32_t shortCount(const uint8_t *record) { return uint32_t(record[1]) << 1 | record[0] >> 7; }

// The capsule's records, one per instruction with a clear bit (prefixes
// belong to the record after them), or an error.
bool parseRecords(const uint8_t *capsule, size_t size, std::vector<bool> &own,
                  std::vector<Record> &records, std::string &error) {
    if (size < kHeaderSize) {
        error = "capsule of " + std::to_string(size) + " bytes has no header";
        return false;
    }
    uint32_t count = 0;
    std::memcpy(&count, capsule + 8, 4);
    uint64_t maskBytes = (uint64_t(count) + 7) / 8;
    uint64_t start = kHeaderSize + (maskBytes + 3) / 4 * 4;
    if (start > size) {
        error = "capsule's instruction mask (" + std::to_string(count) +
                " bits) runs past its end";
        return false;
    }
    own.assign(count, false);
    size_t expected = 0;
    for (uint32_t i = 0; i < count; ++i) {
        own[i] = !((capsule[kHeaderSize + i / 8] >> (i % 8)) & 1);
        expected += own[i];
    }
    uint64_t at = start;
    bool prefixed = false; // a prefix waits for its record
    uint64_t sassOnly = 0;
    while (at < size) {
        bool prefix = false;
        uint64_t n = recordSize(capsule[at], prefix);
        if (n == 0 || n > size - at) {
            error = "capsule record at " + hex(at) + " (first byte " + hex(capsule[at]) +
                    ") has an encoding culd does not know";
            return false;
        }
        if (prefix && shortCount(capsule + at) == 0) {
            error = "capsule prefix at " + hex(at) + " counts no instruction";
            return false;
        }
        if (prefix) {
            sassOnly += shortCount(capsule + at) - 1;
        } else {
            records.push_back({at, n, sassOnly});
            sassOnly = 0;
        }
        prefixed = prefix;
        at += n;
    }
    if (prefixed || records.size() != expected) {
        error = "capsule has " + std::to_string(records.size()) + " records for " +
                std::to_string(expected) + " instructions of its own";
        return false;
    }
    return true;
}

bool putShortCount(uint8_t lead, uint32_t count, std::vector<uint8_t> &out) {
    if (count >> 9)
        return false;
    out.push_back(static_cast<uint8_t>(lead | (count & 1) << 7));
    out.push_back(static_cast<uint8_t>(count >> 1));
    return true;
}

} // namespace

bool shrinkCapsule(const uint8_t *capsule, size_t size, const std::vector<bool> &removed,
                   size_t newPadding, std::vector<uint8_t> &out, std::string &error) {
    std::vector<bool> own;
    std::vector<Record> records;
    if (!parseRecords(capsule, size, own, records, error))
        return false;
    const uint64_t start = records.empty() ? size : records.front().offset;
    const Record *last = records.empty() ? nullptr : &records.back();
    if (!last || last->size != 2 || (capsule[last->offset] & 0x7f) != 0x50 ||
        last->offset + 2 != size) {
        error = "the capsule does not end with the record of its padding";
        return false;
    }
    out.assign(capsule, capsule + start);
    // Walk the instructions and the bytes together, counting SASS
    // instructions: one per Mercury instruction, v - 1 per prefix.
    size_t sass = 0, removedSeen = 0;
    uint64_t at = start;
    for (bool hasRecord : own) {
        while (hasRecord && (capsule[at] & 0x7f) == 0x51) {
            uint32_t count = shortCount(capsule + at);
            size_t gone = 0;
            for (size_t k = sass; k + 1 < sass + count && k < removed.size(); ++k)
                gone += removed[k];
            if (gone == 0) {
                out.insert(out.end(), capsule + at, capsule + at + 2);
            } else if (count - gone > 1 && !putShortCount(0x51, uint32_t(count - gone), out)) {
                error = "a prefix count does not fit";
                return false;
            } // else it counts nothing now: dropped
            removedSeen += gone;
            sass += count - 1;
            at += 2;
        }
        if (sass < removed.size() && removed[sass]) {
            error = "the capsule has an instruction of its own for a removed SASS instruction";
            return false;
        }
        if (hasRecord) {
            bool prefix = false;
            uint64_t n = recordSize(capsule[at], prefix);
            if (at != last->offset)
                out.insert(out.end(), capsule + at, capsule + at + n);
            at += n;
        }
        ++sass;
    }
    size_t removedCount = 0;
    for (bool r : removed)
        removedCount += r;
    if (removedSeen != removedCount) {
        error = "the capsule's prefixes do not count the removed SASS instructions";
        return false;
    }
    if (!putShortCount(0x50, static_cast<uint32_t>(newPadding + 1), out)) {
        error = "the padding count does not fit";
        return false;
    }
    return true;
}

bool resolvedField(const uint8_t *capsule, size_t size, uint32_t relocType, uint64_t twinOffset,
                   std::optional<uint64_t> &field, std::string &error) {
    std::vector<bool> own;
    std::vector<Record> records;
    if (!parseRecords(capsule, size, own, records, error))
        return false;
    if (twinOffset % kInstructionSize) {
        error = "the SASS twin's field at " + hex(twinOffset) + " is not in an instruction";
        return false;
    }
    // Walk the Mercury instructions, counting the SASS ones they and the
    // prefixes stand for, to the twin's instruction.
    const uint64_t target = twinOffset / kInstructionSize;
    uint64_t sass = 0;
    size_t k = 0;
    for (bool hasRecord : own) {
        const Record *r = hasRecord ? &records[k++] : nullptr;
        if (r && target < sass + r->sassOnly) {
            error = "the SASS instruction at " + hex(twinOffset) +
                    " has no Mercury instruction (a prefix counts it)";
            return false;
        }
        sass += r ? r->sassOnly : 0;
        if (sass++ != target)
            continue;
        if (!r) { // expanded from the SASS twin, which carries the value
            field.reset();
            return true;
        }
        unsigned width = 0;
        if (!isOperandFor(capsule + r->offset, r->size, relocType, width)) {
            error = "the capsule record at " + hex(r->offset) +
                    " is not a constant-bank operand culd knows how to patch with this relocation";
            return false;
        }
        uint32_t current = 0;
        std::memcpy(&current, capsule + r->offset + kOperandFieldOffset, width);
        if (current != 0) {
            error = "the constant-bank operand at " + hex(r->offset) +
                    " of the capsule already holds " + hex(current);
            return false;
        }
        field = r->offset + kOperandFieldOffset;
        return true;
    }
    error = "the SASS instruction at " + hex(twinOffset) + " is past the capsule's code";
    return false;
}

} // namespace culd::mercury
