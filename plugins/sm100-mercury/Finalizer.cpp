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
// on finaliser-stress code none of them was fitted on, 13 of the 768 links
// culd accepted on 2026-12-08 (1.7 %) still came out different from
// nvlink's (docs/nvlink-findings.md, "Unseen seeds", "Reuses across
// branches, and colours no issue point explains").
//
// Files: this one drives the re-allocation (reallocate) and decides which
// kernels get it; ControlFlow.cpp builds the CFG and the pending dataflow
// (steps 1-2), Groups.cpp the groups and their liveness, Rederive.cpp the
// forced shares, Picks.cpp and Joins.cpp the colours (step 3),
// Refusals.cpp the shapes culd refuses; Scoreboard.h is what they share.
// The ELF side is Image.cpp, the instruction fields Instruction.cpp.
#include "Finalizer.h"
#include "Hex.h"
#include "Operands.h"
#include "Scoreboard.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace culd::mercury {

namespace scoreboard {

static bool reallocate(std::vector<Insn> &code, size_t p0, uint32_t b0,
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
    // Kernels with forced or re-derived producers skip the checks of
    // colours against the state at issue: their liveness is modelled up
    // to their first read only (checkPickSeenAtIssue).
    const bool anyRederived = !roles.forced.empty() || !roles.rederived.empty();

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
            if (exitJoin && !checkExitJoinMeasured(code, g, error))
                return false;
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
            if (!checkStoreOnSpannedBarrier(code, deps, colour, i, f, g, pick, error))
                return false;
            if (!checkNotJoinOnlyHolder(i, pick, beside.joinOnly & ~taken, error))
                return false;
            if (!inRange[i] && !load && !joins && !anyRederived &&
                !checkPickSeenAtIssue(deps, colour, i, f, old, pick, error))
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

    if ((!anyRederived && !checkMembersSeenAtIssue(code, reached, inRange, deps, colour, error)) ||
        !checkLoopCarriedMerges(code, deps, colour, inRange, error) ||
        !checkTexturesKeptTheirBarriers(code, reached, groups, colour, error) ||
        !checkDepbarsKeepTheirBarriers(code, in, reached, p0, groups, colour, error))
        return false;

    // Rebuild the fields: slots take their group's colour, consumers wait on
    // the colours of the groups they consume. A wait on all six barriers
    // drains the scoreboard (ptxas's after a fence of libcu++'s ordered
    // atomics) and stays whole (generated ordered-atomic kernels, sm_100 and
    // sm_120: every such wait kept by nvlink, where the consumers alone would
    // have asked for fewer).
    std::vector<uint32_t> idleMask = idle.kept;
    for (size_t i = 0; i < n; ++i)
        if (waitMask(code[i]) == kAllBarriers)
            idleMask[i] = kAllBarriers;
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
    for (const Echo &e : idle.echoes)
        idleMask[e.wait] |= 1u << colourOf.at(e.producer);
    for (size_t c = 0; c < n; ++c)
        setBits(code[c], kWaitMaskBit, 6, waitMask(code[c]) | idleMask[c]);
    return !sharing || dropReleasedWaits(code, succ, p0, deps.edges, colourOf, idleMask, error);
}

} // namespace scoreboard

using namespace scoreboard;

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
