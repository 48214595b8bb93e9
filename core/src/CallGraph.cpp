// Reads every input's .nv.callgraph and the per-function facts of its
// .nv.info (register count, frame size) into FunctionInfo records.
//
// .nv.callgraph is a list of u32 pairs. A pair {0, marker} starts a group:
//   0xFFFFFFFF direct calls        {caller, callee}
//   0xFFFFFFFE address-taken       {function, prototype id}
//   0xFFFFFFFD indirect call sites {caller, prototype id}
//   0xFFFFFFFC function references {referrer, function}
#include "culd/CallGraph.h"

#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvInfo.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

uint32_t readU32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

Symbol *symbolAt(ObjectFile &file, uint32_t index, std::string_view section) {
    if (index == 0 || index >= file.symbols.size() || !file.symbols[index])
        throw FatalError(file.name() + ": section '" + std::string(section) +
                         "': symbol index " + std::to_string(index) + " out of range");
    return file.symbols[index];
}

FunctionInfo *infoOf(Context &ctx, Symbol *s) {
    if (!s->func)
        s->func = ctx.symtab.makeFunctionInfo();
    return s->func;
}

void addUnique(std::vector<Symbol *> &list, Symbol *s) {
    if (std::find(list.begin(), list.end(), s) == list.end())
        list.push_back(s);
}

// The prototype string a .strtab offset names.
std::string_view prototypeAt(ObjectFile &file, uint32_t offset) {
    const ElfFile &elf = file.elf();
    const ElfSection &symtab = elf.section(elf.symtabIndex());
    return elf.stringAt(elf.section(symtab.link), offset);
}

void readCallgraph(Context &ctx, ObjectFile &file, const InputSection &section) {
    ByteView bytes = section.bytes();
    if (bytes.size % 8)
        throw FatalError(file.name() + ": section '.nv.callgraph': size " +
                         std::to_string(bytes.size) + " is not a multiple of 8");
    CallGraph &cg = ctx.callGraph;
    uint32_t group = 0;
    for (uint64_t off = 0; off < bytes.size; off += 8) {
        uint32_t a = readU32(bytes.data + off), b = readU32(bytes.data + off + 4);
        if (a == 0 && b >= 0xFFFFFFFC) {
            group = b;
            continue;
        }
        if (group == 0)
            throw FatalError(file.name() + ": section '.nv.callgraph': record before any group");
        Symbol *first = symbolAt(file, a, ".nv.callgraph");
        // What a weak copy that lost to an earlier definition calls (or
        // refers to) goes with it (nvlink 13.0: its file's local math slow
        // path stays out of the output). A copy replaced by a later one
        // keeps its calls: nvlink took them when the copy won.
        if (group != 0xFFFFFFFE && lostToEarlierDefinition(file, a, *first))
            continue;
        switch (group) {
        case 0xFFFFFFFF: {
            Symbol *callee = symbolAt(file, b, ".nv.callgraph");
            addUnique(infoOf(ctx, first)->callees, callee);
            infoOf(ctx, callee);
            break;
        }
        case 0xFFFFFFFE:
            infoOf(ctx, first)->addressTaken = true;
            cg.addressTaken.push_back({first, prototypeAt(file, b), &file});
            break;
        case 0xFFFFFFFD:
            cg.indirectCalls.push_back({first, prototypeAt(file, b), &file});
            break;
        case 0xFFFFFFFC: {
            // A referenced function has its address taken (a device-side
            // launch, a pointer in code).
            Symbol *target = symbolAt(file, b, ".nv.callgraph");
            cg.references.push_back({first, target, &file});
            infoOf(ctx, target)->addressTaken = true;
            break;
        }
        }
    }
}

void readPrototypes(Context &ctx, ObjectFile &file, const InputSection &section) {
    ByteView bytes = section.bytes();
    if (bytes.size % 8)
        throw FatalError(file.name() + ": section '.nv.prototype': size " +
                         std::to_string(bytes.size) + " is not a multiple of 8");
    for (uint64_t off = 0; off < bytes.size; off += 8) {
        Symbol *s = symbolAt(file, readU32(bytes.data + off), ".nv.prototype");
        ctx.callGraph.prototypes.push_back({s, prototypeAt(file, readU32(bytes.data + off + 4))});
    }
}

// REGCOUNT and FRAME_SIZE of the functions this file defines (only the
// definition that won resolution counts).
void readFunctionFacts(Context &ctx, ObjectFile &file, const InputSection &section) {
    for (const NvInfoRecord &r : parseNvInfo(section.bytes(), {file.name(), section.name()})) {
        if ((r.code != EIATTR_REGCOUNT && r.code != EIATTR_FRAME_SIZE) || r.wordCount() < 2)
            continue;
        Symbol *s = symbolAt(file, r.word(0), ".nv.info");
        if (s->file != &file || !s->section || !s->section->live)
            continue;
        FunctionInfo *info = infoOf(ctx, s);
        if (r.code == EIATTR_REGCOUNT) {
            info->regCount = r.word(1);
            info->hasRegCount = true;
        } else {
            info->frameSize = r.word(1);
            info->hasFrameSize = true;
        }
    }
}

