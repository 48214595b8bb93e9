// Hand-made sm_100 code for the tests of the sm100-mercury plugin's rules
// (fast path, fences, finaliser): instructions as ptxas 13.0 wrote them,
// and the bytes of a function made of them.
#pragma once

#include "Finalizer.h"

#include <cstdint>
#include <vector>

namespace culd::test {

using culd::mercury::Insn;

// {lo, hi} as ptxas 13.0 wrote them for sm_100.
inline const Insn kExitInsn = {0x000000000000794d, 0x000fea0003800000};

inline std::vector<uint8_t> codeBytes(const std::vector<Insn> &code) {
    std::vector<uint8_t> out(code.size() * 16);
    culd::mercury::writeCode(out.data(), code);
    return out;
}

} // namespace culd::test
