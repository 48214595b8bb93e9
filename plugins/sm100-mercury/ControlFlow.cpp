// The scoreboard re-allocation (Scoreboard.h): the control-flow graph of a
// function and the may-dataflow of the producers pending on each scoreboard
// barrier.
#include "Scoreboard.h"

namespace culd::mercury::scoreboard {

// Producers that may be pending on each barrier when instruction i issues
// (before its own wait). A may-analysis over the CFG, so a wait reached
// over a back edge or a branch sees every producer that can reach it.
// `reached[i]` is false for code no path from the entry reaches.
// A hostile image could make the sets quadratic (thousands of producers
// never waited on): past this many entries in all the analysis gives up.
constexpr size_t kPendingBudget = size_t(1) << 25;

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
            if (!alwaysJumps(insn))
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

// The barriers some producer may still be pending on as `insn` issues:
// those pending before it (`atIssue`) less those it waits on.
uint32_t pendingPast(const Insn &insn, const Pending &atIssue) {
    uint32_t live = 0;
    for (uint32_t b = 0; b < kNumBarriers; ++b)
        if (!(waitMask(insn) >> b & 1) && !atIssue[b].empty())
            live |= 1u << b;
    return live;
}

static void insertSorted(std::vector<Slot> &v, Slot s) {
    auto it = std::lower_bound(v.begin(), v.end(), s);
    if (it == v.end() || *it != s)
        v.insert(it, s);
}

// Unions `from` into `into`; true when `into` grew.
static bool mergeInto(std::vector<Slot> &into, const std::vector<Slot> &from) {
    if (std::includes(into.begin(), into.end(), from.begin(), from.end()))
        return false;
    std::vector<Slot> merged;
    merged.reserve(into.size() + from.size());
    std::set_union(into.begin(), into.end(), from.begin(), from.end(),
                   std::back_inserter(merged));
    into.swap(merged);
    return true;
}

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

// Whether instruction `i` waits for the R1 load, on barrier b0. A wait on
// all six barriers drains the scoreboard (ptxas's after a fence of an
// ordered atomic) and is not one: nvlink coloured the code past such a
// drain as inside the range (generated ordered-atomic kernel oa14_2,
// sm_100 and sm_120: a store's read barrier past it took the lowest free 0,
// where past the range it would have kept its 1). Such a kernel mostly
// meets checkOneStackPointerWait: with the drain ending the range, 26
// generated ordered-atomic links came out different, refused now.
static bool waitsForStackPointer(const Insn &i, uint32_t b0) {
    return (waitMask(i) >> b0 & 1) && waitMask(i) != kAllBarriers;
}

// The H2 range: from the R1 load to the first instruction waiting on its
// barrier (or the end).
size_t shiftRangeEnd(const std::vector<Insn> &code, size_t p0, uint32_t b0) {
    for (size_t j = p0 + 1; j < code.size(); ++j)
        if (waitsForStackPointer(code[j], b0))
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

// The R1 load's range on every path: the instructions a path from the
// load reaches up to and including its first wait on the load's barrier.
// A join of such a path with one past a wait is in the range (CUB's
// onesweep kernel: code a branch reaches around ptxas's first wait is
// renumbered as the range is, up to the wait on that path).
std::vector<bool> stackPointerRange(const std::vector<Insn> &code, const Successors &succ,
                                    size_t p0, uint32_t b0) {
    return reachAfter(succ, p0, [&](size_t i) { return !waitsForStackPointer(code[i], b0); });
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

// Whether instruction `target` is reached from the entry along a path
// that passes none of `avoid`: a producer in `avoid` is then not pending
// there on every path.
bool reachedAvoiding(const Successors &succ, const std::vector<size_t> &avoid, size_t target) {
    std::vector<bool> blocked(succ.direct.size(), false);
    for (size_t a : avoid)
        blocked[a] = true;
    return reach(succ, {0}, blocked, [](size_t) { return true; })[target];
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

} // namespace culd::mercury::scoreboard