// Per-function facts kept in .nv.info.<f>.
void readFunctionSectionFacts(Context &ctx, ObjectFile &file, const InputSection &section) {
    if (!section.isLive() || !section.owner)
        return;
    for (const NvInfoRecord &r : parseNvInfo(section.bytes(), {file.name(), section.name()})) {
        if (r.code == EIATTR_CRS_STACK_SIZE && r.wordCount() >= 1) {
            FunctionInfo *info = infoOf(ctx, section.owner);
            info->crsStackSize = r.word(0);
            info->hasCrsStack = true;
        } else if (r.code == EIATTR_MAXREG_COUNT) {
            // The register limit a kernel was compiled under
            // (checkRegisterLimits holds its callees to it).
            FunctionInfo *info = infoOf(ctx, section.owner);
            info->maxRegCount = r.value;
            info->hasMaxRegCount = true;
        } else if (r.code == EIATTR_NUM_BARRIERS) {
            FunctionInfo *info = infoOf(ctx, section.owner);
            info->numBarriers = r.value;
            info->hasNumBarriers = true;
        } else if (r.code == EIATTR_EXTERNS) {
            // Kernels a function names as dependencies (it launches them,
            // or libcudadevrt says so) propagate to the kernels reaching it.
            FunctionInfo *info = infoOf(ctx, section.owner);
            if (!info->hasNumBarriers)
                info->externsBeforeBarriers = true;
            for (size_t i = 0; i < r.wordCount(); ++i) {
                Symbol *s = symbolAt(file, r.word(i), section.name());
                if (s->isEntry())
                    addUnique(info->externKernels, s);
            }
        }
    }
}

// Edges through function pointers: an indirect call through a prototype may
// reach every address-taken function of that prototype. nvlink adds these
// to the caller's "potentially calls" list (--dump-callgraph) and propagates
// registers, stack size, EXTERNS and device-function banks over them like
// over direct calls. Function references (group 0xFFFFFFFC: a vtable a
// constructor installs, a pointer stored, a kernel launched from the device)
// add no edge: the referrer does not call what it names
// (docs/nvlink-findings.md, "Pointer edges").
void linkIndirectCalls(Context &ctx) {
    const CallGraph &cg = ctx.callGraph;
    std::unordered_map<std::string_view, std::vector<Symbol *>> byPrototype;
    std::unordered_set<Symbol *> seen;
    for (const auto &t : cg.addressTaken)
        if (seen.insert(t.symbol).second)
            byPrototype[t.prototype].push_back(t.symbol);
    // A function has one prototype, so distinct prototypes add distinct
    // targets; a caller's prototypes are deduplicated through a set, never
    // by list scans.
    std::set<std::pair<Symbol *, std::string_view>> linked;
    for (const auto &c : cg.indirectCalls) {
        auto targets = byPrototype.find(c.prototype);
        if (targets == byPrototype.end() || !linked.insert({c.symbol, c.prototype}).second)
            continue;
        std::vector<Symbol *> &out = infoOf(ctx, c.symbol)->indirectCallees;
        out.insert(out.end(), targets->second.begin(), targets->second.end());
    }
}

// nvlink's node numbering (CallGraph::functionOrder).
void numberFunctions(Context &ctx) {
    std::unordered_set<Symbol *> numbered;
    for (auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && !s->isSectionSymbol && s->isFunction() && numbered.insert(s).second)
                ctx.callGraph.functionOrder.push_back(s);
}

} // namespace

PotentialCallees::PotentialCallees(const Context &ctx) {
    const CallGraph &cg = ctx.callGraph;
    std::unordered_map<const Symbol *, std::string_view> prototypeOf;
    for (const auto &t : cg.addressTaken)
        prototypeOf.emplace(t.symbol, t.prototype);
    for (Symbol *f : cg.functionOrder) {
        auto it = prototypeOf.find(f);
        if (it != prototypeOf.end())
            takenByPrototype_[it->second].push_back(f);
    }
    for (const auto &c : cg.indirectCalls)
        sites_[c.symbol].push_back(c.prototype);
}

std::vector<Symbol *> PotentialCallees::of(const Symbol &f) const {
    std::vector<Symbol *> read;
    if (f.func)
        read = f.func->callees;
    auto sites = sites_.find(&f);
    if (sites != sites_.end())
        for (auto site = sites->second.rbegin(); site != sites->second.rend(); ++site) {
            auto targets = takenByPrototype_.find(*site);
            if (targets != takenByPrototype_.end())
                read.insert(read.end(), targets->second.begin(), targets->second.end());
        }
    return {read.rbegin(), read.rend()};
}

bool hasOutputCode(const Symbol &f) {
    const InputSection *s = f.section;
    return f.defined && s && s->kind == SectionKind::Text && s->owner == &f && s->isLive();
}

std::vector<Symbol *> functionsInTextOrder(const Context &ctx) {
    std::vector<Symbol *> code;
    for (Symbol *f : ctx.callGraph.functionOrder)
        if (f->func && hasOutputCode(*f))
            code.push_back(f);
    std::sort(code.begin(), code.end(), [](const Symbol *a, const Symbol *b) {
        return std::make_pair(a->file->order(), a->inputIndex) <
               std::make_pair(b->file->order(), b->inputIndex);
    });
    return code;
}

void buildCallGraph(Context &ctx) {
    for (auto &file : ctx.files) {
        for (InputSection *s : file->sections) {
            if (!s)
                continue;
            if (s->kind == SectionKind::Callgraph)
                readCallgraph(ctx, *file, *s);
            else if (s->kind == SectionKind::Prototype)
                readPrototypes(ctx, *file, *s);
            else if (s->kind == SectionKind::NvInfo)
                readFunctionFacts(ctx, *file, *s);
            else if (s->kind == SectionKind::NvInfoFunc)
                readFunctionSectionFacts(ctx, *file, *s);
        }
    }
    for (Symbol *s : ctx.symtab.globals())
        if (s->isFunction() && s->defined)
            infoOf(ctx, s)->isEntry = s->isEntry();
    linkIndirectCalls(ctx);
    numberFunctions(ctx);
}

} // namespace culd
