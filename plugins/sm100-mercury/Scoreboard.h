// The scoreboard re-allocation of the sm_100+ finaliser, inside: the
// types and steps its files share (Finalizer.cpp drives them: reallocate).
// Not an interface of the plugin: only the finaliser's own files include it.
#pragma once

#include "Finalizer.h"
#include "Hex.h"
#include "Operands.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace culd::mercury::scoreboard {

inline uint32_t opcode12(const Insn &i) { return static_cast<uint32_t>(i.lo & 0xfff); }

inline bool isConditionalExit(const Insn &i) { return opcode9(i) == kExit && guard(i) != kAlways; }

inline uint32_t writeBarrier(const Insn &i) { return getBits(i, kWriteBarrierBit, 3); }

inline uint32_t readBarrier(const Insn &i) { return getBits(i, kReadBarrierBit, 3); }

inline uint32_t waitMask(const Insn &i) { return getBits(i, kWaitMaskBit, 6); }

constexpr unsigned kSlotBits[2] = {kWriteBarrierBit, kReadBarrierBit};

constexpr uint32_t kAllBarriers = (1u << kNumBarriers) - 1;

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

// A producer slot: instruction index * 2 + (0 = write barrier, 1 = read).
using Slot = uint32_t;

using Pending = std::array<std::vector<Slot>, kNumBarriers>;

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

// The colour the group of slot s has taken, kNumBarriers while it has none
// (groups are coloured in reverse postorder of their first slot).
inline uint32_t slotColour(UnionFind &groups, const std::unordered_map<Slot, uint32_t> &colour,
                           Slot s) {
    auto it = colour.find(groups.find(s));
    return it == colour.end() ? kNumBarriers : it->second;
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

// F2I from a float (`(int)f`, and ptxas's integer division).
constexpr uint32_t kF2i = 0x305;

// A constant-bank load: LDC or LDCU, the kinds most of the re-derivation's
// rules were measured on.
inline bool isConstantLoad(const Insn &insn) {
    return opcode12(insn) == kLdc || opcode12(insn) == kLdcu;
}

// The exchange and fetch-and-op forms of a global atomic (libcu++'s
// cuda::atomic_ref exchange, fetch_or, ...; cooperative groups' grid sync):
// its write barrier is picked as a global load's (generated ordered-atomic
// kernel oa47_1: in the range 4, the lowest free from 2 up, with 0 free).
constexpr uint32_t kAtomgOp = 0x98a;

constexpr uint32_t kAtomgCas = 0x3a9;

constexpr uint32_t kTex = 0xf60;

constexpr uint32_t kTld = 0xf66;

constexpr uint32_t kLongLatencyFloor = 2;

// Barriers 2-5, where a global load's write barrier goes.
constexpr uint32_t kLongLatencyBarriers = kAllBarriers & ~((1u << kLongLatencyFloor) - 1);

constexpr size_t kNever = std::string::npos;

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
    // The producers each instruction waits for (edges by consumer).
    std::vector<std::vector<Slot>> consumes;
};

// Where each barrier is next waited on, seen from `at`: groups sharing a
// barrier are all released by its first wait, so a barrier's release is
// the earliest first consumer of the live groups on it (kNever: none
// live). `rederived`: whether one of them is a re-derived producer's.
struct BarrierReleases {
    std::array<size_t, kNumBarriers> wait;
    std::array<bool, kNumBarriers> rederived{};
};

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

// The first reached producer other than the R1 load (p0) for which
// `unmeasured(i)` holds; kNoProducer when none.
constexpr size_t kNoProducer = ~size_t(0);

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

// ControlFlow.cpp: the control-flow graph of a function and the may-dataflow
// of the producers pending on each scoreboard barrier
bool buildSuccessors(const std::vector<Insn> &code, const std::vector<uint64_t> &jumpTargets,
                     Successors &succ, std::string &error);
uint32_t pendingPast(const Insn &insn, const Pending &atIssue);
bool pendingAtEntry(const std::vector<Insn> &code, const Successors &succ, size_t skip,
                    std::vector<Pending> &in, std::vector<bool> &reached);
size_t shiftRangeEnd(const std::vector<Insn> &code, size_t p0, uint32_t b0);
std::vector<bool> joinPoints(const Successors &succ, size_t n);
std::vector<bool> stackPointerRange(const std::vector<Insn> &code, const Successors &succ,
                                    size_t p0, uint32_t b0);
std::vector<uint32_t> countBranches(const std::vector<Insn> &code);
bool pendingAcrossBranch(const std::vector<uint32_t> &branchesBefore, size_t first,
                         const std::vector<size_t> &liveRange);
bool reachedAvoiding(const Successors &succ, const std::vector<size_t> &avoid, size_t target);
std::vector<size_t> reversePostorder(const Successors &succ, size_t n);
StackPointerUse stackPointerUse(const std::vector<Insn> &code, const Successors &succ,
                                size_t p0, size_t &at);

