// The scoreboard re-allocation (Scoreboard.h): producers ptxas put on a busy
// barrier for want of a free one, and the waits nvlink re-derives for them
// from their registers.
#include "Scoreboard.h"

namespace culd::mercury::scoreboard {

// A producer whose registers are first touched past a branch: nvlink keeps
// ptxas's waits for it (CUB's radix-sort kernels, see rederive).
constexpr size_t kPastBranch = kNever - 1;

// The kinds whose barrier nvlink's re-allocation is measured for where
// ptxas put them on the R1 load's barrier (forcedShares).
static bool measuredOnStackPointerBarrier(const Insn &insn) {
    return isConstantLoad(insn) || opcode12(insn) == kF2i || opcode12(insn) == kLds;
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
static bool keepsChosenShare(const Insn &insn) {
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
static size_t nextWaitOn(const std::vector<Insn> &code, size_t i, uint32_t b) {
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
static bool neededPastRelease(const std::vector<Insn> &code, size_t i, uint32_t b) {
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
            // constant loads (LDC, LDCU), F2I (0x305) and LDS: let through
            // in the generated special-register links refused for them
            // alone, 21 of 47 (F2I) and 26 of 97 (LDS) came out as
            // nvlink's and none different, the rest refused for other
            // shapes. The matrixMul sample's S2R and S2UR there came out
            // different from nvlink's; so did 2 of 26 generated links with
            // S2R, 5 of 34 with S2UR and 8 of 41 with SHFL (0xf89).
            if (b == b0 && write && !measuredOnStackPointerBarrier(code[i])) {
                error = describeProducer(code, i) +
                        " shares the stack-pointer load's barrier; nvlink's barrier for it is "
                        "measured only for constant loads, F2I and LDS";
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
            // LDC read later). A global load takes only 2-5, so the R1
            // load's barrier below 2 frees none for it: nvlink kept such an
            // LDG beside another with 5 alone free (unseen special-register
            // seed sr1343_1, sm_100 and sm_120: the pair stayed on one
            // barrier; culd split it, without a word, once F2I's operands
            // let the kernel through; fa1224 matched nvlink either way).
            bool r1Alone = std::all_of(in[i][b0].begin(), in[i][b0].end(),
                                       [&](Slot s) { return s / 2 == p0; });
            bool splitShare = shares && write && oneFree(taken) && r1Alone &&
                              keepsChosenShare(code[i]) &&
                              !(isLongLatencyLoad(code[i]) && b0 < kLongLatencyFloor) &&
                              (neededPastRelease(code, i, b) ||
                               std::any_of(in[i][b].begin(), in[i][b].end(), [&](Slot h) {
                                   return h % 2 == 0 && neededPastRelease(code, h / 2, b);
                               }));
            // A load sharing by choice, with one free, the barrier of a
            // producer that is no load (a SHFL, a fence's 0xd09): nvlink
            // split it off as a forced share (generated special-register
            // kernel sr3201_2, an LDC on a SHFL's 4 with 5 free, took a
            // barrier of its own; fence-and-atomics fa2010_2 and fa2035_0,
            // an LDC beside a 0xd09, corpus 197; culd kept the share, exit
            // 0). Split so, the three are refused for now (the re-derived
            // mates' operands are not modelled); no kernel of 15,000
            // measured that culd matched changed.
            bool besideNonLoad =
                shares && write && oneFree(taken) && keepsChosenShare(code[i]) &&
                std::any_of(in[i][b].begin(), in[i][b].end(), [&](Slot h) {
                    return h % 2 == 0 && h / 2 != p0 && !keepsChosenShare(code[h / 2]);
                });
            if (b == b0 || (shares && outOfBarriers) || ldcOnLdcu || splitShare || besideNonLoad) {
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

// Where each of `producers` is first needed: the first instruction after
// it, on the straight line, that reads or writes one of its destination
// registers -- kNever when an unconditional EXIT comes first, kPastBranch
// when other control flow does (that instruction recorded in
// `pastBranch`), and a conditional `@P EXIT` that comes
// first (recorded in `pastExit`): nvlink then has the producer waited on
// by that EXIT, or joins it to an earlier group (see exitJoin). An
// instruction whose operands are not modelled before that point fails. One
// backward sweep, each instruction decoded once.
static bool firstUses(const std::vector<Insn> &code,
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

// The instruction of the second wait after `at` and before `exit`, on a
// barrier other than `b0` (the R1 load's, released only at the EXIT), if
// it waits on exactly one barrier.
static std::optional<size_t> secondWaitAfter(const std::vector<Insn> &code, size_t at, size_t exit,
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

} // namespace culd::mercury::scoreboard
