// Layout: final symbol values and the sizes of the per-kernel memory
// windows.
//
// Data in merged sections (globals, constant banks, debug) is at
// piece offset + st_value. Shared memory is laid out per kernel, as nvlink
// 13.0's output shows (docs/nvlink-findings.md, "Shared memory"):
//   1. module-scope shared (.nv_debug.shared) variables are sorted by
//      descending size (nvlink's list sort); one that a single kernel
//      reaches moves into that kernel's window, one that no input code
//      refers to is dropped, the rest (also those only unreached code refers
//      to) are coloured: each joins the first group holding no
//      variable that a common kernel reaches; groups follow each other, a
//      group as large as its largest member, aligned to its most aligned one;
//   2. each kernel's own .nv.shared.<k> variables (and the moved ones) are
//      sorted by descending alignment, then ascending size, and follow the
//      end of the coloured variables the kernel reaches;
//   3. extern __shared__ arrays go at the end of static shared rounded up to
//      16; kernels that reach a common function using them share one offset
//      (the largest), and their windows grow to it;
//   4. targets with reserved shared memory add it to every kernel's size.
// In relocatable cubins a shared variable's st_value holds its alignment (as
// for SHN_COMMON), not an offset. A relocatable link lays nothing out, but
// nvlink 13.0 (sm_75-sm_121, docs/nvlink-findings.md) gives each kernel
// whose own code uses extern __shared__ arrays an `externsharedinstance`
// symbol where they start (its own variables' end rounded up to 16), which
// that code's references then name; device functions' references resolve
// to 0, and the arrays are defined in .nv_debug.shared.
#include "culd/CallGraph.h"
#include "culd/Hex.h"
#include "culd/Align.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/ListSort.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

bool isSharedSection(const InputSection *s) { return s && s->isSharedMemory(); }

// A shared variable's alignment: st_value, or min(size, 8) when it is 0.
uint64_t sharedAlignment(const Symbol &s) {
    if (s.value)
        return s.value;
    return std::max<uint64_t>(1, std::min<uint64_t>(s.size, 8));
}

// A kernel's window variables in nvlink's order: by descending alignment,
// then ascending size.
void sortWindowVariables(std::vector<Symbol *> &vars) {
    nvlinkListSort(vars, [](const Symbol *a, const Symbol *b) {
        uint64_t alignA = sharedAlignment(*a), alignB = sharedAlignment(*b);
        return alignB > alignA || (alignB == alignA && b->size < a->size);
    });
}

// Where `vars`, allocated from 0 in the order given, end.
uint64_t packedEnd(const std::vector<Symbol *> &vars) {
    uint64_t end = 0;
    for (const Symbol *v : vars)
        end = alignTo(end, sharedAlignment(*v)) + v->size;
    return end;
}

// The size ptxas gives a shared section holding `bytes` of variables at
// alignment `align`, and nvlink under -r recomputes with the output's
// alignment: no more than the alignment grows by the alignment (an int at 4:
// 8; a char at 1: 2, at 4: 5, at 8: 9; an int[3] at 16: 0x1c, at 32:
// 0x2c; 16 bytes at 16: 0x20; 32 at 32: 0x40), more stays (an int[5] at
// 16: 0x14). Measured with nvlink 13.0 -r on sm_75-sm_120
// (docs/nvlink-findings.md, "Relocatable links").
uint64_t paddedSharedSize(uint64_t bytes, uint64_t align) {
    return bytes <= align ? bytes + align : bytes;
}

uint64_t variableBytes(const std::vector<Symbol *> &vars) {
    uint64_t bytes = 0;
    for (const Symbol *v : vars)
        bytes += v->size;
    return bytes;
}

// Allocates `vars` from `start` in the order given, returns the end.
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

// The set of kernels (by index) that reach a variable, as a bit set.
class KernelSet {
public:
    void add(size_t kernel) {
        if (bits_.size() <= kernel / 64)
            bits_.resize(kernel / 64 + 1);
        bits_[kernel / 64] |= uint64_t(1) << (kernel % 64);
        ++count_;
    }
    void merge(const KernelSet &other) {
        if (bits_.size() < other.bits_.size())
            bits_.resize(other.bits_.size());
        for (size_t i = 0; i < other.bits_.size(); ++i)
            bits_[i] |= other.bits_[i];
    }
    bool intersects(const KernelSet &other) const {
        size_t n = std::min(bits_.size(), other.bits_.size());
        for (size_t i = 0; i < n; ++i)
            if (bits_[i] & other.bits_[i])
                return true;
        return false;
    }
    // How many times add() was called (each kernel adds itself once).
    size_t count() const { return count_; }
    size_t first() const {
        for (size_t i = 0; i < bits_.size(); ++i)
            if (bits_[i])
                return i * 64 + static_cast<size_t>(__builtin_ctzll(bits_[i]));
        return 0;
    }

private:
    std::vector<uint64_t> bits_;
    size_t count_ = 0;
};

