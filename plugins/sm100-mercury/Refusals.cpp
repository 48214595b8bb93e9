// The scoreboard re-allocation (Scoreboard.h): shapes whose re-finalisation
// by nvlink is not understood: each check names the instruction and refuses
// the kernel.
#include "Scoreboard.h"

namespace culd::mercury::scoreboard {

constexpr uint32_t kF2iF64 = 0x311;

constexpr uint32_t kMatch = 0x3a1;

constexpr uint32_t kSharedAtomic98c = 0x98c; // an ATOMS form: generated shared-memory atomics

constexpr uint32_t kWarpOp301 = 0x301; // in the generated warp kernels; mnemonic not decoded

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

// "the producer at offset X (opcode Y)": how a refusal names producer i.
std::string describeProducer(const std::vector<Insn> &code, size_t i) {
    return "the producer at offset " + hex(static_cast<uint64_t>(i) * 16) + " (opcode " +
           hex(opcode12(code[i])) + ")";
}

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
            // A drain of every barrier does not end the range
            // (waitsForStackPointer), and past one nvlink's rewrite is
            // measured in one kernel only.
            error = "the stack-pointer load is waited on at offsets " + hex(end * 16) + " and " +
                    hex(i * 16) +
                    (waitMask(code[i]) == kAllBarriers ? ", there by a wait on every barrier"
                                                       : " on different paths") +
                    "; nvlink's rewrite of such a kernel is not known";
            return false;
        }
    return true;
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
        uint32_t c = slotColour(deps.groups, colour, slot);
        if (c == kNumBarriers)
            continue;
        Released &r = at[consumer];
        r.colours |= 1u << c;
        r.loopCarried = r.loopCarried || slot / 2 > consumer;
        r.moved = r.moved || getBits(code[slot / 2], kSlotBits[slot % 2], 3) != c;
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

// The colours of the groups pending where instruction i issues, less those
// its own wait releases (`released`); for a write barrier, with the
// instruction's read barrier, coloured first.
static uint32_t coloursAtIssue(Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                               size_t i, unsigned f, uint32_t &released) {
    released = 0;
    for (Slot s : deps.consumes[i])
        if (uint32_t c = slotColour(deps.groups, colour, s); c < kNumBarriers)
            released |= 1u << c;
    uint32_t pending = 0;
    for (Slot h : deps.liveAt[i])
        if (uint32_t c = slotColour(deps.groups, colour, h); c < kNumBarriers)
            pending |= 1u << c;
    pending &= ~released;
    if (f == 0)
        if (uint32_t c = slotColour(deps.groups, colour, static_cast<Slot>(i * 2 + 1));
            c < kNumBarriers)
            pending |= 1u << c;
    return pending;
}

// Whether colour c is the lowest free where an instruction issues, the
// barriers its own wait releases (`released`) counted free or not.
static bool lowestFreeAtIssue(uint32_t pending, uint32_t released, uint32_t c) {
    return c == lowestFree(pending) || c == lowestFree(pending | released);
}

// Past the R1 load's range a group takes ptxas's index where it is free,
// else the lowest one no group live with it holds (takenBeside). Where
// that is neither ptxas's index nor the lowest colour free as the producer
// issues (the barriers its own wait releases counted free or not), a
// group coloured before it holds the lower colours only later in its span:
// on another path past a join, or around a loop. nvlink resolves that
// both ways (generated special-register kernel sr3039_0: a store's read
// barrier in one arm of an if took the colour of a group pending on the
// other arm past the join, 1, where culd wrote 2; libcudadevrt's
// memcpy_3d_device kept such groups apart), so it is refused. Measured
// 2026-12-08 over 12,000 generated kernels (gen-special-registers seeds
// 3000-3599 and 4000-4299, fence-and-atomics and variable-latency seeds
// 3000-3149 and 4000-4149, warp-shuffle, ordered-atomics and
// many-parameter seeds from 3000, sm_100 and sm_120): 11 kernels culd
// wrote different from nvlink's without a word are refused, and 4 it wrote
// as nvlink did. Not asked in kernels with forced or re-derived producers,
// whose liveness is modelled up to their first read only (it would refuse
// memcpy_3d_device, which culd writes as nvlink does).
bool checkPickSeenAtIssue(Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                          size_t i, unsigned f, uint32_t old, uint32_t pick, std::string &error) {
    if (pick == old || pick >= kNumBarriers)
        return true;
    uint32_t released = 0;
    const uint32_t pending = coloursAtIssue(deps, colour, i, f, released);
    if (lowestFreeAtIssue(pending, released, pick))
        return true;
    error = "the producer at offset " + hex(i * 16) + " would take barrier " +
            std::to_string(pick) + ", neither ptxas's nor the lowest free where it issues (" +
            std::to_string(lowestFree(pending)) +
            "); nvlink's barrier for it there is not understood";
    return false;
}

