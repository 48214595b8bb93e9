// The capsule decoder of the sm100-mercury plugin (Capsule.cpp): where a
// constant-bank offset goes, on hand-made capsules and on ones ptxas wrote.
#include "Capsule.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using culd::mercury::resolvedField;

namespace {

// A jump-table load record (32 bytes, field at +0x1c) and others.
const std::vector<uint8_t> kTableLoad = {0x02, 0x22, 0x0c, 0x06, 0xf8, 0x00, 0x42, 0x00,
                                         0,    0,    0x81, 0x01, 0x41, 0,    0,    0,
                                         0,    0x0a, 0,    0,    0,    0,    0,    0,
                                         0,    0,    0,    0,    0,    0,    0,    0};
const std::vector<uint8_t> kOperand = {0x02, 0x22, 0x0e, 0x06, 0xf8, 0x00, 0x42, 0x00,
                                       0,    0,    0xc1, 0,    0x42, 0,    2,    0,
                                       0,    0,    0,    0,    0,    0,    0,    0,
                                       0,    0,    0,    0,    0,    0,    0,    0};
const std::vector<uint8_t> kOther32 = {0x02, 0x29, 0x04, 0x06, 0xf8, 0, 0x04, 0, 0, 0, 0,
                                       0,    0,    0,    0,    0,    0, 0,    0, 0, 0, 0,
                                       0,    0,    0,    0,    0,    0, 5,    0, 0, 0};
const std::vector<uint8_t> kRecord16 = {0x01, 0x0b, 0x04, 0x0a, 0xf8, 0, 0x04, 0,
                                        0,    0,    0x41, 0,    0,    4, 0,    0};
const std::vector<uint8_t> kShort4 = {0x42, 0x33, 0x00, 0x0e};
const std::vector<uint8_t> kShort2 = {0xd0, 0x07};
const std::vector<uint8_t> kPrefix = {0xd1, 0x01};

// A capsule of `count` instructions: those in `own` have a record (given in
// order, prefixes included), the others none.
std::vector<uint8_t> capsule(uint32_t count, const std::vector<uint32_t> &own,
                             const std::vector<std::vector<uint8_t>> &records) {
    std::vector<uint8_t> c(12, 0);
    c[0] = 0x19; // the twin .text's index
    c[4] = 0x01;
    c[7] = 0xc0;
    for (int i = 0; i < 4; ++i)
        c[8 + i] = static_cast<uint8_t>(count >> (8 * i));
    size_t maskBytes = (count + 7) / 8;
    std::vector<uint8_t> mask((maskBytes + 3) / 4 * 4, 0);
    for (uint32_t i = 0; i < count; ++i)
        mask[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    for (uint32_t i : own)
        mask[i / 8] &= static_cast<uint8_t>(~(1u << (i % 8)));
    c.insert(c.end(), mask.begin(), mask.end());
    for (const auto &r : records)
        c.insert(c.end(), r.begin(), r.end());
    return c;
}

struct Placed {
    bool ok = false;
    std::optional<uint64_t> field;
    std::string error;
};

constexpr uint32_t kAbs32 = 0x10003, kAbs16 = 0x10004;

Placed place(const std::vector<uint8_t> &c, uint64_t twinOffset, uint32_t type = kAbs16) {
    Placed p;
    p.ok = resolvedField(c.data(), c.size(), type, twinOffset, p.field, p.error);
    return p;
}

std::vector<uint8_t> fromHex(const std::string &hex) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

} // namespace

TEST_CASE("a jump table's offset goes into the record of its instruction") {
    // Instructions 3, 5, 9 and 10 have records; 5 and 9 are table loads.
    auto c = capsule(12, {3, 5, 9, 10}, {kRecord16, kTableLoad, kTableLoad, kShort2});
    uint64_t records = 12 + 4;
    Placed first = place(c, 5 * 16);
    REQUIRE(first.ok);
    CHECK(first.field == records + 16 + 0x1c);
    Placed second = place(c, 9 * 16);
    REQUIRE(second.ok);
    CHECK(second.field == records + 16 + 32 + 0x1c);
}

TEST_CASE("an immediate constant operand's offset goes into its record") {
    auto c = capsule(6, {2, 5}, {kOperand, kShort2});
    Placed p = place(c, 2 * 16);
    REQUIRE(p.ok);
    CHECK(p.field == 12 + 4 + 0x1c);
    // The operand's type (bytes 4-7) does not move the field.
    auto typed = c;
    typed[12 + 4 + 4] = 0x00;
    typed[12 + 4 + 6] = 0x52;
    CHECK(place(typed, 2 * 16).field == 12 + 4 + 0x1c);
    // The wide form (0x08) takes R_MERCURY_ABS32, 32 bits; the others not.
    auto wide = c;
    wide[12 + 4 + 2] = 0x08;
    CHECK(place(wide, 2 * 16, kAbs32).field == 12 + 4 + 0x1c);
    CHECK(place(wide, 2 * 16).error.find("with this relocation") != std::string::npos);
    CHECK(place(c, 2 * 16, kAbs32).error.find("with this relocation") != std::string::npos);
    wide[12 + 4 + 0x1f] = 0x01;
    CHECK(place(wide, 2 * 16, kAbs32).error.find("already holds 0x1000000") != std::string::npos);
    // Another relocation type patches no record.
    CHECK(!place(c, 2 * 16, 0x10002).ok);
}

TEST_CASE("an instruction without a record takes its value from its twin") {
    auto c = capsule(6, {2, 5}, {kOperand, kShort2});
    for (uint64_t i : {0, 1, 3, 4}) {
        Placed p = place(c, i * 16);
        REQUIRE(p.ok);
        CHECK(!p.field);
    }
}

TEST_CASE("a prefix stands for SASS instructions before its record's") {
    // d1 01 counts 3: two SASS-only instructions, then the record's own.
    auto c = capsule(8, {1, 2, 7}, {kShort4, kPrefix, kTableLoad, kShort2});
    Placed p = place(c, 4 * 16);
    REQUIRE(p.ok);
    CHECK(p.field == 12 + 4 + 4 + 2 + 0x1c);
    // The SASS-only instructions have no field anywhere.
    CHECK(place(c, 2 * 16).error.find("a prefix counts it") != std::string::npos);
    CHECK(place(c, 3 * 16).error.find("a prefix counts it") != std::string::npos);
    // Instructions after it are shifted by the two.
    Placed after = place(c, 5 * 16);
    REQUIRE(after.ok);
    CHECK(!after.field);
    auto d = capsule(8, {1, 7}, {kPrefix, kTableLoad, kShort2});
    Placed q = place(d, 3 * 16);
    REQUIRE(q.ok);
    CHECK(q.field == 12 + 4 + 2 + 0x1c);
    // A prefix counting nothing is an encoding culd does not know.
    auto zero = capsule(8, {1, 7}, {{0x51, 0x00}, kTableLoad, kShort2});
    CHECK(place(zero, 16).error.find("counts no instruction") != std::string::npos);
}

TEST_CASE("the capsule's field is refused where it cannot be found for sure") {
    auto c = capsule(12, {3, 5, 10}, {kOther32, kTableLoad, kShort2});
    // One not on a 16-byte boundary, one past the function.
    CHECK(!place(c, 5 * 16 + 4).ok);
    CHECK(place(c, 40 * 16).error.find("past the capsule") != std::string::npos);
    // A record that is not a constant-bank operand.
    CHECK(place(c, 3 * 16).error.find("not a constant-bank operand") != std::string::npos);
    // A field that already holds a value.
    auto filled = c;
    filled[12 + 4 + 32 + 0x1c] = 0x34;
    CHECK(place(filled, 5 * 16).error.find("already holds") != std::string::npos);
    // An unknown record kind, a record cut short, a record too many or few.
    auto unknown = capsule(12, {3, 5, 10}, {{0x03, 0, 0, 0}, kTableLoad, kShort2});
    CHECK(place(unknown, 5 * 16).error.find("does not know") != std::string::npos);
    auto cut = capsule(12, {3, 5, 10}, {kOther32, kTableLoad});
    cut.pop_back();
    CHECK(!place(cut, 5 * 16).ok);
    auto extra = capsule(12, {3, 5, 10}, {kOther32, kTableLoad, kShort2, kShort2});
    CHECK(place(extra, 5 * 16).error.find("records for") != std::string::npos);
    // A header or mask past the end.
    CHECK(!place(std::vector<uint8_t>(8, 0), 0).ok);
    auto huge = capsule(12, {3, 5, 10}, {kOther32, kTableLoad, kShort2});
    huge[10] = 0x10; // 1M instructions: the mask alone is past the end
    CHECK(place(huge, 5 * 16).error.find("past its end") != std::string::npos);
}

TEST_CASE("ptxas's capsule of a __constant__ array read at c[28] and by index") {
    // .nv.capmerc.text of `pick` (corpus 134, sm_100): nvlink 13.0 wrote
    // 0x70 at 0x30 for the SASS twin's R_CUDA_CONST_FIELD21_38 at 0x0; the
    // R_CUDA_ABS16_32 at 0x10 (the indexed loads' base) has no record.
    auto c = fromHex(
        "11000000010000c028000000bef7de7b2f00000002220e06f80042000000c10042000200000000000000"
        "0000000000000000000002220c06f80042000000c10042000002000a0000000000000000000000000000"
        "02220c06f80042000000010042000001000a000000000000000000000000000002220c06f80042000000"
        "c1004200c001000a000000000000000000000000000002220c06f80042000000810142008001000a0000"
        "00000000000000000000000002220c06f80042000000010042004001000a000000000000000000000000"
        "000002220c06f80042000000010042000000000a000000000000000000000000000002220c06f8004200"
        "0000c1004200c000000a00000000000000000000000000004233000ed004");
    REQUIRE(c.size() == 0x11a);
    Placed immediate = place(c, 0x0);
    REQUIRE(immediate.ok);
    CHECK(immediate.field == 0x30u);
    Placed indexed = place(c, 0x10);
    REQUIRE(indexed.ok);
    CHECK(!indexed.field);
}

TEST_CASE("ptxas's capsule of a switch: the four tables' fields nvlink writes") {
    // .nv.capmerc.text of `sw1` (a.cu of the jump-table study, sm_100):
    // nvlink 13.0 wrote 0x8034, 0x8040, 0x804c, 0x8058 at 0x30, 0x50, 0x90
    // and 0xb0 for the relocations of the SASS twin at 0xa0, 0x150, 0x220
    // and 0x2e0.
    auto c = fromHex(
        "19000000010000c03a000000fffbdffefbbfff0002220c06f80042000000810141000000000a000000"
        "000000000000000000000002220c06f80042000000810141000000000a0000000000000000000000000"
        "00002290406f8000400000001f8010100010002000000000000000000000500000002220c06f8004200"
        "0000810141000000000a000000000000000000000000000002220c06f80042000000810141000000000"
        "a00000000000000000000000000004233000ed007");
    REQUIRE(c.size() == 0xba);
    const uint64_t twins[] = {0xa0, 0x150, 0x220, 0x2e0}, fields[] = {0x30, 0x50, 0x90, 0xb0};
    for (int i = 0; i < 4; ++i) {
        Placed p = place(c, twins[i]);
        REQUIRE(p.ok);
        CHECK(p.field == fields[i]);
    }
    // The record at instruction 24 (0x180) is another kind.
    CHECK(!place(c, 0x180).ok);
}
