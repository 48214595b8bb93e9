// Layout: final symbol values and the sizes of the per-kernel memory
// windows.
//
// Data in merged sections (globals, constant banks, debug) is at
// piece offset + st_value. Shared memory is laid out per kernel:
//   1. module-scope shared (.nv_debug.shared) used by device functions gets
//      one offset for the whole module, so every caller agrees on it;
//   2. each kernel's own .nv.shared.<k> variables follow the module shared
//      the kernel reaches;
//   3. every extern __shared__ array gets the end of static shared rounded
//      up to 16 (the largest such end over the kernels that use it);
//   4. targets with reserved shared memory add it to every kernel's size.
// In relocatable cubins a shared variable's st_value holds its alignment (as
// for SHN_COMMON), not an offset.
#include "culd/CallGraph.h"
#include "culd/Align.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

bool isSharedSpace(const Symbol &s) { return (s.other & 0xE0) == STO_CUDA_SHARED; }

bool isSharedSection(const InputSection *s) { return s && s->isSharedMemory(); }

// A shared variable's alignment: st_value, or min(size, 8) when it is 0.
uint64_t sharedAlignment(const Symbol &s) {
    if (s.value)
        return s.value;
    return std::max<uint64_t>(1, std::min<uint64_t>(s.size, 8));
}

// Allocates `vars` from `start` in input order (what nvlink's output shows;
// the reference's "descending alignment" did not match), returns the end.
uint64_t allocate(const std::vector<Symbol *> &vars, uint64_t start, uint64_t *maxAlign) {
    uint64_t end = start;
    for (Symbol *v : vars) {
        uint64_t align = sharedAlignment(*v);
        *maxAlign = std::max(*maxAlign, align);
        end = alignTo(end, align);
        v->finalValue = end;
        end += v->size;
    }
    return end;
}

class SharedLayout {
public:
    explicit SharedLayout(Context &ctx) : ctx_(ctx) {}

    void run() {
        collectVariables();
        collectUses();
        if (ctx_.opts.relocatable)
            refuseExternSharedInRelocatableLink();
        uint64_t moduleAlign = 1;
        uint64_t moduleEnd = allocate(groupByUser(), 0, &moduleAlign);
        for (Symbol *kernel : kernels())
            layoutKernel(*kernel, moduleAlign);
        if (ctx_.opts.relocatable)
            return;
        for (auto &[sym, offset] : externOffsets_)
            sym->finalValue = offset;
        // The module-shared section empties (its variables now live in the
        // kernels' windows); nvlink writes it, empty, only when dynamic shared
        // memory is used, making one if no input had it.
        if (!moduleShared_ && !externOffsets_.empty() && !ctx_.opts.relocatable) {
            moduleShared_ = ctx_.makeOutput(".nv_debug.shared", SHT_NOBITS, SHF_WRITE | SHF_ALLOC);
            moduleShared_->kind = SectionKind::SharedGlobal;
            moduleShared_->addralign = 16;
        }
        // Dynamic shared memory starts 16-aligned; the section says so.
        if (moduleShared_ && !externOffsets_.empty())
            moduleShared_->addralign = std::max<uint64_t>(moduleShared_->addralign, 16);
        // A debug link keeps the module variables' room (after the reserved
        // shared memory), which the debug information describes.
        if (moduleShared_ && ctx_.opts.debug) {
            moduleShared_->size = moduleEnd + reservedSmem();
        } else if (moduleShared_) {
            moduleShared_->size = 0;
            moduleShared_->keepWhenEmpty = !externOffsets_.empty();
        }
    }

private:
    void collectVariables() {
        for (auto &file : ctx_.files)
            for (Symbol *s : file->symbols) {
                if (!s || s->isSectionSymbol || !isSharedSection(s->section) || seen_.count(s))
                    continue;
                if (s->section->file != file.get() || !s->section->isLive())
                    continue;
                seen_.insert(s);
                // Shared variables leave an executable's .symtab, except in
                // a debug link (-g), where the debugger looks them up.
                if (!ctx_.opts.relocatable && !ctx_.opts.debug)
                    s->emitted = false;
                if (s->section->kind == SectionKind::SharedGlobal)
                    moduleVars_.push_back(s);
                else
                    ownVars_[s->section->owner].push_back(s);
            }
        for (OutputSection *out : ctx_.outputs)
            if (out->kind == SectionKind::SharedGlobal)
                moduleShared_ = out;
    }