// Coloured module shared variables: a group's members overlap, as no
// kernel reaches two of them.
struct SharedGroup {
    std::vector<Symbol *> members;
    KernelSet kernels;
    uint64_t size = 0, align = 1;
};

class SharedLayout {
public:
    explicit SharedLayout(Context &ctx) : ctx_(ctx) {}

    void run() {
        collectVariables();
        collectUses();
        collectKernels();
        computeReach();
        uint64_t moduleAlign = 1;
        for (Symbol *v : moduleVars_)
            moduleAlign = std::max(moduleAlign, sharedAlignment(*v));
        layoutModuleShared();
        inputModuleAlign_ = inputModuleSharedAlign();
        usesExtern_ = anyInputUsesExternShared();
        // While any module variable stays coloured (global shared is not
        // empty), every window takes the alignment the inputs' module-shared
        // sections ask for, whether the kernel reaches them or not; variables
        // moved in count like the kernel's own. -r does so always
        // (sizeRelocatableShared).
        if (!coloured_.empty() && !ctx_.opts.relocatable)
            colouredWindowAlign_ = std::max(inputModuleAlign_, moduleAlign);
        // Module variables aligned to more than 16 that stay coloured beside
        // extern arrays change what nvlink keeps (corpus 188).
        wideColoured_ = usesExtern_ && colouredWindowAlign_ > 16;
        refuseWideColouredBesideExternShared();
        for (size_t k = 0; k < kernels_.size(); ++k)
            layoutKernel(k);
        if (ctx_.opts.relocatable) {
            refuseUnexplainedSharedSections();
            if (usesExtern_)
                makeExternSharedInstances();
            sizeRelocatableShared();
            placeWindowsAtTheirCode();
            return;
        }
        // The module-shared section empties (its variables now live in the
        // kernels' windows); nvlink writes it, empty, only when dynamic shared
        // memory is used, making one if no input had it. It decides that from
        // the inputs as read: code that dead-code elimination removed later
        // still counts.
        if (!moduleShared_ && usesExtern_) {
            moduleShared_ = ctx_.makeOutput(".nv_debug.shared", SHT_NOBITS, SHF_WRITE | SHF_ALLOC);
            moduleShared_->kind = SectionKind::SharedGlobal;
            moduleShared_->addralign = 16;
        }
        // Under -g, while it holds coloured variables (the debugger reads
        // them there) or extern arrays, it spans them plus the reservation;
        // otherwise it empties (and goes) as without -g.
        if (moduleShared_) {
            bool spans = ctx_.opts.debug && (!coloured_.empty() || usesExtern_);
            // Where the plugin says so (sm_100+) the window kept for extern
            // arrays spans the reservation without -g too, holding nothing.
            bool reserves = usesExtern_ && ctx_.target.moduleSharedSpansReservation();
            moduleShared_->size = spans ? colouredEnd_ + reservedSize()
                                  : reserves ? reservedSize()
                                             : 0;
            // Extern arrays are no variables of the window: on sm_100+ one
            // holding only them gets no section symbol (-g, measured).
            moduleShared_->holdsVariables = spans && !coloured_.empty();
            if (spans && wantsMap())
                recordModuleSharedContents();
            moduleShared_->keepWhenEmpty = usesExtern_;
            // Kept for extern arrays it aligns to 16, whatever the inputs'
            // alignment (a 32-aligned variable moved into its kernel's
            // window: 16; generated seed 101537, sm_75-sm_120). Beside
            // coloured variables aligned to more it goes, and under -g keeps
            // their alignment (corpus 188, sm_75-sm_121).
            if (usesExtern_ && !wideColoured_)
                moduleShared_->addralign = 16;
            if (wideColoured_ && !ctx_.opts.debug)
                moduleShared_->dropped = true;
        }
        placeExternShared();
        placeWindowsAtTheirCode();
        if (wantsMap())
            for (const KernelInfo &kernel : kernels_)
                recordWindowContents(kernel);
    }

private:
    // What the layout knows about one kernel.
    struct KernelInfo {
        Symbol *symbol = nullptr;
        std::vector<Symbol *> reached;      // functions, the kernel first
        std::vector<Symbol *> ownVars;      // own, then moved module vars
        std::vector<Symbol *> externUsers;  // reached functions using extern shared
        bool usesExtern = false;
        uint64_t staticEnd = 0, align = 1;
    };