// Groups.cpp: dependency groups (producers one wait releases together),
// where each is live, and the roles the re-derivation gives them
bool isProducer(const Insn &insn);
Dependencies dependencies(const std::vector<Insn> &code, const std::vector<Pending> &in,
                          const std::vector<bool> &reached, const std::vector<bool> &inRange,
                          const Rederived &rd);
BarrierReleases barrierReleases(const Dependencies &deps,
                                const std::unordered_map<Slot, uint32_t> &colour,
                                const std::unordered_set<Slot> &rederivedGroups, size_t at);
GroupRoles groupRoles(UnionFind &groups, const Rederived &rd);
void releaseTogether(Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                     uint32_t barrier, size_t at);
IdleWaits idleWaits(const std::vector<Insn> &code, const Successors &succ,
                    const std::vector<Pending> &in, const std::vector<bool> &reached,
                    const Rederived &rd, const std::vector<bool> &inRange);
void liveUntilEchoes(Dependencies &deps, const IdleWaits &idle);
bool groupPendingAt(const Dependencies &deps, Slot x, size_t at);
bool meetOnAPath(Dependencies &deps, Slot g, Slot h);
bool waitReleases(const std::vector<Insn> &code, const std::vector<Pending> &in,
                  Dependencies &deps, size_t at, Slot x);
Beside takenBeside(const std::vector<Insn> &code, const std::vector<Pending> &in,
                   Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                   const std::vector<bool> &join, Slot g, bool inRange);
bool spanOf(const Dependencies &deps, Slot g, size_t &first, size_t &last);
uint32_t becomes(const std::vector<Insn> &code, UnionFind &groups,
                 const std::unordered_map<Slot, uint32_t> &colour, size_t p0, size_t i,
                 uint32_t old);

// Rederive.cpp: producers ptxas put on a busy barrier for want of a free
// one, and the waits nvlink re-derives for them from their registers
bool forcedShares(const std::vector<Insn> &code, const std::vector<Pending> &in,
                  const std::vector<bool> &reached, size_t p0, uint32_t b0,
                  const std::vector<bool> &inRange, std::vector<Slot> &forced,
                  std::string &error);
bool checkPastRangeForcedShares(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                const std::vector<bool> &reached,
                                const std::vector<bool> &inRange, uint32_t forTextures,
                                std::string &error);
bool rederive(const std::vector<Insn> &code, const std::vector<Pending> &in, uint32_t b0,
              const std::vector<Slot> &forced, Rederived &out, std::string &error);
bool dropReleasedWaits(std::vector<Insn> &code, const Successors &succ, size_t p0,
                       const std::vector<std::pair<Slot, size_t>> &edges,
                       const std::unordered_map<Slot, uint32_t> &colourOf,
                       const std::vector<uint32_t> &idle, std::string &error);

// Joins.cpp: the barrier a forced group joins when none is free
bool matesReleasedTogether(const Dependencies &deps,
                           const std::unordered_map<Slot, uint32_t> &colour,
                           const GroupRoles &roles, Slot group, size_t at, uint32_t pick);
std::vector<uint64_t> issueCycles(const std::vector<Insn> &code);
bool joinedBarrier(const std::vector<Insn> &code, Dependencies &deps,
                   const std::unordered_map<Slot, uint32_t> &colour, const Rederived &rd,
                   const GroupRoles &roles, const std::vector<uint64_t> &cycles, Slot group,
                   size_t at, uint32_t &pick, std::string &error);
bool exitJoinBarrier(const std::vector<Insn> &code, const std::vector<Pending> &in,
                     const Rederived &rd, UnionFind &groups,
                     const std::unordered_map<Slot, uint32_t> &colour, size_t wait, uint32_t b0,
                     uint32_t &pick, std::string &error);

// Picks.cpp: the barrier each group takes: in the stack-pointer load's
// range, past it, global loads and texture fetches
bool isLongLatencyLoad(const Insn &insn);
bool isTextureFetch(const Insn &insn);
uint32_t lowestFree(uint32_t taken, uint32_t from = 0);
uint32_t longLatencyPick(uint32_t old, uint32_t taken, bool pendingFar, uint32_t fiveNow);
void applyShiftOnly(std::vector<Insn> &code, size_t p0, uint32_t b0);
unsigned freeBarriers(uint32_t taken);
uint32_t reusedBelow(const std::vector<Insn> &code, const std::vector<Pending> &in,
                     UnionFind &groups, const std::unordered_map<Slot, uint32_t> &colour,
                     size_t i, uint32_t old, uint32_t taken);
bool pickPastRangeLoad(const std::vector<Insn> &code, const std::vector<Pending> &in,
                       UnionFind &groups, const std::unordered_map<Slot, uint32_t> &colour,
                       size_t p0, size_t i, Slot g, uint32_t old, uint32_t taken, uint32_t &pick,
                       std::string &error);
