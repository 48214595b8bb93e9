// sm_100+ line tables linked sequence by sequence (core/src/DebugLine.cpp):
// the refusal where a unit's sequences must follow the output's symbol
// order and one of them names no function. The order itself is checked
// against nvlink by corpus cases 126 and 127.

#include "LinkUtil.h"

#include "culd/ElfFile.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace culd;
using namespace culd::test;

namespace {

const fs::path kCase = fixturesDir() / "126-lineinfo-sequence-order" / "sm_120";

// b.cubin with the symbol of the first .rela.debug_line entry set to the
// null symbol: that sequence (the static h's) then names no function.
std::vector<uint8_t> withUnnamedSequence() {
    std::vector<uint8_t> bytes = readFile(kCase / "b.cubin");
    ElfFile elf = ElfFile::parse("b.cubin", view(bytes));
    const ElfSection *rela = elf.findSection(".rela.debug_line");
    REQUIRE(rela);
    REQUIRE(rela->size >= 24);
    uint32_t null = 0;
    std::memcpy(bytes.data() + rela->offset + 12, &null, 4); // r_info's symbol half
    return bytes;
}

} // namespace

TEST_CASE("a line sequence naming no function is refused where its unit is reordered",
          "[debug-line]") {
    TempDir dir;
    writeFile(dir / "b.cubin", withUnnamedSequence());
    std::string result =
        linkInProcess({"-arch=sm_120", (kCase / "a.cubin").string(), (dir / "b.cubin").string(),
                       "-o", (dir / "out.cubin").string()});
    CHECK_THAT(result, Catch::Contains("b.cubin: section '.debug_line': the line-number sequence "
                                       "at offset 0x"));
    CHECK_THAT(result, Catch::Contains("names no function of the output, and the other sequences "
                                       "of its unit are reordered by function: culd cannot place "
                                       "it"));
    CHECK_FALSE(fs::exists(dir / "out.cubin"));
}

TEST_CASE("a unit already in symbol order links with a sequence naming no function",
          "[debug-line]") {
    // a.cubin first, b.cubin second: g is referenced ahead of b's kernels,
    // so b's unit is reordered (refused above). b.cubin alone: its unit is
    // already in table order and the unnamed sequence keeps its place.
    TempDir dir;
    writeFile(dir / "b.cubin", withUnnamedSequence());
    CHECK(linkInProcess({"-arch=sm_120", (dir / "b.cubin").string(), "-o",
                         (dir / "out.cubin").string()}) == "ok");
}