// The same for the later members of a group, which take the colour of its
// first: past the range, one whose group colour is neither ptxas's index
// for it nor the lowest free where it issues, while no earlier member of
// the group is pending there (ptxas did not put it beside one), is
// refused. Corpus 195 (sr2432_1, sm_100 and sm_120): a store in a loop
// whose read barrier reuses the barrier of an S2R it waits on, grouped with
// it through its own read pending around the loop, took the S2R's 2;
// nvlink kept its 0, free there. Measured 2026-12-08 over the sets of
// checkPickSeenAtIssue and gen-variable-latency seeds 1-100 (default,
// double and warp families): 4 kernels culd wrote different are refused
// (sr3253_1 and an ordered-atomic kernel, sm_100 and sm_120), none it
// wrote as nvlink did.
bool checkMembersSeenAtIssue(const std::vector<Insn> &code, const std::vector<bool> &reached,
                             const std::vector<bool> &inRange, Dependencies &deps,
                             const std::unordered_map<Slot, uint32_t> &colour, std::string &error) {
    for (size_t i = 0; i < code.size(); ++i) {
        if (!reached[i] || inRange[i])
            continue;
        for (unsigned f = 0; f < 2; ++f) {
            const Slot s = static_cast<Slot>(i * 2 + f);
            const uint32_t old = getBits(code[i], kSlotBits[f], 3);
            const Slot g = deps.groups.find(s);
            if (old >= kNumBarriers || g == s || (f == 0 && isLongLatencyLoad(code[i])))
                continue;
            const uint32_t c = slotColour(deps.groups, colour, s);
            if (c == old || c >= kNumBarriers)
                continue;
            uint32_t released = 0;
            const uint32_t pending = coloursAtIssue(deps, colour, i, f, released);
            const std::vector<Slot> &members = deps.members[g];
            const bool besideEarlier = (pending >> c & 1) && members.front() / 2 < i;
            if (besideEarlier || lowestFreeAtIssue(pending, released, c))
                continue;
            error = "the producer at offset " + hex(i * 16) + " would take its group's barrier " +
                    std::to_string(c) +
                    ", neither ptxas's nor the lowest free where it issues; nvlink's barrier "
                    "for it there is not understood";
            return false;
        }
    }
    return true;
}