    // nvlink -r turns each kernel's extern __shared__ references into a
    // synthetic `externsharedinstance` symbol; culd does not do that yet and
    // says so rather than write a different file.
    void refuseExternSharedInRelocatableLink() const {
        for (auto &[fn, used] : uses_)
            for (Symbol *s : used)
                if (!s->section)
                    throw FatalError("extern __shared__ array '" + std::string(s->name) +
                                     "' (used by '" + std::string(fn->name) +
                                     "') in a relocatable link (-r) is not supported yet");
    }

    // Module shared variables grouped by the first function (in input order)
    // that uses them; groups in the order their first variable appears, each
    // sorted by descending alignment - the order nvlink's layout shows.
    std::vector<Symbol *> groupByUser() const {
        auto before = [](const Symbol *a, const Symbol *b) {
            return std::make_pair(a->file->order(), a->inputIndex) <
                   std::make_pair(b->file->order(), b->inputIndex);
        };
        std::unordered_map<Symbol *, Symbol *> userOf;
        for (auto &[fn, used] : uses_)
            for (Symbol *v : used) {
                Symbol *&user = userOf[v];
                if (!user || before(fn, user))
                    user = fn;
            }
        std::unordered_map<Symbol *, size_t> groupOf;  // user (or null) -> group
        std::vector<std::vector<Symbol *>> groups;
        for (Symbol *v : moduleVars_) {
            auto it = userOf.find(v);
            Symbol *user = it == userOf.end() ? nullptr : it->second;
            auto [slot, isNew] = groupOf.try_emplace(user, groups.size());
            if (isNew)
                groups.emplace_back();
            groups[slot->second].push_back(v);
        }
        std::vector<Symbol *> order;
        order.reserve(moduleVars_.size());
        for (auto &group : groups) {
            std::stable_sort(group.begin(), group.end(), [](const Symbol *a, const Symbol *b) {
                return sharedAlignment(*a) > sharedAlignment(*b);
            });
            order.insert(order.end(), group.begin(), group.end());
        }
        return order;
    }

    // Which shared symbols each function's code refers to.
    void collectUses() {
        for (auto &file : ctx_.files)
            for (auto &[relocHeader, target] : file->relocSections) {
                if (!target || target->kind != SectionKind::Text || !target->isLive())
                    continue;
                for (const ElfReloc &r : file->elf().relocations(*relocHeader)) {
                    Symbol *s = r.symbol < file->symbols.size() ? file->symbols[r.symbol] : nullptr;
                    if (!s)
                        continue;
                    if (s->section && s->section->kind == SectionKind::SharedGlobal)
                        uses_[target->owner].insert(s);
                    else if (!s->defined && isSharedSpace(*s)) {
                        uses_[target->owner].insert(s);
                        // Named only in a debug link (-g).
                        if (!ctx_.opts.relocatable && !ctx_.opts.debug)
                            s->emitted = false;
                    }
                }
            }
    }

    // Kernels in output order; indexes each one's code and shared window.
    std::vector<Symbol *> kernels() {
        std::vector<Symbol *> out;
        for (OutputSection *o : ctx_.outputs) {
            if (o->kind == SectionKind::SharedEntry && o->owner)
                sharedOf_[o->owner] = o;
            if (o->kind == SectionKind::Text && o->owner && o->owner->isEntry()) {
                out.push_back(o->owner);
                textOf_[o->owner] = o;
            }
        }
        return out;
    }