bool pickRangeLoad(const std::vector<Insn> &code, Dependencies &deps,
                   const std::unordered_map<Slot, uint32_t> &colour, const GroupRoles &roles,
                   const std::vector<bool> &inRange, const std::vector<uint32_t> &branchesBefore,
                   size_t p0, size_t i, Slot g, uint32_t old, uint32_t taken, uint32_t &pick,
                   std::string &error);
uint32_t textureBarriers(const std::vector<Insn> &code, const std::vector<bool> &reached);
bool keepTextureBarrier(size_t i, uint32_t old, uint32_t taken, uint32_t &pick,
                        std::string &error);

// Refusals.cpp: shapes whose re-finalisation by nvlink is not understood:
// each check names the instruction and refuses the kernel
std::string describeProducer(const std::vector<Insn> &code, size_t i);
bool checkForcedTakesFree(const std::vector<Insn> &code, const Dependencies &deps,
                          const std::unordered_map<Slot, uint32_t> &colour, const GroupRoles &roles,
                          size_t i, Slot g, uint32_t old, bool onR1Barrier, uint32_t taken,
                          std::string &error);
bool checkPredicatedAcrossBranch(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                 const std::vector<bool> &reached, std::string &error);
bool checkOneStackPointerWait(const std::vector<Insn> &code, const std::vector<Pending> &in,
                              const std::vector<bool> &inRange, uint32_t b0, size_t end,
                              std::string &error);
bool checkLoopCarriedPredicates(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                const std::vector<bool> &reached,
                                const std::vector<bool> &inRange, std::string &error);
bool checkLoopCarriedMerges(const std::vector<Insn> &code, Dependencies &deps,
                            const std::unordered_map<Slot, uint32_t> &colour,
                            const std::vector<bool> &inRange, std::string &error);
bool checkExitJoinMeasured(const std::vector<Insn> &code, Slot g, std::string &error);
bool checkNotJoinOnlyHolder(size_t i, uint32_t pick, uint32_t joinOnly, std::string &error);
bool checkMembersSeenAtIssue(const std::vector<Insn> &code, const std::vector<bool> &reached,
                             const std::vector<bool> &inRange, Dependencies &deps,
                             const std::unordered_map<Slot, uint32_t> &colour, std::string &error);
bool checkPickSeenAtIssue(Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                          size_t i, unsigned f, uint32_t old, uint32_t pick, std::string &error);
bool laterMemberMeetsHolderOnEveryPath(const Successors &succ, Dependencies &deps,
                                       const std::unordered_map<Slot, uint32_t> &colour, Slot g,
                                       uint32_t old, size_t &member);
bool checkJoinOnlyConflicts(const std::vector<Insn> &code, const std::vector<Pending> &in,
                            Dependencies &deps, const std::unordered_map<Slot, uint32_t> &colour,
                            const GroupRoles &roles, Slot g, uint32_t barrier,
                            std::string &error);
bool checkStoreOnSpannedBarrier(const std::vector<Insn> &code, const Dependencies &deps,
                                const std::unordered_map<Slot, uint32_t> &colour, size_t i,
                                unsigned f, Slot g, uint32_t pick, std::string &error);
bool checkProducersMeasured(const std::vector<Insn> &code, const std::vector<bool> &reached,
                            const std::vector<bool> &inRange, size_t p0, std::string &error);
bool checkNoLoadBesideTextures(const std::vector<Insn> &code, const std::vector<bool> &reached,
                               size_t p0, std::string &error);
bool checkTexturesKeptTheirBarriers(const std::vector<Insn> &code,
                                    const std::vector<bool> &reached, UnionFind &groups,
                                    const std::unordered_map<Slot, uint32_t> &colour,
                                    std::string &error);
bool checkWriteJoinsReadsOnSomePaths(const std::vector<Insn> &code, const Successors &succ,
                                     const std::vector<bool> &reached,
                                     const std::vector<bool> &inRange, Dependencies &deps,
                                     std::string &error);
bool checkPastBranchWaitElsewhere(const std::vector<Insn> &code, const Rederived &rd,
                                  std::string &error);
bool checkDepbarsKeepTheirBarriers(const std::vector<Insn> &code, const std::vector<Pending> &in,
                                   const std::vector<bool> &reached, size_t p0, UnionFind &groups,
                                   const std::unordered_map<Slot, uint32_t> &colour,
                                   std::string &error);
bool checkReadBarrierNotTaken(const std::vector<Insn> &code, UnionFind &groups,
                              const std::unordered_map<Slot, uint32_t> &colour, size_t i,
                              std::string &error);

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

template <typename Unmeasured>
size_t firstProducer(const std::vector<Insn> &code, const std::vector<bool> &reached, size_t p0,
                     Unmeasured unmeasured) {
    for (size_t i = 0; i < code.size(); ++i)
        if (i != p0 && reached[i] && isProducer(code[i]) && unmeasured(i))
            return i;
    return kNoProducer;
}

} // namespace culd::mercury::scoreboard
