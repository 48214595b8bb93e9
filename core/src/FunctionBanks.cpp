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
// A function's bank can hold several input sections (the banks of weak
// copies that lost, kept up to sm_89, keepLostCopyBanks): they stay
// together, in input order, each at its alignment, and are placed where
// the first of them (the final definition's, or the first copy's that
// lost) comes in that reverse order (nvlink 13.0, sm_89: difftest seed
// 60018, four template instances reached by two kernels).
// Relocations into a function's constants (R_CUDA_CONST_FIELD*) then
// resolve to that one offset. A section no live kernel reaches is written
// nowhere, its relocations resolved as if it were at offset 0.
#include "culd/Align.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

class FunctionBankLayout {
public:
    explicit FunctionBankLayout(Context &ctx) : ctx_(ctx) {}

    void run() {
        collectSections();
        if (sections_.empty())
            return;
        refuseRelocatedConstants();
        indexKernelBanks();
        for (Symbol *kernel : kernels_)
            markReached(kernel);
        for (auto it = sections_.rbegin(); it != sections_.rend(); ++it) {
            const std::vector<InputSection *> &unit = units_[{(*it)->owner, (*it)->bank}];
            if (unit.front() == *it)
                place(unit);
        }
    }

private:
    // Live device functions' per-function constant sections, in input order.
    void collectSections() {
        for (auto &file : ctx_.files) {
            std::optional<std::unordered_map<const InputSection *, uint64_t>> symbolsEnd;
            for (InputSection *s : file->sections)
                if (s && isFunctionConstants(*s)) {
                    if (!symbolsEnd)
                        symbolsEnd = endOfSymbols(*file);
                    trimPastSymbols(*s, *symbolsEnd);
                    sections_.push_back(s);
                    byFunction_[s->owner].push_back(s);
                    units_[{s->owner, s->bank}].push_back(s);
                }
        }
    }

    // What an earlier relocatable link appended past a function's own
    // constants (the banks of its weak copies that lost, sm_75-sm_89:
    // LostCopyBanks below) is not copied: nvlink takes the bank only up to
    // the end of its symbols (difftest seed 76003 linked from its -r output
    // on sm_89: 8 of 0x10 bytes). ptxas's banks end with their last symbol
    // (394 of 394 in the fixtures and a generated set).
    static void trimPastSymbols(InputSection &s,
                                const std::unordered_map<const InputSection *, uint64_t> &ends) {
        auto it = ends.find(&s);
        ByteView bytes = s.bytes();
        if (it != ends.end() && it->second < bytes.size && s.rewritten.empty() &&
            !s.records.active)
            s.rewritten.assign(bytes.data, bytes.data + it->second);
    }