    void collectVariables() {
        for (auto &file : ctx_.files)
            for (Symbol *s : file->symbols) {
                if (!s || s->isSectionSymbol || !isSharedSection(s->section) || seen_.count(s))
                    continue;
                if (s->section->file != file.get() || !s->section->isLive())
                    continue;
                seen_.insert(s);
                // Shared variables leave an executable's .symtab, except
                // under -g where the ones laid out stay (keepForDebugger).
                if (!ctx_.opts.relocatable)
                    s->emitted = false;
                if (s->section->kind == SectionKind::SharedGlobal)
                    moduleVars_.push_back(s);
                else
                    ownVarsOf_[s->section->owner].push_back(s);
            }
        // nvlink lists the variables in its .symtab order: locals first.
        std::stable_partition(moduleVars_.begin(), moduleVars_.end(),
                              [](const Symbol *s) { return s->isLocal; });
        for (OutputSection *out : ctx_.outputs)
            if (out->kind == SectionKind::SharedGlobal)
                moduleShared_ = out;
    }

    // Which shared symbols each function's code refers to, in input order.
    // Also which variables any input code refers to, linked or not (code
    // that dead-function elimination removed still counts).
    void collectUses() {
        for (auto &file : ctx_.files)
            for (auto &[relocHeader, target] : file->relocSections) {
                if (!target || target->kind != SectionKind::Text)
                    continue;
                bool live = target->isLive();
                for (const ElfReloc &r : file->elf().relocations(*relocHeader)) {
                    Symbol *s = r.symbol < file->symbols.size() ? file->symbols[r.symbol] : nullptr;
                    if (!s)
                        continue;
                    bool module = s->section && s->section->kind == SectionKind::SharedGlobal;
                    bool external = isExternSharedArray(*s);
                    if (!module && !external)
                        continue;
                    referenced_.insert(s);
                    // Code of no function (a .text section no symbol names)
                    // has no window to place the variable in.
                    if (!live || !target->owner)
                        continue;
                    if (usesSeen_.insert({target->owner, s}).second)
                        uses_[target->owner].push_back(s);
                    if (external && !ctx_.opts.relocatable && !ctx_.opts.debug)
                        s->emitted = false;
                }
            }
    }

    // Whether some input refers to an extern __shared__ array, whether or
    // not the code doing so is linked.
    bool anyInputUsesExternShared() const {
        for (auto &file : ctx_.files)
            for (const Symbol *s : file->symbols)
                if (s && isExternSharedArray(*s))
                    return true;
        return false;
    }

    // Kernels in output order; indexes each one's code and shared window.
    void collectKernels() {
        for (OutputSection *o : ctx_.outputs) {
            if (o->kind == SectionKind::SharedEntry && o->owner)
                sharedOf_[o->owner] = o;
            if (o->kind == SectionKind::Text && o->owner && o->owner->isEntry()) {
                KernelInfo k;
                k.symbol = o->owner;
                k.ownVars = ownVarsOf_[o->owner];
                kernels_.push_back(std::move(k));
                textOf_[o->owner] = o;
            }
        }
    }

    // Which kernels reach each module variable, and which functions using
    // extern shared arrays each kernel reaches.
    void computeReach() {
        for (size_t k = 0; k < kernels_.size(); ++k) {
            KernelInfo &kernel = kernels_[k];
            ctx_.walker.walk(kernel.symbol, [&](Symbol *f) {
                kernel.reached.push_back(f);
                return true;
            });
            for (Symbol *f : kernel.reached) {
                auto it = uses_.find(f);
                if (it == uses_.end())
                    continue;
                bool externUser = false;
                for (Symbol *s : it->second) {
                    if (!s->section) {
                        externUser = true;
                        continue;
                    }
                    size_t &last = lastKernelOf_[s];
                    if (last == k + 1)
                        continue;
                    last = k + 1;
                    kernelsOf_[s].add(k);
                }
                if (externUser) {
                    kernel.usesExtern = true;
                    kernel.externUsers.push_back(f);
                }
            }
        }
    }

    // Step 1 of the header comment.
    void layoutModuleShared() {
        std::vector<Symbol *> order = moduleVars_;
        nvlinkListSort(order, [](const Symbol *a, const Symbol *b) { return b->size >= a->size; });
        std::vector<SharedGroup> groups;
        // One that no input code refers to (a CUB kernel's unused
        // TempStorage) is dropped. One that only code no kernel reaches
        // refers to (code dead-function elimination removes) is coloured,
        // with no kernels: it joins the first group and can widen it
        // (case 69).
        const KernelSet noKernels;
        for (Symbol *v : order) {
            auto it = kernelsOf_.find(v);
            if (it == kernelsOf_.end() && !referenced_.count(v))
                continue;
            const KernelSet &users = it == kernelsOf_.end() ? noKernels : it->second;
            if (users.count() == 1) {
                kernels_[users.first()].ownVars.push_back(v);
                continue;
            }
            auto group = std::find_if(groups.begin(), groups.end(), [&](const SharedGroup &g) {
                return !g.kernels.intersects(users);
            });
            if (group == groups.end())
                group = groups.insert(groups.end(), SharedGroup{});
            group->members.push_back(v);
            group->kernels.merge(users);
            group->size = std::max(group->size, v->size);
            group->align = std::max(group->align, sharedAlignment(*v));
            coloured_.insert(v);
        }
        uint64_t end = 0;
        for (SharedGroup &g : groups) {
            uint64_t offset = alignTo(end, g.align);
            for (Symbol *v : g.members) {
                v->finalValue = offset;
                keepForDebugger(*v, moduleShared_);
            }
            end = offset + g.size;
        }
        colouredEnd_ = end;
        ctx_.moduleSharedHoldsVariables = !coloured_.empty();
    }

