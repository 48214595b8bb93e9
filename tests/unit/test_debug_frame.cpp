// .debug_frame entry parsing (DebugFrame.cpp): 64- and 32-bit DWARF entries,
// terminators, and entries that run past the section; the record layout a
// rebuilt section is linked through.
#include "culd/DebugFrame.h"
#include "culd/Diagnostics.h"
#include "culd/Sections.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace culd;

namespace {

void put(std::vector<uint8_t> &b, uint64_t v, unsigned width) {
    for (unsigned i = 0; i < width; ++i)
        b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// A 64-bit entry: 0xffffffff, length, id/CIE pointer, `body` zero bytes.
void entry64(std::vector<uint8_t> &b, uint64_t id, unsigned body) {
    put(b, 0xFFFFFFFFu, 4);
    put(b, 8 + body, 8);
    put(b, id, 8);
    b.insert(b.end(), body, 0);
}

} // namespace

TEST_CASE("parseFrameEntries splits CIEs and FDEs", "[debug-frame]") {
    std::vector<uint8_t> b;
    entry64(b, UINT64_MAX, 0x24); // CIE at 0
    entry64(b, 0, 0x1c);          // FDE at 0x38
    put(b, 0x10, 4);              // 32-bit CIE at 0x68
    put(b, 0xFFFFFFFFu, 4);
    b.insert(b.end(), 12, 0);
    put(b, 0x14, 4); // 32-bit FDE at 0x7c
    put(b, 0x68, 4);
    b.insert(b.end(), 16, 0);
    put(b, 0, 4); // terminator at 0x94
    std::vector<FrameEntry> e = parseFrameEntries(ByteView{b.data(), b.size()}, "t");
    REQUIRE(e.size() == 5);
    CHECK(e[0].isCie);
    CHECK(e[0].end == 0x38);
    CHECK(!e[1].isCie);
    CHECK(e[1].ciePointerField == 0x38 + 12);
    CHECK(e[1].locationField == 0x38 + 20);
    CHECK(e[1].offsetWidth == 8);
    CHECK(e[2].isCie);
    CHECK(e[2].offsetWidth == 4);
    CHECK(!e[3].isCie);
    CHECK(e[3].ciePointerField == 0x7c + 4);
    CHECK(e[3].locationField == 0x7c + 8);
    CHECK(e[4].begin == 0x94);
    CHECK(e[4].end == 0x98);
}

TEST_CASE("parseFrameEntries refuses an entry past the end", "[debug-frame]") {
    std::vector<uint8_t> b;
    entry64(b, UINT64_MAX, 0x24);
    b.resize(b.size() - 1);
    CHECK_THROWS_AS(parseFrameEntries(ByteView{b.data(), b.size()}, "t"), FatalError);
    std::vector<uint8_t> tiny = {1, 0};
    CHECK_THROWS_AS(parseFrameEntries(ByteView{tiny.data(), tiny.size()}, "t"), FatalError);
}

TEST_CASE("a record layout maps input offsets through kept and rebuilt entries",
          "[debug-frame]") {
    // Input: [0, 0x30) kept, [0x30, 0x60) rebuilt as 0x28 bytes, [0x60, 0x80)
    // dropped, [0x80, 0x90) kept.
    RecordLayout layout;
    layout.active = true;
    layout.replacements.push_back(std::vector<uint8_t>(0x28, 0xab));
    layout.kept = {{0, 0x30, 0, 0}, {0x30, 0x60, 0x30, 1}, {0x80, 0x90, 0x58, 0}};
    layout.linkedSize = 0x68;
    CHECK(layout.kept[1].size(layout) == 0x28);
    CHECK(layout.linkedOffset(0x10) == 0x10);
    // Inside the rebuilt entry, up to its new size only: a relocation on the
    // bytes it no longer has is not linked.
    CHECK(layout.linkedOffset(0x44) == 0x44);
    CHECK_FALSE(layout.linkedOffset(0x58).has_value());
    CHECK_FALSE(layout.linkedOffset(0x70).has_value());
    CHECK(layout.linkedOffset(0x84) == 0x5c);
}
