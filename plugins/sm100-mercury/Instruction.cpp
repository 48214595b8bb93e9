// The fields of an sm_100+ instruction the finaliser reads and writes: bit
// ranges of the 128-bit word (the scoreboard fields, the opcode), whole
// functions as instruction vectors, and the BRA target encoding.
#include "Finalizer.h"
#include "Operands.h"

#include <cstring>

namespace culd::mercury {

uint32_t getBits(const Insn &insn, unsigned lo, unsigned width) {
    uint32_t v = 0;
    for (unsigned k = 0; k < width; ++k) {
        unsigned bit = lo + k;
        uint64_t word = bit < 64 ? insn.lo : insn.hi;
        v |= static_cast<uint32_t>((word >> (bit % 64)) & 1) << k;
    }
    return v;
}

void setBits(Insn &insn, unsigned lo, unsigned width, uint32_t value) {
    for (unsigned k = 0; k < width; ++k) {
        unsigned bit = lo + k;
        uint64_t &word = bit < 64 ? insn.lo : insn.hi;
        uint64_t mask = uint64_t(1) << (bit % 64);
        word = (value >> k & 1) ? (word | mask) : (word & ~mask);
    }
}

Insn loadInsn(const uint8_t *p) {
    Insn insn;
    std::memcpy(&insn.lo, p, 8);
    std::memcpy(&insn.hi, p + 8, 8);
    return insn;
}

std::vector<Insn> readCode(const uint8_t *p, uint64_t size) {
    std::vector<Insn> code(size / 16);
    for (size_t i = 0; i < code.size(); ++i)
        code[i] = loadInsn(p + i * 16);
    return code;
}

void writeCode(uint8_t *p, const std::vector<Insn> &code) {
    for (size_t i = 0; i < code.size(); ++i) {
        std::memcpy(p + i * 16, &code[i].lo, 8);
        std::memcpy(p + i * 16 + 8, &code[i].hi, 8);
    }
}

// BRA target: a signed word offset (4-byte units) from the next
// instruction, its low 8 bits at bits 16-23 and the rest at bits 34-81
// (measured on every BRA of the study's sm_100/sm_120 sets).
int64_t branchOffsetBytes(const Insn &i) {
    uint64_t low8 = i.lo >> 16 & 0xff;
    uint64_t high48 = ((i.lo >> 34) | (i.hi << 30)) & ((uint64_t(1) << 48) - 1);
    uint64_t raw = high48 << 8 | low8; // 56-bit two's complement
    int64_t words = (raw >> 55 & 1) ? static_cast<int64_t>(raw | ~((uint64_t(1) << 56) - 1))
                                     : static_cast<int64_t>(raw);
    return words * 4;
}

bool alwaysJumps(const Insn &bra) { return opcode13(bra) == kBraPlain && guard(bra) == kAlways; }

bool setBranchOffsetBytes(Insn &i, int64_t bytes) {
    constexpr int64_t kLimit = int64_t(1) << 55;
    if (bytes % 4 != 0 || bytes / 4 >= kLimit || bytes / 4 < -kLimit)
        return false;
    uint64_t raw = static_cast<uint64_t>(bytes / 4) & ((uint64_t(1) << 56) - 1);
    uint64_t high48 = raw >> 8;
    i.lo = (i.lo & ~(uint64_t(0xff) << 16)) | (raw & 0xff) << 16;
    i.lo = (i.lo & ((uint64_t(1) << 34) - 1)) | high48 << 34;
    i.hi = (i.hi & ~((uint64_t(1) << 18) - 1)) | high48 >> 30;
    return true;
}

} // namespace culd::mercury
