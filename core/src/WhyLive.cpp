// --why-live=SYM, as lld has it: why dead-code elimination kept a symbol --
// the chain of calls from the root that reaches it -- or that it removed
// it. Nothing is recorded while marking: the chain is found again here, by
// a breadth-first walk from the same roots over the same call edges
// (MarkLive.cpp), so it costs nothing unless asked and gives a shortest
// chain:
//
//   leaf(int) (_Z4leafi) from b.cubin:(.text._Z4leafi)
//   >>> referenced by mid(int) (_Z3midi) from b.cubin:(.text._Z3midi)
//   >>> referenced by kernel top(int*) (_Z3topPi) from a.cubin:(.text._Z3topPi)
//   >>> top(int*) (_Z3topPi) is a root: every kernel is kept (...)
//
// SYM is a mangled name or its demangling; every symbol of that name is
// answered (file-local functions of several files, say).
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <deque>
#include <iostream>
#include <unordered_map>

namespace culd {

namespace {

// Whole-link symbols and each file's own, in link order.
std::vector<Symbol *> allSymbols(const Context &ctx) {
    std::vector<Symbol *> out(ctx.symtab.globals().begin(), ctx.symtab.globals().end());
    for (const auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && s->isLocal && !s->isSectionSymbol)
                out.push_back(s);
    return out;
}

std::vector<Symbol *> findSymbols(const std::vector<Symbol *> &symbols, const std::string &query) {
    std::vector<Symbol *> exact, demangled;
    for (Symbol *s : symbols) {
        if (s->name == query)
            exact.push_back(s);
        else if (s->name.substr(0, 2) == "_Z" && demangle(s->name) == query)
            demangled.push_back(s);
    }
    return exact.empty() ? demangled : exact;
}

std::string where(const Symbol &s) {
    if (!s.section)
        return s.file ? s.file->name() : std::string("<none>");
    return s.section->file->name() + ":(" + std::string(s.section->name()) + ")";
}

std::string functionText(const Symbol &s) {
    return std::string(s.isEntry() ? "kernel " : "") + describeSymbolName(s.name) + " from " +
           where(s);
}

// Why markLive kept `root` for itself.
std::string rootReason(const Context &ctx, const Symbol &root) {
    std::string name = describeSymbolName(root.name) + " is a root: ";
    if (root.rootKernel) {
        if (ctx.rootsFromHostInfo)
            return name + "a kernel that host code of the link launches (host-reference lists)";
        if (!ctx.opts.kernelsUsed.empty())
            return name + "a kernel named by --kernels-used";
        return name + "every kernel is kept (no host-reference lists name the kernels)";
    }
    return name + "its address is taken (address-taken functions are kept)";
}

// Why markLive found no root reaching `s`.
std::string removalReason(const Context &ctx, const Symbol &s) {
    if (!s.isEntry())
        return "no kernel or address-taken function reaches it";
    if (ctx.rootsFromHostInfo)
        return "no host code of the link launches it (host-reference lists), nothing takes "
               "its address";
    if (!ctx.opts.kernelsUsed.empty())
        return "not named by --kernels-used, nothing takes its address";
    return "only the kernels named by --kernels-used are kept (--variables-used)";
}

// Breadth-first from every root, in markLive's order: the caller each
// function was first reached from (null for the roots).
std::unordered_map<const Symbol *, const Symbol *> firstCallers(const std::vector<Symbol *> &all) {
    std::unordered_map<const Symbol *, const Symbol *> caller;
    std::deque<const Symbol *> queue;
    for (const Symbol *s : all)
        if (s->isFunction() && s->defined && s->section &&
            (s->rootKernel || (s->func && s->func->addressTaken)) && s->section->reachable) {
            caller.emplace(s, nullptr);
            queue.push_back(s);
        }
    while (!queue.empty()) {
        const Symbol *s = queue.front();
        queue.pop_front();
        if (!s->func)
            continue;
        for (const Symbol *callee : s->func->callees)
            if (caller.emplace(callee, s).second)
                queue.push_back(callee);
    }
    return caller;
}

void explainFunction(std::ostream &os, const Context &ctx, const Symbol &s,
                     const std::unordered_map<const Symbol *, const Symbol *> &callers) {
    os << functionText(s) << '\n';
    if (s.section->lostToEarlier || !s.section->live) {
        if (s.section->lostToEarlier)
            os << ">>> removed: an earlier definition of the same name won\n";
        else
            os << ">>> removed: " << removalReason(ctx, s) << '\n';
        return;
    }
    if (ctx.opts.relocatable) {
        os << ">>> kept: a relocatable link (-r) removes nothing\n";
        return;
    }
    if (!s.section->reachable) {
        os << ">>> kept: nothing reaches it, but a debug link (-g) removes nothing\n";
        return;
    }
    auto it = callers.find(&s);
    if (it == callers.end())
        return; // live without a root: cannot happen after markLive
    const Symbol *root = &s;
    for (const Symbol *c = it->second; c; c = callers.at(c)) {
        os << ">>> referenced by " << functionText(*c) << '\n';
        root = c;
    }
    os << ">>> " << rootReason(ctx, *root) << '\n';
}

void explain(std::ostream &os, const Context &ctx, const Symbol &s,
             const std::unordered_map<const Symbol *, const Symbol *> &callers) {
    if (!s.defined) {
        os << describeSymbolName(s.name) << " is not defined by any input\n";
        return;
    }
    if (s.isFunction() && s.section) {
        explainFunction(os, ctx, s, callers);
        return;
    }
    os << describeSymbolName(s.name) << " from " << where(s) << '\n';
    if (s.section && !s.section->isLive())
        os << ">>> removed: another definition of the same name won\n";
    else
        os << ">>> kept: dead-code elimination removes only functions; every variable stays\n";
}

} // namespace

void printWhyLive(Context &ctx) {
    std::vector<Symbol *> all = allSymbols(ctx);
    auto callers = firstCallers(all);
    for (const std::string &query : ctx.opts.whyLive) {
        std::vector<Symbol *> found = findSymbols(all, query);
        if (found.empty())
            Diagnostics::get().warning("--why-live: no symbol named '" + query + "'");
        for (const Symbol *s : found)
            explain(std::cout, ctx, *s, callers);
    }
    std::cout << std::flush;
}

} // namespace culd
