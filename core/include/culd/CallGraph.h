// The module call graph, merged from every input's .nv.callgraph and
// .nv.prototype, in input order (so output is deterministic).
#pragma once

#include "culd/Symbols.h"

#include <cstdint>
#include <string_view>
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
};

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