    // Under -g nvlink keeps the shared variables in .symtab, as objects in
    // the window they were laid out in (.nv_debug.shared for the coloured
    // ones and the extern arrays).
    void keepForDebugger(Symbol &s, OutputSection *window) {
        if (!ctx_.opts.debug || ctx_.opts.relocatable)
            return;
        s.emitted = true;
        if (window && (!s.section || s.section->out != window))
            s.outSection = window;
    }

    // Step 2 of the header comment; extern arrays are placed afterwards.
    void layoutKernel(size_t index) {
        KernelInfo &kernel = kernels_[index];
        uint64_t start = 0;
        for (Symbol *f : kernel.reached) {
            auto it = uses_.find(f);
            if (it == uses_.end())
                continue;
            for (Symbol *s : it->second)
                if (coloured_.count(s))
                    start = std::max(start, s->finalValue + s->size);
        }
        sortWindowVariables(kernel.ownVars);
        kernel.align = colouredWindowAlign_;
        kernel.staticEnd = allocate(kernel.ownVars, start, &kernel.align);
        if (ctx_.opts.debug && !ctx_.opts.relocatable)
            for (Symbol *v : kernel.ownVars)
                keepForDebugger(*v, windowFor(kernel));
        if (ctx_.opts.relocatable)
            return;
        if (kernel.usesExtern)
            kernel.align = std::max<uint64_t>(kernel.align, 16);
        setWindowSize(kernel, kernel.staticEnd);
    }

    // The header comment's relocatable link. The sizes are measured, not
    // understood: a window the kernel had spans its instance but at least
    // 0x20 bytes (a 4-byte array's: 0x20, a 0x24-byte one's: 0x30); one made
    // for it holds 0x10 bytes; both, and .nv_debug.shared, align to 16.
    // Sections made here get no section symbol (Writer.cpp).
    void makeExternSharedInstances() {
        if (!ctx_.target.externSharedInstances() || ctx_.opts.debug || ctx_.anyInputElfAbiV7())
            refuseExternSharedInRelocatableLink(ctx_.opts.debug ? " with -g"
                                                : !ctx_.target.externSharedInstances()
                                                    ? " for this target"
                                                    : " of CUDA 11 cubins");
        if (!moduleShared_)
            throw FatalError("internal error: no .nv_debug.shared for extern __shared__ arrays");
        for (KernelInfo *kernel : kernelsInInputOrder())
            if (usesExternSharedItself(*kernel->symbol))
                giveExternSharedInstance(*kernel);
        defineExternArraysInModuleShared();
    }

    // Under -r nvlink sizes each shared section anew from its variables'
    // sizes (sizeRelocatableShared), by the rule ptxas sized the input ones
    // with (paddedSharedSize). An input section that rule does not explain
    // (hand-made, or an earlier -r output's window grown for extern arrays)
    // is not measured: refused, named. A weak variable that lost to
    // another unit's copy counts in its own unit's section.
    void refuseUnexplainedSharedSections() const {
        std::unordered_map<const InputSection *, uint64_t> bytes;
        for (auto &file : ctx_.files)
            for (const ElfSymbol &sym : file->elf().symbols()) {
                if (sym.type() == STT_SECTION || sym.isUndefined() ||
                    sym.shndx >= file->sections.size())
                    continue;
                const InputSection *in = file->sections[sym.shndx];
                if (isSharedSection(in))
                    bytes[in] += sym.size;
            }
        for (const OutputSection *out : ctx_.outputs) {
            if (out->kind != SectionKind::SharedGlobal && out->kind != SectionKind::SharedEntry)
                continue;
            for (const SectionPiece &piece : out->pieces) {
                const InputSection *in = piece.input;
                uint64_t held = bytes[in];
                if (in->size() == paddedSharedSize(held, in->alignment()))
                    continue;
                throw FatalError("shared memory section '" + std::string(in->name()) + "' of '" +
                                 in->file->name() + "' (" + hex(in->size()) + " bytes for " +
                                 hex(held) + " of variables, aligned to " +
                                 std::to_string(in->alignment()) +
                                 ") in a relocatable link (-r) is not supported yet");
            }
        }
    }

