// sm_100 code the driver may not hand to sm_103 unchanged.
//
// ptxas writes CAN_FASTPATH_FINALIZE 0x9 for sm_100 code and 0x1 when the
// unit holds one of two kinds of instruction (measured on 828 sm_100 units,
// every one explained, with none of them in a 0x9 unit; single-kernel units
// pin each kind down):
//   * double-precision arithmetic: DMUL, DADD, DSETP, DFMA (9-bit opcodes
//     0x28-0x2b, any operand form). Conversions to and from double (F2F,
//     I2F, F2I) do not count.
//   * FSETP against an immediate whose source predicate is PT: what the
//     denormal and range checks of sinf, exp2f, rsqrtf, sqrtf, logf, x/y ...
//     compile to (0x80b, bits 87-89 = 7). An FSETP that combines a predicate
//     (P0-P6) does not count, nor the register form.
// nvlink clears the bit only where such a function is kept (64/64
// generated links whose units' masks differ, host-object links whose
// pruned kernels held the only such code among them).
#include "Fastpath.h"
#include "Finalizer.h"

namespace culd::mercury {
namespace {

constexpr uint32_t kSm103Bit = 0x8;

bool isDoubleArithmetic(uint64_t lo) {
    uint32_t op9 = static_cast<uint32_t>(lo & 0x1ff);
    return op9 >= 0x28 && op9 <= 0x2b;
}

bool isFloatCompareWithImmediate(uint64_t lo, uint64_t hi) {
    constexpr uint32_t kPredicateTrue = 7;
    return (lo & 0xfff) == 0x80b && (hi >> 23 & 7) == kPredicateTrue;
}

} // namespace

uint32_t fastpathCodeBits(uint32_t sm) { return sm == 100 ? kSm103Bit : 0; }

uint32_t fastpathClears(uint32_t sm, const uint8_t *code, size_t size) {
    if (fastpathCodeBits(sm) == 0 || !code)
        return 0;
    for (size_t at = 0; at + 16 <= size; at += 16) {
        const Insn insn = loadInsn(code + at);
        if (isDoubleArithmetic(insn.lo) || isFloatCompareWithImmediate(insn.lo, insn.hi))
            return kSm103Bit;
    }
    return 0;
}

} // namespace culd::mercury
