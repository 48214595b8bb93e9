// nvlink's post-link scoreboard rewrite of sm_100+ kernels (the Mercury
// "finaliser"), as a pure function on a serialised ELF64 cubin. See
// Finalizer.cpp for the rule and docs/nvlink-findings.md for the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace culd::mercury {

// One 128-bit SASS instruction, little-endian halves.
struct Insn {
    uint64_t lo = 0;
    uint64_t hi = 0;
    bool operator==(const Insn &o) const { return lo == o.lo && hi == o.hi; }
    bool operator!=(const Insn &o) const { return !(*this == o); }
};

// The scoreboard fields of the Volta+ control word (bits 105-127).
constexpr unsigned kStallBit = 105;        // 4 bits, cycles before the next issue
constexpr unsigned kWriteBarrierBit = 110; // 3 bits, 7 = none
constexpr unsigned kReadBarrierBit = 113;  // 3 bits, 7 = none
constexpr unsigned kWaitMaskBit = 116;     // 6 bits, one per barrier
constexpr unsigned kNoBarrier = 7;
constexpr unsigned kNumBarriers = 6;

// Control-transfer opcodes (low 9 bits; the Volta+ numbering holds on
// sm_100).
inline uint32_t opcode9(const Insn &i) { return static_cast<uint32_t>(i.lo & 0x1ff); }
constexpr uint32_t kBssy = 0x145;  // BSSY: its reconvergence point is an offset
constexpr uint32_t kBra = 0x147;   // 0x947 BRA, 0x547 uniform-predicate BRA
constexpr uint32_t kBrx = 0x149;   // 0x949 BRX: indirect, through a jump table
constexpr uint32_t kExit = 0x14d;
constexpr uint32_t kRet = 0x150;
constexpr uint32_t kKill = 0x15b;
constexpr uint32_t kBpt = 0x15c;   // 0x95c BPT.TRAP: __trap(), __brkpt()
// 12-bit opcodes (opcode12) of the producers some rules name.
constexpr uint32_t kLdc = 0xb82;   // LDC Rd, c[bank][Ra + offset]
constexpr uint32_t kLdcu = 0x7ac;  // LDCU URd, c[bank][URa + offset]
constexpr uint32_t kStg = 0x986;   // STG, a global store
constexpr uint32_t kDepbar = 0x91a;   // DEPBAR: waits for a barrier to drain to a count
constexpr uint32_t kBraPlain = 0x947; // BRA (0x547: its uniform-predicate form)
// Guard predicate (bits 12-15); 7 = PT, i.e. unconditional.
inline uint32_t guard(const Insn &i) { return static_cast<uint32_t>(i.lo >> 12 & 0xf); }
constexpr uint32_t kAlways = 7;
inline bool isControlClass(uint32_t op9) { return op9 >= 0x140 && op9 <= 0x15f; }
// Control-class instructions that do not leave the straight line.
inline bool fallsThroughOnly(uint32_t op9) {
    switch (op9) {
    case 0x141: // BSYNC
    case 0x142: // BREAK
    case kBssy:
    case 0x146: // YIELD
    case 0x148: // WARPSYNC
    case 0x15d: // NANOSLEEP
        return true;
    default:
        return false;
    }
}
// Control-class instructions that may leave the straight line: a branch,
// an EXIT, a trap.
inline bool leavesStraightLine(uint32_t op9) {
    return isControlClass(op9) && !fallsThroughOnly(op9);
}

uint32_t getBits(const Insn &insn, unsigned lo, unsigned width);
void setBits(Insn &insn, unsigned lo, unsigned width, uint32_t value);

// `LDC R1, c[0x0][0x37c]`: the stack-pointer load of an -rdc kernel.
// One instruction at `p`; a function's code as instructions (a trailing
// partial one is ignored), and back.
Insn loadInsn(const uint8_t *p);
std::vector<Insn> readCode(const uint8_t *p, uint64_t size);
void writeCode(uint8_t *p, const std::vector<Insn> &code);

// A BRA's target, in bytes from the next instruction; the setter returns
// false when the offset does not fit the field.
int64_t branchOffsetBytes(const Insn &insn);
bool setBranchOffsetBytes(Insn &insn, int64_t bytes);
// Whether a BRA always jumps: only the plain unguarded form (0x0947). The
// uniform-predicate form (0x547) and BRA.DIV (0x1947, bit 91: taken when
// the warp diverges from the mask in URa, guarded by PT -- CUB's warp
// scans) are conditional.
bool alwaysJumps(const Insn &bra);

bool isStackPointerLoad(const Insn &insn);
// CALL of any kind (direct, indirect, to internal slow paths).
bool isCall(const Insn &insn);
// MEMBAR (opcode 0x992): what __threadfence*() compiles to.

// How a function's scoreboard bits are re-allocated once the stack-pointer
// load loses its barrier.
enum class Allocation {
    // Control-flow aware re-allocation that keeps every dependency (default).
    Reallocate,
    // The study's "shift" rule H2 alone (measurement only: it can drop a
    // dependency that crosses the end of its range).
    ShiftOnly,
};

// Rewrites one kernel's .text that passed the W3 test (an R1 load with a
// barrier). Returns false with `error` set when the code cannot be analysed
// (unknown control flow, a branch leaving the function, too many live
// barriers).
// `jumpTargets`: the byte offsets in the function its jump tables hold,
// the successors of its indirect branches (BRX); without any, a BRX is not
// modelled.
bool rewriteScoreboards(std::vector<Insn> &code, std::string &error,
                        Allocation allocation = Allocation::Reallocate,
                        const std::vector<uint64_t> &jumpTargets = {});

// What a debug link asks of the finaliser (culd_host.link_flags).
enum class DebugAction { Rewrite, Unchanged, Refuse };
DebugAction debugAction(bool debugLink, bool debugInputs, bool releaseCode);

struct FinalizeResult {
    enum class Status { Unchanged, Rewritten, Error };
    Status status = Status::Unchanged;
    std::vector<uint8_t> image; // the new image when Rewritten
    std::string error;          // when Error
    std::vector<std::string> rewritten; // kernels whose .text changed
};

// Applies W3 + the rewrite to every kernel of a linked (non-debug) image.
// Every offset and size read from the image is checked: a malformed image
// gives Status::Error, never an out-of-bounds read.
FinalizeResult finalizeImage(const uint8_t *image, size_t size,
                             Allocation allocation = Allocation::Reallocate);

// The words nvlink rewrites in every sm_100+ output, with one parse and at
// most one copy of the image: each capsule's (.nv.capmerc.text.<f>) first
// word, the output section index of its function's .text, and sm_110's
// copy of a .shstrtab header in its Mercury reserved shared memory (see the
// .cpp).
FinalizeResult fixUpImage(const uint8_t *image, size_t size);

} // namespace culd::mercury
