// --dump-callgraph / --dump-callgraph-no-demangle / --dot-file.
//
// Text format (nvlink's):
//   callgraph for sm_90:
//   # A: s -> B // s (number A) potentially calls B
//   # s [N]     // s uses N registers
//   # ^s        // s is entry point
//   # &s        // s has address taken
//   1: ns::inner(int) [24] ->
//   2: &pointed(int) [24] -> 1
// A function "potentially calls" its direct callees and, when it makes an
// indirect call, every address-taken function with the same prototype.
// Like nvlink, the dump goes to stderr, names spelled as nvlink's own
// demangler writes them (demangleForCallGraph).
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"


#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace culd {

namespace {

struct Graph {
    std::vector<Symbol *> functions;
    std::map<Symbol *, size_t> number;
    std::map<Symbol *, std::set<size_t>> calls;
};

Graph buildGraph(const Context &ctx) {
    Graph g;
    for (const OutputSection *o : ctx.outputs)
        if (o->kind == SectionKind::Text && o->owner && g.number.emplace(o->owner, 0).second)
            g.functions.push_back(o->owner);
    for (size_t i = 0; i < g.functions.size(); ++i)
        g.number[g.functions[i]] = i + 1;
    std::multimap<std::string_view, Symbol *> takenByPrototype;
    for (const auto &t : ctx.callGraph.addressTaken)
        takenByPrototype.emplace(t.prototype, t.symbol);
    for (Symbol *f : g.functions) {
        std::set<size_t> &out = g.calls[f];
        if (f->func)
            for (Symbol *c : f->func->callees)
                if (g.number.count(c))
                    out.insert(g.number[c]);
    }
    for (const auto &site : ctx.callGraph.indirectCalls) {
        auto range = takenByPrototype.equal_range(site.prototype);
        for (auto it = range.first; it != range.second; ++it)
            if (g.number.count(it->second) && g.calls.count(site.symbol))
                g.calls[site.symbol].insert(g.number[it->second]);
    }
    return g;
}

} // namespace

void dumpCallGraph(Context &ctx) {
    Graph g = buildGraph(ctx);
    bool demangled = ctx.opts.dumpCallgraph;
    std::ostringstream os;
    // nvlink names the arch without its suffix: "callgraph for sm_90" for sm_90a.
    os << "callgraph for sm_" << ctx.opts.sm << ":\n"
       << "# A: s -> B // s (number A) potentially calls B\n"
       << "# s [N]     // s uses N registers\n"
       << "# ^s        // s is entry point\n"
       << "# &s        // s has address taken\n";
    for (Symbol *f : g.functions) {
        os << g.number[f] << ": ";
        if (f->isEntry())
            os << '^';
        else if (f->func && f->func->addressTaken)
            os << '&';
        os << (demangled ? demangleForCallGraph(f->name) : std::string(f->name)) << " ["
           << (f->func ? f->func->regCount : 0) << "] ->";
        for (size_t callee : g.calls[f])
            os << ' ' << callee;
        os << '\n';
    }
    // Through Diagnostics so that a library link captures it in its log.
    Diagnostics::get().write(Severity::Info, os.str());
}

void writeDotFile(Context &ctx) {
    std::ofstream out(ctx.opts.dotFile);
    if (!out)
        throw FatalError("cannot write call graph to '" + ctx.opts.dotFile + "'");
    out << "digraph callgraph {\n";
    for (const OutputSection *o : ctx.outputs) {
        if (o->kind != SectionKind::Text || !o->owner || !o->owner->func)
            continue;
        for (Symbol *c : o->owner->func->callees)
            out << o->owner->name << " -> " << c->name << ";\n";
    }
    out << "}\n";
}

} // namespace culd
