// The reserved shared memory's own variables (.nv.shared.reserved.<x>, e.g.
// sm_110's `__nv_reservedSMEM_gb10b_war_var`, a WEAK object every input
// carries). nvlink 13.0 does not concatenate the inputs' sections: it lays
// out the variables that won, one after another from the target's
// `.nv.reservedSmem.offset0` (0x40 on sm_100+), and the section ends with
// the last one (one 0x80-byte variable: 0x40 + 0x80 = 0xc0, however many
// inputs have it). The variable's input value (0x10, its alignment like a
// common's), the section's alignment and an input `.offset0` value do not
// move it. `.nv.reservedSmem.offset0` itself gets the target's value too
// (an input's value is not kept). A relocatable link keeps the sections
// whose variables won, with their values (OutputSections.cpp drops the
// losing copies).
#include "culd/Align.h"
#include "culd/Context.h"
#include "culd/Link.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace culd {

// The defined variables of each reserved input section that won, in input
// order: globals once (their winning section), then every file's locals.
ReservedSharedVariables reservedSharedVariables(const Context &ctx) {
    ReservedSharedVariables vars;
    auto add = [&](Symbol *s) {
        if (s && s->defined && !s->isSectionSymbol && s->section &&
            s->section->kind == SectionKind::SharedReserved)
            vars[s->section].push_back(s);
    };
    for (Symbol *s : ctx.symtab.globals())
        add(s);
    for (const auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && s->isLocal)
                add(s);
    return vars;
}

void layOutReservedShared(Context &ctx) {
    if (ctx.opts.relocatable || !ctx.target.reservedSharedMemory())
        return;
    const uint64_t offset0 = ctx.target.reservedSharedOffset0();
    if (Symbol *s = ctx.symtab.find(".nv.reservedSmem.offset0"); s && !s->defined)
        s->finalValue = offset0;
    auto vars = reservedSharedVariables(ctx);
    for (OutputSection *out : ctx.outputs) {
        if (out->kind != SectionKind::SharedReserved)
            continue;
        uint64_t end = offset0;
        bool any = false;
        for (const SectionPiece &piece : out->pieces) {
            auto it = vars.find(piece.input);
            if (it == vars.end())
                continue;
            for (Symbol *v : it->second) {
                end = alignTo(end, piece.input->alignment());
                v->finalValue = end;
                end += v->size;
                any = true;
            }
        }
        if (any)
            out->size = end;
    }
}

} // namespace culd
