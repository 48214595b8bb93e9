// The -v resource report, in nvlink's words:
//   <n> bytes gmem
//   Function properties for '<kernel>':
//   used R registers, used B barriers, S stack, M bytes smem, C bytes cmem[0], L bytes lmem
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/KernelResources.h"
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

KernelResources kernelResources(const Context &ctx, const Symbol &kernel) {
    KernelResources r;
    r.registers = kernel.func ? kernel.func->propagatedRegs : 0;
    r.stack = kernel.func ? kernel.func->stackSize : 0;
    r.barriers = barriersOf(kernel);
    r.sharedBytes = sizeOf(ctx, SectionKind::SharedEntry, &kernel);
    r.constantBytes = sizeOf(ctx, SectionKind::ConstantEntry, &kernel);
    r.localBytes = sizeOf(ctx, SectionKind::Local, &kernel);
    return r;
}

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
        KernelResources r = kernelResources(ctx, k);
        diag.info("Function properties for '" + std::string(k.name) + "':");
        diag.info("used " + std::to_string(r.registers) + " registers, used " +
                  std::to_string(r.barriers) + " barriers, " + std::to_string(r.stack) +
                  " stack, " + std::to_string(r.sharedBytes) + " bytes smem, " +
                  std::to_string(r.constantBytes) + " bytes cmem[0], " +
                  std::to_string(r.localBytes) + " bytes lmem");
    }
}

} // namespace culd
