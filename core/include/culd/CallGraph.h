// The module call graph, merged from every input's .nv.callgraph and
// .nv.prototype, in input order (so output is deterministic).
#pragma once

#include "culd/Symbols.h"

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace culd {

struct CallGraph {
    // A symbol with a prototype string (the input's .strtab offset turned
    // back into the string, so it can be re-interned in the output).
    // `file` is the input the record came from: a weak definition that
    // lost resolution takes its records along.
    struct SymbolWord {
        Symbol *symbol;
        std::string_view prototype;
        const ObjectFile *file = nullptr;
    };
    struct Edge {
        Symbol *from;
        Symbol *to;
        const ObjectFile *file = nullptr;
    };
    std::vector<SymbolWord> addressTaken;  // group 0xFFFFFFFE
    std::vector<SymbolWord> indirectCalls; // group 0xFFFFFFFD
    std::vector<Edge> references;          // group 0xFFFFFFFC
    std::vector<SymbolWord> prototypes;    // .nv.prototype
    // Every function any input names, numbered as nvlink numbers its call
    // graph nodes: inputs in link order, each input's FUNC symbols in
    // .symtab order (so its locals first), a global at its first mention
    // (a call to a function defined later is numbered where it is called).
    // Defined, undefined and dead functions alike; for kept functions this
    // is also nvlink's output .text order (docs/nvlink-findings.md).
    std::vector<Symbol *> functionOrder;
};

struct Context;

// What each function "potentially calls" as nvlink lists it (--dump-callgraph)
// and counts it (the stack-size warning: once per listed callee that reaches
// recursion). nvlink prepends each callee to the caller's list as it reads
// it: the direct calls in .nv.callgraph order, then the caller's indirect
// call sites, the last site first, each adding every address-taken function
// of its prototype in call-graph order (CallGraph::functionOrder). So the
// list reads backwards, and nothing is deduplicated: a kernel calling `f`
// directly and through two "#ii" sites lists it three times.
class PotentialCallees {
public:
    explicit PotentialCallees(const Context &ctx);
    std::vector<Symbol *> of(const Symbol &f) const;

private:
    std::unordered_map<std::string_view, std::vector<Symbol *>> takenByPrototype_;
    std::unordered_map<const Symbol *, std::vector<std::string_view>> sites_;
};

// The functions whose code is in the output, in nvlink's .text order: the
// defining inputs in link order, each input's functions in .symtab order
// (not the call-graph numbering, which places a function where it is first
// named). nvlink's register propagation and stack-size checks go in this
// order.
std::vector<Symbol *> functionsInTextOrder(const Context &ctx);
// The function's code is in the output: it owns a live .text section (not
// the original of a `$N` clone dead-code elimination dropped, nor a C2/D2
// alias of another function's code).
bool hasOutputCode(const Symbol &f);

// Visits every function a root reaches, depth first and callees in order
// (so lists built from it read in call order): direct calls, then the
// address-taken functions its indirect calls may reach (nvlink gives a
// kernel the shared memory of those too). Marks
// live in FunctionInfo, so a walk allocates nothing but its stack and costs
// O(what it reaches); each walk bumps the stamp instead of clearing marks.
class CallGraphWalker {
public:
    // `visit(Symbol *)` returns false to not descend into that function.
    template <class Visit> void walk(Symbol *root, Visit visit) {
        ++stamp_;
        stack_.clear();
        stack_.push_back(root);
        while (!stack_.empty()) {
            Symbol *f = stack_.back();
            stack_.pop_back();
            if (f->func) {
                if (f->func->walkStamp == stamp_)
                    continue;
                f->func->walkStamp = stamp_;
            }
            if (!visit(f) || !f->func)
                continue;
            push(f->func->indirectCallees);
            push(f->func->callees);
        }
    }

private:
    // Pushed in reverse, so they are popped in order.
    void push(const std::vector<Symbol *> &callees) {
        for (auto it = callees.rbegin(); it != callees.rend(); ++it)
            if (!(*it)->func || (*it)->func->walkStamp != stamp_)
                stack_.push_back(*it);
    }

    uint32_t stamp_ = 0;
    std::vector<Symbol *> stack_;
};

} // namespace culd

