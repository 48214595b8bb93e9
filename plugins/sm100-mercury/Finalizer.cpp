// nvlink 13.0's post-link scoreboard rewrite of sm_100+ kernels.
//
// In -rdc code ptxas cannot know a kernel's final stack size, so the kernel
// loads its stack pointer (`LDC R1, c[0x0][0x37c]`) with a scoreboard
// barrier and every EXIT waits on it. At link time nvlink knows the stack is
// empty and re-runs the scoreboard allocation without that dependency.
// Measured on nvlink 13.0.88 (docs/nvlink-findings.md, "Blackwell"):
//
// WHEN (rule W3, exact on every measured link): a function's control bits
// change iff it is a kernel (STO_CUDA_ENTRY), its first R1 load has a write
// barrier, the output's EIATTR_MIN_STACK_SIZE for it is 0, it contains no
// CALL of any kind, the link is not a debug link (debugAction()), and no
// instruction reads the loaded R1 as data (stackPointerUse).
//
// WHAT: only the scoreboard fields change (write barrier bits 110-112, read
// barrier 113-115, wait mask 116-121); stall/yield/reuse and every operand
// bit stay, and the dependency edges "producer sets barrier b -> the
// instructions that wait on b while it is pending" stay, minus the R1
// load's. So the rewrite is a re-colouring of fixed dependency groups:
//   1. a CFG from the branch encodings (BRA / uniform BRA targets, EXIT);
//   2. a may-dataflow of the producers pending on each barrier gives the
//      edges; producers released by one wait form a group (one colour);
//   3. groups are coloured in program order of their first producer, an
//      instruction's read barrier before its write barrier. Inside the R1
//      load's range (up to the first wait on its barrier) a group takes the
//      lowest index no group live at the same time holds -- a global load's
//      write barrier the lowest from 2 up (longLatencyPick); where ptxas
//      had no other dependency in the way this is the study's "shift" rule
//      H2, indices above the R1 barrier moving down by one. After the range
//      a group prefers its old index and falls back to the lowest free
//      (a global load: 5 stays, others the lowest free from 2 up,
//      pickPastRangeLoad; a producer reusing the barrier it waits on
//      follows that group's new index down, reusedBelow; a group met only
//      at waits releasing both does not hold a barrier, takenBeside, but
//      taking its barrier where they meet at a join is refused). A
//      kernel whose code reads R1 as data keeps its wait on the load: left
//      alone;
//   4. every consumer waits on the colours of its producers' groups.
// Because step 4 rebuilds the waits from the input's own edges, the output
// never waits on less than the input did (minus the R1 load). A producer
// ptxas put on a busy barrier for want of a free one is not a group: as
// nvlink does, it and the producers released with it are waited on where
// their registers are first touched (forcedShares, rederive; the operands
// come from Operands.cpp and must agree with ptxas's own waits, else the
// kernel is refused). The rules were fitted kernel by kernel on generated
// sm_100/sm_120 sets and the fixtures (scripts/measure-mercury-finalizer.py);
// on generated code none of them was fitted on, about 1.3 % of the links culd
// accepts still come out different from nvlink's (docs/nvlink-findings.md,
// "Unseen seeds", "The first wrong pick, traced"). The ELF side is
// Image.cpp, the instruction fields Instruction.cpp.
#include "Finalizer.h"
#include "Hex.h"
#include "Operands.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace culd::mercury {

namespace {

uint32_t opcode12(const Insn &i) { return static_cast<uint32_t>(i.lo & 0xfff); }
bool isConditionalExit(const Insn &i) { return opcode9(i) == kExit && guard(i) != kAlways; }

uint32_t writeBarrier(const Insn &i) { return getBits(i, kWriteBarrierBit, 3); }
uint32_t readBarrier(const Insn &i) { return getBits(i, kReadBarrierBit, 3); }
uint32_t waitMask(const Insn &i) { return getBits(i, kWaitMaskBit, 6); }

// Whether an instruction sets a scoreboard barrier (write or read).
bool isProducer(const Insn &insn) {
    return writeBarrier(insn) < kNumBarriers || readBarrier(insn) < kNumBarriers;
}

constexpr unsigned kSlotBits[2] = {kWriteBarrierBit, kReadBarrierBit};
constexpr uint32_t kAllBarriers = (1u << kNumBarriers) - 1;

// "the producer at offset X (opcode Y)": how a refusal names producer i.
std::string describeProducer(const std::vector<Insn> &code, size_t i) {
    return "the producer at offset " + hex(static_cast<uint64_t>(i) * 16) + " (opcode " +
           hex(opcode12(code[i])) + ")";
}

// The control-flow graph: up to two direct successors per instruction (-1
// = none), and for an indirect branch (BRX) every target of the function's
// jump tables, which over-approximates the one table it reads: a pending
// producer can only be seen at more places, never fewer.
struct Successors {
    std::vector<std::array<int64_t, 2>> direct;
    std::vector<bool> indirect;
    std::vector<int64_t> tableTargets;

