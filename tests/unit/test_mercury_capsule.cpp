// The capsule decoder of the sm100-mercury plugin (Capsule.cpp): where a
// jump table's offset goes, on hand-made capsules and on one ptxas wrote.
#include "Capsule.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using culd::mercury::jumpTableField;

namespace {

// A jump-table load record (32 bytes, field at +0x1c) and others.
const std::vector<uint8_t> kTableLoad = {0x02, 0x22, 0x0c, 0x06, 0xf8, 0x00, 0x42, 0x00,
                                         0,    0,    0x81, 0x01, 0x41, 0,    0,    0,
                                         0,    0x0a, 0,    0,    0,    0,    0,    0,
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
    uint64_t field = 0;
    std::string error;
};

Placed place(const std::vector<uint8_t> &c, uint64_t twinOffset) {
    Placed p;
    p.ok = jumpTableField(c.data(), c.size(), twinOffset, p.field, p.error);
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

TEST_CASE("a prefix takes no instruction of its own") {
    auto c = capsule(8, {1, 2, 7}, {kShort4, kPrefix, kTableLoad, kShort2});
    Placed p = place(c, 2 * 16);
    REQUIRE(p.ok);
    CHECK(p.field == 12 + 4 + 4 + 2 + 0x1c);
    // A prefix before the table load itself is skipped too.
    auto d = capsule(8, {1, 7}, {kPrefix, kTableLoad, kShort2});
    Placed q = place(d, 16);
    REQUIRE(q.ok);
    CHECK(q.field == 12 + 4 + 2 + 0x1c);
}

TEST_CASE("the capsule's field is refused where it cannot be found for sure") {
    auto c = capsule(12, {3, 5, 10}, {kOther32, kTableLoad, kShort2});
    // An instruction without a record, one not on a 16-byte boundary, one
    // past the function.
    CHECK(place(c, 4 * 16).error.find("has no record") != std::string::npos);
    CHECK(!place(c, 5 * 16 + 4).ok);
    CHECK(!place(c, 40 * 16).ok);
    // A record that is not a table load.
    CHECK(place(c, 3 * 16).error.find("not a jump-table load") != std::string::npos);
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
