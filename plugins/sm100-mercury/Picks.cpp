// The scoreboard re-allocation (Scoreboard.h): the barrier each group takes:
// in the stack-pointer load's range, past it, global loads and texture
// fetches.
#include "Scoreboard.h"

namespace culd::mercury::scoreboard {

// The top barrier, 5: every global load measured pending far stood on it.
constexpr uint32_t kLongLatencyTop = kNumBarriers - 1;

bool isLongLatencyLoad(const Insn &insn) {
    uint32_t op = opcode12(insn);
    return op == kLdg || op == kLd || op == kAtomg || op == kAtomgCas || op == kAtomgOp ||
           op == kTex;
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

// The lowest barrier from `from` up that `taken` (a mask) leaves free;
// kNumBarriers when there is none.
uint32_t lowestFree(uint32_t taken, uint32_t from) {
    uint32_t pick = from;
    while (pick < kNumBarriers && (taken >> pick & 1))
        ++pick;
    return pick;
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

static uint32_t shifted(uint32_t barrier, uint32_t b0) {
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

// How many barriers `taken` (a mask) leaves free.
unsigned freeBarriers(uint32_t taken) {
    unsigned n = 0;
    for (uint32_t c = 0; c < kNumBarriers; ++c)
        n += !(taken >> c & 1);
    return n;
}

// Whether a re-derived LDCU's group, pending while load group g is, holds
// a barrier from 2 up below the one g would take (`pick`): that is h. The
// one kernel measured (fa184_1, a generated fence-and-atomics kernel on
// sm_100 and sm_120: an LDCU split off an LDC's barrier, read past the
// load's first use) had nvlink put the load on the LDCU's barrier, where
// the lowest free from 2 up was above it; when nvlink joins a re-derived
// group rather than take a free barrier is not known. Loads above other
// re-derived groups took the lowest free (7 kernels of the study sets).
static bool belowRederivedLdcu(const std::vector<Insn> &code, const Dependencies &deps,
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

// A global load at i that finds none of 2-5 free: nvlink shared a barrier
// rather than go below 2 (CUB's radix-sort single-tile kernel on sm_120: an
// LDG joined a re-derived LDCU on 5 while 0 was free); which one is not
// known. Always false, with `error`.
static bool noneFreeFromTwo(size_t i, std::string &error) {
    error = "the global load at offset " + hex(i * 16) +
            " finds no scoreboard barrier free from 2 up; nvlink's barrier for it there is "
            "not understood";
    return false;
}

// Whether the straight line into the instruction after `insn` may come
// from elsewhere: it ends at a jump or an unconditional EXIT. A
// control-class instruction that falls through (BSSY, BSYNC, WARPSYNC,
// ...) or may (a guarded or uniform-predicate BRA, BRA.DIV, a guarded
// EXIT) keeps it going.
static bool endsStraightLine(const Insn &insn) {
    const uint32_t op = opcode9(insn);
    if (!isControlClass(op) || fallsThroughOnly(op))
        return false;
    if (op == kBra)
        return alwaysJumps(insn);
    if (op == kExit)
        return guard(insn) == kAlways;
    return true;
}

// The wait that released barrier `b` just before producer i reuses it: i
// itself, or one before it on the straight line (endsStraightLine) with
// no producer on `b` between (producers on other barriers may stand there:
// reusedBelow checks that none took the released colour). kNever when
// there is none. i itself is a producer on `b`, so a later walk for `b`
// stops at it: the walks stay linear in the function.
static size_t releasingWait(const std::vector<Insn> &code, size_t i, uint32_t b) {
    for (size_t w = i;; --w) {
        if (waitMask(code[w]) >> b & 1)
            return w;
        if (w == 0 || endsStraightLine(code[w - 1]) || writeBarrier(code[w - 1]) == b ||
            readBarrier(code[w - 1]) == b)
            return kNever;
    }
}

// Whether a producer from `wait` up to i holds colour c: i's other slot,
// coloured first, counts (generated special-register kernels: an ATOMS
// whose read barrier kept 0 kept its write barrier on 1, though its wait
// had released 1, now 0). Asked for a group whose own slot at i is on the
// barrier releasingWait looked for, so the walks for one old index cover
// disjoint stretches: linear in all, as releasingWait's.
static bool colourTakenBetween(const std::vector<Insn> &code, UnionFind &groups,
                               const std::unordered_map<Slot, uint32_t> &colour, size_t wait,
                               size_t i, uint32_t c) {
    for (size_t j = wait; j <= i; ++j)
        for (unsigned f = 0; f < 2; ++f)
            if (getBits(code[j], kSlotBits[f], 3) < kNumBarriers &&
                slotColour(groups, colour, static_cast<Slot>(j * 2 + f)) == c)
                return true;
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
// group now on 2 stayed on 0). The straight line runs on through
// BSSY/BSYNC/WARPSYNC and past a BRA or EXIT that may fall through
// (unseen special-register seeds sr3031_1, a BSSY between the wait and an
// F2I, and sr3281_0, a guarded BRA before an LDS, follow the release as
// nvlink does; measured 2026-12-08 over 12,000 generated kernels: of
// those culd wrote different, 3 now match and 1 is refused; 2 refused
// before now match; 4 that matched are refused further on; none that
// matched differs).
// kNumBarriers when none applies.
uint32_t reusedBelow(const std::vector<Insn> &code, const std::vector<Pending> &in,
                     UnionFind &groups, const std::unordered_map<Slot, uint32_t> &colour,
                     size_t i, uint32_t old, uint32_t taken) {
    const size_t wait = releasingWait(code, i, old);
    if (wait == kNever || in[wait][old].empty())
        return kNumBarriers;
    uint32_t released = kNumBarriers;
    for (Slot s : in[wait][old]) {
        uint32_t c = slotColour(groups, colour, s);
        if (c == kNumBarriers || (released != kNumBarriers && released != c))
            return kNumBarriers;
        released = c;
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
// Right after a drain (a wait on every barrier, ptxas's after a fence, with
// no producer between) a load keeps ptxas's index where free: generated
// ordered-atomic kernels oa3051_0 and oa4003_2, an LDG on 3 and one on 1
// after MEMBAR and such a wait (culd took 2); oa3077_2 and oa4055_2,
// different before, match with it; none of the other 13,800 kernels
// measured on 2026-12-08 changed.
// Whether a wait on every barrier (ptxas's drain after a fence) stands
// before instruction i on the straight line with no producer between.
static bool drainedJustBefore(const std::vector<Insn> &code, size_t i) {
    for (size_t w = i; w-- > 0;) {
        if (waitMask(code[w]) == kAllBarriers)
            return true;
        if (endsStraightLine(code[w]) || writeBarrier(code[w]) < kNumBarriers ||
            readBarrier(code[w]) < kNumBarriers)
            return false;
    }
    return false;
}

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
    if (!(taken >> old & 1) && drainedJustBefore(code, i)) {
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

} // namespace culd::mercury::scoreboard
