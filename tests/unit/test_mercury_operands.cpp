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
    SECTION("ATOMS R6, [R0 + UR4], R7 (atomicAdd on shared int) writes R6") {
        // bits 73-75 = 1 on every 32-bit shared atomic measured; another
        // value is not modelled.
        auto ops = decodeOperands({0x000000070006798c, 0x008e640009000204});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{6});
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{0, 7, ur(4)});
        CHECK_FALSE(decodeOperands({0x000000070006798c, 0x008e640009000404}));
    }
    SECTION("ATOMG R3, desc[UR4][R2.64], R11 writes R3, reads the address pair") {
        auto ops = decodeOperands({0x8000000b020309a8, 0x002f2200081ef104});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{3});
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{2, 3, 11, ur(4), ur(5)});
        // Its result unused (RZ): reads only. bits 73-75 = 0 on every global
        // atomic measured; another value is not modelled.
        auto red = decodeOperands({0x8000000904ff79a8, 0x000164000c1ef104});
        REQUIRE(red);
        CHECK(red->writes.empty());
        CHECK(sorted(red->reads) == std::vector<RegisterId>{4, 5, 9, ur(4), ur(5)});
        CHECK_FALSE(decodeOperands({0x8000000b020309a8, 0x002f2200081ef304}));
    }
    SECTION("F2I R7, R4 (`(int)f`) and F2I.U32 R5, R4 (division) read and write one register") {
        auto f2i = decodeOperands({0x0000000400077305, 0x000062000020f100});
        REQUIRE(f2i);
        CHECK(f2i->writes == std::vector<RegisterId>{7});
        CHECK(f2i->reads == std::vector<RegisterId>{4});
        auto u32 = decodeOperands({0x0000000400057305, 0x0002a4000021f000});
        REQUIRE(u32);
        CHECK(u32->writes == std::vector<RegisterId>{5});
        CHECK(u32->reads == std::vector<RegisterId>{4});
        // Other modifier bits (a 64-bit result, say) are not modelled.
        CHECK_FALSE(decodeOperands({0x0000000400077305, 0x000062000020f300}));
    }
    SECTION("F2F.F32.F64 R2, R2 (`(float)d`) reads the double's pair") {
        auto ops = decodeOperands({0x0000000200027310, 0x004e300000301000});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{2});
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{2, 3});
        CHECK_FALSE(decodeOperands({0x0000000200027310, 0x004e300000301200}));
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
    SECTION("MOV.64 R10, imm64 writes the pair and reads nothing") {
        auto ops = decodeOperands({0x00000000630a9402, 0x000fce0000000000});
        REQUIRE(ops);
        CHECK(ops->writes == std::vector<RegisterId>{10, 11});
        CHECK(ops->reads.empty());
    }
    SECTION("FADD with an immediate or a UR has no register in the C slot") {
        auto imm = decodeOperands({0x42a6000005057421, 0x000fe20000000000}); // FADD R5, R5, 83
        REQUIRE(imm);
        CHECK(imm->writes == std::vector<RegisterId>{5});
        CHECK(imm->reads == std::vector<RegisterId>{5});
        auto uni = decodeOperands({0x0000000907077e21, 0x002fe20008000000}); // FADD R7, R7, UR9
        REQUIRE(uni);
        CHECK(sorted(uni->reads) == std::vector<RegisterId>{7, ur(9)});
    }
    SECTION("FFMA R7, R6, -R7, imm keeps B in the C slot") {
        auto ops = decodeOperands({0x3e1039f606077423, 0x000fc80000000807});
        REQUIRE(ops);
        CHECK(sorted(ops->reads) == std::vector<RegisterId>{6, 7});
    }
    SECTION("SHFL forms: registers or immediates for B and C") {
        auto rrr = decodeOperands({0x0800000b07087389, 0x000064000000000c}); // R8, R7, R11, R12
        REQUIRE(rrr);
        CHECK(rrr->writes == std::vector<RegisterId>{8});
        CHECK(sorted(rrr->reads) == std::vector<RegisterId>{7, 11, 12});
        auto rir = decodeOperands({0x0420000006087989, 0x000e2200000e00ff}); // R8, R6, 0x1, RZ
        REQUIRE(rir);
        CHECK(rir->reads == std::vector<RegisterId>{6});
        auto rri = decodeOperands({0x00001f0803097589, 0x004ee400000e0000}); // R9, R3, R8, 0x1f
        REQUIRE(rri);
        CHECK(sorted(rri->reads) == std::vector<RegisterId>{3, 8});
    }
    SECTION("R2UR and REDUX move a register to a uniform one") {
        auto r2ur = decodeOperands({0x00000000080672ca, 0x000fda00000e0000}); // R2UR UR6, R8
        REQUIRE(r2ur);
        CHECK(r2ur->writes == std::vector<RegisterId>{ur(6)});
        CHECK(r2ur->reads == std::vector<RegisterId>{8});
        auto redux = decodeOperands({0x00000000090473c4, 0x000e24000000c000}); // REDUX UR4, R9
        REQUIRE(redux);
        CHECK(redux->writes == std::vector<RegisterId>{ur(4)});
        CHECK(redux->reads == std::vector<RegisterId>{9});
    }
    SECTION("LDS.128 R8, [UR4] and STS.64 [UR4+0x800], R6") {
        auto lds = decodeOperands({0x00000004ff087984, 0x000e280008000c00});
        REQUIRE(lds);
        CHECK(lds->writes == std::vector<RegisterId>{8, 9, 10, 11});
        CHECK(lds->reads == std::vector<RegisterId>{ur(4)});
        auto sts = decodeOperands({0x00080006ff008988, 0x0081e20008000a04});
        REQUIRE(sts);
        CHECK(sorted(sts->reads) == std::vector<RegisterId>{6, 7, ur(4)});
    }
    SECTION("an opcode outside the model is not guessed") {
        CHECK_FALSE(decodeOperands({0x0000000000007c10, 0}));      // 0x0c10 without bit 91
        CHECK_FALSE(decodeOperands({0x00000000ff0077ac, 0x0000000008000e00})); // LDCU, size code 7
    }
}
