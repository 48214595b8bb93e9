// --trace-symbol=SYM (-y SYM), as lld has it: every input that defines or
// references SYM, in link order, from each input's own symbol table (so a
// definition that lost to an earlier one is listed too):
//
//   b.cubin: definition of mid(int) (_Z3midi) (global, .text._Z3midi)
//   a.cubin: reference to mid(int) (_Z3midi)
//
// SYM is a mangled name or its demangling. Runs after symbol resolution,
// when the archive members the link pulled in are inputs too.
#include "culd/Context.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <iostream>

namespace culd {

namespace {

using namespace elf;

bool matches(std::string_view name, const std::vector<std::string> &queries) {
    for (const std::string &q : queries)
        if (name == q || (name.substr(0, 2) == "_Z" && demangle(name) == q))
            return true;
    return false;
}

const char *bindingText(uint8_t binding) {
    switch (binding) {
    case STB_LOCAL: return "local";
    case STB_WEAK: return "weak";
    default: return "global";
    }
}

std::string describe(const ObjectFile &file, const ElfSymbol &es) {
    std::string name = describeSymbolName(es.name);
    if (es.isUndefined())
        return std::string(es.bind() == STB_WEAK ? "weak reference to " : "reference to ") + name;
    std::string where;
    if (es.rawShndx == SHN_COMMON)
        where = "COMMON";
    else if (es.rawShndx == SHN_ABS)
        where = "ABS";
    else if (es.shndx < file.elf().sections().size())
        where = std::string(file.elf().sections()[es.shndx].name);
    return "definition of " + name + " (" + bindingText(es.bind()) + ", " + where + ")";
}

} // namespace

void traceSymbols(Context &ctx) {
    for (const auto &file : ctx.files)
        for (const ElfSymbol &es : file->elf().symbols())
            if (es.type() != STT_SECTION && !es.name.empty() &&
                matches(es.name, ctx.opts.traceSymbols))
                std::cout << file->name() << ": " << describe(*file, es) << '\n';
    std::cout << std::flush;
}

} // namespace culd