    // -r: nvlink lays nothing out but sizes every shared section anew
    // (paddedSharedSize) at its output alignment. A kernel's window aligns
    // to the inputs' module-shared alignment whether the kernel reaches
    // those variables or not, to 16 at least where its own code uses extern
    // arrays, and spans its variables' sizes, or its extern-array instance;
    // a kernel without one gets a 0x10-byte window where extern arrays are
    // used and that alignment is 16 (not at 8 or below, 32 or 64:
    // measured). .nv_debug.shared spans its variables' sizes (the weak
    // copies that lost do not count), at 16 at least with extern arrays.
    void sizeRelocatableShared() {
        for (KernelInfo &kernel : kernels_) {
            auto instance = ctx_.externSharedInstanceOf.find(kernel.symbol);
            bool hasInstance = instance != ctx_.externSharedInstanceOf.end();
            uint64_t align = std::max<uint64_t>(inputModuleAlign_, hasInstance ? 16 : 1);
            if (!sharedSectionOf(*kernel.symbol) && (!usesExtern_ || align != 16))
                continue;
            OutputSection *window = windowFor(kernel);
            window->addralign = std::max(window->addralign, align);
            uint64_t bytes = hasInstance ? instance->second->finalValue
                                         : variableBytes(ownVarsOf_[kernel.symbol]);
            window->size = paddedSharedSize(bytes, window->addralign);
        }
        if (!moduleShared_)
            return;
        if (usesExtern_)
            moduleShared_->addralign = std::max<uint64_t>(moduleShared_->addralign, 16);
        moduleShared_->size =
            paddedSharedSize(variableBytes(moduleVars_), moduleShared_->addralign);
    }

    // While module variables aligned to 32 or more stay coloured beside
    // extern arrays, nvlink drops .nv_debug.shared and gives a kernel of no
    // static shared memory a window only where the plugin says so
    // (CULD_ARCH_F_WIDE_COLOURED_SHARED, ..._WIDE_EMPTY_WINDOWS: measured on
    // sm_75-sm_121). Where it does not (CUDA 11.8 targets), refused, naming
    // the variable.
    void refuseWideColouredBesideExternShared() const {
        if (!wideColoured_ || ctx_.target.wideColouredShared())
            return;
        for (const Symbol *v : moduleVars_)
            if (sharedAlignment(*v) >= 32)
                throw FatalError("shared variable '" + std::string(v->name) + "' of '" +
                                 v->file->name() + "' aligned to " +
                                 std::to_string(sharedAlignment(*v)) +
                                 ", beside extern __shared__ arrays and module shared variables "
                                 "several kernels (or none) use, is not supported for this "
                                 "target");
        throw FatalError("module shared memory (.nv_debug.shared) aligned to " +
                         std::to_string(inputModuleAlign_) +
                         " beside extern __shared__ arrays is not supported for this target");
    }

    // The kernel's `externsharedinstance` (sizeRelocatableShared grows its
    // window to hold it).
    void giveExternSharedInstance(KernelInfo &kernel) {
        std::vector<Symbol *> own = ownVarsOf_[kernel.symbol];
        sortWindowVariables(own);
        uint64_t at = alignTo(packedEnd(own), 16);
        Symbol *instance = ctx_.symtab.makeLocal();
        instance->name = "externsharedinstance";
        instance->type = STT_CUDA_OBJECT;
        instance->weakAmongLocals = true;
        instance->other = STO_CUDA_SHARED | STV_INTERNAL;
        instance->finalValue = at;
        ctx_.externSharedInstanceOf[kernel.symbol] = instance;
        ctx_.externSharedInstances.push_back(instance);
    }

    void defineExternArraysInModuleShared() {
        for (auto &file : ctx_.files)
            for (Symbol *s : file->symbols)
                if (s && isExternSharedArray(*s))
                    s->outSection = moduleShared_;
    }

    // nvlink makes the instances in the inputs' code order, not the
    // output's (which puts a file's weak kernels first).
    std::vector<KernelInfo *> kernelsInInputOrder() {
        std::vector<KernelInfo *> order;
        for (KernelInfo &kernel : kernels_)
            order.push_back(&kernel);
        auto key = [](const KernelInfo *k) {
            const InputSection *text = k->symbol->section;
            return text ? std::make_pair(text->file->order(), text->header->index)
                        : std::make_pair(UINT32_MAX, UINT32_MAX);
        };
        std::stable_sort(order.begin(), order.end(),
                         [&](const KernelInfo *a, const KernelInfo *b) { return key(a) < key(b); });
        return order;
    }

    bool usesExternSharedItself(Symbol &kernel) {
        auto it = uses_.find(&kernel);
        return it != uses_.end() && std::any_of(it->second.begin(), it->second.end(),
                                                [](const Symbol *s) { return !s->section; });
    }

