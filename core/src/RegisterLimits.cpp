// nvlink's check that a kernel's register limit holds across units.
//
// A kernel compiled with a limit (__launch_bounds__, __maxnreg__,
// -maxrregcount) carries it as EIATTR_MAXREG_COUNT in .nv.info.<k>; ptxas
// keeps the kernel's own code within it, but a function of another unit was
// compiled without knowing it. nvlink refuses the link when a function the
// kernel reaches (directly, transitively, or through an indirect call of its
// prototype) has a REGCOUNT above the limit; an equal count is fine, and a relocatable
// link does not check.
//
// nvlink finds these in its register propagation: functions are taken in
// its output .text order (functionsInTextOrder), and each raises the register count of every kernel reaching it
// (kernels in reverse of that order) when it has more registers than the
// kernel so far. A raise past the kernel's limit is reported, so a function
// with no more registers than an earlier-placed one the same kernel reaches
// is not. Under --dump-callgraph every raise is also printed, after the
// error it caused if any:
//   regcount 75 for f(int) propagated to entry k(int *)
// (docs/nvlink-findings.md).
#include "culd/CallGraph.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace culd {

namespace {

struct Raise {
    size_t functionPos; // of the function, in nvlink's .text order
    size_t entryRank;   // of the kernel, in reverse .text order
    const Symbol *entry;
    const Symbol *function;
};

// Every function `entry` reaches through calls and through indirect calls
// of a function's prototype, itself excluded. (Functions whose address is
// merely taken, such as the virtual functions of a vtable a kernel installs,
// are no edges, as in nvlink's register propagation; docs/nvlink-findings.md.)
std::vector<Symbol *> reachedFrom(Symbol *entry) {
    std::vector<Symbol *> reached, stack{entry};
    std::unordered_set<Symbol *> seen{entry};
    while (!stack.empty()) {
        Symbol *f = stack.back();
        stack.pop_back();
        if (!f->func)
            continue;
        for (const std::vector<Symbol *> *list : {&f->func->callees, &f->func->indirectCallees})
            for (Symbol *c : *list)
                if (seen.insert(c).second) {
                    reached.push_back(c);
                    stack.push_back(c);
                }
    }
    return reached;
}

// The raises of one kernel's register count, in .text order.
void addRaises(Symbol *entry, size_t entryRank,
               const std::unordered_map<const Symbol *, size_t> &position,
               std::vector<Raise> &out) {
    std::vector<std::pair<size_t, const Symbol *>> reached;
    for (Symbol *f : reachedFrom(entry)) {
        auto pos = position.find(f);
        if (pos != position.end() && f->func->hasRegCount)
            reached.push_back({pos->second, f});
    }
    std::sort(reached.begin(), reached.end());
    uint32_t regs = entry->func->regCount;
    for (const auto &[pos, f] : reached) {
        if (f->func->regCount <= regs)
            continue;
        out.push_back({pos, entryRank, entry, f});
        regs = f->func->regCount;
    }
}

} // namespace

void checkRegisterLimits(Context &ctx) {
    if (ctx.opts.relocatable)
        return;
    bool printRaises = ctx.opts.dumpCallgraph || ctx.opts.dumpCallgraphNoDemangle;
    std::vector<Symbol *> code = functionsInTextOrder(ctx);
    std::unordered_map<const Symbol *, size_t> position;
    std::vector<Symbol *> entries;
    for (Symbol *f : code) {
        position.emplace(f, position.size());
        if (f->isEntry())
            entries.push_back(f);
    }

    std::vector<Raise> raises;
    for (size_t i = 0; i < entries.size(); ++i) {
        const FunctionInfo &info = *entries[i]->func;
        // analyzeCallGraph found the most registers over the same edges: a
        // kernel nothing raises needs no walk (the usual case), nor one
        // whose limit holds when raises are not printed.
        if (info.reachRegs <= info.regCount)
            continue;
        if (printRaises || (info.hasMaxRegCount && info.reachRegs > info.maxRegCount))
            addRaises(entries[i], entries.size() - i, position, raises);
    }
    std::sort(raises.begin(), raises.end(), [](const Raise &a, const Raise &b) {
        return std::tie(a.functionPos, a.entryRank) < std::tie(b.functionPos, b.entryRank);
    });
    bool failed = false;
    for (const Raise &r : raises) {
        const FunctionInfo &entry = *r.entry->func;
        uint32_t regs = r.function->func->regCount;
        if (entry.hasMaxRegCount && regs > entry.maxRegCount) {
            Diagnostics::get().error("entry function '" + std::string(r.entry->name) +
                                     "' with max regcount of " +
                                     std::to_string(entry.maxRegCount) + " calls function '" +
                                     std::string(r.function->name) + "' with regcount of " +
                                     std::to_string(regs));
            failed = true;
        }
        if (printRaises)
            Diagnostics::get().write(Severity::Info,
                                     "regcount " + std::to_string(regs) + " for " +
                                         callGraphName(ctx, *r.function) +
                                         " propagated to entry " +
                                         callGraphName(ctx, *r.entry) + "\n");
    }
    if (failed)
        throw ErrorsReported();
}

} // namespace culd
