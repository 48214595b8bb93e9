// Register operands of sm_100+ SASS.
//
// The encoding (docs/nvlink-findings.md, "Register operands"): Rd/URd at
// bits 16-23, A at 24-31, B at 32-39 (or a 32-bit immediate at 32-63), C
// at 64-71; 255 is RZ/URZ. An ALU opcode's low 9 bits name the operation
// (0x80-0xbf: the uniform datapath) and bits 9-11 with bit 91 its operand
// form. Loads size their destination with bits 73-75. Every layout here
// was checked against ptxas's own scoreboard waits: on the generated
// sm_100/sm_120 sets, the first instruction touching a producer's
// destination is, for every producer alone on its barrier, the one ptxas
// waits at; and every instruction of 452 kernels decodes to the registers
// nvdisasm prints (findings: "Register operands").
#include "Operands.h"

#include <algorithm>
#include <iterator>

namespace culd::mercury {

namespace {

enum class File : uint8_t { R, UR };
// `ZeroOnly`: a field whose width is not known, understood only when it
// holds RZ/URZ.
enum class Width : uint8_t {
    One,
    Pair,
    LoadSize,
    PairIfBit72,
    PairIfBit73,
    PairIfBit80,
    ZeroOnly,
    SharedAtomicWord,
    GlobalAtomicWord,
    SingleConversion,
    DoubleToSingleSource
};

struct Field {
    unsigned bit;
    File file;
    Width width;
};

constexpr unsigned kDest = 16, kA = 24, kB = 32, kC = 64;
constexpr uint32_t kZeroRegister = 255;

// How many registers a field covers; 0 when its width is not modelled.
unsigned registerCount(const Insn &insn, Width width) {
    switch (width) {
    case Width::One:
        return 1;
    case Width::Pair:
        return 2;
    case Width::LoadSize:
        switch (getBits(insn, 73, 3)) {
        case 0: case 1: case 2: case 3: case 4:
            return 1; // 8, 16 and 32 bits
        case 5:
            return 2;
        case 6:
            return 4;
        default:
            return 0;
        }
    case Width::PairIfBit72:
        return getBits(insn, 72, 1) ? 2 : 1;
    case Width::PairIfBit73:
        return getBits(insn, 73, 1) ? 2 : 1;
    case Width::PairIfBit80:
        return getBits(insn, 80, 1) ? 2 : 1;
    case Width::ZeroOnly:
        return 0;
    // An atomic's data (bits 73-75, not the loads' size field): 1 on every
    // shared atomic of 32-bit data measured (1,739 in the generated
    // shared-atomic kernels), 0 on every global one (1,304 in the fence
    // kernels); other values are not modelled.
    case Width::SharedAtomicWord:
        return getBits(insn, 73, 3) == 1 ? 1 : 0;
    case Width::GlobalAtomicWord:
        return getBits(insn, 73, 3) == 0 ? 1 : 0;
    // A conversion's operands at the modifier bits (72-90) measured, each
    // a 32-bit register: F2I (0x305) from a float, `(int)f` (0x20f1) and
    // the unsigned form of ptxas's integer division and remainder (0x21f0);
    // 56,300 and 4,800 in the generated sm_100/sm_120 sets, no other value.
    // Other modifiers (a 64-bit integer result) are not modelled.
    case Width::SingleConversion: {
        uint32_t modifiers = getBits(insn, 72, 19);
        return modifiers == 0x20f1 || modifiers == 0x21f0 ? 1 : 0;
    }
    // F2F.F32.F64 (0x310, `(float)d`): a double's register pair in, at the
    // one modifier value measured (0x3010, all 9,068 in the generated
    // variable-latency kernels).
    case Width::DoubleToSingleSource:
        return getBits(insn, 72, 19) == 0x3010 ? 2 : 0;
    }
    return 0;
}

// Appends the field's registers; false when its width is not modelled.
bool addField(const Insn &insn, const Field &f, std::vector<RegisterId> &out) {
    uint32_t reg = getBits(insn, f.bit, 8);
    if (reg == kZeroRegister)
        return true;
    unsigned count = registerCount(insn, f.width);
    if (count == 0 || reg + count > kZeroRegister)
        return false;
    RegisterId base = f.file == File::UR ? kUniformBase : 0;
    for (unsigned k = 0; k < count; ++k)
        out.push_back(static_cast<RegisterId>(base + reg + k));
    return true;
}

struct Layout {
    std::optional<Field> dest;
    std::vector<Field> sources;
};

// Loads, stores and instructions without register operands, by 13-bit
// opcode.
std::optional<Layout> memoryLayout(uint32_t op) {
    switch (op) {
    case 0x0918: // NOP
    case 0x0941: // BSYNC
    case 0x0945: // BSSY
    case 0x0947: // BRA
    case 0x0948: // WARPSYNC
    case 0x094d: // EXIT
    case 0x091a: // DEPBAR
    case 0x0992: // MEMBAR
    case 0x0b1d: // BAR
        return Layout{};
    case 0x0919: // S2R Rd, SR
        return Layout{Field{kDest, File::R, Width::One}, {}};
    case 0x09c3: // S2UR URd, SR
        return Layout{Field{kDest, File::UR, Width::One}, {}};
    case 0x0b82: // LDC Rd, c[bank][Ra + offset]
        return Layout{Field{kDest, File::R, Width::LoadSize}, {{kA, File::R, Width::One}}};
    case 0x17ac: // LDCU URd, c[bank][URa + offset]
        return Layout{Field{kDest, File::UR, Width::LoadSize}, {{kA, File::UR, Width::One}}};
    case 0x1981: // LDG Rd, desc[URb][Ra(.64) + offset]
        return Layout{Field{kDest, File::R, Width::LoadSize},
                      {{kA, File::R, Width::PairIfBit72}, {kB, File::UR, Width::Pair}}};
    case 0x1986: // STG desc[URc][Ra(.64) + offset], Rb
        return Layout{std::nullopt,
                      {{kA, File::R, Width::PairIfBit72},
                       {kB, File::R, Width::LoadSize},
                       {kC, File::UR, Width::Pair}}};
    case 0x0984: // LDS Rd, [Ra + offset]
        return Layout{Field{kDest, File::R, Width::LoadSize}, {{kA, File::R, Width::One}}};
    case 0x0388: // STS [Ra + offset], Rb
        return Layout{std::nullopt, {{kA, File::R, Width::One}, {kB, File::R, Width::LoadSize}}};
    case 0x1980: // LD Rd, desc[URb][Ra(.64) + offset]: a generic load
        return Layout{Field{kDest, File::R, Width::LoadSize},
                      {{kA, File::R, Width::PairIfBit72}, {kB, File::UR, Width::Pair}}};
    case 0x1985: // ST desc[URc][Ra(.64) + offset], Rb: a generic store
        return Layout{std::nullopt,
                      {{kA, File::R, Width::PairIfBit72},
                       {kB, File::R, Width::LoadSize},
                       {kC, File::UR, Width::Pair}}};
    case 0x1984: // LDS Rd, [Ra + URb + offset]
        return Layout{Field{kDest, File::R, Width::LoadSize},
                      {{kA, File::R, Width::One}, {kB, File::UR, Width::One}}};
    case 0x1988: // STS [Ra + URc + offset], Rb
        return Layout{std::nullopt,
                      {{kA, File::R, Width::One},
                       {kB, File::R, Width::LoadSize},
                       {kC, File::UR, Width::One}}};
    case 0x0305: // F2I Rd, Rb: float to a 32-bit integer
        return Layout{Field{kDest, File::R, Width::SingleConversion},
                      {{kB, File::R, Width::SingleConversion}}};
    case 0x0310: // F2F.F32.F64 Rd, Rb.64: double to float
        return Layout{Field{kDest, File::R, Width::One},
                      {{kB, File::R, Width::DoubleToSingleSource}}};
    case 0x0308: // MUFU Rd, Rb
    case 0x0309: // POPC Rd, Rb
        return Layout{Field{kDest, File::R, Width::One}, {{kB, File::R, Width::One}}};
    case 0x03c4: // REDUX URd, Ra
        return Layout{Field{kDest, File::UR, Width::One}, {{kA, File::R, Width::One}}};
    case 0x0f89: // SHFL Rd, Ra, imm, imm
        return Layout{Field{kDest, File::R, Width::One}, {{kA, File::R, Width::One}}};
    case 0x0389: // SHFL Rd, Ra, Rb, Rc
        return Layout{Field{kDest, File::R, Width::One},
                      {{kA, File::R, Width::One}, {kB, File::R, Width::One},
                       {kC, File::R, Width::One}}};
    case 0x0589: // SHFL Rd, Ra, Rb, imm
        return Layout{Field{kDest, File::R, Width::One},
                      {{kA, File::R, Width::One}, {kB, File::R, Width::One}}};
    case 0x0989: // SHFL Rd, Ra, imm, Rc
        return Layout{Field{kDest, File::R, Width::One},
                      {{kA, File::R, Width::One}, {kC, File::R, Width::One}}};
    case 0x198c: // ATOMS Rd, [Ra + URc + offset], Rb: atomicAdd etc. on shared memory
        return Layout{Field{kDest, File::R, Width::SharedAtomicWord},
                      {{kA, File::R, Width::One},
                       {kB, File::R, Width::SharedAtomicWord},
                       {kC, File::UR, Width::One}}};
    case 0x19a8: // ATOMG Rd, desc[URc][Ra(.64)], Rb: atomicAdd etc. on global memory
        return Layout{Field{kDest, File::R, Width::GlobalAtomicWord},
                      {{kA, File::R, Width::PairIfBit72},
                       {kB, File::R, Width::GlobalAtomicWord},
                       {kC, File::UR, Width::Pair}}};
    case 0x1f8c: // ATOMS.POPC.INC RZ, [Ra + URc + offset]: red.shared.add 1
        return Layout{Field{kDest, File::R, Width::ZeroOnly},
                      {{kA, File::R, Width::One}, {kC, File::UR, Width::One}}};
    default:
        return std::nullopt;
    }
}

// An ALU operation: what its destination is and which of the A/B/C
// operands it has.
struct Operation {
    uint32_t base; // low 9 bits of the opcode
    std::optional<Width> dest;
    bool a, b, c;
    Width aWidth = Width::One, bWidth = Width::One, cWidth = Width::One;
};

constexpr Operation kOperations[] = {
    // General datapath.
    {0x002, Width::PairIfBit80, false, true, false, Width::One, Width::PairIfBit80}, // MOV
    {0x003, Width::One, true, true, false},                                          // P2R
    {0x007, Width::One, true, true, false},                                          // SEL
    {0x00c, std::nullopt, true, true, false},                                        // ISETP
    {0x010, Width::One, true, true, true},                                           // IADD3
    {0x011, Width::One, true, true, true},                                           // LEA
    {0x012, Width::One, true, true, true},                                           // LOP3
    {0x019, Width::One, true, true, true},                                           // SHF
    {0x024, Width::One, true, true, true},                                           // IMAD
    {0x025, Width::Pair, true, true, true, Width::One, Width::One, Width::Pair},     // IMAD.WIDE
    {0x027, Width::One, true, true, true},                                           // IMAD.HI
    {0x031, Width::One, true, true, true},                                           // HFMA2
    {0x036, Width::One, true, true, false},                                          // VIADD
    {0x035, Width::PairIfBit73, true, true, false, Width::PairIfBit73,
     Width::PairIfBit73}, // IADD(.64)
    {0x006, Width::One, false, false, false},                                        // VOTE
    {0x009, Width::One, true, true, false},                                          // FMNMX
    {0x00b, std::nullopt, true, true, false},                                        // FSETP
    {0x013, Width::One, false, true, false},                                         // IABS
    {0x01c, std::nullopt, false, false, false},                                      // PLOP3
    {0x020, Width::One, true, true, false},                                          // FMUL
    {0x021, Width::One, true, true, false},                                          // FADD
    {0x023, Width::One, true, true, true},                                           // FFMA
    {0x045, Width::One, false, true, false},                                         // I2FP.F32
    {0x046, Width::One, true, true, true},                                           // VIADDMNMX
    {0x048, Width::One, true, true, false},                                          // VIMNMX
    // Uniform datapath.
    {0x082, Width::One, false, true, false},                                     // UMOV
    {0x087, Width::One, true, true, false},                                      // USEL
    {0x08c, std::nullopt, true, true, false},                                    // UISETP
    {0x090, Width::One, true, true, true},                                       // UIADD3
    {0x091, Width::One, true, true, true},                                       // ULEA
    {0x092, Width::One, true, true, true},                                       // ULOP3
    {0x097, Width::Pair, true, true, true, Width::Pair, Width::Pair, Width::Pair}, // UIADD3.64
    {0x099, Width::One, true, true, true},                                       // USHF
    {0x0a4, Width::One, true, true, true},                                       // UIMAD
    {0x0a5, Width::Pair, true, true, true, Width::One, Width::One, Width::Pair}, // UIMAD.WIDE
    {0x086, Width::One, false, false, false},                                    // VOTEU
    {0x09c, std::nullopt, false, false, false},                                  // UPLOP3
    {0x0bd, Width::One, false, true, false},                                     // UFLO
};

bool isUniform(uint32_t base) { return base >= 0x80 && base < 0xc0; }

// A, B and C in their usual places; no B register when `bFile` is empty
// (an immediate).
void addUsual(Layout &l, const Operation &o, File file, std::optional<File> bFile) {
    if (o.a)
        l.sources.push_back({kA, file, o.aWidth});
    if (o.b && bFile)
        l.sources.push_back({kB, *bFile, o.bWidth});
    if (o.c)
        l.sources.push_back({kC, file, o.cWidth});
}

// A with the B register moved to bits 64-71 (the immediate or a UR holds
// the B slot). An operation of two sources has no register there: the
// immediate or UR is its B (FADD R5, R5, 83; FADD R7, R7, UR9).
void addMovedB(Layout &l, const Operation &o, File file) {
    if (o.a)
        l.sources.push_back({kA, file, o.aWidth});
    if (o.c)
        l.sources.push_back({kC, file, o.cWidth});
}

// What the B slot (bits 32-39 / 32-63) of a form holds; the *MovingB forms
// put the B register at bits 64-71. `key`: opcode bits 9-11, bit 91 as bit
// 3, and bit 4 set for the uniform datapath.
enum class BSlot { Register, Uniform, Immediate, UniformMovingB, ImmediateMovingB };

std::optional<BSlot> bSlot(uint32_t key) {
    switch (key) {
    case 0x1:  // 0x2xx: R, R, R
    case 0x19: // 0x12xx: UR, UR, UR
        return BSlot::Register;
    case 0xe: // 0x1cxx: R, UR, R
        return BSlot::Uniform;
    case 0x4:  // 0x8xx: R, immediate, R
    case 0x1c: // 0x18xx: UR, immediate, UR
        return BSlot::Immediate;
    case 0xf: // 0x1exx: R, R, UR
        return BSlot::UniformMovingB;
    case 0x2:  // 0x4xx: R, R, immediate
    case 0x1a: // 0x14xx: UR, UR, immediate
        return BSlot::ImmediateMovingB;
    default:
        return std::nullopt;
    }
}

// The operand form, from opcode bits 9-11 and bit 91 (findings: "Register
// operands").
// Forms that break the pattern of their operation, by 13-bit opcode.
std::optional<Layout> irregularLayout(uint32_t op) {
    switch (op) {
    // MOV.64 Rd, imm64: the immediate fills bits 32-95, so no register
    // sits in the C slot, and the pair is not flagged by bit 80 (nvdisasm
    // on CUB's histogram scan kernel, sm_120: `MOV.64 R10, 0x63`, read as a
    // move into R10 alone from R0 before).
    case 0x402:
        return Layout{Field{kDest, File::R, Width::Pair}, {}};
    case 0x2ca: // R2UR URd, Ra: a uniform destination outside 0x80-0xbf
        return Layout{Field{kDest, File::UR, Width::One}, {{kA, File::R, Width::One}}};
    default:
        return std::nullopt;
    }
}

std::optional<Layout> aluLayout(uint32_t op) {
    if (std::optional<Layout> l = irregularLayout(op))
        return l;
    uint32_t base = op & 0x1ff;
    auto it = std::find_if(std::begin(kOperations), std::end(kOperations),
                           [&](const Operation &o) { return o.base == base; });
    if (it == std::end(kOperations))
        return std::nullopt;
    const Operation &o = *it;
    File file = isUniform(base) ? File::UR : File::R;
    Layout l;
    if (o.dest)
        l.dest = Field{kDest, file, *o.dest};
    uint32_t form = op >> 9; // bits 9-11, with bit 91 as bit 3
    if (!o.a && !o.b && !o.c) // predicates and immediates only, in any form
        return l;
    if (base == 0x082) { // UMOV: 0x1c82 from a register, 0x1882 and 0x0882 an immediate
        if (op == 0x1c82)
            l.sources.push_back({kB, File::UR, Width::One});
        return op == 0x1c82 || op == 0x1882 || op == 0x0882 ? std::optional<Layout>(l)
                                                             : std::nullopt;
    }
    std::optional<BSlot> slot = bSlot(isUniform(base) ? form | 0x10 : form);
    if (!slot)
        return std::nullopt;
    switch (*slot) {
    case BSlot::Register:
        addUsual(l, o, file, file);
        break;
    case BSlot::Uniform:
        addUsual(l, o, file, File::UR);
        break;
    case BSlot::Immediate:
        addUsual(l, o, file, std::nullopt);
        break;
    case BSlot::UniformMovingB:
        l.sources.push_back({kB, File::UR, Width::One});
        addMovedB(l, o, file);
        break;
    case BSlot::ImmediateMovingB:
        addMovedB(l, o, file);
        break;
    }
    return l;
}

} // namespace

uint32_t opcode13(const Insn &insn) {
    return static_cast<uint32_t>(insn.lo & 0xfff) | getBits(insn, 91, 1) << 12;
}

bool sourceFieldsHold(const Insn &insn, uint32_t reg) {
    return getBits(insn, kA, 8) == reg || getBits(insn, kB, 8) == reg ||
           getBits(insn, kC, 8) == reg;
}

std::optional<Operands> decodeOperands(const Insn &insn) {
    uint32_t op = opcode13(insn);
    std::optional<Layout> layout = (op & 0x1ff) < 0x100 ? aluLayout(op) : memoryLayout(op);
    if (!layout)
        return std::nullopt;
    Operands result;
    if (layout->dest && !addField(insn, *layout->dest, result.writes))
        return std::nullopt;
    for (const Field &f : layout->sources)
        if (!addField(insn, f, result.reads))
            return std::nullopt;
    return result;
}

} // namespace culd::mercury
