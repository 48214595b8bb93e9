// The module call graph, merged from every input's .nv.callgraph and
// .nv.prototype, in input order (so output is deterministic).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace culd {

struct Symbol;

struct CallGraph {
    // A symbol with a prototype string (the input's .strtab offset turned
    // back into the string, so it can be re-interned in the output).
    struct SymbolWord {
        Symbol *symbol;
        std::string_view prototype;
    };
    struct Edge {
        Symbol *from;
        Symbol *to;
    };
    std::vector<SymbolWord> addressTaken;  // group 0xFFFFFFFE
    std::vector<SymbolWord> indirectCalls; // group 0xFFFFFFFD
    std::vector<Edge> references;          // group 0xFFFFFFFC
    std::vector<SymbolWord> prototypes;    // .nv.prototype
};

} // namespace culd
