// Per-function compiler constant banks of device functions.
//
// ptxas puts a function's own compiler constants (switch jump tables, the
// math library's coefficient tables: `.nv.constant2.<f>`, the OCG bank) in a
// section of its own. The driver only loads per-kernel banks, so nvlink
// copies a device function's constants into the bank of every kernel that
// reaches it. The code of the function is shared by those kernels, so its
// constants must sit at the same offset in each of their banks. nvlink
// (measured, docs/nvlink-findings.md "Device-function constant banks"):
//
//   1. each kernel's own `.nv.constant<N>.<k>` starts its bank at offset 0;
//   2. the device functions' sections are then placed one by one, in
//      reverse input order (last file first, last section first), each at
//      the largest end so far of the banks of the kernels that reach it,
//      aligned; those banks grow to its end. Functions no common kernel
//      reaches may overlap (two kernels' banks then have holes);
//   3. a kernel reaches what it calls, directly or through an indirect call
//      to an address-taken function of the call's prototype, transitively;
//   4. a kernel that had no bank of its own gets `.nv.constant<N>.<k>`.
// Relocations into a function's constants (R_CUDA_CONST_FIELD*) then
// resolve to that one offset. A section no live kernel reaches is written
// nowhere, its relocations resolved as if it were at offset 0.
#include "culd/Align.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <map>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

class FunctionBankLayout {
public:
    explicit FunctionBankLayout(Context &ctx) : ctx_(ctx) {}

    void run() {
        refuseLostCopyBanks();
        collectSections();
        if (sections_.empty())
            return;
        refuseRelocatedConstants();
        indexKernelBanks();
        for (Symbol *kernel : kernels_)
            markReached(kernel);
        for (auto it = sections_.rbegin(); it != sections_.rend(); ++it)
            place(**it);
    }

private:
    // A weak copy that lost to an earlier definition takes its constant
    // bank along on sm_90+. nvlink 13.0 up to sm_89 keeps it as long as the
    // copy it lost to stays (a later definition replacing that one takes
    // both banks along): after the winner's bank in the kernels that reach
    // the function when the winner has one, else as a section of its own.
    // The copy it lost to stays when the final definition comes from an
    // earlier input: only a later one can have replaced it.
    void refuseLostCopyBanks() const {
        if (ctx_.target.lostCopyBanksDropped())
            return;
        for (auto &file : ctx_.files)
            for (const InputSection *s : file->sections)
                if (s && s->kind == SectionKind::ConstantEntry && s->owner &&
                    !s->owner->isEntry() && s->text && s->text->lostToEarlier &&
                    s->owner->file && s->owner->file->order() < file->order())
                    throw FatalError(file->name() + ": section '" + std::string(s->name()) +
                                     "', the constant bank of a weak copy of '" +
                                     demangleForMessage(s->owner->name) +
                                     "' that lost to an earlier definition, is kept by nvlink on " +
                                     ctx_.target.name() + " in a way culd does not model");
    }

    // Live device functions' per-function constant sections, in input order.
    void collectSections() {
        for (auto &file : ctx_.files)
            for (InputSection *s : file->sections)
                if (s && isFunctionConstants(*s)) {
                    sections_.push_back(s);
                    byFunction_[s->owner].push_back(s);
                }
    }

    // The copies would each need their own patch: nvlink duplicates such
    // relocations; culd does not model that yet and says so.
    void refuseRelocatedConstants() const {
        for (auto &file : ctx_.files)
            for (auto &[relocHeader, target] : file->relocSections)
                if (target && isFunctionConstants(*target) && relocHeader->size)
                    throw FatalError(file->name() + ": section '" +
                                     std::string(relocHeader->name) +
                                     "': relocations inside a device function's constant bank "
                                     "are not supported yet");
    }

