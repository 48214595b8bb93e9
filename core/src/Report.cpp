// The -v resource report, in nvlink's words:
//   <n> bytes gmem
//   Function properties for '<kernel>':
//   used R registers, used B barriers, S stack, M bytes smem, C bytes cmem[0], L bytes lmem
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvInfo.h"

namespace culd {

namespace {

uint64_t sizeOf(const Context &ctx, SectionKind kind, const Symbol *owner, uint32_t bank = 0) {
    uint64_t total = 0;
    for (const OutputSection *o : ctx.outputs)
        if (o->kind == kind && o->owner == owner && o->bank == bank)
            total += o->size;
    return total;
}

uint32_t barriersOf(const Symbol &kernel) {
    if (!kernel.section || !kernel.file)
        return 0;
    for (InputSection *s : kernel.file->sections)
        if (s && s->kind == SectionKind::NvInfoFunc && s->text == kernel.section)
            for (const NvInfoRecord &r : parseNvInfo(s->bytes(), {kernel.file->name(), s->name()}))
                if (r.code == EIATTR_NUM_BARRIERS)
                    return r.value;
    return 0;
}

} // namespace

void reportResources(Context &ctx) {
    Diagnostics &diag = Diagnostics::get();
    uint64_t gmem = sizeOf(ctx, SectionKind::Global, nullptr) +
                    sizeOf(ctx, SectionKind::GlobalInit, nullptr);
    diag.info(std::to_string(gmem) + " bytes gmem");
    // nvlink lists the kernels in reverse output .text order (the order in
    // which it also checks their register limits, RegisterLimits.cpp).
    for (auto it = ctx.outputs.rbegin(); it != ctx.outputs.rend(); ++it) {
        const OutputSection *o = *it;
        if (o->kind != SectionKind::Text || !o->owner || !o->owner->isEntry())
            continue;
        const Symbol &k = *o->owner;
        uint32_t regs = k.func ? k.func->propagatedRegs : 0;
        uint64_t stack = k.func ? k.func->stackSize : 0;
        diag.info("Function properties for '" + std::string(k.name) + "':");
        diag.info("used " + std::to_string(regs) + " registers, used " +
                  std::to_string(barriersOf(k)) + " barriers, " + std::to_string(stack) +
                  " stack, " + std::to_string(sizeOf(ctx, SectionKind::SharedEntry, &k)) +
                  " bytes smem, " + std::to_string(sizeOf(ctx, SectionKind::ConstantEntry, &k)) +
                  " bytes cmem[0], " + std::to_string(sizeOf(ctx, SectionKind::Local, &k)) +
                  " bytes lmem");
    }
}

} // namespace culd
