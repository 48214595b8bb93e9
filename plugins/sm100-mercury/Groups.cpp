// The scoreboard re-allocation (Scoreboard.h): dependency groups (producers
// one wait releases together), where each is live, and the roles the re-
// derivation gives them.
#include "Scoreboard.h"

namespace culd::mercury::scoreboard {

// Whether an instruction sets a scoreboard barrier (write or read).
bool isProducer(const Insn &insn) {
    return writeBarrier(insn) < kNumBarriers || readBarrier(insn) < kNumBarriers;
}

// Records that `group` may be pending at instruction `at`.
static void markGroupLive(Dependencies &d, size_t at, Slot group) {
    std::vector<Slot> &live = d.liveAt[at];
    if (std::find(live.begin(), live.end(), group) == live.end()) {
        live.push_back(group);
        d.liveRange[group].push_back(at);
    }
}

// Whether `s` issues while an earlier slot of `found` (the producers an
// EXIT finds pending on old barrier b) is still pending on b.
static bool issuesBehindAnother(const std::vector<Pending> &in, const std::vector<Slot> &found,
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
    Dependencies d{UnionFind(n * 2), {}, std::vector<std::vector<Slot>>(n), {}, {}, {}, {}, {}};
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
    // A re-derived producer joins the group released where it is first
    // needed -- but for one first needed past a conditional EXIT: its
    // barrier is picked as exitJoin says, a free one or the group of the
    // second wait after it, not the group the EXIT releases (unseen
    // special-register seeds sr2640_2, sm_100 and sm_120: an LDC on the R1
    // load's barrier took the lowest free, 4, where culd shared a load's
    // read barrier released at the EXIT, without a word; sr1786_0: an LDS
    // beside a store's read barrier there; no other link of 16,600
    // changed).
    for (const auto &[slot, consumer] : rd.consumer) {
        d.edges.emplace_back(slot, consumer);
        if (rd.exitJoins.count(slot))
            continue;
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
    d.consumes.resize(n);
    for (const auto &[slot, consumer] : d.edges) {
        d.consumes[consumer].push_back(slot);
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
                uint32_t c = slotColour(groups, colour, static_cast<Slot>(j * 2 + f));
                return c == kNumBarriers ? old : c;
            }
    return old;
}

} // namespace culd::mercury::scoreboard
