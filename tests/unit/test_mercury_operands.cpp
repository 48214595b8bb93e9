// The register operands of sm_100+ SASS (plugins/sm100-mercury/Operands.cpp)
// on instruction words ptxas 13.0 wrote.
#include "Operands.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace culd::mercury;

namespace {

constexpr RegisterId ur(unsigned n) { return static_cast<RegisterId>(kUniformBase + n); }

std::vector<RegisterId> sorted(std::vector<RegisterId> v) {
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

TEST_CASE("mercury operands: loads, uniform and mixed ALU forms", "[mercury]") {
    SECTION("LDCU.64 UR6 writes a uniform pair") {
        auto ops = decodeOperands({0x00007400ff0677ac, 0x000e620008000a00});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{ur(6), ur(7)});
        CHECK(ops->reads.empty()); // URZ index
    }
    SECTION("LDC R1 writes R1") {
        auto ops = decodeOperands({0x0000df00ff017b82, 0x000e220000000800});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{1});
    }
    SECTION("IMAD.WIDE R2, R5, UR14, R2: pairs for Rd and Rc, a UR in B") {
        auto ops = decodeOperands({0x0000000e05027c25, 0x004fe2000f8e0002});
        REQUIRE(ops);
        CHECK(sorted(ops->writes) == std::vector<RegisterId>{2, 3});
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{2, 3, 5, ur(14)});
    }
    SECTION("UIMAD.WIDE reads URa, an immediate and a URc pair") {
        // 0x18a5 URd=UR4 (pair), URa=UR6, imm 0x9, URc=UR4 (pair)
        auto ops = decodeOperands({0x00000009060478a5, 0x000fe2000f8e0004});
        REQUIRE(ops);
        CHECK(sorted(ops->writes) == std::vector<RegisterId>{ur(4), ur(5)});
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{ur(4), ur(5), ur(6)});
    }
    SECTION("ULOP3 UR10, UR10, UR14, URZ reads URa and URb") {
        auto ops = decodeOperands({0x0000000e0a0a7292, 0x008fe2000f8e3cff});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{ur(10)});
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{ur(10), ur(14)});
    }
    SECTION("ATOMS.POPC.INC RZ, [R5 + UR4] (red.shared.add 1) reads R5 and UR4") {
        auto ops = decodeOperands({0x0000000005ff7f8c, 0x000fe2000b800004});
        REQUIRE(ops);
        CHECK(ops->writes.empty());
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{5, ur(4)});
        // With a destination its width is not known: not guessed.
        CHECK_FALSE(decodeOperands({0x0000000005067f8c, 0x000fe2000b800004}));
    }
    SECTION("P2R R62, PR, R0, imm writes R62 and reads R0") {
        auto ops = decodeOperands({0x0000007f003e7803, 0x000fe20000000000});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{62});
        CHECK(ops->reads == std::vector<RegisterId>{0});
    }
    SECTION("USEL UR10, UR10, UR4, UP0 and UMOV UR4, imm without bit 91") {
        auto sel = decodeOperands({0x000000040a0a7287, 0x000fe20008000000});
        REQUIRE(sel);
        CHECK(sel->writes == std::vector<RegisterId>{ur(10)});
        CHECK(sorted(sel->reads) == std::vector<RegisterId>{ur(4), ur(10)});
        auto mov = decodeOperands({0x0000040000057882, 0x000fe20000000000});
        REQUIRE(mov);
        CHECK(mov->writes == std::vector<RegisterId>{ur(5)});
        CHECK(mov->reads.empty());
    }
    SECTION("an opcode outside the model is not guessed") {
        CHECK_FALSE(decodeOperands({0x0000000000007c10, 0}));      // 0x0c10 without bit 91
        CHECK_FALSE(decodeOperands({0x00000000ff0077ac, 0x0000000008000e00})); // LDCU, size code 7
    }
}
