// How a function's code ends, as the sm100-mercury plugin tells the core
// (ABI 2.11 code_tail, plugins/sm100-mercury/CodeTail.cpp): a return, then
// a branch to itself and no-ops. Instructions as ptxas 13.0 wrote them for
// sm_100.
#include "CodeTail.h"
#include "MercuryCode.h"

#include <catch2/catch.hpp>

using culd::mercury::Insn;
using culd::test::codeBytes;

namespace {

const Insn kAddImmediate = {0x0000000104047810, 0x000fe20007ffe0ff}; // IADD3 R4, R4, 0x1, RZ
const Insn kReturn = {0x0000000014007950, 0x000fec0003e00000};       // RET.REL.NODEC R20
const Insn kBranchToItself = {0xfffffffc00fc7947, 0x000fc0000383ffff}; // BRA `(.L_x_0)
const Insn kNop = {0x0000000000007918, 0x000fc00000000000};

bool tailOf(const std::vector<Insn> &code, culd_code_tail &tail) {
    std::vector<uint8_t> bytes = codeBytes(code);
    return culd::mercury::codeTail(bytes.data(), bytes.size(), tail);
}

} // namespace

TEST_CASE("a device function ends with a return, a branch to itself and no-ops",
          "[mercury][code-tail]") {
    culd_code_tail tail{};
    REQUIRE(tailOf({kAddImmediate, kReturn, kBranchToItself, kNop, kNop, kNop, kNop, kNop},
                   tail));
    CHECK(tail.return_offset == 0x10);
    CHECK(tail.padding_offset == 0x20);
    CHECK(tail.return_mercury_size == 32);
    // No no-ops after the branch: the same.
    REQUIRE(tailOf({kAddImmediate, kAddImmediate, kReturn, kBranchToItself}, tail));
    CHECK(tail.return_offset == 0x20);
    CHECK(tail.padding_offset == 0x30);
}

TEST_CASE("code that ends otherwise has no tail the core may use", "[mercury][code-tail]") {
    culd_code_tail tail{};
    Insn guardedReturn = kReturn; // @P0 RET: code may follow it
    guardedReturn.lo = (guardedReturn.lo & ~uint64_t(0xf000)) | 0x0000;
    CHECK_FALSE(tailOf({kAddImmediate, guardedReturn, kBranchToItself, kNop}, tail));
    Insn branchBack = kBranchToItself; // BRA to the instruction before it
    branchBack.lo = 0xfffffff800fc7947;
    CHECK_FALSE(tailOf({kAddImmediate, kReturn, branchBack, kNop}, tail));
    CHECK_FALSE(tailOf({kAddImmediate, culd::test::kExitInsn, kBranchToItself, kNop}, tail));
    CHECK_FALSE(tailOf({kReturn, kAddImmediate, kBranchToItself, kNop}, tail));
    CHECK_FALSE(tailOf({kBranchToItself, kNop}, tail));
    CHECK_FALSE(tailOf({kNop, kNop}, tail));
    CHECK_FALSE(tailOf({}, tail));
}
