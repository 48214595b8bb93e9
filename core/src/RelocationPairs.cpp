// Relocation sections written empty. nvlink 13.0 on sm_100+ writes a
// function's SASS `.rela.text.<f>` and Mercury `.nv.merc.rela.text.<f>` as a
// pair: over the 64 sm_100..sm_121 fixture links the one is in the output
// exactly when the other is. So where every SASS relocation of a function
// was applied but its Mercury twin keeps one, `.rela.text.<f>` is written
// with size 0 (16-shared-funcs-many-kernels `_Z7stage_ai`, 14-static-shared
// `_Z9block_sumf`, also under -r). sm_90 and older write none.
//
// culd does not link the Mercury set yet; what its twin keeps is read from
// the input: the one relocation seen kept there without a SASS counterpart
// is the capsule's R_MERCURY_ABS32 against `.nv.reservedSmem.cap` (every
// function using shared memory has one; nvlink leaves it for the driver).
// The Mercury relocation pass should set keepsRelocationSection from what
// it keeps instead.
#include "culd/Context.h"
#include "culd/Link.h"

#include <string_view>
#include <unordered_map>

namespace culd {

namespace {

constexpr std::string_view kMercuryPrefix = ".nv.merc";
constexpr std::string_view kReservedSmemCap = ".nv.reservedSmem.cap";

bool keepsReservedSmemCap(const ObjectFile &file, const ElfSection &mercuryRela) {
    const ElfFile &elf = file.elf();
    if (mercuryRela.link >= elf.sections().size())
        return false;
    const ElfSection &symtab = elf.section(mercuryRela.link);
    if (!symtab.isSymbolTable())
        return false;
    std::vector<ElfSymbol> symbols = elf.symbolsOf(symtab);
    for (const ElfReloc &r : elf.relocations(mercuryRela))
        if (r.symbol < symbols.size() && symbols[r.symbol].name == kReservedSmemCap)
            return true;
    return false;
}

void markFile(Context &ctx, const ObjectFile &file) {
    std::unordered_map<std::string_view, OutputSection *> codeByName;
    for (InputSection *s : file.sections)
        if (s && s->kind == SectionKind::Text && s->isLive() && s->out)
            codeByName.emplace(s->name(), s->out);
    if (codeByName.empty())
        return;
    for (const ElfSection &h : file.elf().sections()) {
        if (ctx.target.mercuryKind(h) != CULD_MERC_RELA ||
            h.name.substr(0, kMercuryPrefix.size()) != kMercuryPrefix)
            continue;
        // .nv.merc.rela.text.<f> -> .text.<f>
        std::string_view twinRela = h.name.substr(kMercuryPrefix.size());
        if (twinRela.substr(0, 5) != ".rela")
            continue;
        auto code = codeByName.find(twinRela.substr(5));
        if (code != codeByName.end() && keepsReservedSmemCap(file, h))
            code->second->keepsRelocationSection = true;
    }
}

} // namespace

void markPairedRelocationSections(Context &ctx) {
    if (!ctx.target.isMercury())
        return;
    for (auto &file : ctx.files)
        markFile(ctx, *file);
}

} // namespace culd
