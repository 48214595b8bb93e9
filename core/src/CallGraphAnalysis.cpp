// Facts that flow up the call graph, computed once for every function in
// linear time: Tarjan's strongly connected components (iterative, so deep
// call chains cannot overflow the stack), then one pass over the components
// in reverse topological order. A function reaches recursion when its
// component has a cycle or a callee reaches one; the stack of such a kernel
// cannot be determined statically.
//
// The edges are nvlink's "potentially calls" relation: direct calls, and
// indirect calls to every address-taken function of the called prototype
// (FunctionInfo::indirectCallees). A virtual deleting destructor's registers
// and frame count for a kernel that deletes through a base pointer.
#include "culd/CallGraph.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"

#include <algorithm>
#include <unordered_map>

namespace culd {

namespace {

class SccBuilder {
public:
    explicit SccBuilder(const std::vector<Symbol *> &nodes) : nodes_(nodes) {
        for (size_t i = 0; i < nodes.size(); ++i)
            id_[nodes[i]] = i;
        index_.assign(nodes.size(), -1);
        low_.assign(nodes.size(), 0);
        onStack_.assign(nodes.size(), false);
        component_.assign(nodes.size(), 0);
    }

    // Components in reverse topological order (callees before callers).
    std::vector<std::vector<size_t>> run() {
        for (size_t v = 0; v < nodes_.size(); ++v)
            if (index_[v] < 0)
                visit(v);
        return components_;
    }

    size_t componentOf(size_t v) const { return component_[v]; }
    size_t idOf(Symbol *s) const { return id_.at(s); }
    bool contains(Symbol *s) const { return id_.count(s) != 0; }

private:
    // The i-th function `v` may call (direct calls first), or null past the
    // end.
    Symbol *callee(size_t v, size_t i) const {
        FunctionInfo *f = nodes_[v]->func;
        if (!f)
            return nullptr;
        if (i < f->callees.size())
            return f->callees[i];
        i -= f->callees.size();
        return i < f->indirectCallees.size() ? f->indirectCallees[i] : nullptr;
    }

    void visit(size_t root) {
        struct Frame {
            size_t v;
            size_t next;
        };
        std::vector<Frame> frames{{root, 0}};
        open(root);
        while (!frames.empty()) {
            Frame &fr = frames.back();
            if (Symbol *c = callee(fr.v, fr.next)) {
                ++fr.next;
                auto it = id_.find(c);
                if (it == id_.end())
                    continue;
                size_t w = it->second;
                if (index_[w] < 0) {
                    open(w);
                    frames.push_back({w, 0});
                } else if (onStack_[w]) {
                    low_[fr.v] = std::min(low_[fr.v], index_[w]);
                }
                continue;
            }
            size_t v = fr.v;
            frames.pop_back();
            if (!frames.empty())
                low_[frames.back().v] = std::min(low_[frames.back().v], low_[v]);
            if (low_[v] == index_[v])
                close(v);
        }
    }

    void open(size_t v) {
        index_[v] = low_[v] = counter_++;
        stack_.push_back(v);
        onStack_[v] = true;
    }

    void close(size_t v) {
        std::vector<size_t> members;
        size_t w;
        do {
            w = stack_.back();
            stack_.pop_back();
            onStack_[w] = false;
            component_[w] = components_.size();
            members.push_back(w);
        } while (w != v);
        components_.push_back(std::move(members));
    }

    const std::vector<Symbol *> &nodes_;
    std::unordered_map<Symbol *, size_t> id_;
    std::vector<long> index_, low_;
    std::vector<bool> onStack_;
    std::vector<size_t> component_;
    std::vector<size_t> stack_;
    std::vector<std::vector<size_t>> components_;
    long counter_ = 0;
};

// Calls `visit` for every function `f` may call.
template <class Visit> void forEachCallee(const FunctionInfo &f, Visit visit) {
    for (Symbol *c : f.callees)
        visit(c);
    for (Symbol *c : f.indirectCallees)
        visit(c);
}

} // namespace

void analyzeCallGraph(Context &ctx) {
    std::vector<Symbol *> nodes;
    for (Symbol *s : ctx.symtab.globals())
        if (s->func)
            nodes.push_back(s);
    for (auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && s->isLocal && s->func)
                nodes.push_back(s);

    SccBuilder scc(nodes);
    std::vector<std::vector<size_t>> components = scc.run();
    for (const std::vector<size_t> &members : components) {
        // Own facts of the component, then what its callees (in components
        // already done) contribute.
        uint32_t regs = 0, barriers = 0;
        uint64_t ownFrames = 0, below = 0;
        bool recursive = members.size() > 1;
        size_t self = scc.componentOf(members.front());
        for (size_t m : members) {
            FunctionInfo &f = *nodes[m]->func;
            regs = std::max(regs, f.regCount);
            barriers = std::max(barriers, f.numBarriers);
            ownFrames = std::max<uint64_t>(ownFrames, f.frameSize);
            forEachCallee(f, [&](Symbol *c) {
                if (!scc.contains(c))
                    return;
                if (scc.componentOf(scc.idOf(c)) == self) {
                    recursive = true;
                    return;
                }
                FunctionInfo &cf = *c->func;
                regs = std::max(regs, cf.reachRegs);
                barriers = std::max(barriers, cf.reachBarriers);
                below = std::max(below, cf.deepestStack);
                recursive = recursive || cf.reachesRecursion;
            });
        }
        for (size_t m : members) {
            FunctionInfo &f = *nodes[m]->func;
            f.reachRegs = regs;
            f.reachBarriers = barriers;
            f.reachesRecursion = recursive;
            // Exact for acyclic graphs; with recursion the size is unknown.
            f.deepestStack = (members.size() == 1 ? f.frameSize : ownFrames) + below;
        }
    }
}

// nvlink's "Stack size for entry function '%s' cannot be statically
// determined": kernels in .text order, one warning per entry of the
// kernel's potentially-calls list that reaches recursion, duplicates
// included: a kernel calling two recursive functions, or one through two
// callers, or one directly and through a pointer, is warned about twice
// (a call to itself that ptxas turned into a loop is no recursion). nvlink
// warns before it prints the call graph, and not in a relocatable link.
void warnUnboundedStacks(Context &ctx) {
    if (ctx.opts.relocatable || ctx.opts.suppressStackSizeWarning)
        return;
    PotentialCallees callees(ctx);
    for (Symbol *f : functionsInTextOrder(ctx)) {
        if (!f->isEntry() || !f->func->reachesRecursion)
            continue;
        for (Symbol *c : callees.of(*f))
            if (c->func && c->func->reachesRecursion)
                Diagnostics::get().warning("Stack size for entry function '" +
                                           std::string(f->name) +
                                           "' cannot be statically determined");
    }
}

} // namespace culd
