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
// indirect call, every address-taken function with the same prototype
// (PotentialCallees, in nvlink's order). The dump is printed once dead code
// is removed, before the register propagation (runLink), so a link that
// fails on an undefined symbol or a register limit has printed it too.
// Like nvlink, the dump goes to stderr, names spelled as nvlink's own
// demangler writes them (demangleForCallGraph).
#include "culd/CallGraph.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"


#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace culd {

// nvlink 13.0 demangles under --dump-callgraph-no-demangle too: its output
// is byte-identical to --dump-callgraph's (measured on generated programs,
// libcudadevrt and Thrust/CUB links), so culd spells names the same way.
std::string callGraphName(const Context &, const Symbol &f) {
    return demangleForCallGraph(f.name);
}

// Every function any input names, in nvlink's numbering
// (CallGraph::functionOrder): a function with code as
//   N: [^][&]name [registers] -> callees
// an undefined one that live code calls (malloc, vprintf, a syscall of
// libcudadevrt) as
//   N: name -> callees
// and any other (dead code, the original of a `$N` clone, a C2/D2 alias,
// an undefined function only dead code calls) with an empty name: "N: ".
void dumpCallGraph(Context &ctx) {
    const std::vector<Symbol *> &order = ctx.callGraph.functionOrder;
    std::unordered_map<const Symbol *, size_t> number;
    for (size_t i = 0; i < order.size(); ++i)
        number.emplace(order[i], i + 1);
    PotentialCallees callees(ctx);
    std::ostringstream os;
    // nvlink names the arch without its suffix: "callgraph for sm_90" for sm_90a.
    os << "callgraph for sm_" << ctx.opts.sm << ":\n"
       << "# A: s -> B // s (number A) potentially calls B\n"
       << "# s [N]     // s uses N registers\n"
       << "# ^s        // s is entry point\n"
       << "# &s        // s has address taken\n";
    for (size_t i = 0; i < order.size(); ++i) {
        const Symbol *f = order[i];
        os << i + 1 << ": ";
        bool code = hasOutputCode(*f);
        // An undefined function is named only while live code calls it
        // (libcudadevrt's dead members leave their syscalls unnamed).
        bool undefinedInUse = !f->defined && ctx.referencedFromLiveCode.count(f);
        if (code || undefinedInUse) {
            // A kernel launched from the device is both: "^&child(int *)".
            // '^' marks the kernels the link keeps as roots: under
            // --kernels-used a kernel kept only because a removed launcher
            // takes its address is "&child(int *)". Host references decide
            // only what lives: in a host link a kernel only the device
            // launches is "^&child(int *)" (host corpus 02, 21).
            if (f->isEntry() && (f->rootKernel || ctx.rootsFromHostInfo))
                os << '^';
            if (f->func && f->func->addressTaken)
                os << '&';
            os << callGraphName(ctx, *f);
            if (code)
                os << " [" << (f->func ? f->func->regCount : 0) << ']';
            os << " ->";
            if (f->func)
                for (Symbol *c : callees.of(*f))
                    if (number.count(c))
                        os << ' ' << number[c];
        }
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