// A producer on the R1 load's barrier needed past a conditional EXIT with
// one barrier free joins the group of the second wait after it (exitJoin):
// measured on constant loads. An LDS there took the free barrier instead
// (unseen special-register seed sr2800_1, sm_100 and sm_120); with two
// free, LDS took one as constant loads do (sr1786_0, sr1972_0). Other
// kinds than constant loads joining so are refused.
bool checkExitJoinMeasured(const std::vector<Insn> &code, Slot g, std::string &error) {
    if (isConstantLoad(code[g / 2]))
        return true;
    error = describeProducer(code, g / 2) +
            " on the stack-pointer load's barrier is first needed past a conditional EXIT "
            "with one barrier free; nvlink's barrier for it there is measured only for "
            "constant loads";
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
static bool laterMemberMeetsHolder(const std::vector<Insn> &code, const std::vector<Pending> &in,
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

// A store's read barrier that a branch waits on, given an index that
// another group holds over a span of code covering the store's -- pending
// on another path, so never at the same time: nvlink took another index
// in 28 of the 32 such picks measured, by a rule not understood, and such
// kernels are refused, inside the R1 load's range as past it (unseen
// special-register seed sr3318_0, sm_100 and sm_120: an unrolled guarded
// store loop in the range, let through once LDS on the R1 load's barrier
// was, culd wrote 0 where nvlink wrote 2; no other link of 16,600
// changed; of 400 held-out links, seeds 3501-3700, it refused sr3562_1,
// which nvlink's index matched). Seen in generated special-register
// kernels with an unrolled `for (..) if (i < n) p[i] = v;` loop (sr23_1, sr45_0, sr176_1,
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
static bool measuredProducer(uint32_t op12) {
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
    // kernels, 5 exact, none different), 0xc2b (sm_103: the
    // cross-target test's axpy_double, compiled from PTX), and the
    // register forms DADD 0x228, DMUL 0x229, DFMA 0x22b of Thrust's and
    // CUB's double reductions (generated double-register kernels,
    // gen-variable-latency.py's double-registers family: 8 more links
    // exact on seeds 1-100, 4 on the held-out 101-200, none different;
    // most of the rest stop at F2I.F64 past the range).
    case 0x828:
    case 0xc2b:
    case 0x228:
    case 0x229:
    case 0x22b:
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
    // the global atomic kAtomgOp (cooperative groups' grid sync: corpus
    // 156; generated ordered-atomic kernels), and the atomics 0x3aa and
    // 0x58d ptxas writes for libcu++'s scoped atomic_ref read-modify-writes
    // (generated ordered-atomic kernels, measured 2026-12-08 with both
    // let through: seeds 3000-3099 90 more kernels exact, 1 different;
    // held-out seeds 4000-4099 92 exact, 1 different; the two a global
    // load after a drain, pickPastRangeLoad, now exact too).
    case 0x992:
    case 0xd00:
    case 0xd07:
    case 0xd08:
    case 0xd09:
    case 0x22a:
    case 0x31c:
    case 0xc28:
    case 0xf8c:
    case kAtomgOp:
    case 0x3aa:
    case 0x58d:
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
static bool measuredInRangeOnly(uint32_t op12) {
    return op12 == kF2iF64 || op12 == kWarpOp301 || op12 == kMatch || op12 == kSharedAtomic98c;
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
    uint32_t r = slotColour(groups, colour, read);
    uint32_t w = slotColour(groups, colour, static_cast<Slot>(i * 2));
    if (r == kNumBarriers || r == oldRead || w != oldRead)
        return true;
    error = describeProducer(code, i) + " would have its read barrier moved off " +
            std::to_string(oldRead) + " and its write barrier put there; nvlink's barriers for "
                                      "it there are not understood";
    return false;
}

// DEPBAR waits until the producers pending on the barrier its operand names
// (bits 44-46) have drained to a count. nvlink moves that operand with the
// barrier's producers (generated fence kernels fa1142_1, fa1401_1, sm_100:
// 0 -> 1 and 2 -> 1) and keeps it where they keep their barrier (222
// DEPBARs of rewritten kernels: 221 on 5, one on 1). culd does not rewrite
// the operand, nor know the count's meaning once groups merge: a kernel
// where a producer pending at a DEPBAR on its barrier moves, or another
// moves onto that barrier, is refused.
bool checkDepbarsKeepTheirBarriers(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                   const std::vector<bool> &reached, size_t p0, UnionFind &groups,
                                   const std::unordered_map<Slot, uint32_t> &colour,
                                   std::string &error) {
    for (size_t i = 0; i < code.size(); ++i) {
        if (!reached[i] || opcode12(code[i]) != kDepbar)
            continue;
        const uint32_t named = static_cast<uint32_t>(code[i].lo >> 44 & 7);
        for (uint32_t b = 0; b < kNumBarriers; ++b)
            for (Slot s : in[i][b]) {
                uint32_t now = s / 2 == p0 ? kNumBarriers : slotColour(groups, colour, s);
                if ((b == named) == (now == named))
                    continue;
                error = "the DEPBAR at offset " + hex(i * 16) + " waits on barrier " +
                        std::to_string(named) +
                        ", whose producers the re-allocation changes "
                        "(the producer at offset " +
                        hex(s / 2 * 16) + "); nvlink's operand for it is not measured";
                return false;
            }
    }
    return true;
}

} // namespace culd::mercury::scoreboard