    // nvlink's -r model is measured on CUDA 13 cubins (sm_75 on) without
    // -g; elsewhere culd says so rather than write a different file.
    void refuseExternSharedInRelocatableLink(const std::string &where) const {
        // The first user in input order names the refusal.
        for (auto &file : ctx_.files)
            for (Symbol *fn : file->symbols) {
                auto it = fn ? uses_.find(fn) : uses_.end();
                if (it == uses_.end())
                    continue;
                for (Symbol *s : it->second)
                    if (!s->section)
                        throw FatalError("extern __shared__ array '" + std::string(s->name) +
                                         "' (used by '" + std::string(fn->name) +
                                         "') in a relocatable link (-r)" + where +
                                         " is not supported yet");
            }
    }

    // What the inputs' module-shared sections ask for (a section whose
    // variables no kernel reaches counts too): their variables' alignment,
    // which is the section's in ptxas's output. The 16 the output section
    // has when extern __shared__ arrays are used does not count: nvlink's
    // windows keep the inputs' alignment whether the section was made for
    // the extern arrays before an input's was merged into it or not (cases
    // 68, 69), nor does the 16 an earlier -r link gave it for them
    // (two-step links of difftest seed 77002, sm_75/sm_86: 4, not 16).
    uint64_t inputModuleSharedAlign() const {
        if (!moduleShared_)
            return 1;
        std::unordered_map<const InputSection *, uint64_t> byVariables;
        for (const Symbol *v : moduleVars_)
            byVariables[v->section] = std::max(byVariables[v->section], sharedAlignment(*v));
        uint64_t align = 1;
        for (const SectionPiece &piece : moduleShared_->pieces) {
            auto it = byVariables.find(piece.input);
            align = std::max(align, it != byVariables.end() ? it->second : piece.input->alignment());
        }
        return align;
    }