    // Where the symbols the file defines in each of its sections end.
    static std::unordered_map<const InputSection *, uint64_t> endOfSymbols(const ObjectFile &file) {
        std::unordered_map<const InputSection *, uint64_t> ends;
        for (const Symbol *sym : file.symbols)
            if (sym && sym->section && sym->section->file == &file && !sym->isSectionSymbol) {
                uint64_t &end = ends[sym->section];
                end = std::max(end, sym->value + sym->size);
            }
        return ends;
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

    // A function's bank: its sections one after the other, from the
    // largest end so far of the banks of the kernels that reach it.
    void place(const std::vector<InputSection *> &unit) {
        const std::vector<Symbol *> &kernels = reachers_[unit.front()];
        // No bank holds it (an address-taken function nothing calls through
        // its prototype), yet nvlink still patches its code as if its
        // constants were at offset 0.
        uint64_t offset = 0;
        for (Symbol *k : kernels)
            offset = std::max(offset, bankOf(*k, *unit.front()).size);
        for (InputSection *in : unit) {
            offset = alignTo(offset, in->alignment());
            in->outOffset = offset;
            offset += in->linkedSize();
            if (kernels.empty())
                continue;
            for (Symbol *k : kernels) {
                OutputSection &bank = bankOf(*k, *in);
                bank.pieces.push_back({in, in->outOffset});
                bank.size = offset;
                bank.addralign = std::max(bank.addralign, in->alignment());
            }
            in->out = &bankOf(*kernels.front(), *in);
            for (size_t k = 1; k < kernels.size(); ++k)
                in->copies.push_back(&bankOf(*kernels[k], *in));
        }
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
               !s.standsAlone && s.isLive() && s.owner->live;
    }

    Context &ctx_;
    std::vector<InputSection *> sections_;
    std::unordered_map<Symbol *, std::vector<InputSection *>> byFunction_;
    // A function's sections of one bank, in input order.
    std::map<std::pair<Symbol *, uint32_t>, std::vector<InputSection *>> units_;
    std::map<std::pair<Symbol *, uint32_t>, OutputSection *> banks_;
    std::vector<Symbol *> kernels_;
    std::unordered_set<Symbol *> seenKernels_;
    std::unordered_map<InputSection *, std::vector<Symbol *>> reachers_;
    std::unordered_map<Symbol *, uint32_t> visited_;
    uint32_t stamp_ = 0;
};

// The constant banks of weak copies that lost to an earlier definition.
// sm_90+ drop them with the copy. nvlink 13.0 up to sm_89 (measured,
// docs/nvlink-findings.md "Weak definitions") treats a device function's
// bank as one section that each definition read appends its bank to, in
// input order, a definition that replaces the current one emptying it
// first. So what stays is the final definition's bank, then the banks of
// the copies that lost to it. Opened by a definition that won when read,
// that section is the function's bank, copied into the kernels that reach
// it -- even once the definition that opened it was replaced by one without
// a bank; opened by a copy that lost, it stands alone (.nv.constant<N>.<f>,
// sh_info the function's code). Histories not measured are refused.
class LostCopyBanks {
public:
    explicit LostCopyBanks(Context &ctx) : ctx_(ctx) {}

    void run() {
        collect();

        for (const auto &[f, bank] : functionBanks_)
            replay(*f, bank);
    }

private:
    enum class Opened { No, ByWinner, ByLoser };

    // Each function's copies (their code) and the banks they carry: a
    // device function's, and a kernel's other than its parameters' (bank 0
    // stays the final definition's alone).
    void collect() {
        for (auto &file : ctx_.files)
            for (InputSection *s : file->sections) {
                if (!s || !s->owner)
                    continue;
                if (s->kind == SectionKind::Text)
                    copies_[s->owner].push_back(s);
                else if (s->kind == SectionKind::ConstantEntry && s->text &&
                         !(s->owner->isEntry() && s->bank == 0)) {
                    banks_[s->text].push_back(s);
                    if (seen_.insert({s->owner, s->bank}).second)
                        functionBanks_.emplace_back(s->owner, s->bank);
                }
            }
    }

    // The function's bank section as nvlink builds it: who opened it, and
    // the banks it holds.
    struct History {
        Opened opened = Opened::No;
        std::vector<InputSection *> kept;
    };

    void replay(Symbol &f, uint32_t bank) {
        History h;
        for (InputSection *code : copies_[&f])
            read(f, bank, *code, h);
        if (ctx_.opts.relocatable)
            refuseRelocatable(f, h);
        for (InputSection *b : h.kept)
            if (b->text->lostToEarlier)
                keep(f, *b, h.opened == Opened::ByLoser);
    }

    // One definition read: a replacing one empties the section first, then
    // any definition appends its bank.
    void read(const Symbol &f, uint32_t bank, const InputSection &code, History &h) {
        bool won = !code.lostToEarlier;
        if (won && code.replacedCopy) {
            if (h.opened == Opened::ByLoser && !h.kept.empty())
                refuse(f, *h.kept.front(), "a later definition replaces the one it lost to");
            h.kept.clear();
        }
        for (InputSection *b : banks_[&code]) {
            if (b->bank != bank)
                continue;
            if (h.opened == Opened::No)
                h.opened = won ? Opened::ByWinner : Opened::ByLoser;
            else if (won && h.opened == Opened::ByLoser)
                refuse(f, *b, "a later definition with a bank of its own replaces the "
                              "one a copy with a bank lost to");
            h.kept.push_back(b);
        }
    }

