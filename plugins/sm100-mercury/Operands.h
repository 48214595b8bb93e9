// The general and uniform registers an sm_100+ SASS instruction reads and
// writes, for the opcodes the finaliser meets where ptxas shared a
// scoreboard barrier for want of a free one (Rederive.cpp,
// "re-derived producers"). Any other opcode is "not modelled": the caller
// refuses rather than guess a dependency.
#pragma once

#include "Finalizer.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace culd::mercury {

// A register as one number: general R0-R254 are 0-254, uniform UR0-UR254
// are 256-510. RZ and URZ (255) are never listed.
using RegisterId = uint16_t;
constexpr RegisterId kUniformBase = 256;

struct Operands {
    std::vector<RegisterId> reads;
    std::vector<RegisterId> writes;
};

// The opcode with the 13th bit (bit 91) on top: 0x17ac is LDCU.
uint32_t opcode13(const Insn &insn);

std::optional<Operands> decodeOperands(const Insn &insn);

// Whether a source register field of the general layout (A, B or C) holds
// `reg`, whatever the opcode: what an instruction whose operands are not
// modelled may read.
bool sourceFieldsHold(const Insn &insn, uint32_t reg);

} // namespace culd::mercury