    // Step 3: kernels reaching a common function that uses extern shared
    // arrays form one instance, whose arrays sit at the largest of its
    // kernels' static ends rounded up to 16.
    void placeExternShared() {
        std::vector<size_t> parent(kernels_.size());
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](size_t k) {
            while (parent[k] != k)
                k = parent[k] = parent[parent[k]];
            return k;
        };
        std::unordered_map<Symbol *, size_t> kernelOfUser, kernelOfArray;
        for (size_t k = 0; k < kernels_.size(); ++k)
            for (Symbol *f : kernels_[k].externUsers) {
                auto [it, isNew] = kernelOfUser.try_emplace(f, k);
                if (!isNew)
                    parent[find(k)] = find(it->second);
                // Under -g an array has one offset (its .symtab value), so
                // every kernel using it joins one instance.
                if (!ctx_.opts.debug)
                    continue;
                for (Symbol *s : uses_[f]) {
                    if (s->section)
                        continue;
                    auto [at, first] = kernelOfArray.try_emplace(s, k);
                    if (!first)
                        parent[find(k)] = find(at->second);
                }
            }
        std::vector<uint64_t> offset(kernels_.size(), 0);
        for (size_t k = 0; k < kernels_.size(); ++k)
            if (kernels_[k].usesExtern)
                offset[find(k)] = std::max(offset[find(k)], alignTo(kernels_[k].staticEnd, 16));
        for (size_t k = 0; k < kernels_.size(); ++k)
            if (kernels_[k].usesExtern)
                setWindowSize(kernels_[k], offset[find(k)]);
        for (auto &[f, k] : kernelOfUser) {
            uint64_t at = offset[find(k)];
            ctx_.externSharedOffsets[f] = at;
            for (Symbol *s : uses_[f])
                if (!s->section) {
                    s->finalValue = std::max(s->finalValue, at);
                    keepForDebugger(*s, moduleShared_);
                }
        }
    }

    // nvlink makes a kernel's .nv.shared.<k> when it merges the kernel's
    // code, so windows come in code order, before a module-shared or global
    // section of the same input; windows made here for kernels that had none
    // take that place too. (The writer keeps the uninitialised sections in
    // this order.)
    void placeWindowsAtTheirCode() {
        std::unordered_map<const OutputSection *, OutputSection *> windowAfter;
        for (auto &[kernel, window] : sharedOf_)
            if (auto it = textOf_.find(kernel); it != textOf_.end())
                windowAfter[it->second] = window;
        std::vector<OutputSection *> order;
        order.reserve(ctx_.outputs.size());
        for (OutputSection *o : ctx_.outputs) {
            if (o->kind == SectionKind::SharedEntry && o->owner && textOf_.count(o->owner))
                continue;
            order.push_back(o);
            if (auto it = windowAfter.find(o); it != windowAfter.end())
                order.push_back(it->second);
        }
        ctx_.outputs = std::move(order);
    }

    uint64_t reservedSize() const {
        return ctx_.opts.disableSmemReservation ? 0 : ctx_.target.reservedSharedMemory();
    }

    void setWindowSize(KernelInfo &kernel, uint64_t end) {
        uint64_t reserved = reservedSize();
        OutputSection *out = sharedSectionOf(*kernel.symbol);
        // A kernel without static shared memory gets a window where extern
        // arrays are used and its alignment is 16: one using them itself
        // (aligned to 16 for them), and every kernel while module variables
        // aligned to 16 stay coloured (generated seed 101535, sm_75-sm_120:
        // kernels of no shared memory, the device runtime's too; at 8 or
        // below they get none). A window an input brings holding nothing
        // (one an -r link made) goes otherwise (the library set's CUB
        // kernels, two-step, sm_90 and sm_100).
        if (end == 0 && !getsEmptyWindow(kernel)) {
            if (out)
                out->dropped = true;
            return;
        }
        if (!out)
            out = sharedOf_[kernel.symbol] = makeSharedSection(*kernel.symbol);
        out->size = end + reserved;
        out->holdsVariables = end > 0;
        // The window's alignment is what its variables need; the input
        // section's own (ptxas may write 8 for a 1-byte array) is not kept.
        out->addralign = kernel.align;
    }

    // Whether a kernel without static shared memory gets a window: where
    // extern arrays are used and its alignment is 16, or more where the
    // plugin says so (sm_90: every kernel beside wide coloured variables;
    // elsewhere none there, the arrays' users neither; corpus 188).
    bool getsEmptyWindow(const KernelInfo &kernel) const {
        if (!usesExtern_ || kernel.align < 16)
            return false;
        return kernel.align == 16 || ctx_.target.wideEmptyWindows();
    }

    // Window contents are recorded only for the link map (MapFile.cpp).
    bool wantsMap() const { return ctx_.opts.printMap || !ctx_.opts.mapFile.empty(); }

    // What sits in the kernel's window, for the link map: the coloured
    // module variables it reaches, its own (and moved) ones, the extern
    // arrays of the functions it reaches, the reserved region.
    void recordWindowContents(const KernelInfo &kernel) {
        OutputSection *window = sharedSectionOf(*kernel.symbol);
        if (!window)
            return;
        std::vector<OutputSection::WindowEntry> entries;
        std::unordered_set<const Symbol *> seen;
        auto add = [&](const Symbol *s, uint64_t offset) {
            if (seen.insert(s).second)
                entries.push_back({s, offset});
        };
        for (Symbol *f : kernel.reached)
            if (auto it = uses_.find(f); it != uses_.end())
                for (Symbol *s : it->second)
                    if (coloured_.count(s))
                        add(s, s->finalValue);
        for (Symbol *v : kernel.ownVars)
            add(v, v->finalValue);
        for (Symbol *f : kernel.externUsers)
            for (Symbol *s : uses_[f])
                if (!s->section)
                    add(s, ctx_.externSharedOffsets[f]);
        sortWindow(entries);
        if (reservedSize())
            entries.push_back({nullptr, window->size - reservedSize()});
        window->windowContents = std::move(entries);
    }

    // Under -g, what the debugger's module-shared section spans (link map).
    void recordModuleSharedContents() {
        std::vector<OutputSection::WindowEntry> entries;
        for (const Symbol *s : coloured_)
            entries.push_back({s, s->finalValue});
        sortWindow(entries);
        if (reservedSize())
            entries.push_back({nullptr, colouredEnd_});
        moduleShared_->windowContents = std::move(entries);
    }

    static void sortWindow(std::vector<OutputSection::WindowEntry> &entries) {
        // Offset, then name, then where defined: the same for the same link.
        auto key = [](const OutputSection::WindowEntry &e) {
            return std::make_tuple(e.offset, e.variable->name,
                                   e.variable->file ? e.variable->file->order() : 0,
                                   e.variable->inputIndex);
        };
        std::sort(entries.begin(), entries.end(),
                  [&](const auto &a, const auto &b) { return key(a) < key(b); });
    }

    // The kernel's window, made now if it has none yet.
    OutputSection *windowFor(const KernelInfo &kernel) {
        OutputSection *out = sharedSectionOf(*kernel.symbol);
        return out ? out : sharedOf_[kernel.symbol] = makeSharedSection(*kernel.symbol);
    }

    OutputSection *sharedSectionOf(const Symbol &kernel) const {
        auto it = sharedOf_.find(&kernel);
        return it == sharedOf_.end() ? nullptr : it->second;
    }

    OutputSection *makeSharedSection(Symbol &kernel) {
        OutputSection *out = ctx_.makeOutput(".nv.shared." + std::string(kernel.name),
                                             madeSharedSectionType(ctx_),
                                             SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK);
        out->kind = SectionKind::SharedEntry;
        out->owner = &kernel;
        out->addralign = 4;
        out->infoSection = textOf_.at(&kernel);
        return out;
    }

    struct PairHash {
        size_t operator()(const std::pair<Symbol *, Symbol *> &p) const {
            return std::hash<Symbol *>()(p.first) * 31 + std::hash<Symbol *>()(p.second);
        }
    };

    Context &ctx_;
    std::unordered_set<Symbol *> seen_;
    std::vector<Symbol *> moduleVars_;
    std::unordered_map<Symbol *, std::vector<Symbol *>> ownVarsOf_;
    std::unordered_map<Symbol *, std::vector<Symbol *>> uses_;
    std::unordered_set<std::pair<Symbol *, Symbol *>, PairHash> usesSeen_;
    std::unordered_set<Symbol *> referenced_; // by some input code, live or not
    std::vector<KernelInfo> kernels_;
    std::unordered_map<Symbol *, KernelSet> kernelsOf_;
    std::unordered_map<Symbol *, size_t> lastKernelOf_;
    std::unordered_set<Symbol *> coloured_;
    OutputSection *moduleShared_ = nullptr;
    uint64_t inputModuleAlign_ = 1; // inputModuleSharedAlign(), once
    bool usesExtern_ = false;       // anyInputUsesExternShared(), once
    uint64_t colouredWindowAlign_ = 1; // every window's, while module variables stay coloured
    bool wideColoured_ = false;        // coloured variables aligned to 32+ beside extern arrays
    uint64_t colouredEnd_ = 0;
    std::unordered_map<const Symbol *, OutputSection *> sharedOf_, textOf_;
};

