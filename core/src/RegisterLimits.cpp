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
// Which pairs are reported, and in what order, follows nvlink's propagation:
// functions are taken in output .text order, and each raises the register
// count of every kernel reaching it (kernels in reverse .text order). A
// raise past the kernel's limit is reported, so a function with no more
// registers than an earlier-placed one the same kernel reaches is not
// (docs/nvlink-findings.md).
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace culd {

namespace {

struct Violation {
    size_t functionPos; // of the function, in output .text order
    size_t entryRank;   // of the kernel, in reverse output .text order
    const Symbol *entry;
    const Symbol *function;
    uint32_t limit;
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

} // namespace

void checkRegisterLimits(Context &ctx) {
    if (ctx.opts.relocatable)
        return;
    std::unordered_map<const Symbol *, size_t> position;
    std::vector<Symbol *> entries;
    for (OutputSection *o : ctx.outputs) {
        if (o->kind != SectionKind::Text || !o->owner || !o->owner->func)
            continue;
        position.emplace(o->owner, position.size());
        if (o->owner->isEntry() && o->owner->func->hasMaxRegCount)
            entries.push_back(o->owner);
    }

    std::vector<Violation> violations;
    for (size_t i = 0; i < entries.size(); ++i) {
        Symbol *entry = entries[i];
        const FunctionInfo &info = *entry->func;
        // analyzeCallGraph found the most registers over the same edges: a
        // kernel whose limit holds that needs no walk (the usual case, 255).
        if (info.reachRegs <= info.maxRegCount)
            continue;
        std::vector<std::pair<size_t, const Symbol *>> reached;
        for (Symbol *f : reachedFrom(entry)) {
            auto pos = position.find(f);
            if (pos != position.end() && f->func->hasRegCount)
                reached.push_back({pos->second, f});
        }
        std::sort(reached.begin(), reached.end());
        uint32_t regs = info.regCount;
        for (const auto &[pos, f] : reached) {
            uint32_t fRegs = f->func->regCount;
            if (fRegs <= regs)
                continue;
            if (fRegs > info.maxRegCount)
                violations.push_back({pos, entries.size() - i, entry, f, info.maxRegCount});
            regs = fRegs;
        }
    }
    if (violations.empty())
        return;
    std::sort(violations.begin(), violations.end(), [](const Violation &a, const Violation &b) {
        return std::tie(a.functionPos, a.entryRank) < std::tie(b.functionPos, b.entryRank);
    });
    for (const Violation &v : violations)
        Diagnostics::get().error("entry function '" + std::string(v.entry->name) +
                                 "' with max regcount of " + std::to_string(v.limit) +
                                 " calls function '" + std::string(v.function->name) +
                                 "' with regcount of " + std::to_string(v.function->func->regCount));
    throw ErrorsReported();
}

} // namespace culd