    void layoutKernel(Symbol &kernel, uint64_t moduleAlign) {
        bool usesModuleShared = false, usesExtern = false;
        uint64_t start = 0; // the kernel's own variables follow the module
                            // shared it reaches
        std::vector<Symbol *> externs;
        std::vector<Symbol *> reached;
        ctx_.walker.walk(&kernel, [&](Symbol *f) {
            reached.push_back(f);
            return true;
        });
        for (Symbol *f : reached) {
            auto it = uses_.find(f);
            if (it == uses_.end())
                continue;
            for (Symbol *s : it->second) {
                if (s->section) {
                    usesModuleShared = true;
                    start = std::max(start, s->finalValue + s->size);
                } else {
                    usesExtern = true;
                    externs.push_back(s);
                }
            }
        }
        uint64_t align = usesModuleShared ? moduleAlign : 1;
        uint64_t end = allocate(ownVars_[&kernel], start, &align);
        if (usesExtern) {
            uint64_t externAt = alignTo(end, 16);
            align = std::max<uint64_t>(align, 16);
            for (Symbol *e : externs)
                externOffsets_[e] = std::max(externOffsets_[e], externAt);
            end = externAt;
        }
        uint64_t reserved = reservedSmem();
        OutputSection *out = sharedSectionOf(kernel);
        // A relocatable link only records the window's alignment; offsets and
        // sizes are the final link's.
        if (ctx_.opts.relocatable) {
            if (out)
                out->addralign = std::max(out->addralign, align);
            return;
        }
        // A kernel that only uses dynamic shared memory still gets a window.
        if (!out && (end > 0 || usesExtern) && !ctx_.opts.relocatable)
            out = makeSharedSection(kernel);
        if (!out)
            return;
        out->size = end + reserved;
        out->addralign = std::max(out->addralign, align);
    }

    uint64_t reservedSmem() const {
        return ctx_.opts.disableSmemReservation ? 0 : ctx_.arch.reserved_smem;
    }

    OutputSection *sharedSectionOf(const Symbol &kernel) const {
        auto it = sharedOf_.find(&kernel);
        return it == sharedOf_.end() ? nullptr : it->second;
    }

    OutputSection *makeSharedSection(Symbol &kernel) {
        OutputSection *out = ctx_.makeOutput(".nv.shared." + std::string(kernel.name), SHT_NOBITS,
                                             SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK);
        out->kind = SectionKind::SharedEntry;
        out->owner = &kernel;
        out->addralign = 4;
        out->infoSection = textOf_.at(&kernel);
        return out;
    }

    Context &ctx_;
    std::unordered_set<Symbol *> seen_;
    std::vector<Symbol *> moduleVars_;
    std::unordered_map<Symbol *, std::vector<Symbol *>> ownVars_;
    std::unordered_map<Symbol *, std::unordered_set<Symbol *>> uses_;
    std::unordered_map<Symbol *, uint64_t> externOffsets_;
    OutputSection *moduleShared_ = nullptr;
    std::unordered_map<const Symbol *, OutputSection *> sharedOf_, textOf_;
};

void assignDataValues(Context &ctx) {
    // A relocatable link leaves shared memory to the final link: shared
    // variables keep their input values, offset like any other data.
    bool relocatable = ctx.opts.relocatable;
    auto assign = [relocatable](Symbol *s) {
        if (!s || (isSharedSection(s->section) && !relocatable))
            return;
        s->finalValue = s->section && s->section->out ? s->section->outOffset + s->value : s->value;
    };
    for (Symbol *s : ctx.symtab.globals())
        assign(s);
    for (auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && s->isLocal)
                assign(s);
}

} // namespace

void layoutMemory(Context &ctx) {
    if (ctx.opts.relocatable) {
        // Only the windows' alignment is recorded; shared variables then
        // keep the inputs' values (assignDataValues treats them as data).
        SharedLayout(ctx).run();
        assignDataValues(ctx);
        return;
    }
    assignDataValues(ctx);
    SharedLayout(ctx).run();
}

} // namespace culd