void assignDataValues(Context &ctx) {
    // A relocatable link leaves shared memory to the final link: a shared
    // variable keeps its input value, which is its alignment, wherever its
    // section lands (nvlink 13.0 resolves the code's references with it
    // too: a second unit's `__shared__ int sd[24]` reads 0x4, not 0x24;
    // sm_89, sm_90). A variable still undefined reads -1 there (nvlink
    // 13.0, sm_75-sm_121: extern __device__ and __constant__ alike;
    // reportUndefined refuses the targets where that is not measured).
    // The device runtime's .nv.ptx.const0.size stays there too, as a CUDA
    // object holding the size its references are patched with (-1 without
    // __constant__ data, as an undefined variable; sm_89-sm_120).
    bool relocatable = ctx.opts.relocatable;
    bool minusOne = relocatable && ctx.target.undefinedDataMinusOne();
    uint64_t const0 = ptxConst0Size(ctx);
    auto assign = [relocatable, minusOne, const0](Symbol *s) {
        if (!s || (isSharedSection(s->section) && !relocatable))
            return;
        if (minusOne && isUndefinedVariable(*s)) {
            s->finalValue = UINT64_MAX;
            return;
        }
        if (relocatable && isPtxConst0Size(*s)) {
            s->finalValue = const0 == 0xFFFFFFFFu ? UINT64_MAX : const0;
            s->type = STT_CUDA_OBJECT;
            return;
        }
        bool placed = s->section && s->section->out && !isSharedSection(s->section);
        s->finalValue = placed ? s->section->outOffset + s->value : s->value;
    };
    for (Symbol *s : ctx.symtab.globals())
        assign(s);
    for (auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && s->isLocal)
                assign(s);
}

} // namespace

uint64_t ptxConst0Size(const Context &ctx) {
    for (const OutputSection *out : ctx.outputs)
        if (out->kind == SectionKind::ConstantBank && out->bank == ctx.target.userConstantBank())
            return out->size;
    return 0xFFFFFFFFu;
}

namespace {

// Static shared memory a kernel may use (its window without the reserved
// part): 48 KiB on every arch tried (sm_75-sm_90); more needs dynamic shared
// memory. A kernel can exceed it only through the arrays of functions of
// other units, so nvlink checks after layout (exit 255), kernels in code
// order.
constexpr uint64_t kMaxStaticShared = 0xC000;

void checkSharedLimits(const Context &ctx) {
    uint64_t reserved = ctx.opts.disableSmemReservation ? 0 : ctx.target.reservedSharedMemory();
    bool failed = false;
    for (const OutputSection *window : ctx.outputs) {
        if (window->kind != SectionKind::SharedEntry || !window->owner ||
            window->size <= reserved + kMaxStaticShared)
            continue;
        Diagnostics::get().error("Entry function '" + std::string(window->owner->name) +
                                 "' uses too much shared data (" + hex(window->size - reserved) +
                                 " bytes, " + hex(kMaxStaticShared) + " max)");
        failed = true;
    }
    if (failed)
        throw ErrorsReported();
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
    layOutReservedShared(ctx);
    SharedLayout(ctx).run();
    checkSharedLimits(ctx);
}

} // namespace culd