    void refuseRelocatable(const Symbol &f, const History &h) const {
        // Emptied by a definition without a bank and never refilled, the
        // section is deleted while still referred to: nvlink fails so.
        if (h.opened != Opened::No && h.kept.empty())
            throw FatalError((f.file ? f.file->name() + ": '" : std::string("'")) +
                             demangleForMessage(f.name) +
                             "' replaces a weak copy with a constant bank by one without: "
                             "nvlink 13.0 fails such a relocatable link on " +
                             ctx_.target.name() +
                             " (Internal error: reference to deleted section)");
        // A replaced copy's bank symbols stay, pointing into the bank that
        // stays (keepDroppedCopiesBankSymbols).
    }

    void keep(Symbol &f, InputSection &bank, bool alone) {
        if (hasRelocations(bank))
            refuse(f, bank, "it has relocations");
        bank.text = f.section;
        bank.keptLostBank = true;
        bank.standsAlone = alone;
    }

    [[noreturn]] void refuse(const Symbol &f, const InputSection &bank,
                             const std::string &why) const {
        throw FatalError(bank.file->name() + ": section '" + std::string(bank.name()) +
                         "', the constant bank of a weak copy of '" + demangleForMessage(f.name) +
                         "' that lost to an earlier definition, is kept by nvlink on " +
                         ctx_.target.name() + " in a way culd does not model (" + why + ")");
    }

    Context &ctx_;
    std::unordered_map<Symbol *, std::vector<InputSection *>> copies_;
    std::unordered_map<const InputSection *, std::vector<InputSection *>> banks_;
    // (function, bank number) pairs in input order.
    std::vector<std::pair<Symbol *, uint32_t>> functionBanks_;
    std::set<std::pair<Symbol *, uint32_t>> seen_;
};

// Under -r, where the banks of lost copies are kept (sm_75-sm_89), the
// symbols of a copy's bank that does not reach the output stay, at their
// input values and in their input's symbol order, pointing into the bank of
// the same function and number that does: a weak kernel copy that lost
// keeps its `_param` in the winner's parameter bank (every -r link of a
// matrix of weak template kernels with a losing copy; corpus 145), a
// replaced copy of a function its `const_opt` symbols, past the end of the
// bank that stays (_Z4picki.const_opt.8.16 in an 8-byte bank; corpus 146).
void keepDroppedCopiesBankSymbols(Context &ctx) {
    std::map<std::pair<const Symbol *, uint32_t>, OutputSection *> placed;
    for (auto &file : ctx.files)
        for (const InputSection *s : file->sections)
            if (s && s->kind == SectionKind::ConstantEntry && s->owner && s->isLive() && s->out)
                placed.emplace(std::make_pair(s->owner, s->bank), s->out);
    for (auto &file : ctx.files)
        for (Symbol *sym : file->symbols) {
            const InputSection *bank = sym ? sym->section : nullptr;
            if (!bank || !sym->isLocal || sym->isSectionSymbol ||
                bank->kind != SectionKind::ConstantEntry || !bank->owner || bank->out ||
                bank->file != file.get() || !bank->text ||
                !(bank->text->lostToEarlier || bank->text->replacedLater))
                continue;
            if (auto it = placed.find({bank->owner, bank->bank}); it != placed.end())
                sym->outSection = it->second;
        }
}

} // namespace

bool isDeviceFunctionConstants(const Context &ctx, const InputSection &s) {
    return !ctx.opts.relocatable && s.kind == SectionKind::ConstantEntry && s.owner &&
           !s.owner->isEntry() && !s.standsAlone;
}

void keepLostCopyBanks(Context &ctx) {
    if (!ctx.target.lostCopyBanksDropped())
        LostCopyBanks(ctx).run();
}

void placeFunctionBanks(Context &ctx) {
    if (ctx.opts.relocatable) {
        // A later link places them; the symbols of dropped copies' banks
        // stay where the kept banks of lost copies do.
        if (!ctx.target.lostCopyBanksDropped())
            keepDroppedCopiesBankSymbols(ctx);
        return;
    }
    FunctionBankLayout(ctx).run();
}

} // namespace culd
