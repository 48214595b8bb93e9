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
// A jump-table load (the LDC of `switch` code reading its table from the
// function's constant bank) is a 32-byte record opening with kJumpTableLoad;
// the table's 16-bit offset sits at +0x1c, zero in the compiler's output.
// nvlink writes there what it writes into the SASS twin's instruction
// (3267 of 3267 such relocations on sm_100, 103, 110, 120 and 121).
#include "Capsule.h"
#include "Hex.h"

#include <cstring>
#include <vector>

namespace culd::mercury {

namespace {

constexpr size_t kHeaderSize = 12;
constexpr uint64_t kInstructionSize = 16;
constexpr uint8_t kJumpTableLoad[] = {0x02, 0x22, 0x0c, 0x06, 0xf8, 0x00, 0x42, 0x00};
constexpr uint64_t kJumpTableRecordSize = 32;
constexpr uint64_t kJumpTableFieldOffset = 0x1c;

// A record without the prefixes before it.
struct Record {
    uint64_t offset = 0, size = 0;
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
    while (at < size) {
        bool prefix = false;
        uint64_t n = recordSize(capsule[at], prefix);
        if (n == 0 || n > size - at) {
            error = "capsule record at " + hex(at) + " (first byte " + hex(capsule[at]) +
                    ") has an encoding culd does not know";
            return false;
        }
        if (!prefix)
            records.push_back({at, n});
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

uint32_t shortCount(const uint8_t *record) { return uint32_t(record[1]) << 1 | record[0] >> 7; }

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

bool jumpTableField(const uint8_t *capsule, size_t size, uint64_t twinOffset, uint64_t &field,
                    std::string &error) {
    std::vector<bool> own;
    std::vector<Record> records;
    if (!parseRecords(capsule, size, own, records, error))
        return false;
    uint64_t index = twinOffset / kInstructionSize;
    if (twinOffset % kInstructionSize || index >= own.size() || !own[index]) {
        error = "the SASS instruction at " + hex(twinOffset) + " has no record in the capsule";
        return false;
    }
    size_t k = 0;
    for (uint64_t i = 0; i < index; ++i)
        k += own[i];
    const Record &r = records[k];
    const uint64_t body = r.offset;
    if (r.size != kJumpTableRecordSize ||
        std::memcmp(capsule + body, kJumpTableLoad, sizeof kJumpTableLoad) != 0) {
        error = "the capsule record at " + hex(body) +
                " is not a jump-table load culd knows how to patch";
        return false;
    }
    uint16_t current = 0;
    std::memcpy(&current, capsule + body + kJumpTableFieldOffset, 2);
    if (current != 0) {
        error = "the jump-table load at " + hex(body) + " of the capsule already holds " +
                hex(current);
        return false;
    }
    field = body + kJumpTableFieldOffset;
    return true;
}

} // namespace culd::mercury
