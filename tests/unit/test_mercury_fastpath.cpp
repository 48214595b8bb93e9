// The sm100-mercury plugin's fast-path rule (Fastpath.cpp): which sm_100
// code clears CAN_FASTPATH_FINALIZE's sm_103 bit, on hand-made instructions
// and on the functions ptxas wrote for corpus case 104-fastpath-kept-code.
#include "Fastpath.h"
#include "MercuryCode.h"
#include "TestUtil.h"

#include "culd/ElfFile.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using culd::mercury::fastpathClears;
using culd::mercury::fastpathCodeBits;

namespace {

using Word = culd::test::Insn;

uint32_t clears(uint32_t sm, const std::vector<Word> &words) {
    std::vector<uint8_t> bytes = culd::test::codeBytes(words);
    return fastpathClears(sm, bytes.data(), bytes.size());
}

// Instructions as ptxas 13.0 wrote them for sm_100.
const Word kExit = culd::test::kExitInsn;
const Word kFadd = {0x3f80000002027421, 0x004fca0000000000};
const Word kDfma = {0x000000040206722b, 0x004e240000000008};
const Word kDaddImm = {0x3ff8000002027429, 0x001fe20000000000};
const Word kDsetp = {0x000000040200722a, 0x001fcc0003f04000};
const Word kF2fToDouble = {0x0000000200047310, 0x004e240000201800};
// FSETP.GEU.AND P0, PT, |R0|, 1.175e-38 (rsqrtf's denormal check) ...
const Word kFsetpImmediate = {0x008000000000780b, 0x008fda0003f0e200};
// ... and the same compare combined with P0 instead of PT.
const Word kFsetpImmediateWithP0 = {0x008000000400780b, 0x000fda000072e600};
const Word kFsetpRegister = {0x000000020200720b, 0x004fda0003f08000};

} // namespace

TEST_CASE("fast path: only sm_100 has code-dependent bits", "[mercury][fastpath]") {
    CHECK(fastpathCodeBits(100) == 0x8);
    for (uint32_t sm : {103u, 110u, 120u, 121u, 90u})
        CHECK(fastpathCodeBits(sm) == 0);
    CHECK(clears(120, {kDfma, kFsetpImmediate, kExit}) == 0);
    CHECK(clears(103, {kDfma}) == 0);
}

TEST_CASE("fast path: double arithmetic clears the sm_103 bit", "[mercury][fastpath]") {
    CHECK(clears(100, {kFadd, kExit}) == 0);
    CHECK(clears(100, {kFadd, kDfma, kExit}) == 0x8);
    CHECK(clears(100, {kDaddImm, kExit}) == 0x8);
    CHECK(clears(100, {kDsetp, kExit}) == 0x8);
    // Conversions to double do not.
    CHECK(clears(100, {kF2fToDouble, kExit}) == 0);
}

TEST_CASE("fast path: an FSETP against an immediate from PT clears it", "[mercury][fastpath]") {
    CHECK(clears(100, {kFsetpImmediate, kExit}) == 0x8);
    CHECK(clears(100, {kFsetpImmediateWithP0, kExit}) == 0);
    CHECK(clears(100, {kFsetpRegister, kExit}) == 0);
}

TEST_CASE("fast path: whole instructions only", "[mercury][fastpath]") {
    std::vector<uint8_t> bytes = culd::test::codeBytes({kFadd, kDfma});
    // The DFMA cut short is not read.
    CHECK(fastpathClears(100, bytes.data(), bytes.size() - 1) == 0);
    CHECK(fastpathClears(100, bytes.data(), bytes.size()) == 0x8);
    CHECK(fastpathClears(100, nullptr, 0) == 0);
}

TEST_CASE("fast path: the functions of a unit ptxas marked 0x1", "[mercury][fastpath]") {
    using namespace culd;
    auto path = test::fixturesDir() / "104-fastpath-kept-code" / "sm_100" / "b.cubin";
    REQUIRE(std::filesystem::exists(path));
    std::vector<uint8_t> bytes = test::readFile(path);
    ElfFile elf = ElfFile::parse(path.string(), ByteView{bytes.data(), bytes.size()});
    uint32_t used = ~0u, unused = ~0u;
    for (const ElfSection &s : elf.sections()) {
        uint32_t c = fastpathClears(100, s.data.data, static_cast<size_t>(s.data.size));
        if (s.name == ".text._Z5scalef")
            used = c;
        if (s.name == ".text._Z11unused_wavefd")
            unused = c;
    }
    CHECK(used == 0);
    CHECK(unused == 0x8);
}