    template <class F> void forEach(size_t i, F f) const {
        for (int64_t t : direct[i])
            if (t >= 0)
                f(static_cast<size_t>(t));
        forEachTableTarget(i, f);
    }
    template <class F> void forEachTableTarget(size_t i, F f) const {
        if (indirect[i])
            for (int64_t t : tableTargets)
                f(static_cast<size_t>(t));
    }
};

bool buildSuccessors(const std::vector<Insn> &code, const std::vector<uint64_t> &jumpTargets,
                     Successors &succ, std::string &error) {
    const int64_t n = static_cast<int64_t>(code.size());
    succ.direct.assign(code.size(), {-1, -1});
    succ.indirect.assign(code.size(), false);
    succ.tableTargets.clear();
    for (uint64_t target : jumpTargets) {
        if (target % 16 != 0 || target / 16 >= code.size()) {
            error = "jump-table entry " + hex(target) + " is not an instruction of the function";
            return false;
        }
        succ.tableTargets.push_back(static_cast<int64_t>(target / 16));
    }
    for (int64_t i = 0; i < n; ++i) {
        const Insn &insn = code[static_cast<size_t>(i)];
        uint32_t op = opcode9(insn);
        int64_t next = i + 1 < n ? i + 1 : -1;
        auto &s = succ.direct[static_cast<size_t>(i)];
        // A trap is followed as if it fell through: generated __trap() and
        // __brkpt() kernels, 230 of 234 nvlink rewrote exact (228 taking
        // it for an EXIT), the rest refused.
        if (!isControlClass(op) || fallsThroughOnly(op) || op == kBpt) {
            s[0] = next;
        } else if (op == kBra) {
            int64_t off = branchOffsetBytes(insn);
            int64_t target = i + 1 + off / 16;
            if (off % 16 != 0 || target < 0 || target >= n) {
                error = "branch at offset " + hex(static_cast<uint64_t>(i) * 16) +
                        " leaves the function";
                return false;
            }
            s[0] = target;
            // Only the plain unguarded BRA (0x0947) always jumps. The
            // uniform-predicate form (0x547) and BRA.DIV (0x1947, bit 91:
            // taken when the warp diverges from the mask in URa, guarded by
            // PT -- CUB's warp scans) are conditional.
            if (opcode13(insn) != 0x0947 || guard(insn) != kAlways)
                s[1] = next;
        } else if (op == kBrx && !jumpTargets.empty()) {
            succ.indirect[static_cast<size_t>(i)] = true;
            if (guard(insn) != kAlways)
                s[0] = next;
        } else if (op == kExit || op == kRet || op == kKill) {
            if (guard(insn) != kAlways)
                s[0] = next;
        } else {
            error = "control instruction " + hex(opcode12(insn)) + " at offset " +
                    hex(static_cast<uint64_t>(i) * 16) + " is not modelled";
            return false;
        }
    }
    return true;
}

// A producer slot: instruction index * 2 + (0 = write barrier, 1 = read).
using Slot = uint32_t;
using Pending = std::array<std::vector<Slot>, kNumBarriers>;

// The barriers some producer may still be pending on as `insn` issues:
// those pending before it (`atIssue`) less those it waits on.
uint32_t pendingPast(const Insn &insn, const Pending &atIssue) {
    uint32_t live = 0;
    for (uint32_t b = 0; b < kNumBarriers; ++b)
        if (!(waitMask(insn) >> b & 1) && !atIssue[b].empty())
            live |= 1u << b;
    return live;
}

void insertSorted(std::vector<Slot> &v, Slot s) {
    auto it = std::lower_bound(v.begin(), v.end(), s);
    if (it == v.end() || *it != s)
        v.insert(it, s);
}

// Unions `from` into `into`; true when `into` grew.
bool mergeInto(std::vector<Slot> &into, const std::vector<Slot> &from) {
    if (std::includes(into.begin(), into.end(), from.begin(), from.end()))
        return false;
    std::vector<Slot> merged;
    merged.reserve(into.size() + from.size());
    std::set_union(into.begin(), into.end(), from.begin(), from.end(),
                   std::back_inserter(merged));
    into.swap(merged);
    return true;
}

// Producers that may be pending on each barrier when instruction i issues
// (before its own wait). A may-analysis over the CFG, so a wait reached
// over a back edge or a branch sees every producer that can reach it.
// `reached[i]` is false for code no path from the entry reaches.
// A hostile image could make the sets quadratic (thousands of producers
// never waited on): past this many entries in all the analysis gives up.
constexpr size_t kPendingBudget = size_t(1) << 25;

bool pendingAtEntry(const std::vector<Insn> &code, const Successors &succ, size_t skip,
                    std::vector<Pending> &in, std::vector<bool> &reached) {
    const size_t n = code.size();
    in.assign(n, Pending{});
    reached.assign(n, false);
    if (n == 0)
        return true;
    size_t entries = 0;
    std::vector<size_t> work{0};
    std::vector<bool> queued(n, false);
    reached[0] = queued[0] = true;
    while (!work.empty()) {
        size_t i = work.back();
        work.pop_back();
        queued[i] = false;
        Pending state = in[i];
        uint32_t wait = waitMask(code[i]);
        for (unsigned b = 0; b < kNumBarriers; ++b)
            if (wait >> b & 1)
                state[b].clear();
        if (i != skip)
            for (unsigned f = 0; f < 2; ++f) {
                uint32_t b = getBits(code[i], kSlotBits[f], 3);
                if (b < kNumBarriers)
                    insertSorted(state[b], static_cast<Slot>(i * 2 + f));
            }
        bool overBudget = false;
        succ.forEach(i, [&](size_t ti) {
            bool grew = !reached[ti];
            reached[ti] = true;
            for (unsigned b = 0; b < kNumBarriers; ++b) {
                size_t before = in[ti][b].size();
                grew |= mergeInto(in[ti][b], state[b]);
                entries += in[ti][b].size() - before;
            }
            overBudget |= entries > kPendingBudget;
            if (grew && !queued[ti]) {
                queued[ti] = true;
                work.push_back(ti);
            }
        });
        if (overBudget)
            return false;
    }
    return true;
}

struct UnionFind {
    std::vector<Slot> parent;
    explicit UnionFind(size_t n) : parent(n) {
        for (size_t i = 0; i < n; ++i)
            parent[i] = static_cast<Slot>(i);
    }
    Slot find(Slot x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
    // The smaller slot stays the root, so a group's root is its first slot.
    void unite(Slot a, Slot b) {
        a = find(a);
        b = find(b);
        if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
    }
};

// The H2 range: from the R1 load to the first instruction waiting on its
// barrier (or the end).
size_t shiftRangeEnd(const std::vector<Insn> &code, size_t p0, uint32_t b0) {
    for (size_t j = p0 + 1; j < code.size(); ++j)
        if (waitMask(code[j]) >> b0 & 1)
            return j;
    return code.empty() ? 0 : code.size() - 1;
}

// The instructions that more than one edge of the CFG enters: the joins of
// paths.
std::vector<bool> joinPoints(const Successors &succ, size_t n) {
    std::vector<uint8_t> entered(n, 0);
    for (size_t i = 0; i < n; ++i)
        succ.forEach(i, [&](size_t t) {
            if (t < n && entered[t] < 2)
                ++entered[t];
        });
    std::vector<bool> join(n);
    for (size_t i = 0; i < n; ++i)
        join[i] = entered[i] > 1;
    return join;
}

// The instructions reached from `work` along the CFG, entering none that
// `blocked` marks and going on past one only where `goesOn` allows.
template <class GoesOn>
std::vector<bool> reach(const Successors &succ, std::vector<size_t> work,
                        const std::vector<bool> &blocked, GoesOn goesOn) {
    std::vector<bool> seen(succ.direct.size(), false);
    while (!work.empty()) {
        size_t i = work.back();
        work.pop_back();
        if (seen[i] || blocked[i])
            continue;
        seen[i] = true;
        if (goesOn(i))
            succ.forEach(i, [&](size_t t) { work.push_back(t); });
    }
    return seen;
}

// The instructions reached from p0's successors, going on past one only
// where `goesOn` allows.
template <class GoesOn>
std::vector<bool> reachAfter(const Successors &succ, size_t p0, GoesOn goesOn) {
    std::vector<size_t> next;
    succ.forEach(p0, [&](size_t t) { next.push_back(t); });
    return reach(succ, std::move(next), std::vector<bool>(succ.direct.size(), false), goesOn);
}

// The R1 load's range on every path: the instructions a path from the
// load reaches up to and including its first wait on the load's barrier.
// A join of such a path with one past a wait is in the range (CUB's
// onesweep kernel: code a branch reaches around ptxas's first wait is
// renumbered as the range is, up to the wait on that path).
std::vector<bool> stackPointerRange(const std::vector<Insn> &code, const Successors &succ,
                                    size_t p0, uint32_t b0) {
    return reachAfter(succ, p0, [&](size_t i) { return !(waitMask(code[i]) >> b0 & 1); });
}

// A global load's write barrier inside the R1 load's range takes the
// lowest free index from 2 up (libcudadevrt's memcpy_3d_device: an LDG at
// 3 with 2 free moves to 2; generated warp-shuffle kernels: 3 -> 2 and
// 4 -> 2 or 3 by what is free) -- unless the load is still pending past
// the range, waited on after ptxas's wait on the R1 load's barrier, or past
// a branch (pendingAcrossBranch): then it keeps its index while that is
// free (the switch kernels of the jump-table sets: an LDG W5 R1 stays on
// 5 though 2 is free; generated warp-shuffle kernels: 658 loads on 5, none
// moved, while two on 5 released inside the range moved to 4, the lowest
// free). It never moves to 0 or 1 unless it
// joins a group whose first producer decides. Its read barrier is picked
// like any other.
// LDG, LD (0x980: CUB's scan kernel, a generic load on 5 pending past the
// range stays there), ATOMG (0x9a8), which returns what it read, ATOMG.CAS
// (0x3a9: generated variable-latency kernels, an atomicCAS on 5 in the
// range kept there, 7 kernels exact only so), and the texture fetch TEX
// (0xf60), whose write barrier keeps its index (isTextureFetch).
constexpr uint32_t kS2r = 0x919, kS2ur = 0x9c3, kLdg = 0x981, kLd = 0x980, kLds = 0x984;
constexpr uint32_t kAtomg = 0x9a8;
constexpr uint32_t kAtomgCas = 0x3a9;
constexpr uint32_t kTex = 0xf60;
constexpr uint32_t kTld = 0xf66;
constexpr uint32_t kF2iF64 = 0x311;
constexpr uint32_t kMatch = 0x3a1;
constexpr uint32_t kSharedAtomic98c = 0x98c; // an ATOMS form: generated shared-memory atomics
constexpr uint32_t kWarpOp301 = 0x301; // in the generated warp kernels; mnemonic not decoded
bool isLongLatencyLoad(const Insn &insn) {
    uint32_t op = opcode12(insn);
    return op == kLdg || op == kLd || op == kAtomg || op == kAtomgCas || op == kTex;
}

// A texture fetch's write barrier is 5 in ptxas's code and stays 5 in
// nvlink's wherever it stands, in the range or past it, with lower ones
// free (TEX 0xf60: 24 in the study sets; TLD 0xf66, tex1Dfetch: all 1,248
// of the generated variable-latency kernels' texture set), where a global
// load would move to the lowest free from 2 up.
bool isTextureFetch(const Insn &insn) {
    uint32_t op = opcode12(insn);
    return op == kTex || op == kTld;
}
constexpr uint32_t kLongLatencyFloor = 2;
// The top barrier, 5: every global load measured pending far stood on it.
constexpr uint32_t kLongLatencyTop = kNumBarriers - 1;
// Barriers 2-5, where a global load's write barrier goes.
constexpr uint32_t kLongLatencyBarriers = kAllBarriers & ~((1u << kLongLatencyFloor) - 1);

// The lowest barrier from `from` up that `taken` (a mask) leaves free;
// kNumBarriers when there is none.
uint32_t lowestFree(uint32_t taken, uint32_t from = 0) {
    uint32_t pick = from;
    while (pick < kNumBarriers && (taken >> pick & 1))
        ++pick;
    return pick;
}

// branchesBefore[i]: how many instructions before i may leave the
// straight line (a branch, an EXIT), so that whether code between two
// instructions can branch is one subtraction.
std::vector<uint32_t> countBranches(const std::vector<Insn> &code) {
    std::vector<uint32_t> before(code.size() + 1, 0);
    for (size_t i = 0; i < code.size(); ++i)
        before[i + 1] = before[i] + (leavesStraightLine(opcode9(code[i])) ? 1 : 0);
    return before;
}

// Whether a group first produced at `first` may still be pending somewhere
// past a branch or EXIT after it, or back above it (around a loop): at a
// join of paths, or on a path of its own. A global load's group pending so
// keeps its index as one pending past the range does (CUB's onesweep
// kernel, four kernels on sm_100 and sm_120: an unrolled run of LDGs on 5,
// released past a forward branch with the run on the other path, stays
// on 5 though 2-4 are free; no measured load pending within one block of
// the range moves less than longLatencyPick says).
bool pendingAcrossBranch(const std::vector<uint32_t> &branchesBefore, size_t first,
                         const std::vector<size_t> &liveRange) {
    return std::any_of(liveRange.begin(), liveRange.end(), [&](size_t at) {
        return at < first || branchesBefore[at] != branchesBefore[first];
    });
}

// What "keeps its index" means: every such load measured stood on 5, and
// keeps the index ptxas's barrier 5 has become there (`fiveNow`: 5, or the
// new index of the producer on 5 before it -- a generated kernel of
// atomics, sm_100 and sm_120: an ATOMG never waited on, on 5 after a
// store's 0xd09 on 5 that became 4, went to 4). Pending far below 5 it
// takes the lowest free from 2 up like the rest (generated atomics kernels:
// ATOMGs never waited on, on 3 and 4, went to 2 and 3).
uint32_t longLatencyPick(uint32_t old, uint32_t taken, bool pendingFar, uint32_t fiveNow) {
    if (pendingFar && old == kLongLatencyTop && !(taken >> fiveNow & 1))
        return fiveNow;
    return lowestFree(taken, kLongLatencyFloor);
}

uint32_t shifted(uint32_t barrier, uint32_t b0) {
    return barrier != kNoBarrier && barrier > b0 ? barrier - 1 : barrier;
}

void applyShiftOnly(std::vector<Insn> &code, size_t p0, uint32_t b0) {
    size_t end = shiftRangeEnd(code, p0, b0);
    setBits(code[p0], kWriteBarrierBit, 3, kNoBarrier);
    for (size_t j = p0 + 1; j <= end; ++j) {
        Insn &w = code[j];
        for (unsigned bit : kSlotBits)
            setBits(w, bit, 3, shifted(getBits(w, bit, 3), b0));
        uint32_t m = waitMask(w);
        uint32_t low = m & ((1u << b0) - 1);
        setBits(w, kWaitMaskBit, 6, low | (m >> (b0 + 1)) << b0);
    }
}

// A producer ptxas put on a live barrier while one is free shares it by
// choice, and nvlink mostly keeps that share: loads (LDC, LDCU, S2R
// (0x919), S2UR (0x9c3), LDG (0x981), LDS (0x984), TEX (0xf60)) in over
// 16,000 shares of the measured sets, with any number free; other
// producers with two or more free (an I2F, 0x307, in one generated kernel;
// corpus 107's fenced atomic kernel, 0xd09 and 0x589, sm_100 to sm_121).
// With only one free, an F2I (0x305) sharing an LDCU's barrier (six
// sm_120 warp-shuffle kernels, barrier 5 free) was split by nvlink, as it
// splits forced shares. Which producers sm_120's ptxas treats as out of
// barriers is not known, so a producer other than a load sharing by choice
// with one barrier free is refused.
bool keepsChosenShare(const Insn &insn) {
    switch (opcode12(insn)) {
    case kLdc:
    case kLdcu:
    case kS2r:
    case kS2ur:
    case kLdg:
    case kLds:
    case kTex:
        return true;
    default:
        return false;
    }
}

// The first instruction after i that waits on barrier b; code.size()
// when none does.
size_t nextWaitOn(const std::vector<Insn> &code, size_t i, uint32_t b) {
    size_t wait = i + 1;
    while (wait < code.size() && !(waitMask(code[wait]) >> b & 1))
        ++wait;
    return wait;
}

// Whether the producer at i, on barrier b, is first needed past the wait
// that releases b after it: no instruction up to that wait touches its
// destination registers (one whose operands are not modelled may, where a
// source field could hold them). A conditional EXIT before its first use
// answers no (sr591_2: an S2R read past such an EXIT stayed in its
// share), as does a branch or EXIT between it and the wait.
bool neededPastRelease(const std::vector<Insn> &code, size_t i, uint32_t b) {
    const size_t wait = nextWaitOn(code, i, b);
    std::optional<Operands> ops = decodeOperands(code[i]);
    if (wait == code.size() || !ops || ops->writes.empty())
        return false;
    // Whether instruction k (operands `o`, or not modelled) reads or writes
    // one of the producer's registers.
    auto touches = [&](size_t k, const std::optional<Operands> &o) {
        return std::any_of(ops->writes.begin(), ops->writes.end(), [&](RegisterId r) {
            if (!o)
                return r >= kUniformBase || sourceFieldsHold(code[k], r);
            return std::count(o->reads.begin(), o->reads.end(), r) > 0 ||
                   std::count(o->writes.begin(), o->writes.end(), r) > 0;
        });
    };
    for (size_t k = i + 1; k <= wait; ++k)
        if ((k < wait && leavesStraightLine(opcode9(code[k]))) || touches(k, decodeOperands(code[k])))
            return false;
    for (size_t k = wait + 1; k < code.size(); ++k) {
        if (isConditionalExit(code[k]))
            return false;
        std::optional<Operands> o = decodeOperands(code[k]);
        if (leavesStraightLine(opcode9(code[k])) || !o || touches(k, o))
            break;
    }
    return true;
}

// A producer in the shift range that ptxas put on a barrier still pending
// -- the R1 load's own, or another group's while all six were live -- was
// grouped for want of a free barrier, not because its consumers are the
// same. nvlink re-derives the consumers of such a producer, and of the
// producers its barrier released it with, from the registers: each is
// waited on where its destination is first touched (libcudadevrt's
// memcpy_3d_device, the generated many-parameter kernels). Collects every
// such slot in the shift range. A share by choice keepsChosenShare does
// not cover is refused. A global load's write barrier comes from 2-5
// (longLatencyPick), so with those four taken it shares for want of a
// free one though 0 or 1 is free, and is re-derived like any forced share
// (generated __trap() kernels: 28 of 68 such kernels exact, the loads
// taking a barrier of their own or joining their old group as the
// registers say; the rest refused for other shapes. Kept in ptxas's
// group instead, 3 came out different: a later load nvlink split off).
bool forcedShares(const std::vector<Insn> &code, const std::vector<Pending> &in,
                  const std::vector<bool> &reached, size_t p0, uint32_t b0,
                  const std::vector<bool> &inRange, std::vector<Slot> &forced,
                  std::string &error) {
    auto oneFree = [](uint32_t taken) {
        uint32_t free = kAllBarriers & ~taken;
        return free != 0 && (free & (free - 1)) == 0;
    };
    for (size_t i = 0; i < code.size(); ++i) {
        if (i == p0 || !reached[i] || !inRange[i])
            continue;
        uint32_t live = 1u << b0 | pendingPast(code[i], in[i]);
        for (unsigned f = 0; f < 2; ++f) {
            uint32_t b = getBits(code[i], kSlotBits[f], 3);
            bool write = kSlotBits[f] == kWriteBarrierBit;
            // ptxas gives an instruction its read barrier before its write
            // barrier, so the write slot also finds the read slot's taken
            // (the sortingNetworks sample's bitonicSortShared: an LDG whose
            // read barrier took the last free one shares its write barrier).
            uint32_t taken = live | (write && readBarrier(code[i]) < kNumBarriers
                                         ? 1u << readBarrier(code[i])
                                         : 0);
            // On the R1 load's barrier nvlink's choice is measured for
            // constant loads (LDC, LDCU) alone; the matrixMul sample's S2R
            // and S2UR there came out different from nvlink's, and no
            // other kind occurs in the measured sets.
            if (b == b0 && write && opcode12(code[i]) != kLdc && opcode12(code[i]) != kLdcu) {
                error = describeProducer(code, i) +
                        " shares the stack-pointer load's barrier; nvlink's barrier for it is "
                        "measured only for constant loads";
                return false;
            }
            bool shares = b < kNumBarriers && (live >> b & 1);
            bool outOfBarriers =
                taken == kAllBarriers ||
                (write && isLongLatencyLoad(code[i]) &&
                 (taken & kLongLatencyBarriers) == kLongLatencyBarriers);
            // An LDC sharing an LDCU's barrier with one free is split off
            // as a forced share is (a generated kernel, sm_100 and sm_120:
            // an LDC on an LDCU's 4 with 5 free; nvlink waited for the LDCU
            // where its register is read). The shares by choice kept with
            // one free are between loads of one kind, or an LDC or S2UR
            // joining an S2R or an LDG's read barrier (1,411 such shares in
            // kernels culd matches).
            bool ldcOnLdcu = shares && write && opcode12(code[i]) == kLdc && oneFree(taken) &&
                             std::any_of(in[i][b].begin(), in[i][b].end(), [&](Slot s) {
                                 return opcode12(code[s / 2]) == kLdcu;
                             });
            // A load sharing by choice with one free, beside a producer of
            // the group first needed past the group's wait (or first needed
            // there itself past a mate's), while the R1 load's barrier holds
            // nothing else: nvlink, with that barrier free too, finds two
            // free and re-derives the share as it does a forced one
            // (generated special-register kernels sr378_0, sr475_2,
            // sr510_0, sm_100 and sm_120: an LDCU joining an LDCU or an
            // S2R with 5 free got a barrier of its own and a wait at its
            // first read; vt1029_0: an S2UR beside an LDCU read past a
            // branch, refused). With another producer on the R1 load's
            // barrier, to be re-derived, nvlink too had one free and kept
            // the share (vl1168_0, sm_100: an S2R and an LDCU joining an
            // LDC read later).
            bool r1Alone = std::all_of(in[i][b0].begin(), in[i][b0].end(),
                                       [&](Slot s) { return s / 2 == p0; });
            bool splitShare =
                shares && write && oneFree(taken) && r1Alone && keepsChosenShare(code[i]) &&
                (neededPastRelease(code, i, b) ||
                 std::any_of(in[i][b].begin(), in[i][b].end(), [&](Slot h) {
                     return h % 2 == 0 && neededPastRelease(code, h / 2, b);
                 }));
            if (b == b0 || (shares && outOfBarriers) || ldcOnLdcu || splitShare) {
                forced.push_back(static_cast<Slot>(i * 2 + f));
            } else if (shares && write && !keepsChosenShare(code[i]) && oneFree(taken)) {
                error = describeProducer(code, i) +
                        " shares a live scoreboard barrier with one free; nvlink's barrier for "
                        "it there is measured only for loads";
                return false;
            }
        }
    }
    return true;
}

// Past the R1 load's range ptxas's groups stand as it made them -- but for
// one share it makes for want of a free barrier: a producer other than a
// load put on a barrier that only other instructions' read barriers hold,
// with every other barrier pending (a texture fetch's counted as held,
// textureBarriers). nvlink split such a producer off the read barriers
// and put it where culd cannot predict (a generated texture kernel,
// vl107_1 on sm_100 and sm_120: an F2I's write barrier on the reads' 0
// went to the barrier of a store's read barrier pending on another path;
// culd wrote the reads' colour, exit 0). Such a kernel is refused. Loads
// sharing so (43 kernels of the measured sets, texture fetches among them)
// and other producers doing so with a barrier free (78) were kept as ptxas
// grouped them and matched nvlink.
bool checkPastRangeForcedShares(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                const std::vector<bool> &reached,
                                const std::vector<bool> &inRange, uint32_t forTextures,
                                std::string &error) {
    for (size_t i = 0; i < code.size(); ++i) {
        const Insn &insn = code[i];
        uint32_t b = writeBarrier(insn);
        uint32_t live = pendingPast(insn, in[i]);
        if (!reached[i] || inRange[i] || b >= kNumBarriers || !(live >> b & 1) ||
            keepsChosenShare(insn) || isTextureFetch(insn))
            continue;
        bool onReadsOnly = std::all_of(in[i][b].begin(), in[i][b].end(),
                                       [](Slot h) { return h % 2 == 1; });
        uint32_t taken = live | forTextures;
        if (readBarrier(insn) < kNumBarriers)
            taken |= 1u << readBarrier(insn);
        if (!onReadsOnly || taken != kAllBarriers)
            continue;
        error = describeProducer(code, i) +
                " shares a scoreboard barrier with read barriers for want of a free one; "
                "nvlink's barrier for it there is not understood";
        return false;
    }
    return true;
}

constexpr size_t kNever = std::string::npos;
// A producer whose registers are first touched past a branch: nvlink keeps
// ptxas's waits for it (CUB's radix-sort kernels, see rederive).
constexpr size_t kPastBranch = kNever - 1;

// Where each of `producers` is first needed: the first instruction after
// it, on the straight line, that reads or writes one of its destination
// registers -- kNever when an unconditional EXIT comes first, kPastBranch
// when other control flow does (that instruction recorded in
// `pastBranch`), and a conditional `@P EXIT` that comes
// first (recorded in `pastExit`): nvlink then has the producer waited on
// by that EXIT, or joins it to an earlier group (see exitJoin). An
// instruction whose operands are not modelled before that point fails. One
// backward sweep, each instruction decoded once.
bool firstUses(const std::vector<Insn> &code,
               const std::map<size_t, std::vector<RegisterId>> &producers,
               std::map<size_t, size_t> &use, std::set<size_t> &pastExit,
               std::map<size_t, size_t> &pastBranch, std::string &error) {
    if (producers.empty())
        return true;
    std::vector<size_t> nextUse(2 * kUniformBase, kNever);
    size_t stop = kNever; // the nearest unconditional EXIT, branch or undecoded instruction
    size_t conditionalExit = kNever;
    for (size_t k = code.size(); k-- > producers.begin()->first;) {
        if (auto p = producers.find(k); p != producers.end()) {
            size_t first = kNever;
            for (RegisterId r : p->second)
                first = std::min(first, nextUse[r]);
            size_t reach = std::min(first, stop); // how far the straight line is known
            bool stopped = stop != kNever && stop <= first;
            uint32_t stopOp = stopped ? opcode9(code[stop]) : 0;
            if (conditionalExit < reach) {
                use[k] = conditionalExit;
                pastExit.insert(k);
            } else if (stopped && stopOp != kExit && !isControlClass(stopOp)) {
                error = "the operands of opcode " + hex(opcode13(code[stop])) + " at offset " +
                        hex(stop * 16) + " are not modelled";
                return false;
            } else {
                use[k] = !stopped ? first : stopOp == kExit ? kNever : kPastBranch;
                if (use[k] == kPastBranch)
                    pastBranch[k] = stop;
            }
        }
        uint32_t op = opcode9(code[k]);
        std::optional<Operands> ops;
        if (isConditionalExit(code[k]))
            conditionalExit = k;
        else if (op == kExit || leavesStraightLine(op))
            stop = k;
        else if (!(ops = decodeOperands(code[k])))
            stop = k;
        else
            for (const std::vector<RegisterId> *regs : {&ops->reads, &ops->writes})
                for (RegisterId r : *regs)
                    nextUse[r] = k;
    }
    return true;
}

// Re-derived producers and the instruction each is first needed at.
struct Rederived {
    std::map<Slot, size_t> consumer;
    std::vector<Slot> forced;
    // Forced slots on the R1 load's barrier needed right where ptxas waits
    // for them.
    std::unordered_set<Slot> neededAtR1Wait;
    // A forced slot on the R1 load's barrier: what ptxas released with it.
    std::map<Slot, std::vector<Slot>> r1Mates;
    // Producers on the R1 load's barrier first needed past ptxas's wait
    // there, behind a producer of the same release needed at the wait.
    std::vector<Slot> lateBehindMate;
    // Producers first touched past a branch, which keep ptxas's waits,
    // and that branch.
    std::map<Slot, size_t> pastBranch;
    // Producers on the R1 load's barrier first needed past a conditional
    // EXIT: the instruction of the second wait after each, and whether
    // ptxas waits for it at the EXIT (exitJoin).
    struct ExitJoin {
        size_t secondWait;
        bool waitedAtExit;
    };
    std::map<Slot, ExitJoin> exitJoins;
    bool has(Slot s) const { return consumer.count(s) != 0; }
};

// The instruction of the second wait after `at` and before `exit`, on a
// barrier other than `b0` (the R1 load's, released only at the EXIT), if
// it waits on exactly one barrier.
std::optional<size_t> secondWaitAfter(const std::vector<Insn> &code, size_t at, size_t exit,
                                      uint32_t b0) {
    unsigned seen = 0;
    for (size_t i = at + 1; i < exit; ++i) {
        uint32_t mask = waitMask(code[i]) & ~(1u << b0);
        if (mask == 0 || ++seen < 2)
            continue;
        if (mask & (mask - 1))
            return std::nullopt;
        return i;
    }
    return std::nullopt;
}

// For each forced slot: the first wait on its barrier releases it with the
// producers it shares the barrier with; all of them are re-derived. The
// registers must agree with ptxas: none of them was needed before that
// wait and one is needed right there -- otherwise the operand model is off
// and the link is refused. On the R1 load's barrier one needed later is
// followed only next to one needed at the wait (see the comment inside).
// A producer first touched past a branch is not re-derived:
// nvlink keeps ptxas's waits for it (CUB's radix-sort histogram kernel:
// an LDCU forced onto the R1 load's barrier, first read past a loop, is
// waited on where ptxas waited; the onesweep kernel: an LDC first read
// past a forward branch keeps both of ptxas's waits, on either path).
bool rederive(const std::vector<Insn> &code, const std::vector<Pending> &in, uint32_t b0,
              const std::vector<Slot> &forced, Rederived &out, std::string &error) {
    struct Release {
        Slot forced;
        size_t wait;
        uint32_t barrier;
        const std::vector<Slot> *slots;
    };
    std::vector<Release> releases;
    std::map<size_t, std::vector<RegisterId>> producers;
    for (Slot f : forced) {
        size_t at = f / 2;
        if (f % 2 != 0) {
            error = "it is a read barrier";
            return false;
        }
        uint32_t b = writeBarrier(code[at]);
        size_t wait = nextWaitOn(code, at, b);
        if (wait == code.size()) {
            error = "no wait on its barrier";
            return false;
        }
        releases.push_back({f, wait, b, &in[wait][b]});
        for (Slot s : in[wait][b]) {
            std::optional<Operands> ops = decodeOperands(code[s / 2]);
            if (s % 2 != 0 || !ops || ops->writes.empty()) {
                error = "the producer at offset " + hex(s / 2 * 16) + " it is released with";
                return false;
            }
            producers[s / 2] = ops->writes;
        }
    }
    std::map<size_t, size_t> use;
    std::set<size_t> pastExit;
    std::map<size_t, size_t> pastBranch;
    if (!firstUses(code, producers, use, pastExit, pastBranch, error))
        return false;
    for (const Release &r : releases) {
        size_t first = kNever; // of the producers re-derived here
        std::optional<Slot> firstAtWait; // in program order
        for (Slot s : *r.slots)
            if (use.at(s / 2) == r.wait && !firstAtWait)
                firstAtWait = s;
        for (Slot s : *r.slots) {
            size_t touch = use.at(s / 2);
            if (touch == kPastBranch) {
                out.pastBranch.emplace(s, pastBranch.at(s / 2));
                continue; // keeps ptxas's waits
            }
            if (pastExit.count(s / 2)) {
                // Measured with at most two producers on the R1 load's
                // barrier; with three, nvlink took the third wait in 2 of 8
                // kernels (exitJoin).
                std::optional<size_t> join;
                if (r.barrier != b0 || r.slots->size() > 2 ||
                    !(join = secondWaitAfter(code, s / 2, touch, b0))) {
                    error = "the producer at offset " + hex(s / 2 * 16) +
                            " is first needed past the conditional EXIT at offset " +
                            hex(touch * 16) + " in a shape nvlink's choice for is not known";
                    return false;
                }
                out.exitJoins[s] = {*join, r.wait == touch};
            }
            if (touch == kNever || touch < r.wait) {
                error = "the registers of the producer at offset " + hex(s / 2 * 16) +
                        " disagree with ptxas's wait at offset " + hex(r.wait * 16);
                return false;
            }
            // On the stack-pointer load's barrier, a producer first needed
            // past ptxas's wait there. Ahead of a producer of its release
            // needed at the wait, it is coloured first and that one joins
            // it (the mate rule); behind one, it is coloured on its own
            // (the colouring loop); with neither, nvlink's choice is not
            // known.
            if (r.barrier == b0 && touch > r.wait) {
                if (!firstAtWait) {
                    error = "the producer at offset " + hex(s / 2 * 16) +
                            " is first needed at offset " + hex(touch * 16) +
                            ", past ptxas's wait at offset " + hex(r.wait * 16) +
                            "; nvlink's barrier for it there is not understood";
                    return false;
                }
                if (*firstAtWait < s)
                    out.lateBehindMate.push_back(s);
            }
            out.consumer[s] = touch;
            first = std::min(first, touch);
        }
        if (r.barrier == b0 && out.has(r.forced) && out.consumer.at(r.forced) == r.wait &&
            !out.exitJoins.count(r.forced))
            out.neededAtR1Wait.insert(r.forced);
        if (r.barrier == b0)
            for (Slot s : *r.slots)
                if (s != r.forced)
                    out.r1Mates[r.forced].push_back(s);
        if (first != kNever && first != r.wait) {
            error = "the registers disagree with ptxas's wait at offset " + hex(r.wait * 16);
            return false;
        }
    }
    out.forced = forced;
    return true;
}

// Waits the new colours make redundant: where producers share a colour
// (a re-derived one joined a live group for want of a free barrier), the
// first wait releases them all and a later consumer of one of them finds
// nothing pending. Drops such wait bits, earliest first, until none is
// left (each drop can keep a later producer pending longer).
bool dropReleasedWaits(std::vector<Insn> &code, const Successors &succ, size_t p0,
                       const std::vector<std::pair<Slot, size_t>> &edges,
                       const std::unordered_map<Slot, uint32_t> &colourOf,
                       const std::vector<uint32_t> &idle, std::string &error) {
    for (size_t round = 0; round <= edges.size(); ++round) {
        std::vector<Pending> in;
        std::vector<bool> reached;
        if (!pendingAtEntry(code, succ, p0, in, reached)) {
            error = "too many scoreboard producers pending at once to analyse";
            return false;
        }
        std::vector<uint32_t> needed = idle;
        for (const auto &[slot, consumer] : edges) {
            uint32_t c = colourOf.at(slot);
            const std::vector<Slot> &p = in[consumer][c];
            if (std::binary_search(p.begin(), p.end(), slot))
                needed[consumer] |= 1u << c;
        }
        size_t i = 0;
        while (i < code.size() && (waitMask(code[i]) & ~needed[i]) == 0)
            ++i;
        if (i == code.size())
            return true;
        setBits(code[i], kWaitMaskBit, 6, waitMask(code[i]) & needed[i]);
    }
    error = "the shared barriers' waits do not settle";
    return false;
}

// What the colouring works on: dependency edges (producer slot ->
// consumer), the groups they tie together -- producers one wait releases,
// as ptxas placed them, and re-derived producers first needed by the same
// instruction -- where each group is live, and its first consumer.
struct Dependencies {
    UnionFind groups;
    std::vector<std::pair<Slot, size_t>> edges;
    std::vector<std::vector<Slot>> liveAt;
    std::unordered_map<Slot, std::vector<size_t>> liveRange;
    std::unordered_map<Slot, size_t> firstConsumer;
    std::unordered_map<Slot, std::vector<Slot>> members; // by group, in program order
    // The groups the may-analysis finds pending at each instruction: liveAt
    // before re-derived producers and echoes extend it.
    std::vector<std::vector<Slot>> pendingAt;
};

// Records that `group` may be pending at instruction `at`.
void markGroupLive(Dependencies &d, size_t at, Slot group) {
    std::vector<Slot> &live = d.liveAt[at];
    if (std::find(live.begin(), live.end(), group) == live.end()) {
        live.push_back(group);
        d.liveRange[group].push_back(at);
    }
}

// Whether `s` issues while an earlier slot of `found` (the producers an
// EXIT finds pending on old barrier b) is still pending on b.
bool issuesBehindAnother(const std::vector<Pending> &in, const std::vector<Slot> &found,
                         uint32_t b, Slot s) {
    const std::vector<Slot> &atIssue = in[s / 2][b];
    return std::any_of(found.begin(), found.end(), [&](Slot r) { // both sorted
        return r < s && std::binary_search(atIssue.begin(), atIssue.end(), r);
    });
}

Dependencies dependencies(const std::vector<Insn> &code, const std::vector<Pending> &in,
                          const std::vector<bool> &reached, const std::vector<bool> &inRange,
                          const Rederived &rd) {
    const size_t n = code.size();
    Dependencies d{UnionFind(n * 2), {}, std::vector<std::vector<Slot>>(n), {}, {}, {}, {}};
    // A wait releases the producers pending on its barrier together: one
    // group, an edge each. So does an EXIT, for the producers it finds
    // pending and nothing waits on: ptxas put them on one barrier, and they
    // stay one group (the read barriers of a CUB onesweep kernel's trailing
    // stores), without an edge -- except, inside the R1 load's range, one
    // that issued with none of the others pending: reaching the EXIT along
    // another path, it is coloured apart (a generated kernel of atomics on
    // both sides of an if/else, sm_100 and sm_120: an ATOMG's never-waited
    // read barrier, grouped with a store's pending on the other path, got
    // its own barrier from nvlink).
    for (size_t c = 0; c < n; ++c) {
        if (!reached[c])
            continue;
        uint32_t wait = waitMask(code[c]);
        bool exit = opcode9(code[c]) == kExit;
        for (unsigned b = 0; b < kNumBarriers; ++b) {
            bool waited = wait >> b & 1;
            if (!waited && !exit)
                continue;
            std::optional<Slot> root;
            for (Slot s : in[c][b]) {
                if (rd.has(s))
                    continue;
                if (waited)
                    d.edges.emplace_back(s, c);
                else if (root && inRange[s / 2] && !issuesBehindAnother(in, in[c][b], b, s))
                    continue;
                root = root.value_or(s);
                d.groups.unite(*root, s);
            }
        }
    }
    std::map<size_t, Slot> byConsumer;
    for (const auto &[slot, consumer] : d.edges)
        byConsumer.emplace(consumer, slot);
    for (const auto &[slot, consumer] : rd.consumer) {
        d.edges.emplace_back(slot, consumer);
        auto it = byConsumer.emplace(consumer, slot).first;
        d.groups.unite(it->second, slot);
    }

    // Live: where a group may be pending (a re-derived producer: up to its
    // consumer, on the straight line).
    auto markLive = [&d](size_t i, Slot s) { markGroupLive(d, i, d.groups.find(s)); };
    for (size_t i = 0; i < n; ++i) {
        if (!reached[i])
            continue;
        for (unsigned b = 0; b < kNumBarriers; ++b)
            for (Slot s : in[i][b])
                if (!rd.has(s))
                    markLive(i, s);
    }
    d.pendingAt = d.liveAt;
    for (const auto &[slot, consumer] : rd.consumer)
        for (size_t i = slot / 2 + 1; i <= consumer; ++i)
            markLive(i, slot);
    for (const auto &[slot, consumer] : d.edges) {
        auto [it, inserted] = d.firstConsumer.emplace(d.groups.find(slot), consumer);
        if (!inserted)
            it->second = std::min(it->second, consumer);
    }
    for (size_t i = 0; i < n; ++i)
        for (unsigned f = 0; f < 2; ++f)
            if (reached[i] && getBits(code[i], kSlotBits[f], 3) < kNumBarriers) {
                Slot s = static_cast<Slot>(i * 2 + f);
                d.members[d.groups.find(s)].push_back(s);
            }
    return d;
}

// Calls `visit(group, barrier, first consumer)` for each group live at
// `at` that already has a barrier (the group being coloured has none yet).
template <typename Visit>
void forEachLiveColoured(const Dependencies &deps,
                         const std::unordered_map<Slot, uint32_t> &colour, size_t at,
                         Visit visit) {
    for (Slot h : deps.liveAt[at]) {
        auto it = colour.find(h);
        auto consumer = deps.firstConsumer.find(h);
        if (it != colour.end() && consumer != deps.firstConsumer.end())
            visit(h, it->second, consumer->second);
    }
}

// Where each barrier is next waited on, seen from `at`: groups sharing a
// barrier are all released by its first wait, so a barrier's release is
// the earliest first consumer of the live groups on it (kNever: none
// live). `rederived`: whether one of them is a re-derived producer's.
struct BarrierReleases {
    std::array<size_t, kNumBarriers> wait;
    std::array<bool, kNumBarriers> rederived{};
};

BarrierReleases barrierReleases(const Dependencies &deps,
                                const std::unordered_map<Slot, uint32_t> &colour,
                                const std::unordered_set<Slot> &rederivedGroups, size_t at) {
    BarrierReleases r;
    r.wait.fill(kNever);
    forEachLiveColoured(deps, colour, at, [&](Slot h, uint32_t c, size_t consumer) {
        r.wait[c] = std::min(r.wait[c], consumer);
        r.rederived[c] = r.rederived[c] || rederivedGroups.count(h) != 0;
    });
    return r;
}

// The groups holding re-derived producers of each kind (Rederived), found
// once: joins share colours but never merge groups, so the roots stay.
struct GroupRoles {
    std::unordered_set<Slot> forced, rederived, lateBehindMate, neededAtR1Wait, pastBranch;
    std::unordered_map<Slot, const Rederived::ExitJoin *> exitJoin;
    // How many producers forced onto the R1 load's barrier each group holds.
    std::unordered_map<Slot, unsigned> r1Forced;
    // Neither forced nor re-derived: a group as ptxas's waits made it.
    bool plain(Slot g) const { return !forced.count(g) && !rederived.count(g); }
};

GroupRoles groupRoles(UnionFind &groups, const Rederived &rd) {
    auto rootsOf = [&groups](const auto &slots) {
        std::unordered_set<Slot> roots;
        for (Slot s : slots)
            roots.insert(groups.find(s));
        return roots;
    };
    GroupRoles roles;
    roles.forced = rootsOf(rd.forced);
    roles.lateBehindMate = rootsOf(rd.lateBehindMate);
    for (const auto &[s, branch] : rd.pastBranch)
        roles.pastBranch.insert(groups.find(s));
    roles.neededAtR1Wait = rootsOf(rd.neededAtR1Wait);
    for (const auto &entry : rd.consumer)
        roles.rederived.insert(groups.find(entry.first));
    for (const auto &[slot, join] : rd.exitJoins)
        roles.exitJoin.emplace(groups.find(slot), &join);
    for (const auto &entry : rd.r1Mates)
        ++roles.r1Forced[groups.find(entry.first)];
    return roles;
}

// Two or more producers forced onto the R1 load's barrier, first read at one
// instruction, are one group. Joining a barrier released before that read,
// they stay together as far as measured only where it is not: in the one
// kernel where it was (gen-many-params.py seed 62, sm_100: the first joined
// an LDCU's group waited on two instructions before their read), nvlink
// gave the later one a barrier freed in between. Such a join is refused.
bool matesReleasedTogether(const Dependencies &deps,
                           const std::unordered_map<Slot, uint32_t> &colour,
                           const GroupRoles &roles, Slot group, size_t at, uint32_t pick) {
    auto mates = roles.r1Forced.find(group);
    auto own = deps.firstConsumer.find(group);
    if (mates == roles.r1Forced.end() || mates->second < 2 || own == deps.firstConsumer.end())
        return true;
    size_t release = barrierReleases(deps, colour, roles.rederived, at).wait[pick];
    return release == kNever || release >= own->second;
}

// Rule 1 of joinedBarrier: the barrier of a live producer ptxas released a
// forced one on the R1 load's barrier with (kNumBarriers: none).
bool r1MateBarrier(Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                   const Rederived &rd, Slot group, size_t at, uint32_t &pick,
                   std::string &error) {
    const std::vector<Slot> &live = deps.liveAt[at];
    for (const auto &[forced, mates] : rd.r1Mates) {
        if (deps.groups.find(forced) != group)
            continue;
        for (Slot m : mates) {
            Slot h = deps.groups.find(m);
            auto it = colour.find(h);
            if (it == colour.end() || std::find(live.begin(), live.end(), h) == live.end())
                continue;
            if (pick != kNumBarriers && pick != it->second) {
                error = "the producer at offset " + hex(forced / 2 * 16) +
                        " finds no free scoreboard barrier while the producers ptxas released "
                        "it with are live on two others; nvlink's choice there is not known";
                return false;
            }
            pick = it->second;
        }
    }
    return true;
}

// Rule 2 of joinedBarrier: the lowest barrier holding a re-derived group
// next waited on after `own` (kNumBarriers: none). Where that is not the
// one released first, nvlink took the lowest in 11 generated kernels and
// the other in 1: refused.
bool laterReleasedBarrier(const BarrierReleases &rel, size_t own, Slot group, uint32_t &pick,
                          std::string &error) {
    uint32_t earliest = kNumBarriers;
    for (uint32_t c = 0; c < kNumBarriers; ++c) {
        if (!rel.rederived[c] || rel.wait[c] == kNever || rel.wait[c] <= own)
            continue;
        pick = std::min(pick, c);
        if (earliest == kNumBarriers || rel.wait[c] < rel.wait[earliest])
            earliest = c;
    }
    if (pick == earliest)
        return true;
    error = "the producer at offset " + hex(group / 2 * 16) +
            " finds no free scoreboard barrier, and of the barriers it could share the lowest "
            "is not the one released first; nvlink's choice there is not known";
    return false;
}

// Issue cycle of each instruction: the stall counts (bits 105-108) of the
// instructions before it, which the rewrite leaves alone.
std::vector<uint64_t> issueCycles(const std::vector<Insn> &code) {
    std::vector<uint64_t> cycles(code.size() + 1, 0);
    for (size_t i = 0; i < code.size(); ++i)
        cycles[i + 1] = cycles[i] + getBits(code[i], kStallBit, 4);
    return cycles;
}

// Issue cycles between instructions `a` and `b`, either way round.
uint64_t cyclesBetween(const std::vector<uint64_t> &cycles, size_t a, size_t b) {
    return cycles[a] > cycles[b] ? cycles[a] - cycles[b] : cycles[b] - cycles[a];
}

// Rule 2a of joinedBarrier, for a forced producer on the R1 load's barrier
// needed right where ptxas waits for it: the barrier whose release comes
// nearest its own consumer in issue cycles, before or after it (variants of
// libcudadevrt's memcpy_3d_device on sm_100-sm_121, an LDCU forced onto
// the R1 barrier: a release 21 cycles before beat one 25 after, one 7
// after beat one 33 before, one 25 after beat one 34 before; rules 2 and
// 3 each got some of them wrong, without a word). A tie is refused.
constexpr uint64_t kNearestMeasured = 4;
bool nearestReleasedBarrier(const BarrierReleases &rel, const std::vector<uint64_t> &cycles,
                            size_t own, Slot group, uint32_t &pick, std::string &error) {
    uint64_t best = UINT64_MAX;
    bool tie = false;
    for (uint32_t c = 0; c < kNumBarriers; ++c) {
        if (rel.wait[c] == kNever)
            continue;
        uint64_t d = cyclesBetween(cycles, rel.wait[c], own);
        tie = d == best || (d > best && tie);
        if (d < best) {
            best = d;
            pick = c;
            tie = false;
        }
    }
    if (tie) {
        error = "the producer at offset " + hex(group / 2 * 16) +
                " finds no free scoreboard barrier, and two barriers are released equally near "
                "its first read; nvlink's choice there is not known";
        return false;
    }
    // The nearest release was 4 or more cycles away in every kernel
    // measured that also had one on the other side (80); in the one where
    // it came 2 cycles before the read, nvlink took one 13 cycles after
    // (gen-many-params.py seed 103, sm_100).
    bool otherSide = false;
    for (uint32_t c = 0; c < kNumBarriers; ++c)
        otherSide = otherSide || (rel.wait[c] != kNever &&
                                  (rel.wait[c] <= own) != (rel.wait[pick] <= own));
    if (otherSide && cyclesBetween(cycles, rel.wait[pick], own) < kNearestMeasured) {
        error = "the producer at offset " + hex(group / 2 * 16) +
                " finds no free scoreboard barrier, and one is released within " +
                std::to_string(kNearestMeasured) +
                " cycles of its first read; nvlink's choice there is not known";
        return false;
    }
    return true;
}

// Rule 2a for an LDC with a barrier released after its first read: nvlink
// took the lowest such in 7 of 7 generated links (unseen special-register
// seeds sr96_2, sr821_0, sr1032_0, sr2085_2, sm_100 and sm_120) where
// rule 2a took the one released nearest before it; with every release
// before its read, rule 2a held (corpus 115 on sm_120 and sm_121). LDCUs
// with a release after their read went either way (libcudadevrt's
// memcpy_3d_device 2 of 3 and generated many-parameter kernels 2 of 4
// after; rule 2a, nearest in cycles, right in 5 of those 7). Such an LDC
// is refused.
bool checkNearestJoinMeasured(const std::vector<Insn> &code, const BarrierReleases &rel, size_t own,
                              Slot g, std::string &error) {
    const bool releasedAfter = std::any_of(rel.wait.begin(), rel.wait.end(),
                                           [&](size_t w) { return w != kNever && w > own; });
    if (opcode12(code[g / 2]) != kLdc || !releasedAfter)
        return true;
    error = "the constant load at offset " + hex(g / 2 * 16) +
            " on the stack-pointer load's barrier, needed at ptxas's wait there, finds no free "
            "scoreboard barrier and one released after its first read; nvlink's barrier for it "
            "there is not understood";
    return false;
}

// Rule 1's mate barrier holds for such a late producer unless another
// barrier is released exactly as many issue cycles from its first read on
// the other side: with the mate's 25 cycles before and another 25 after,
// nvlink took the mate in one kernel and the other in another (variants of
// libcudadevrt's memcpy_3d_device, sm_120); 102 of 102 others took the
// mate, nearer or not.
bool mateUnlikeAnyOther(const BarrierReleases &rel, const std::vector<uint64_t> &cycles,
                        size_t own, uint32_t mate) {
    if (rel.wait[mate] == kNever || rel.wait[mate] >= own)
        return true;
    for (uint32_t c = 0; c < kNumBarriers; ++c)
        if (c != mate && rel.wait[c] != kNever && rel.wait[c] > own &&
            cyclesBetween(cycles, rel.wait[c], own) == cyclesBetween(cycles, rel.wait[mate], own))
            return false;
    return true;
}

// Rule 3 of joinedBarrier: the barrier released last without coming after
// `own` (kNumBarriers: none).
uint32_t lastReleasedBarrier(const BarrierReleases &rel, size_t own) {
    uint32_t pick = kNumBarriers;
    size_t latest = 0;
    for (uint32_t c = 0; c < kNumBarriers; ++c)
        if (rel.wait[c] != kNever && rel.wait[c] <= own && rel.wait[c] > latest) {
            latest = rel.wait[c];
            pick = c;
        }
    return pick;
}

// The barrier a forced group joins when none is free (nvlink, measured on
// generated sets; kNumBarriers when there is no candidate):
//  1. On the R1 load's barrier, the barrier of a live producer ptxas
//     released with it there: nvlink gives them the same one (two or three
//     loads on that barrier, read at ptxas's wait or later, variants of
//     libcudadevrt's memcpy_3d_device). Two such barriers are refused.
//  2a. On the R1 load's barrier and needed right where ptxas waits for
//     it: the barrier released nearest its first read in issue cycles
//     (nearestReleasedBarrier).
//  2. The lowest barrier holding a re-derived group that is next waited on
//     after the group's first read, which one wait there then releases
//     early: needed right where ptxas waits for it (an LDC forced onto an
//     LDCU's barrier and needed at 0x130 joined the LDCU read at 0x140;
//     with IMAD.HI in the bounds check, an LDC needed at 0x130 joined an
//     LDCU read at 0x1e0 on barrier 1, not the one ptxas released it with,
//     read at 0x210 on 3) or past it (many-parameter kernels, 2 of 2: an
//     LDCU read at 0x140, one wait past ptxas's, joined the LDCU read at
//     0x160 rather than the one waited on at 0x130; rule 3 had put it
//     there, exit 0).
//  3. Otherwise the barrier released last without coming after its own
//     first consumer (2 of 2 choices between waits at 0x120 and 0x130 went
//     to 0x130; two forced loads needed at 0x190 and 0x1c0, with another
//     group waited on at 0x1d0, share the barrier waited on at 0x190).
bool joinedBarrier(const std::vector<Insn> &code, Dependencies &deps,
                   const std::unordered_map<Slot, uint32_t> &colour, const Rederived &rd,
                   const GroupRoles &roles, const std::vector<uint64_t> &cycles, Slot group,
                   size_t at, uint32_t &pick, std::string &error) {
    pick = kNumBarriers;
    auto own = deps.firstConsumer.find(group);
    if (own == deps.firstConsumer.end())
        return true;
    BarrierReleases rel = barrierReleases(deps, colour, roles.rederived, at);
    if (!r1MateBarrier(deps, colour, rd, group, at, pick, error))
        return false;
    if (pick != kNumBarriers) {
        if (roles.lateBehindMate.count(group) &&
            !mateUnlikeAnyOther(rel, cycles, own->second, pick)) {
            error = "the producer at offset " + hex(group / 2 * 16) +
                    " is needed past ptxas's wait on the stack-pointer load's barrier, and a "
                    "barrier is released as near its first read as its mate's; nvlink's choice "
                    "there is not known";
            return false;
        }
        return true;
    }
    if (roles.neededAtR1Wait.count(group))
        return checkNearestJoinMeasured(code, rel, own->second, group, error) &&
               nearestReleasedBarrier(rel, cycles, own->second, group, pick, error);
    if (!laterReleasedBarrier(rel, own->second, group, pick, error))
        return false;
    if (pick != kNumBarriers)
        return true;
    pick = lastReleasedBarrier(rel, own->second);
    return true;
}

// After a join, one wait releases every group on the barrier: none of them
// stays live past the first of their consumers, and a later group may take
// the barrier from there (a generated kernel: an S2R at 0x140 takes barrier
// 1, freed at 0x110 by the wait of an LDC that joined an LDCU read at 0x160).
void releaseTogether(Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                     uint32_t barrier, size_t at) {
    size_t release = kNever;
    std::vector<Slot> sharers;
    forEachLiveColoured(deps, colour, at, [&](Slot h, uint32_t c, size_t consumer) {
        if (c != barrier)
            return;
        sharers.push_back(h);
        release = std::min(release, consumer);
    });
    if (sharers.size() < 2)
        return;
    for (Slot h : sharers) {
        std::vector<size_t> &range = deps.liveRange[h];
        for (size_t i : range)
            if (i > release) {
                std::vector<Slot> &v = deps.liveAt[i];
                v.erase(std::remove(v.begin(), v.end(), h), v.end());
            }
        range.erase(std::remove_if(range.begin(), range.end(),
                                   [&](size_t i) { return i > release; }),
                    range.end());
    }
}

// How many barriers `taken` (a mask) leaves free.
unsigned freeBarriers(uint32_t taken) {
    unsigned n = 0;
    for (uint32_t c = 0; c < kNumBarriers; ++c)
        n += !(taken >> c & 1);
    return n;
}

// A forced producer that finds a barrier free takes it (1,600 measured on
// the R1 load's barrier), except in shapes where nvlink joined a live
// group instead, by a rule not understood; such kernels are refused:
//  - on the R1 load's barrier, first needed past a branch, with one
//    barrier free (generated special-register kernel sr165_2, sm_100: an
//    LDCU joined the S2R's group released before the branch; with two
//    free, 28 of 28 took one);
//  - an LDC on the R1 load's barrier with two re-derived groups live
//    (sr131_1 and sr295_2, sm_100 and sm_120: it joined one of them with
//    5 free; with one such group it took 5 in 5 of 5);
//  - an LDC ptxas shared off the R1 load's barrier, with one barrier
//    free and two re-derived groups live that are first needed just after
//    it, within kJustAfter instructions (unseen special-register seeds
//    sr1414_1, sr1878_0 and sr2073_0, sm_100 and sm_120: it joined one of
//    them, the one released later, with 5 free; where they were needed 5
//    and more instructions after it, it took the free one: sr415_1, and
//    m15_0, a variant of libcudadevrt's memcpy_3d_device).
constexpr size_t kJustAfter = 4;
bool checkForcedTakesFree(const std::vector<Insn> &code, const Dependencies &deps,
                          const std::unordered_map<Slot, uint32_t> &colour, const GroupRoles &roles,
                          size_t i, Slot g, uint32_t old, bool onR1Barrier, uint32_t taken,
                          std::string &error) {
    if (onR1Barrier && roles.pastBranch.count(g) && freeBarriers(taken) == 1) {
        error = "the producer at offset " + hex(i * 16) +
                " on the stack-pointer load's barrier is first needed past a branch, with one "
                "barrier free; nvlink's barrier for it there is not understood";
        return false;
    }
    auto own = deps.firstConsumer.find(g);
    if (opcode12(code[i]) != kLdc ||
        (!onR1Barrier && (freeBarriers(taken) != 1 || own == deps.firstConsumer.end())))
        return true;
    auto justAfter = [&](size_t consumer) {
        return consumer > own->second && consumer - own->second <= kJustAfter;
    };
    uint32_t rederivedLive = 0;
    forEachLiveColoured(deps, colour, i + 1, [&](Slot h, uint32_t c, size_t consumer) {
        if (roles.rederived.count(h) && (onR1Barrier || justAfter(consumer)))
            rederivedLive |= 1u << c;
    });
    if (__builtin_popcount(rederivedLive) >= 2) {
        error = "the constant load at offset " + hex(i * 16) + " sharing barrier " +
                std::to_string(old) +
                " for want of a free one in ptxas's code finds one free beside two re-derived "
                "groups; nvlink's barrier for it there is not understood";
        return false;
    }
    return true;
}

// A producer forced onto the R1 load's barrier and first needed past a
// conditional `@P EXIT`, where ptxas waits for it: nvlink has the EXIT wait
// for it on the lowest free barrier while two or more are free, and
// otherwise joins it to the group released by the second wait after it
// (not the first, though it comes a cycle after the producer; not a free
// barrier), which then releases both, and the EXIT waits on nothing more.
// Measured on the memcpy_3d_device kernels of libcudadevrt (sm_100,
// sm_120) and mutations of their PTX (docs/nvlink-findings.md).
// exitJoinBarrier gives the barrier of the group the wait at `wait`
// releases (coloured already: its producers come first), for such a
// producer joining it.
bool exitJoinBarrier(const std::vector<Insn> &code, const std::vector<Pending> &in,
                     const Rederived &rd, UnionFind &groups,
                     const std::unordered_map<Slot, uint32_t> &colour, size_t wait, uint32_t b0,
                     uint32_t &pick, std::string &error) {
    pick = kNumBarriers;
    for (uint32_t b = 0; b < kNumBarriers; ++b) {
        if (b == b0 || !(waitMask(code[wait]) >> b & 1))
            continue;
        for (Slot s : in[wait][b]) {
            auto it = rd.has(s) ? colour.end() : colour.find(groups.find(s));
            if (it == colour.end() || (pick != kNumBarriers && pick != it->second)) {
                error = "the producer joining the wait at offset " + hex(wait * 16) +
                        " finds a group there that is not coloured yet";
                return false;
            }
            pick = it->second;
        }
    }
    if (pick == kNumBarriers)
        error = "the wait at offset " + hex(wait * 16) + " releases nothing to join";
    return pick != kNumBarriers;
}

// A producer under a predicate that a branch under the same predicate
// follows is pending on the fall-through path only in culd's may-analysis:
// it issued only when the branch is taken. ptxas knows that, and reuses its
// barrier on that path; where the next wait on it there also releases a
// producer issued after the branch, culd ties the two into one group and
// nvlink does not (CUB's scan kernel, held-out DeviceScan set, sm_100 and
// sm_120: an `@!P0 LDC` before an `@!P0 BRA` and thirteen LDGs after it).
// Such a kernel is refused. (Producers that are not released with later
// ones there do not change the groups: over 8,000 measured kernels have
// them.)
bool checkPredicatedAcrossBranch(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                 const std::vector<bool> &reached, std::string &error) {
    const size_t n = code.size();
    for (size_t i = 0; i + 1 < n; ++i) {
        if (!reached[i] || opcode9(code[i]) != kBra || guard(code[i]) == kAlways)
            continue;
        for (uint32_t b = 0; b < kNumBarriers; ++b) {
            if (waitMask(code[i]) >> b & 1)
                continue;
            auto sameGuard = [&](Slot s) { return guard(code[s / 2]) == guard(code[i]); };
            auto producer = std::find_if(in[i][b].begin(), in[i][b].end(), sameGuard);
            if (producer == in[i][b].end())
                continue;
            for (size_t k = i + 1; k < n; ++k) {
                uint32_t op = opcode9(code[k]);
                if (waitMask(code[k]) >> b & 1) {
                    const std::vector<Slot> &released = in[k][b];
                    if (std::any_of(released.begin(), released.end(),
                                    [i](Slot t) { return t / 2 > i; })) {
                        error = "the producer at offset " + hex(*producer / 2 * 16) +
                                " is under the predicate of the branch at offset " +
                                hex(i * 16) + " and released with later producers past it; " +
                                "nvlink's groups there are not understood";
                        return false;
                    }
                    break;
                }
                if (leavesStraightLine(op))
                    break;
            }
        }
    }
    return true;
}

// Each path from the R1 load ends at its first wait on the load's barrier
// (stackPointerRange). A wait there other than the first in code order
// (`end`) that releases nothing else (two paths leaving the kernel before
// either waits) occurs in no measured kernel: ptxas waits before it
// branches (generated kernels with if/else and switch returns, sm_100 and
// sm_120). Whether nvlink drops such a wait is not known, so such a kernel
// is refused. (One that also releases later producers on the barrier is
// an ordinary wait for them: CUB's kernels have many, and nvlink waits
// there on their new barrier.)
bool checkOneStackPointerWait(const std::vector<Insn> &code, const std::vector<Pending> &in,
                              const std::vector<bool> &inRange, uint32_t b0, size_t end,
                              std::string &error) {
    for (size_t i = 0; i < code.size(); ++i)
        if (inRange[i] && (waitMask(code[i]) >> b0 & 1) && i != end && in[i][b0].empty()) {
            error = "the stack-pointer load is waited on at offsets " + hex(end * 16) + " and " +
                    hex(i * 16) +
                    " on different paths; nvlink's rewrite of such a kernel is not known";
            return false;
        }
    return true;
}

// Waits ptxas put, past the R1 load's range, on a barrier nothing can be
// pending on there (the may-analysis finds no producer). Inside the range
// such a wait is dropped, as the R1 load's own are (no sample of another
// kind there). Past it:
//  - an echo of a wait on the same barrier earlier on the straight line
//    (no branch target between them) keeps the barrier of the producers
//    that wait released busy until the echo, and waits on their new
//    barrier: nvlink treats it as one more use of them (generated
//    warp-shuffle kernel dv92_2, sm_100 and sm_120: a wait on 2 and 5 and
//    a 0x91b two instructions later waiting on 2 and 5 again both go to 1
//    and 5; CUB's scan kernel: an LDC waited on at the next instruction and
//    again two later);
//  - any other keeps its index (CUB's radix-sort histogram kernel: a wait
//    on 0 at the top of a loop stays on 0).
struct Echo {
    size_t wait;   // the idle wait
    size_t echoed; // the wait before it on the same barrier
    Slot producer; // one of the producers that wait released
};
struct IdleWaits {
    std::vector<uint32_t> kept; // by instruction, a mask
    std::vector<Echo> echoes;
};

IdleWaits idleWaits(const std::vector<Insn> &code, const Successors &succ,
                    const std::vector<Pending> &in, const std::vector<bool> &reached,
                    const Rederived &rd, const std::vector<bool> &inRange) {
    const size_t n = code.size();
    IdleWaits idle{std::vector<uint32_t>(n, 0), {}};
    std::vector<bool> joined(n, false); // reached from elsewhere than the line above
    for (size_t i = 0; i < n; ++i)
        succ.forEach(i, [&](size_t t) { joined[t] = joined[t] || t != i + 1; });
    for (size_t c = 0; c < n; ++c) {
        for (uint32_t b = 0; b < kNumBarriers; ++b) {
            if (!reached[c] || inRange[c] || !(waitMask(code[c]) >> b & 1) || !in[c][b].empty())
                continue;
            std::optional<size_t> echoed;
            for (size_t k = c; !echoed && k > 0 && !joined[k];) {
                --k;
                uint32_t op = opcode9(code[k]);
                if (leavesStraightLine(op))
                    break;
                if (waitMask(code[k]) >> b & 1)
                    echoed = k;
            }
            size_t before = idle.echoes.size();
            if (echoed)
                for (Slot s : in[*echoed][b])
                    if (!rd.has(s))
                        idle.echoes.push_back({c, *echoed, s});
            if (idle.echoes.size() == before)
                idle.kept[c] |= 1u << b;
        }
    }
    return idle;
}

// An echoing idle wait keeps the groups it echoes live up to it.
// Each group once per echo: an echoed wait can release many producers of
// one group.
void liveUntilEchoes(Dependencies &deps, const IdleWaits &idle) {
    std::set<std::pair<size_t, Slot>> done;
    for (const Echo &e : idle.echoes) {
        Slot g = deps.groups.find(e.producer);
        if (done.insert({e.wait, g}).second)
            for (size_t i = e.echoed; i <= e.wait; ++i)
                markGroupLive(deps, i, g);
    }
}

// A wait past the R1 load's range under a predicate P whose producers all
// come later in the code (reached around a loop) under the opposite
// predicate: the clock sample's reduction loop (`@!P1 STS` with a read
// barrier, waited on by the next iteration's `@P1 BRA`), where nvlink
// dropped the wait and culd kept it. With producers under no predicate or
// the same one, nvlink keeps such waits (CUB's and cdpAdvancedQuicksort's
// loops); the predicated case is refused.
bool checkLoopCarriedPredicates(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                const std::vector<bool> &reached,
                                const std::vector<bool> &inRange, std::string &error) {
    for (size_t c = 0; c < code.size(); ++c) {
        if (!reached[c] || inRange[c] || guard(code[c]) == kAlways)
            continue;
        uint32_t opposite = guard(code[c]) ^ 8; // bit 3 negates the predicate
        for (uint32_t b = 0; b < kNumBarriers; ++b) {
            const std::vector<Slot> &pending = in[c][b];
            if (!(waitMask(code[c]) >> b & 1) || pending.empty())
                continue;
            if (std::all_of(pending.begin(), pending.end(), [&](Slot s) {
                    return s / 2 > c && guard(code[s / 2]) == opposite;
                })) {
                error = "the wait at offset " + hex(c * 16) +
                        " is for producers later in a loop under the opposite predicate; "
                        "nvlink's handling of it is not understood";
                return false;
            }
        }
    }
    return true;
}

// A wait past the R1 load's range that releases groups of two or more
// colours, one reached around a loop (produced later in the code), where
// a group moved off ptxas's index: curand_init's skip-ahead loop on sm_100
// (the MonteCarloMultiGPU sample), where stores shifted onto the R1 load's
// old barrier and a loop's stores on it are both released by one wait:
// nvlink merged them on that barrier, culd kept them apart. Where every
// such group keeps its index nvlink does too (CUB's and
// cdpAdvancedQuicksort's loops); the rest is refused.
bool checkLoopCarriedMerges(const std::vector<Insn> &code, Dependencies &deps,
                            const std::unordered_map<Slot, uint32_t> &colour,
                            const std::vector<bool> &inRange, std::string &error) {
    struct Released {
        uint32_t colours = 0;
        bool loopCarried = false, moved = false;
    };
    std::map<size_t, Released> at;
    for (const auto &[slot, consumer] : deps.edges) {
        if (inRange[consumer])
            continue;
        auto it = colour.find(deps.groups.find(slot));
        if (it == colour.end())
            continue;
        Released &r = at[consumer];
        r.colours |= 1u << it->second;
        r.loopCarried = r.loopCarried || slot / 2 > consumer;
        r.moved = r.moved || getBits(code[slot / 2], kSlotBits[slot % 2], 3) != it->second;
    }
    for (const auto &[consumer, r] : at)
        if (r.loopCarried && r.moved && (r.colours & (r.colours - 1))) {
            error = "the wait at offset " + hex(consumer * 16) +
                    " releases producers reached around a loop with others, on barriers "
                    "moved from ptxas's; nvlink's barriers there are not understood";
            return false;
        }
    return true;
}

// Calls `visit(at, h, barrier)` for each coloured group h other than g
// live at an instruction `at` where g is live.
template <typename Visit>
void forEachColouredBeside(const Dependencies &deps,
                           const std::unordered_map<Slot, uint32_t> &colour, Slot g,
                           Visit visit) {
    auto range = deps.liveRange.find(g);
    if (range == deps.liveRange.end())
        return;
    for (size_t at : range->second)
        for (Slot h : deps.liveAt[at])
            if (auto it = colour.find(h); h != g && it != colour.end())
                visit(at, h, it->second);
}

// Whether group x is pending (per the may-analysis) when `at` issues.
bool groupPendingAt(const Dependencies &deps, Slot x, size_t at) {
    const std::vector<Slot> &groups = deps.pendingAt[at];
    return std::find(groups.begin(), groups.end(), x) != groups.end();
}

// Whether producers of groups g and h are ever pending together on one
// path: one may be pending where the other issues (a wait there counts as
// meeting: generated __trap() kernels, sm_100 and sm_120, where nvlink kept
// a load's read barrier apart from the stores' that the load waits on,
// pending past it only on the other path), or they issue together.
bool meetOnAPath(Dependencies &deps, Slot g, Slot h) {
    auto meets = [&](Slot x, Slot other) {
        for (Slot s : deps.members[x])
            if (groupPendingAt(deps, other, s / 2) || deps.groups.find(s ^ 1) == other)
                return true;
        return false;
    };
    return meets(g, h) || meets(h, g);
}

// Whether the wait at instruction `at` releases a producer of group x.
bool waitReleases(const std::vector<Insn> &code, const std::vector<Pending> &in,
                  Dependencies &deps, size_t at, Slot x) {
    for (uint32_t b = 0; b < kNumBarriers; ++b)
        if (waitMask(code[at]) >> b & 1)
            for (Slot s : in[at][b])
                if (deps.groups.find(s) == x)
                    return true;
    return false;
}

// The barriers that coloured groups live beside group g hold. Past the R1
// load's range, a group met only at waits that release both it and g does
// not count: such a wait (the first instruction after a join of paths, one
// bringing each) is for both anyway, and nvlink kept the two on one
// barrier there (sr129_1, sm_100 and sm_120: an F2I's read barrier kept
// ptxas's index, held by a store's read barrier pending on the path around
// the F2I's loop; the LDC after the join waits for both). Met where the
// wait releases only one, they stay apart (checkJoinOnlyConflicts).
// `joinOnly`: the barriers of groups let through that way at a join of
// paths (`join`), where nvlink did not always share (see
// checkNotJoinOnlyHolder).
struct Beside {
    uint32_t taken = 0;
    uint32_t joinOnly = 0;
};
Beside takenBeside(const std::vector<Insn> &code, const std::vector<Pending> &in,
                   Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                   const std::vector<bool> &join, Slot g, bool inRange) {
    Beside r;
    size_t lastAt = kNever;
    bool gReleased = false; // by the wait at lastAt
    forEachColouredBeside(deps, colour, g, [&](size_t at, Slot h, uint32_t c) {
        if (r.taken >> c & 1)
            return;
        if (at != lastAt) {
            lastAt = at;
            gReleased = !inRange && waitReleases(code, in, deps, at, g);
        }
        if (!gReleased || !waitReleases(code, in, deps, at, h))
            r.taken |= 1u << c;
        else if (join[at])
            r.joinOnly |= 1u << c;
    });
    return r;
}

// A group that takes the barrier of a group it meets only at the wait
// after a join of paths, which releases both (takenBeside): nvlink shared
// the barrier so in 5 links of 6,200 (sr129_1, sr451_1, sr694_0) and kept
// the groups apart in 25 (generated special-register kernels, sr341_2 the
// first: a store's read barrier in one arm of an if, ptxas's 0, went to 1
// beside a store's read barrier on 0 pending through the other arm, culd
// wrote 0 without a word). Which it does is not understood: refused.
bool checkNotJoinOnlyHolder(size_t i, uint32_t pick, uint32_t joinOnly, std::string &error) {
    if (pick >= kNumBarriers || !(joinOnly >> pick & 1))
        return true;
    error = "the producer at offset " + hex(i * 16) + " would take barrier " +
            std::to_string(pick) +
            ", held by a group it meets only where a join of paths waits for both; nvlink's "
            "barrier for it there is not understood";
    return false;
}

// Whether group h, which holds g's old barrier, is pending where a later
// member of g issues, past that member's wait, though not where g's first
// member issues: g's first producer came along a path where h was
// released, a later one along a path where it was not. nvlink allocates
// per producer there (corpus 152, sm_100 and sm_120: a store's read barrier
// released on the path through an atomic, still pending on the path around
// it; the atomic's read barrier, ptxas's 0, moved to 1 as 0 is the
// store's, and the LDG after the join, ptxas's 0 too, stayed on 0 with the
// store, not with the atomic). When it moves a member is not understood:
// of 18 such kernels among 668 generated fence-and-atomics kernels,
// culd's groups matched nvlink's in 4 and not in 14. Without the path
// condition the shape also covers libcudadevrt's memset_3d_device kernels,
// where culd's groups match nvlink's.
bool laterMemberMeetsHolder(const std::vector<Insn> &code, const std::vector<Pending> &in,
                            Dependencies &deps, Slot g, Slot h) {
    const std::vector<Slot> &members = deps.members.at(g);
    auto heldAt = [&](size_t at) { // pending at `at` and not released by its wait
        return groupPendingAt(deps, h, at) && !waitReleases(code, in, deps, at, h);
    };
    Slot first = members.front();
    if (groupPendingAt(deps, h, first / 2) || deps.groups.find(first ^ 1) == h)
        return false;
    return std::any_of(members.begin() + 1, members.end(),
                       [&](Slot s) { return heldAt(s / 2); });
}

// Whether instruction `target` is reached from the entry along a path
// that passes none of `avoid`: a producer in `avoid` is then not pending
// there on every path.
bool reachedAvoiding(const Successors &succ, const std::vector<size_t> &avoid, size_t target) {
    std::vector<bool> blocked(succ.direct.size(), false);
    for (size_t a : avoid)
        blocked[a] = true;
    return reach(succ, {0}, blocked, [](size_t) { return true; })[target];
}

// Whether a later member of group g, which moved off its old barrier,
// issues where g is pending on some paths only, while the group holding
// that old barrier is pending there on every path and released by the
// same first wait. Either barrier keeps the member's dependencies; nvlink
// put it with the holder in the one kernel measured (corpus 165, a
// generated fence-and-atomics kernel on sm_120: an LDG after the join of
// an if around an ATOMG, grouped by ptxas with the ATOMG's read barrier,
// went to the store's read barrier pending on both paths), where culd
// keeps ptxas's group. Not seen otherwise among 8,410 study, 1,254
// held-out and 668 fence-and-atomics kernels; in 216 generated after it,
// it caught the same difference twice (k373_2, sm_100 and sm_120). Asked
// only for groups that moved; the cheap tests come first, as each path
// test walks the function.
bool laterMemberMeetsHolderOnEveryPath(const Successors &succ, Dependencies &deps,
                                       const std::unordered_map<Slot, uint32_t> &colour, Slot g,
                                       uint32_t old, size_t &member) {
    auto g1 = deps.firstConsumer.find(g);
    if (g1 == deps.firstConsumer.end())
        return false;
    // h holds g's old barrier, is released with g, and every path to `at`
    // passes one of its producers.
    auto holdsOnEveryPath = [&](Slot h, size_t at) {
        auto c = colour.find(h);
        auto h1 = deps.firstConsumer.find(h);
        if (h == g || c == colour.end() || c->second != old || h1 == deps.firstConsumer.end() ||
            h1->second != g1->second)
            return false;
        std::vector<size_t> holders;
        for (Slot x : deps.members.at(h))
            holders.push_back(x / 2);
        return !reachedAvoiding(succ, holders, at);
    };
    const std::vector<Slot> &members = deps.members.at(g);
    std::vector<size_t> earlier{members.front() / 2};
    for (size_t k = 1; k < members.size(); ++k) {
        const size_t at = members[k] / 2;
        if (at != earlier.back() && groupPendingAt(deps, g, at)) {
            const std::vector<Slot> &pending = deps.pendingAt[at];
            if (std::any_of(pending.begin(), pending.end(),
                            [&](Slot h) { return holdsOnEveryPath(h, at); }) &&
                reachedAvoiding(succ, earlier, at)) {
                member = at;
                return true;
            }
        }
        earlier.push_back(at);
    }
    return false;
}

// After the range a group keeps its old barrier unless a group live with
// it holds that barrier. The liveness is path-insensitive: two groups
// pending on different paths into a join are live together past it though
// no path holds both. Where they are live together only at instructions
// that release one of them, nvlink keeps them apart as culd does
// (libcudadevrt's memcpy_3d_device, sm_100 and sm_120: an LDCU released at
// the join). Where they stay live together past it, nvlink put both on one
// barrier (CUB's radix-sort exclusive-sum kernel, sm_100 and sm_120: a
// warp scan's SHFL read barrier, never waited on, and an STS's, waited on
// past the join; a generated warp-shuffle kernel, dv2131_3 sm_100: an LDS
// and a later load's read barrier, both waited on past a BSYNC) and culd
// would move one: that shape is refused.
bool checkJoinOnlyConflicts(const std::vector<Insn> &code, const std::vector<Pending> &in,
                            Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                            const GroupRoles &roles, Slot g, uint32_t barrier,
                            std::string &error) {
    // Re-derived groups are live up to their first use, not by what is
    // pending; and a group kept busy up to an echoing wait is live there on
    // the straight line. Only where both are pending can a join be the
    // cause.
    if (!roles.plain(g))
        return true;
    std::map<Slot, std::vector<size_t>> together; // holder -> where both are pending
    forEachColouredBeside(deps, colour, g, [&](size_t at, Slot h, uint32_t c) {
        if (c == barrier && groupPendingAt(deps, g, at) && groupPendingAt(deps, h, at))
            together[h].push_back(at);
    });
    for (const auto &entry : together) {
        const Slot h = entry.first;
        const std::vector<size_t> &where = entry.second;
        if (roles.plain(h) && laterMemberMeetsHolder(code, in, deps, g, h)) {
            error = "the producer at offset " + hex(g / 2 * 16) +
                    " is grouped with later producers that issue while the one at offset " +
                    hex(h / 2 * 16) + " holds its barrier on another path; nvlink's barriers "
                                      "for them there are not understood";
            return false;
        }
        auto oneReleased = [&](size_t at) {
            return waitReleases(code, in, deps, at, g) || waitReleases(code, in, deps, at, h);
        };
        if (roles.plain(h) && !std::all_of(where.begin(), where.end(), oneReleased) &&
            !meetOnAPath(deps, g, h)) {
            error = "the producers at offsets " + hex(h / 2 * 16) + " and " + hex(g / 2 * 16) +
                    " are pending together only past a join of paths; nvlink's barriers for "
                    "them there are not understood";
            return false;
        }
    }
    return true;
}

// Whether a re-derived LDCU's group, pending while load group g is, holds
// a barrier from 2 up below the one g would take (`pick`): that is h. The
// one kernel measured (fa184_1, a generated fence-and-atomics kernel on
// sm_100 and sm_120: an LDCU split off an LDC's barrier, read past the
// load's first use) had nvlink put the load on the LDCU's barrier, where
// the lowest free from 2 up was above it; when nvlink joins a re-derived
// group rather than take a free barrier is not known. Loads above other
// re-derived groups took the lowest free (7 kernels of the study sets).
bool belowRederivedLdcu(const std::vector<Insn> &code, const Dependencies &deps,
                        const std::unordered_map<Slot, uint32_t> &colour,
                        const GroupRoles &roles, Slot g, uint32_t pick, Slot &h) {
    bool found = false;
    forEachColouredBeside(deps, colour, g, [&](size_t, Slot x, uint32_t c) {
        if (!found && roles.rederived.count(x) && opcode12(code[x / 2]) == kLdcu &&
            c >= kLongLatencyFloor && c < pick) {
            h = x;
            found = true;
        }
    });
    return found;
}

// The first and last instruction, in program order, where group g may be
// pending; false where it is pending nowhere.
bool spanOf(const Dependencies &deps, Slot g, size_t &first, size_t &last) {
    auto range = deps.liveRange.find(g);
    if (range == deps.liveRange.end() || range->second.empty())
        return false;
    auto [lo, hi] = std::minmax_element(range->second.begin(), range->second.end());
    first = *lo;
    last = *hi;
    return true;
}

// A store's read barrier that a branch waits on, given an index that
// another group holds over a span of code covering the store's -- pending
// on another path, so never at the same time: nvlink took another index
// in 28 of the 32 such picks measured, by a rule not understood, and such
// kernels are refused. Seen in generated special-register kernels with an
// unrolled `for (..) if (i < n) p[i] = v;` loop (sr23_1, sr45_0, sr176_1,
// sr296_0, sm_100 and sm_120: each store's read barrier moved off ptxas's
// index, where it was free on every path). Measured over the 11,696
// kernels: these 8 and 3 that nvlink matched (sr234_0, sr280_2) are the
// only ones with such a pick. Waited on at a uniform-predicate BRA
// (0x547) instead, 2 such picks of 2 matched nvlink (sr255_1).
bool checkStoreOnSpannedBarrier(const std::vector<Insn> &code, const Dependencies &deps,
                                const std::unordered_map<Slot, uint32_t> &colour, size_t i,
                                unsigned f, Slot g, uint32_t pick, std::string &error) {
    auto consumer = deps.firstConsumer.find(g);
    if (f != 1 || opcode12(code[i]) != kStg || consumer == deps.firstConsumer.end() ||
        opcode12(code[consumer->second]) != kBraPlain)
        return true;
    size_t first = 0, last = 0;
    if (!spanOf(deps, g, first, last))
        return true;
    for (const auto &[h, c] : colour) {
        size_t hFirst = 0, hLast = 0;
        if (c == pick && h != g && spanOf(deps, h, hFirst, hLast) && hFirst <= last &&
            first <= hLast) {
            error = "the store at offset " + hex(i * 16) +
                    " has its read barrier waited on at a branch, and its barrier is held "
                    "across it by a group pending on another path; nvlink's barrier for it "
                    "there is not understood";
            return false;
        }
    }
    return true;
}

// The index old barrier `old` has become at instruction i: the colour of
// the nearest producer on it before i in program order, `old` itself where
// there is none or it is not coloured yet. Asked only for loads on `old`
// themselves, each walk stops at or after the previous one's load: linear
// in all.
uint32_t becomes(const std::vector<Insn> &code, UnionFind &groups,
                 const std::unordered_map<Slot, uint32_t> &colour, size_t p0, size_t i,
                 uint32_t old) {
    for (size_t j = i; j-- > 0;)
        for (unsigned f = 0; f < 2; ++f)
            if (j != p0 && getBits(code[j], kSlotBits[f], 3) == old) {
                auto it = colour.find(groups.find(static_cast<Slot>(j * 2 + f)));
                return it == colour.end() ? old : it->second;
            }
    return old;
}

// The instructions in reverse postorder of a depth-first walk from the
// entry that takes a conditional branch's fall-through first, then the
// unreached ones in program order. nvlink allocates in this order: with an
// if/else, the else block (the branch's target) before the then block (a
// generated kernel of atomics on both sides, sm_100 and sm_120: the else
// block's ATOMG read barrier took the lowest free index and the then
// block's, pending with it at the join, the next). Where no such join
// decides, it is program order: on over 10,000 measured kernels the two
// orders give the same code.
std::vector<size_t> reversePostorder(const Successors &succ, size_t n) {
    std::vector<size_t> post, order;
    std::vector<bool> seen(n, false);
    // Per instruction on the walk: the successors still to visit, the next
    // (fall-through first) at the back.
    std::vector<std::pair<size_t, std::vector<size_t>>> stack;
    auto push = [&](size_t i) {
        seen[i] = true;
        std::vector<size_t> next;
        const auto &direct = succ.direct[i];
        for (int64_t t : {direct[1], direct[0]})
            if (t >= 0)
                next.push_back(static_cast<size_t>(t));
        succ.forEachTableTarget(i, [&](size_t t) { next.push_back(t); });
        std::reverse(next.begin(), next.end()); // taken from the back
        stack.emplace_back(i, std::move(next));
    };
    if (n > 0)
        push(0);
    while (!stack.empty()) {
        auto &[i, next] = stack.back();
        if (next.empty()) {
            post.push_back(i);
            stack.pop_back();
            continue;
        }
        size_t t = next.back();
        next.pop_back();
        if (!seen[t])
            push(t);
    }
    order.assign(post.rbegin(), post.rend());
    for (size_t i = 0; i < n; ++i)
        if (!seen[i])
            order.push_back(i);
    return order;
}

// A global load at i that finds none of 2-5 free: nvlink shared a barrier
// rather than go below 2 (CUB's radix-sort single-tile kernel on sm_120: an
// LDG joined a re-derived LDCU on 5 while 0 was free); which one is not
// known. Always false, with `error`.
bool noneFreeFromTwo(size_t i, std::string &error) {
    error = "the global load at offset " + hex(i * 16) +
            " finds no scoreboard barrier free from 2 up; nvlink's barrier for it there is "
            "not understood";
    return false;
}

// The wait that released barrier `b` just before producer i reuses it: i
// itself, or one before it on the straight line with no producer on `b`
// between (producers on other barriers may stand there: reusedBelow checks
// that none took the released colour). kNever when there is none.
size_t releasingWait(const std::vector<Insn> &code, size_t i, uint32_t b) {
    for (size_t w = i;; --w) {
        if (waitMask(code[w]) >> b & 1)
            return w;
        if (w == 0 || isControlClass(opcode9(code[w - 1])) || writeBarrier(code[w - 1]) == b ||
            readBarrier(code[w - 1]) == b)
            return kNever;
    }
}

// Whether a producer from `wait` up to (not including) i holds colour c.
bool colourTakenBetween(const std::vector<Insn> &code, UnionFind &groups,
                        const std::unordered_map<Slot, uint32_t> &colour, size_t wait, size_t i,
                        uint32_t c) {
    for (size_t j = wait; j < i; ++j)
        for (unsigned f = 0; f < 2; ++f) {
            if (getBits(code[j], kSlotBits[f], 3) >= kNumBarriers)
                continue;
            auto it = colour.find(groups.find(static_cast<Slot>(j * 2 + f)));
            if (it != colour.end() && it->second == c)
                return true;
        }
    return false;
}

// Past the R1 load's range a group keeps ptxas's index -- except where
// ptxas reused a barrier a wait released right there (its first
// instruction waits on it, or one before it does with no producer on that
// index between: releasingWait) and the groups released on it now have a
// lower colour, free, that no producer between took: the group takes that
// one. Producers on other barriers between the wait and the reuse do not
// matter (unseen special-register seeds sr2689_2 and sr3026_0, sm_100 and
// sm_120: an S2UR on ptxas's 1 after an LDG or a SHFL on another barrier,
// 1 released just before them and now 0, went to 0; also sr1847_2 and
// vl1168_0; no link of 15,000 changed otherwise) unless one took the
// released colour (sr15_0 and five more: an F2I after an LDCU that took
// the released 0 kept its 1). Measured first as (generated special-register
// kernel sr41_2, sm_100 and sm_120: a SHFL waiting on an LDS's read barrier
// 1, now 0, took 0 with 1 free; 42 such reuses where the index was taken
// went the same way; the wait one or two instructions earlier: generated
// shared-atomic kernels, 58 exact, vl149_1 among them, where an LDC after
// the wait on an atomic's read barrier kept its free 1, and sr221_1 on
// sm_100). Where the released colour is higher the group keeps its index
// (libcudadevrt's memcpy_3d_device: an LDC on 0 whose wait released a
// group now on 2 stayed on 0). kNumBarriers when none applies.
uint32_t reusedBelow(const std::vector<Insn> &code, const std::vector<Pending> &in,
                     UnionFind &groups, const std::unordered_map<Slot, uint32_t> &colour,
                     size_t i, uint32_t old, uint32_t taken) {
    const size_t wait = releasingWait(code, i, old);
    if (wait == kNever || in[wait][old].empty())
        return kNumBarriers;
    uint32_t released = kNumBarriers;
    for (Slot s : in[wait][old]) {
        auto it = colour.find(groups.find(s));
        if (it == colour.end() || (released != kNumBarriers && released != it->second))
            return kNumBarriers;
        released = it->second;
    }
    return released < old && !(taken >> released & 1) &&
                   !colourTakenBetween(code, groups, colour, wait, i, released)
               ? released
               : kNumBarriers;
}

// The write barrier of the global load at i past the R1 load's range
// (group g, ptxas's index `old`, `taken` by coloured groups live with it),
// picked as ptxas picks it: 5 stays 5 while free (1,169 loads pending far,
// every one kept there), any other takes the lowest free from 2 up -- a
// load on 3 whose group below moved down in the range follows it to 2
// (generated fence and special-register kernels, 12 loads), one on a
// taken 2 goes to 3, not to the lowest free (8 loads). A 5 that was
// ptxas's lowest free from 2 up (2-4 all pending there in ptxas's code)
// is no choice to keep: the load takes the lowest free from 2 up too (a
// generated special-register kernel, sr433_1 on sm_120: an LDG on 5
// beside loads on 2-4 went to 4; no other link of 6,200 changed). A
// barrier ptxas has pending there for a group not coloured yet (reached
// around a loop) counts as taken at its old index: CUB's select kernels
// keep loads on 3 and 4 with 2 free that way (3 loads). Measured over the
// 11,696 kernels of the study, held-out, fence and special-register sets.
bool pickPastRangeLoad(const std::vector<Insn> &code, const std::vector<Pending> &in,
                       UnionFind &groups, const std::unordered_map<Slot, uint32_t> &colour,
                       size_t p0, size_t i, Slot g, uint32_t old, uint32_t taken, uint32_t &pick,
                       std::string &error) {
    constexpr uint32_t kBelowTop = kLongLatencyBarriers & ~(1u << kLongLatencyTop);
    const bool ptxasLowestFree = (pendingPast(code[i], in[i]) & kBelowTop) == kBelowTop;
    if (old == kLongLatencyTop && !(taken >> old & 1) && !ptxasLowestFree) {
        pick = old;
        return true;
    }
    for (uint32_t b = 0; b < kNumBarriers; ++b) {
        if (waitMask(code[i]) >> b & 1)
            continue;
        for (Slot s : in[i][b])
            if (s / 2 != p0 && groups.find(s) != g && !colour.count(groups.find(s)))
                taken |= 1u << b;
    }
    pick = lowestFree(taken, kLongLatencyFloor);
    return pick != kNumBarriers || noneFreeFromTwo(i, error);
}

// The write barrier of the global load at i inside the R1 load's range
// (group g, ptxas's index `old`, `taken` by groups live with it): the
// lowest free from 2 up, or the index it keeps pending far
// (longLatencyPick); false, with `error`, where nvlink's choice is not
// understood.
bool pickRangeLoad(const std::vector<Insn> &code, Dependencies &deps,
                   const std::unordered_map<Slot, uint32_t> &colour, const GroupRoles &roles,
                   const std::vector<bool> &inRange, const std::vector<uint32_t> &branchesBefore,
                   size_t p0, size_t i, Slot g, uint32_t old, uint32_t taken, uint32_t &pick,
                   std::string &error) {
    // Pending past the range or a branch, or never waited on.
    bool pendingFar = !deps.firstConsumer.count(g) ||
                      std::any_of(deps.liveRange[g].begin(), deps.liveRange[g].end(),
                                  [&](size_t at) { return !inRange[at]; }) ||
                      pendingAcrossBranch(branchesBefore, i, deps.liveRange[g]);
    // Pending past the range (or a branch) with its old index
    // taken: the one kernel measured (warp-shuffle dv124_2,
    // sm_120) had nvlink join the group on the index below
    // (3 -> 2, with 5 free).
    if (pendingFar && (taken >> old & 1)) {
        error = "the global load at offset " + hex(i * 16) +
                " is pending past the stack-pointer load's range or a branch with "
                "its barrier taken; nvlink's barrier for it there is not understood";
        return false;
    }
    uint32_t fiveNow = pendingFar && old == kLongLatencyTop
                           ? becomes(code, deps.groups, colour, p0, i, old)
                           : old;
    pick = longLatencyPick(old, taken, pendingFar, fiveNow);
    // A load pending far that keeps 5 is no pick among free ones: nvlink
    // kept it there above a re-derived LDCU's barrier (generated
    // special-register kernels sr378_0, sr475_2, sr510_0, sm_100 and
    // sm_120: an LDCU split off its share, see forcedShares).
    const bool keepsTop = pendingFar && old == kLongLatencyTop && pick == fiveNow;
    if (Slot h; !keepsTop && belowRederivedLdcu(code, deps, colour, roles, g, pick, h)) {
        error = "the global load at offset " + hex(i * 16) +
                " would take a barrier above the one of the re-derived constant load "
                "at offset " +
                hex(h / 2 * 16) + ", still pending; nvlink's barrier for it there is "
                                  "not understood";
        return false;
    }
    // A load ptxas put on 5 beside a read barrier of its own, neither
    // pending far nor kept: nvlink moved it to the lowest free from 2 up
    // where that was 4 (3 of 3 generated links) but kept it on 5 where that
    // was 2 (6 of 6: unseen special-register seeds sr928_0, sr1446_2 and
    // sr1584_1, sm_100 and sm_120, culd wrote 2 without a word); loads
    // without a read barrier moved to 2 (3 of 3). Not understood below 4:
    // refused.
    if (old == kLongLatencyTop && pick < kLongLatencyTop - 1 &&
        readBarrier(code[i]) != kNoBarrier) {
        error = "the global load at offset " + hex(i * 16) +
                " on barrier 5 with a read barrier of its own finds barrier " +
                std::to_string(pick) +
                " the lowest free from 2 up; nvlink's barrier for it there is not understood";
        return false;
    }
    // An unguarded ATOMG kept on 5 while the lowest free from 2
    // up is 3 or 4: on every measured one kept there (8), 2 was
    // free; the one with 4 the lowest (a generated atomics
    // kernel, sm_100 and sm_120) nvlink moved to 4. Guarded ones
    // stayed on 5 with 3 free (corpus 107's katom, sm_120).
    uint32_t lowest = lowestFree(taken, kLongLatencyFloor);
    if (opcode12(code[i]) == kAtomg && guard(code[i]) == kAlways &&
        pick == kLongLatencyTop && lowest > kLongLatencyFloor && lowest < pick) {
        error = "the atomic at offset " + hex(i * 16) +
                " could keep barrier 5 or take the lowest free from 2 up; nvlink's "
                "choice there is not understood";
        return false;
    }
    return pick != kNumBarriers || noneFreeFromTwo(i, error);
}

// The producers (instructions with a write or read barrier) whose
// barriers nvlink's re-allocation was measured for, by 12-bit opcode. Each
// rule of the colouring was fitted to what these do; an instruction of
// another kind may be picked for differently (generated variable-latency
// kernels: a texture fetch 0xf66 on 5 that nvlink kept there while culd's
// rules moved it, 15 kernels written differently, exit 0, before this
// check), so a kernel with one is refused, naming it. A kind is listed
// once kernels holding it matched nvlink and none came out different. Let
// through one at a time over the variable-latency kernels, 0xd12 decided
// none. The double-to-int F2I (0x311), 0x301, MATCH (0x3a1) and the
// shared-memory atomic 0x98c are measured inside the R1 load's range only
// (measuredInRangeOnly).
bool measuredProducer(uint32_t op12) {
    switch (op12) {
    // Loads: constant (LDC, LDCU), special register (S2R, S2UR), global
    // and generic (LDG, LD), shared (LDS), texture (TEX, TLD).
    case kLdc:
    case kLdcu:
    case kS2r:
    case kS2ur:
    case kLdg:
    case kLd:
    case kLds:
    case kTex:
    case kTld:
    // Stores' read barriers: global, generic, shared (STG, ST, STS).
    case kStg:
    case 0x985:
    case 0x388:
    case 0x988:
    // Global atomics: ATOMG, and ATOMG.CAS (0x3a9: generated
    // variable-latency kernels, 10 exact once a long-latency load).
    case kAtomg:
    case kAtomgCas:
    // Warp and multi-function units: SHFL forms, REDUX, MUFU, POPC, and
    // 0x300 (__clz: generated variable-latency kernels, 34 exact, none
    // different, with it let through).
    case 0x300:
    case 0x389:
    case 0x589:
    case 0x989:
    case 0xf89:
    case 0x3c4:
    case 0x308:
    case 0x309:
    // Conversions: F2I, I2F forms, the double-precision F2F/I2F pair
    // (0x310, 0x312: the study's generated sets).
    case 0x305:
    case 0x306:
    case 0x307:
    case 0x310:
    case 0x312:
    // Double arithmetic: 0x828 (sm_120; generated variable-latency
    // kernels, 5 exact, none different) and 0xc2b (sm_103: the
    // cross-target test's axpy_double, compiled from PTX).
    case 0x828:
    case 0xc2b:
    // F2I.F64, MATCH and the shared-memory atomic 0x98c, inside the range
    // only (measuredInRangeOnly).
    case kF2iF64:
    case kMatch:
    case kSharedAtomic98c:
    // 0x42b (generated double kernels, beside F2I.F64: 33 exact, none
    // different) and 0x301 (generated warp kernels; inside the range
    // only: 10 exact there, 3 different past it).
    case 0x42b:
    case kWarpOp301:
    // MEMBAR, and the measured fence and atomic kernels' 0xd00-0xd09,
    // 0x22a, 0x31c, 0xc28, 0xf8c (generated fence and study sets, CUB),
    // 0x98a (cooperative groups' grid sync: corpus 156).
    case 0x992:
    case 0xd00:
    case 0xd07:
    case 0xd08:
    case 0xd09:
    case 0x22a:
    case 0x31c:
    case 0xc28:
    case 0xf8c:
    case 0x98a:
        return true;
    default:
        return false;
    }
}

// Producer kinds measured inside the R1 load's range alone. The
// double-to-int F2I (0x311; generated variable-latency kernels): with it
// let through, 74 kernels holding one only in the range came out exact and
// none different; past the range nvlink's picks around it were not
// reproduced (vl4_1 and vl91_1: an I2F.F64 after it moved onto the global
// loads' 5, or to 0 with its old 1 free, 3 kernels different), so a kernel
// with one there is refused. Likewise 0x301 (generated warp kernels: 10
// exact inside the range, 3 different past it), MATCH (let through
// everywhere, 9 kernels different; inside the range 126 exact once
// checkPastBranchWaitElsewhere refuses the other 2) and the shared atomic
// 0x98c (inside the range 58 exact; let through everywhere 317, and 2
// different: vl61_2, an LDS past the range that culd put with a group met
// only at the wait releasing both, where nvlink took the lowest free).
bool measuredInRangeOnly(uint32_t op12) {
    return op12 == kF2iF64 || op12 == kWarpOp301 || op12 == kMatch || op12 == kSharedAtomic98c;
}

// The first reached producer other than the R1 load (p0) for which
// `unmeasured(i)` holds; kNoProducer when none.
constexpr size_t kNoProducer = ~size_t(0);
template <typename Unmeasured>
size_t firstProducer(const std::vector<Insn> &code, const std::vector<bool> &reached, size_t p0,
                     Unmeasured unmeasured) {
    for (size_t i = 0; i < code.size(); ++i)
        if (i != p0 && reached[i] && isProducer(code[i]) && unmeasured(i))
            return i;
    return kNoProducer;
}

// A producer of a kind not measured (measuredProducer), or of one measured
// inside the R1 load's range only (measuredInRangeOnly) past it, is
// refused, named.
bool checkProducersMeasured(const std::vector<Insn> &code, const std::vector<bool> &reached,
                            const std::vector<bool> &inRange, size_t p0, std::string &error) {
    size_t i = firstProducer(code, reached, p0,
                             [&](size_t k) { return !measuredProducer(opcode12(code[k])); });
    if (i != kNoProducer) {
        error = describeProducer(code, i) +
                " is of a kind whose scoreboard barrier nvlink's re-allocation was not "
                "measured for";
        return false;
    }
    i = firstProducer(code, reached, p0, [&](size_t k) {
        return !inRange[k] && measuredInRangeOnly(opcode12(code[k]));
    });
    if (i != kNoProducer) {
        error = describeProducer(code, i) +
                " issues past the stack-pointer load's range, where nvlink's re-allocation "
                "was not measured for its kind";
        return false;
    }
    return true;
}

// Whether the value the R1 load writes is read as data: by an instruction
// a path from the load reaches before any write of R1. With an empty stack
// nothing addresses it; it is read only where ptxas gave a variable never
// written the register (generated kernels shuffling an uninitialised
// value, sm_100 and sm_120: a SHFL reading R1), and nvlink then leaves the
// kernel as ptxas wrote it (5 of 5 such kernels; the dependency on the
// load is real). An instruction whose operands are not modelled, with 1 in
// a source register field (sourceFieldsHold), may read it: not known. (Such
// an instruction reading a pair or quad based at R0 would read R1 too and
// is not caught: counting 0 as well changes the verdict of 4,784 of the
// 10,080 study, held-out and fence kernels, nearly all to refused, for want
// of their operand model.)
enum class StackPointerUse { Unread, Read, Unknown };
StackPointerUse stackPointerUse(const std::vector<Insn> &code, const Successors &succ,
                                size_t p0, size_t &at) {
    constexpr RegisterId kR1 = 1;
    StackPointerUse use = StackPointerUse::Unread;
    auto has = [&](const std::vector<RegisterId> &regs) {
        return std::find(regs.begin(), regs.end(), kR1) != regs.end();
    };
    reachAfter(succ, p0, [&](size_t i) {
        if (use != StackPointerUse::Unread)
            return false;
        const Insn &insn = code[i];
        // A branch's and a BSSY's fields hold an offset; other control
        // instructions (BRX, RET, WARPSYNC with a register) may read one.
        uint32_t op = opcode9(insn);
        if (isControlClass(op) && (op == kBra || op == kBssy || !sourceFieldsHold(insn, kR1)))
            return true;
        std::optional<Operands> ops = decodeOperands(insn);
        if (ops && has(ops->reads))
            use = StackPointerUse::Read;
        else if (!ops && sourceFieldsHold(insn, kR1))
            use = StackPointerUse::Unknown;
        if (use != StackPointerUse::Unread)
            at = i;
        return use == StackPointerUse::Unread && !(ops && has(ops->writes));
    });
    return use;
}

// In a kernel with a texture fetch, ptxas gives no other producer the
// fetches' barrier (5), and nvlink does not either: in the 452 generated
// texture kernels none of 8,360 other barrier slots stood on 5 in either
// code, while in the study sets' kernels without one 16,199 write barriers
// of ptxas's did (a mask of the barriers texture fetches hold).
uint32_t textureBarriers(const std::vector<Insn> &code, const std::vector<bool> &reached) {
    uint32_t held = 0;
    for (size_t i = 0; i < code.size(); ++i)
        if (reached[i] && isTextureFetch(code[i]) && writeBarrier(code[i]) < kNumBarriers)
            held |= 1u << writeBarrier(code[i]);
    return held;
}

// Where texture fetches hold 5, nvlink's barrier for a global load, whose
// rules (longLatencyPick) keep 5 for one pending far, was measured
// different from both readings tried: the lowest free from 2 up (generated
// texture kernels: 19 of the 117 such kernels different, 97 exact) and 4
// in place of 5 (10 of the 19 became exact, 3 exact ones different). Such
// a kernel is refused.
bool checkNoLoadBesideTextures(const std::vector<Insn> &code, const std::vector<bool> &reached,
                               size_t p0, std::string &error) {
    for (size_t i = 0; i < code.size(); ++i) {
        if (i == p0 || !reached[i] || isTextureFetch(code[i]) || !isLongLatencyLoad(code[i]) ||
            writeBarrier(code[i]) >= kNumBarriers)
            continue;
        error = "the global load at offset " + hex(i * 16) +
                " issues in a kernel whose texture fetches hold a barrier of their own; "
                "nvlink's barrier for it there is not understood";
        return false;
    }
    return true;
}

// A texture fetch keeps its write barrier (isTextureFetch); where another
// group holds it, nvlink's choice is not known.
bool keepTextureBarrier(size_t i, uint32_t old, uint32_t taken, uint32_t &pick,
                        std::string &error) {
    if (taken >> old & 1) {
        error = "the texture fetch at offset " + hex(i * 16) +
                " finds its barrier held by another group; nvlink's barrier for it there is "
                "not understood";
        return false;
    }
    pick = old;
    return true;
}

// A fetch in a group another producer coloured may have left its barrier:
// nvlink's barrier for it there is not measured.
bool checkTexturesKeptTheirBarriers(const std::vector<Insn> &code,
                                    const std::vector<bool> &reached, UnionFind &groups,
                                    const std::unordered_map<Slot, uint32_t> &colour,
                                    std::string &error) {
    for (size_t i = 0; i < code.size(); ++i) {
        uint32_t old = writeBarrier(code[i]);
        if (!reached[i] || !isTextureFetch(code[i]) || old >= kNumBarriers ||
            colour.at(groups.find(static_cast<Slot>(i * 2))) == old)
            continue;
        error = "the texture fetch at offset " + hex(i * 16) +
                " would leave its barrier; nvlink's barrier for it there is not understood";
        return false;
    }
    return true;
}

// In a kernel whose texture fetches hold a barrier, past the range: a
// write barrier that ptxas put with read barriers pending where it issues
// on some paths only (a store's before a branch). nvlink kept such a group
// in 18 generated texture kernels and split the write off in 6 (vl115_0,
// vl16_1 and vl36_0, sm_100 and sm_120: an LDS or LDCU on a store's read
// barrier got a barrier of its own; culd kept ptxas's group) by a rule not
// understood, so such a kernel is refused. Outside texture kernels the
// shape was kept in 165 measured kernels, split in one (sr95_1, sm_100 and
// sm_120), which is not told apart either.
bool checkWriteJoinsReadsOnSomePaths(const std::vector<Insn> &code, const Successors &succ,
                                     const std::vector<bool> &reached,
                                     const std::vector<bool> &inRange, Dependencies &deps,
                                     std::string &error) {
    for (size_t i = 0; i < code.size(); ++i) {
        for (unsigned f = 0; f < 2; ++f) {
            const Slot g = static_cast<Slot>(i * 2 + f);
            auto it = deps.members.find(g);
            if (!reached[i] || it == deps.members.end() || deps.groups.find(g) != g)
                continue;
            const std::vector<Slot> &members = it->second;
            std::vector<size_t> earlier{i};
            bool readsSoFar = f == 1;
            for (size_t k = 1; k < members.size() && readsSoFar; ++k) {
                const size_t at = members[k] / 2;
                const bool write = members[k] % 2 == 0;
                if (write && !inRange[at] && at != earlier.back() &&
                    groupPendingAt(deps, g, at) && reachedAvoiding(succ, earlier, at)) {
                    error = "the producer at offset " + hex(at * 16) +
                            " shares a scoreboard barrier with read barriers pending there on "
                            "some paths only, in a kernel with texture fetches; nvlink's "
                            "barrier for it there is not understood";
                    return false;
                }
                readsSoFar = !write;
                earlier.push_back(at);
            }
        }
    }
    return true;
}

// A re-derived producer first needed past a branch keeps ptxas's waits
// (rederive). Where that branch waits on the producer's own barrier,
// nvlink agrees (generated fence kernels k225_0 and k308_0, the
// special-register kernel g238_1, CUB's radix-sort kernels: 10 kernels).
// Where the branch waits on other barriers only, nvlink waited for the
// producer at the branch instead (vl87_1, sm_100 and sm_120: an LDCU
// forced onto the R1 load's barrier, the branch waiting on a MATCH;
// sr165_2, sm_120: an LDCU forced onto another LDCU's barrier; culd kept
// ptxas's waits, exit 0). What nvlink then does with ptxas's later waits
// is not measured, so such a kernel is refused.
bool checkPastBranchWaitElsewhere(const std::vector<Insn> &code, const Rederived &rd,
                                  std::string &error) {
    for (const auto &[s, branch] : rd.pastBranch) {
        const uint32_t wait = waitMask(code[branch]);
        if (wait != 0 && !(wait >> writeBarrier(code[s / 2]) & 1)) {
            error = "the producer at offset " + hex(s / 2 * 16) +
                    " shares a scoreboard barrier for want of a free one and is first needed "
                    "past the branch at offset " +
                    hex(branch * 16) +
                    ", which waits on other barriers only; nvlink's wait for it there is not "
                    "understood";
            return false;
        }
    }
    return true;
}

// Past the R1 load's range, an instruction with both barriers whose read
// barrier, starting a group of its own, moves off ptxas's index while its
// write barrier's group holds that index: nvlink kept both indices in 9
// such links of 6,200 (generated special-register and warp-shuffle
// kernels, sr634_2, sr751_1, sr777_1, sr589_2, sr53_2, dv1039_1; a SHFL,
// F2I or 0x989 whose W1 R0 culd wrote as W0 R1, exit 0) and in 4 of 600
// generated later, and swapped them as culd does in 2 (sr1639_0). culd's
// write group there reaches the instruction from another path (ptxas's
// groups united across a join), where nvlink's mostly does not; refused.
bool checkReadBarrierNotTaken(const std::vector<Insn> &code, UnionFind &groups,
                              const std::unordered_map<Slot, uint32_t> &colour, size_t i,
                              std::string &error) {
    const uint32_t oldRead = readBarrier(code[i]);
    const Slot read = static_cast<Slot>(i * 2 + 1);
    if (oldRead >= kNumBarriers || writeBarrier(code[i]) >= kNumBarriers ||
        groups.find(read) != read)
        return true;
    auto r = colour.find(read);
    auto w = colour.find(groups.find(static_cast<Slot>(i * 2)));
    if (r == colour.end() || r->second == oldRead || w == colour.end() || w->second != oldRead)
        return true;
    error = describeProducer(code, i) + " would have its read barrier moved off " +
            std::to_string(oldRead) + " and its write barrier put there; nvlink's barriers for "
                                      "it there are not understood";
    return false;
}

bool reallocate(std::vector<Insn> &code, size_t p0, uint32_t b0,
                const std::vector<uint64_t> &jumpTargets, std::string &error) {
    const size_t n = code.size();
    Successors succ;
    if (!buildSuccessors(code, jumpTargets, succ, error))
        return false;
    size_t reader = 0;
    switch (stackPointerUse(code, succ, p0, reader)) {
    case StackPointerUse::Unread:
        break;
    case StackPointerUse::Read:
        return true; // nvlink keeps the wait on the load
    case StackPointerUse::Unknown:
        error = "the instruction at offset " + hex(reader * 16) + " (opcode " +
                hex(opcode13(code[reader])) +
                ") may read the stack pointer; its operands are not modelled";
        return false;
    }
    std::vector<Pending> in;
    std::vector<bool> reached;
    if (!pendingAtEntry(code, succ, p0, in, reached)) {
        error = "too many scoreboard producers pending at once to analyse";
        return false;
    }
    const size_t end = shiftRangeEnd(code, p0, b0);
    const std::vector<bool> inRange = stackPointerRange(code, succ, p0, b0);
    const std::vector<uint32_t> branchesBefore = countBranches(code);
    const std::vector<bool> join = joinPoints(succ, n);
    if (!checkProducersMeasured(code, reached, inRange, p0, error) ||
        !checkOneStackPointerWait(code, in, inRange, b0, end, error) ||
        !checkPredicatedAcrossBranch(code, in, reached, error))
        return false;
    Rederived rd;
    std::vector<Slot> forced;
    const uint32_t forTextures = textureBarriers(code, reached);
    if (!forcedShares(code, in, reached, p0, b0, inRange, forced, error) ||
        !checkPastRangeForcedShares(code, in, reached, inRange, forTextures, error))
        return false;
    if (!forced.empty() && !rederive(code, in, b0, forced, rd, error)) {
        error = "the producer at offset " + hex(forced.front() / 2 * 16) +
                " shares a scoreboard barrier for want of a free one; nvlink re-derives its "
                "dependencies from the registers, which culd cannot do here: " +
                error;
        return false;
    }

    if (!checkLoopCarriedPredicates(code, in, reached, inRange, error) ||
        !checkPastBranchWaitElsewhere(code, rd, error))
        return false;
    const IdleWaits idle = idleWaits(code, succ, in, reached, rd, inRange);
    const std::vector<uint64_t> cycles = issueCycles(code);
    Dependencies deps = dependencies(code, in, reached, inRange, rd);
    liveUntilEchoes(deps, idle);
    UnionFind &groups = deps.groups;
    const GroupRoles roles = groupRoles(groups, rd);

    if (forTextures && (!checkNoLoadBesideTextures(code, reached, p0, error) ||
                        !checkWriteJoinsReadsOnSomePaths(code, succ, reached, inRange, deps,
                                                         error)))
        return false;
    // Colour the groups in reverse postorder of their first slot.
    std::unordered_map<Slot, uint32_t> colour;
    bool sharing = false;
    for (size_t i : reversePostorder(succ, n)) {
        if (i == p0)
            continue;
        for (unsigned f : {1u, 0u}) { // an instruction's read barrier first
            uint32_t old = getBits(code[i], kSlotBits[f], 3);
            if (old >= kNumBarriers)
                continue;
            Slot s = static_cast<Slot>(i * 2 + f);
            Slot g = groups.find(s);
            if (g != s)
                continue; // not the group's first slot
            const bool texture = f == 0 && isTextureFetch(code[i]);
            const Beside beside = takenBeside(code, in, deps, colour, join, g, inRange[i]);
            uint32_t taken = beside.taken | (texture ? 0 : forTextures);
            // Inside the R1 load's range the lowest free index (a global
            // load's write barrier: longLatencyPick), after it the old
            // index; when that is taken, the lowest free one.
            uint32_t pick = inRange[i] ? kNumBarriers : old;
            const bool load = f == 0 && isLongLatencyLoad(code[i]);
            if (texture && !keepTextureBarrier(i, old, taken, pick, error))
                return false;
            const bool globalLoad = load && !texture;
            if (globalLoad && !(inRange[i] ? pickRangeLoad(code, deps, colour, roles, inRange,
                                                           branchesBefore, p0, i, g, old, taken,
                                                           pick, error)
                                           : pickPastRangeLoad(code, in, groups, colour, p0, i, g,
                                                               old, taken, pick, error)))
                return false;
            if (!inRange[i] && !load)
                if (uint32_t lower = reusedBelow(code, in, groups, colour, i, old, taken);
                    lower != kNumBarriers)
                    pick = lower;
            if (!inRange[i] && pick < kNumBarriers && (taken >> pick & 1) &&
                !checkJoinOnlyConflicts(code, in, deps, colour, roles, g, pick, error))
                return false;
            if (pick == kNumBarriers || (taken >> pick & 1))
                pick = lowestFree(taken);
            // A late producer behind a mate needed at ptxas's wait, with a
            // barrier free: nvlink did not take it (CUB's radix-sort
            // single-tile kernel on sm_100: an S2R first read 0xa0 past the
            // wait joined a group released long before its read).
            if (roles.lateBehindMate.count(g) && pick < kNumBarriers) {
                error = "the producer at offset " + hex(g / 2 * 16) +
                        " is first needed past ptxas's wait on the stack-pointer load's barrier, "
                        "with a barrier free; nvlink's barrier for it there is not understood";
                return false;
            }
            if (f == 0 && roles.forced.count(g) && pick < kNumBarriers &&
                !checkForcedTakesFree(code, deps, colour, roles, i, g, old, old == b0, taken,
                                      error))
                return false;
            // A producer needed at a conditional EXIT takes a free barrier
            // only while another stays free; else it joins the group the
            // second wait after it releases (exitJoin).
            auto joinAt = roles.exitJoin.find(g);
            const Rederived::ExitJoin *exitJoin =
                joinAt == roles.exitJoin.end() ? nullptr : joinAt->second;
            if (exitJoin && freeBarriers(taken) > 1) {
                if (!exitJoin->waitedAtExit) {
                    error = "the producer at offset " + hex(g / 2 * 16) +
                            " is first needed past a conditional EXIT that ptxas does not wait "
                            "at, with two barriers free; nvlink's barrier for it is not known";
                    return false;
                }
                exitJoin = nullptr;
            }
            if (exitJoin && !exitJoinBarrier(code, in, rd, groups, colour, exitJoin->secondWait,
                                             b0, pick, error))
                return false;
            bool joins = exitJoin || (pick == kNumBarriers && roles.forced.count(g));
            if (joins && !exitJoin &&
                !joinedBarrier(code, deps, colour, rd, roles, cycles, g, i + 1, pick, error))
                return false;
            if (pick == kNumBarriers) {
                error = "more than 6 scoreboard barriers live at offset " +
                        hex(static_cast<uint64_t>(i) * 16);
                return false;
            }
            if (joins && !exitJoin && !matesReleasedTogether(deps, colour, roles, g, i + 1, pick)) {
                error = "the producers on the stack-pointer load's barrier at offset " +
                        hex(g / 2 * 16) +
                        " and after find no free scoreboard barrier, and the one they would "
                        "share is released before their first read; nvlink's barrier for the "
                        "later ones there is not understood";
                return false;
            }
            size_t member = 0;
            if (pick != old && roles.plain(g) &&
                laterMemberMeetsHolderOnEveryPath(succ, deps, colour, g, old, member)) {
                error = "the producer at offset " + hex(member * 16) +
                        " issues where its group's barrier is pending on some paths only and the "
                        "group that holds the group's old barrier on every path; nvlink's "
                        "barrier for it there is not understood";
                return false;
            }
            if (!inRange[i] && !checkStoreOnSpannedBarrier(code, deps, colour, i, f, g, pick, error))
                return false;
            if (!checkNotJoinOnlyHolder(i, pick, beside.joinOnly & ~taken, error))
                return false;
            colour[g] = pick;
            if (joins) {
                sharing = true;
                releaseTogether(deps, colour, pick, i + 1);
            }
        }
        if (!inRange[i] && !checkReadBarrierNotTaken(code, groups, colour, i, error))
            return false;
    }

    if (!checkLoopCarriedMerges(code, deps, colour, inRange, error) ||
        !checkTexturesKeptTheirBarriers(code, reached, groups, colour, error))
        return false;

    // Rebuild the fields: slots take their group's colour, consumers wait on
    // the colours of the groups they consume.
    std::unordered_map<Slot, uint32_t> colourOf;
    for (size_t i = 0; i < n; ++i) {
        std::array<uint32_t, 2> old = {writeBarrier(code[i]), readBarrier(code[i])};
        for (unsigned f = 0; f < 2; ++f) {
            uint32_t v = kNoBarrier;
            Slot s = static_cast<Slot>(i * 2 + f);
            if (i != p0 && old[f] < kNumBarriers)
                colourOf[s] = v = colour.at(groups.find(s));
            setBits(code[i], kSlotBits[f], 3, v);
        }
        setBits(code[i], kWaitMaskBit, 6, 0);
    }
    for (const auto &[slot, consumer] : deps.edges) {
        uint32_t c = colourOf.at(slot);
        setBits(code[consumer], kWaitMaskBit, 6, waitMask(code[consumer]) | 1u << c);
    }
    std::vector<uint32_t> idleMask = idle.kept;
    for (const Echo &e : idle.echoes)
        idleMask[e.wait] |= 1u << colourOf.at(e.producer);
    for (size_t c = 0; c < n; ++c)
        setBits(code[c], kWaitMaskBit, 6, waitMask(code[c]) | idleMask[c]);
    return !sharing || dropReleasedWaits(code, succ, p0, deps.edges, colourOf, idleMask, error);
}

} // namespace

bool isStackPointerLoad(const Insn &insn) {
    return opcode12(insn) == kLdc && (insn.lo >> 16 & 0xff) == 1 &&
           (insn.lo >> 32 & 0xffff) == 0xdf00;
}

bool isCall(const Insn &insn) {
    uint32_t op = opcode9(insn);
    return op == 0x143 || op == 0x144;
}

namespace {

// Where a kernel's traps (BPT) stand. nvlink leaves a kernel whose trap
// comes right after a global store as ptxas wrote it (generated kernels
// `if (c) { q[0] = v; __trap(); }`: 86 of 86), and rewrites one whose
// traps each start the block a branch skips (`if (c) __trap();`: 234 of
// 234). Other shapes are not measured.
enum class TrapShape { None, AfterBranch, AfterStore, Unknown };
TrapShape trapShape(const std::vector<Insn> &code, std::string &error) {
    TrapShape shape = TrapShape::None;
    for (size_t i = 0; i < code.size(); ++i) {
        if (opcode9(code[i]) != kBpt)
            continue;
        uint32_t before = i > 0 ? opcode12(code[i - 1]) : 0;
        TrapShape here = before == kStg    ? TrapShape::AfterStore
                         : (before & 0x1ff) == kBra ? TrapShape::AfterBranch
                                                    : TrapShape::Unknown;
        if (here == TrapShape::Unknown || (shape != TrapShape::None && here != shape)) {
            error = "the trap at offset " + hex(i * 16) +
                    " follows an instruction nvlink's handling of which is not measured";
            return TrapShape::Unknown;
        }
        shape = here;
    }
    return shape;
}

// A barrier an instruction sets is seen by the instruction after it only
// with a stall of 2 cycles or more: in every function of the study and
// held-out sets (27,321 such pairs in ptxas's code, as many in nvlink's)
// none waits on a barrier set right before it with a stall below 2. Where
// nvlink's re-allocation makes such a pair it raises the stall (the
// matrixMul sample, sm_100 and sm_120: an S2UR joined to the group waited
// on next, 1 -> 2), which culd does not model: rather than write code that
// may not wait, such a rewrite is refused.
bool checkBarrierVisibleBeforeWait(const std::vector<Insn> &code, std::string &error) {
    for (size_t i = 0; i + 1 < code.size(); ++i) {
        uint32_t set = 0;
        for (unsigned bit : kSlotBits)
            if (uint32_t b = getBits(code[i], bit, 3); b < kNumBarriers)
                set |= 1u << b;
        if ((set & waitMask(code[i + 1])) && getBits(code[i], kStallBit, 4) < 2) {
            error = "the instruction at offset " + hex(i * 16) +
                    " would set a barrier that the next one waits on, with a stall below 2; "
                    "nvlink raises such a stall, which culd does not model";
            return false;
        }
    }
    return true;
}

} // namespace

bool rewriteScoreboards(std::vector<Insn> &code, std::string &error, Allocation allocation,
                        const std::vector<uint64_t> &jumpTargets) {
    auto p0 = std::find_if(code.begin(), code.end(), isStackPointerLoad);
    if (p0 == code.end())
        return true;
    uint32_t b0 = writeBarrier(*p0);
    if (b0 == kNoBarrier)
        return true;
    size_t at = static_cast<size_t>(p0 - code.begin());
    if (b0 >= kNumBarriers) {
        error = "stack-pointer load at offset " + hex(at * 16) + " uses barrier " +
                std::to_string(b0);
        return false;
    }
    switch (trapShape(code, error)) {
    case TrapShape::None:
    case TrapShape::AfterBranch:
        break;
    case TrapShape::AfterStore:
        return true;
    case TrapShape::Unknown:
        return false;
    }
    if (allocation == Allocation::ShiftOnly) {
        applyShiftOnly(code, at, b0);
        return true;
    }
    return reallocate(code, at, b0, jumpTargets, error) && checkBarrierVisibleBeforeWait(code, error);
}

DebugAction debugAction(bool debugLink, bool debugInputs, bool releaseCode) {
    if (debugLink)
        // -g with -G inputs keeps .text as is; -g on release code makes
        // nvlink regenerate SASS (inserted instructions), also where -G
        // units are linked with it (difftest seed 64004: libcudadevrt's
        // memset_3d_device grew from 0x580 to 0x600 bytes).
        return releaseCode || !debugInputs ? DebugAction::Refuse : DebugAction::Unchanged;
    // -G inputs linked without -g: nvlink strips the debug info and
    // regenerates the code.
    return debugInputs ? DebugAction::Refuse : DebugAction::Rewrite;
}

} // namespace culd::mercury
