// Where nvlink files the inputs' symbols in the output's .symtab (see
// SymbolOrder.h). One walk serves both the writer, which numbers the
// symbols, and the line-table linker, which orders sequences by them.
#include "culd/SymbolOrder.h"

#include "culd/Context.h"
#include "culd/Elf.h"
#include "culd/InputFiles.h"
#include "culd/Symbols.h"

#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

// The input whose weak definition is each global's first appearance (null
// when it first appears otherwise: undefined, or a strong definition).
std::unordered_map<const Symbol *, const ObjectFile *> firstWeakDefinitions(const Context &ctx) {
    std::unordered_map<const Symbol *, const ObjectFile *> first;
    for (const auto &file : ctx.files) {
        const std::vector<ElfSymbol> &syms = file->elf().symbols();
        for (size_t i = 1; i < syms.size() && i < file->symbols.size(); ++i) {
            const Symbol *g = file->symbols[i];
            if (!g || g->isLocal)
                continue;
            bool weakDefinition = !syms[i].isUndefined() && syms[i].bind() == STB_WEAK;
            first.try_emplace(g, weakDefinition ? file.get() : nullptr);
        }
    }
    return first;
}

} // namespace

void visitSymbolsInTableOrder(const Context &ctx, const SymbolTableVisitor &visitor) {
    const auto firstWeak = firstWeakDefinitions(ctx);
    auto firstWeakIn = [&](const Symbol &s) {
        auto it = firstWeak.find(&s);
        return it == firstWeak.end() ? nullptr : it->second;
    };
    std::unordered_set<const Symbol *> placed;
    auto place = [&](const std::function<void(Symbol &)> &to, Symbol &s) {
        if (placed.insert(&s).second)
            to(s);
    };
    for (const auto &file : ctx.files)
        for (Symbol *s : file->symbols) {
            if (!s)
                continue;
            if (s->isSectionSymbol)
                visitor.sectionSymbol(*s);
            else if (visitor.carries(*s) && (s->isLocal || firstWeakIn(*s) == file.get()))
                place(visitor.local, *s);
        }
    for (const auto &file : ctx.files) {
        auto isWeakUndefined = [](const Symbol &s) { return s.binding == STB_WEAK && !s.defined; };
        for (Symbol *s : file->symbols)
            if (s && !s->isLocal && !s->isSectionSymbol && visitor.carries(*s) &&
                !isWeakUndefined(*s) &&
                (!s->defined || s->file == file.get() || s->binding != STB_WEAK))
                place(visitor.global, *s);
        for (Symbol *s : file->symbols)
            if (s && !s->isLocal && !s->isSectionSymbol && visitor.carries(*s) &&
                isWeakUndefined(*s))
                place(visitor.global, *s);
    }
}

} // namespace culd