    // Each live kernel's own banks, and the kernels in input order.
    void indexKernelBanks() {
        for (OutputSection *out : ctx_.outputs)
            if (out->kind == SectionKind::ConstantEntry && out->owner && out->owner->isEntry())
                banks_[{out->owner, out->bank}] = out;
        for (auto &file : ctx_.files)
            for (Symbol *s : file->symbols)
                if (s && s->file == file.get() && s->isEntry() && s->defined && s->live &&
                    s->section && s->section->isLive() && s->section->out &&
                    seenKernels_.insert(s).second)
                    kernels_.push_back(s);
    }

    void markReached(Symbol *kernel) {
        ++stamp_;
        std::vector<Symbol *> work{kernel};
        auto push = [&](Symbol *f) {
            uint32_t &mark = visited_[f];
            if (mark != stamp_) {
                mark = stamp_;
                work.push_back(f);
            }
        };
        visited_[kernel] = stamp_;
        while (!work.empty()) {
            Symbol *f = work.back();
            work.pop_back();
            auto own = byFunction_.find(f);
            if (own != byFunction_.end())
                for (InputSection *s : own->second)
                    reachers_[s].push_back(kernel);
            if (!f->func)
                continue;
            for (Symbol *callee : f->func->callees)
                push(callee);
            for (Symbol *callee : f->func->indirectCallees)
                push(callee);
        }
    }

    void place(InputSection &in) {
        const std::vector<Symbol *> &kernels = reachers_[&in];
        if (kernels.empty()) {
            // No bank holds it (an address-taken function nothing calls
            // through its prototype), yet nvlink still patches its code as
            // if its constants were at offset 0.
            in.outOffset = 0;
            return;
        }
        uint64_t offset = 0;
        for (Symbol *k : kernels)
            offset = std::max(offset, bankOf(*k, in).size);
        offset = alignTo(offset, in.alignment());
        for (Symbol *k : kernels) {
            OutputSection &bank = bankOf(*k, in);
            bank.pieces.push_back({&in, offset});
            bank.size = offset + in.size();
            bank.addralign = std::max(bank.addralign, in.alignment());
        }
        in.out = &bankOf(*kernels.front(), in);
        in.outOffset = offset;
        for (size_t k = 1; k < kernels.size(); ++k)
            in.copies.push_back(&bankOf(*kernels[k], in));
    }

    OutputSection &bankOf(Symbol &kernel, const InputSection &in) {
        OutputSection *&bank = banks_[{&kernel, in.bank}];
        if (!bank) {
            bank = ctx_.makeOutput(".nv.constant" + std::to_string(in.bank) + "." +
                                       std::string(kernel.name),
                                   SHT_PROGBITS, in.header->flags);
            bank->kind = SectionKind::ConstantEntry;
            bank->bank = in.bank;
            bank->owner = &kernel;
            bank->entsize = in.header->entsize;
            bank->addralign = in.alignment();
            bank->infoSection = kernel.section->out;
        }
        return *bank;
    }

    bool isFunctionConstants(const InputSection &s) const {
        return s.kind == SectionKind::ConstantEntry && s.owner && !s.owner->isEntry() &&
               s.isLive() && s.owner->live;
    }

    Context &ctx_;
    std::vector<InputSection *> sections_;
    std::unordered_map<Symbol *, std::vector<InputSection *>> byFunction_;
    std::map<std::pair<Symbol *, uint32_t>, OutputSection *> banks_;
    std::vector<Symbol *> kernels_;
    std::unordered_set<Symbol *> seenKernels_;
    std::unordered_map<InputSection *, std::vector<Symbol *>> reachers_;
    std::unordered_map<Symbol *, uint32_t> visited_;
    uint32_t stamp_ = 0;
};

} // namespace

bool isDeviceFunctionConstants(const Context &ctx, const InputSection &s) {
    return !ctx.opts.relocatable && s.kind == SectionKind::ConstantEntry && s.owner &&
           !s.owner->isEntry();
}

void placeFunctionBanks(Context &ctx) {
    if (ctx.opts.relocatable)
        return; // a later link places them
    FunctionBankLayout(ctx).run();
}

} // namespace culd
