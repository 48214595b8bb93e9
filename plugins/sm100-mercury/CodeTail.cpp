// How a function's code ends. ptxas closes a device function with
//
//     RET.REL.NODEC R20        the return
//     BRA `(.L_x_0)            a branch to itself, then NOPs to the padding
//
// and the capsule's last record stands for the branch and the NOPs: the
// function's Mercury code ends with the return. Its Mercury instruction is
// 32 bytes, measured with nvlink 13.0.88 by moving a replaced weak copy's
// Mercury call-frame row over every 16-byte offset of the winner's Mercury
// code (a row lands in the output only where a Mercury instruction starts):
// 674 of 674 generated leaf functions on sm_100, 103, 110, 120 and 121
// whose frame rows name the return (docs/nvlink-findings.md, "Blackwell").
#include "CodeTail.h"
#include "Finalizer.h"

#include <vector>

namespace culd::mercury {

namespace {

constexpr uint64_t kInstructionSize = 16;
constexpr uint64_t kReturnMercurySize = 32;
constexpr uint32_t kNopOpcode12 = 0x918;

bool isNop(const Insn &i) { return (i.lo & 0xfff) == kNopOpcode12; }
bool isBranchToItself(const Insn &i) {
    return alwaysJumps(i) && branchOffsetBytes(i) == -static_cast<int64_t>(kInstructionSize);
}
bool isReturn(const Insn &i) { return opcode9(i) == kRet && guard(i) == kAlways; }

} // namespace

bool codeTail(const uint8_t *code, size_t size, culd_code_tail &tail) {
    std::vector<Insn> insns = readCode(code, size);
    size_t last = insns.size();
    while (last > 0 && isNop(insns[last - 1]))
        --last;
    if (last < 2 || !isBranchToItself(insns[last - 1]) || !isReturn(insns[last - 2]))
        return false;
    tail.return_offset = (last - 2) * kInstructionSize;
    tail.padding_offset = (last - 1) * kInstructionSize;
    tail.return_mercury_size = kReturnMercurySize;
    return true;
}

} // namespace culd::mercury
