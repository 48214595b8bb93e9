// -Map=FILE / --print-map: the link map, modelled on lld's (MapFile.cpp
// there) and adapted to cubins. A cubin has no load addresses (every
// section sits at address 0 and code is addressed within its own section),
// so a section line gives its place in the file, and the input and symbol
// lines below it give offsets within that section -- the values the
// cubin's symbols have. Written after the cubin, from the final layout:
//
//   Idx   Offset     Size Align Type         Out     In      Symbol
//    12      5c0       80   128 PROGBITS     .text._Z3topPi
//              0       80   128                      a.cubin:(.text._Z3topPi)
//              0       80                                    top(int*) (_Z3topPi)
//                                                    kernel: 16 registers, ...
//
// Sections come in file order, inputs in placement order, symbols by
// value then name: the map is the same for the same link.
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/KernelResources.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace culd {

namespace {

using namespace elf;

std::string sectionTypeText(uint32_t type) {
    switch (type) {
    case SHT_PROGBITS: return "PROGBITS";
    case SHT_SYMTAB: return "SYMTAB";
    case SHT_STRTAB: return "STRTAB";
    case SHT_RELA: return "RELA";
    case SHT_NOTE: return "NOTE";
    case SHT_NOBITS: return "NOBITS";
    case SHT_REL: return "REL";
    case SHT_SYMTAB_SHNDX: return "SYMTAB_SHNDX";
    case SHT_CUDA_INFO: return "CUDA_INFO";
    case SHT_CUDA_CALLGRAPH: return "CUDA_CALLGRAPH";
    case SHT_CUDA_PROTOTYPE: return "CUDA_PROTOTYPE";
    case SHT_CUDA_RESOLVED_RELA: return "CUDA_RESOLVED_RELA";
    case SHT_CUDA_GLOBAL: return "CUDA_GLOBAL";
    case SHT_CUDA_GLOBAL_INIT: return "CUDA_GLOBAL_INIT";
    case SHT_CUDA_LOCAL: return "CUDA_LOCAL";
    case SHT_CUDA_SHARED: return "CUDA_SHARED";
    case SHT_CUDA_RELOCINFO: return "CUDA_RELOCINFO";
    case SHT_CUDA_SHARED_RESERVED: return "CUDA_SHARED_RESERVED";
    case SHT_CUDA_COMPAT: return "CUDA_COMPAT";
    default: break;
    }
    // The constant banks: one type per bank.
    if (type >= SHT_CUDA_CONSTANT0 && type < SHT_CUDA_CONSTANT0 + 18)
        return "CUDA_CONSTANT" + std::to_string(type - SHT_CUDA_CONSTANT0);
    return hex(type);
}

// Hex without "0x", as lld's map writes addresses.
std::string plainHex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%" PRIx64, v);
    return buf;
}

// The four number columns and the type column; blanks where a line has no
// such value.
std::string columns(const std::string &idx, const std::string &offset, const std::string &size,
                    const std::string &align, const std::string &type) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%4s %8s %8s %5s %-20s ", idx.c_str(), offset.c_str(),
                  size.c_str(), align.c_str(), type.c_str());
    return buf;
}

// Bytes the section takes: its memory size for NOBITS, its pieces' extent,
// or what the linker synthesised.
uint64_t sectionSize(const OutputSection &o) {
    if (o.isNobits() || !o.pieces.empty())
        return o.size;
    return o.synthetic.size();
}

// Defined symbols the cubin keeps, by the input section that holds them.
std::unordered_map<const InputSection *, std::vector<const Symbol *>>
symbolsByInputSection(const Context &ctx) {
    std::unordered_map<const InputSection *, std::vector<const Symbol *>> out;
    for (const auto &file : ctx.files)
        for (const Symbol *s : file->symbols)
            if (s && s->defined && s->emitted && !s->isSectionSymbol && s->section &&
                s->section->file == file.get() && s->type != STT_SECTION &&
                s->section->isLive())
                out[s->section].push_back(s);
    for (auto &[section, symbols] : out)
        std::sort(symbols.begin(), symbols.end(), [](const Symbol *a, const Symbol *b) {
            if (a->finalValue != b->finalValue)
                return a->finalValue < b->finalValue;
            return a->name < b->name;
        });
    return out;
}

// The kernel's own constant banks past cmem[0] (those placeFunctionBanks
// made for the device functions it reaches, say), in bank order.
std::string otherConstantBanks(const Context &ctx, const Symbol &kernel) {
    std::map<uint32_t, uint64_t> banks;
    for (const OutputSection *o : ctx.outputs)
        if (o->index && o->kind == SectionKind::ConstantEntry && o->owner == &kernel && o->bank)
            banks[o->bank] += o->size;
    std::string text;
    for (const auto &[bank, bytes] : banks)
        text += ", " + std::to_string(bytes) + " bytes cmem[" + std::to_string(bank) + "]";
    return text;
}

std::string kernelLine(const Context &ctx, const Symbol &kernel) {
    KernelResources r = kernelResources(ctx, kernel);
    return "kernel: " + std::to_string(r.registers) + " registers, " +
           std::to_string(r.barriers) + " barriers, " + std::to_string(r.stack) +
           " bytes stack, " + std::to_string(r.sharedBytes) + " bytes smem, " +
           std::to_string(r.constantBytes) + " bytes cmem[0]" + otherConstantBanks(ctx, kernel) +
           ", " + std::to_string(r.localBytes) + " bytes lmem";
}

// A shared window (a kernel's, or module shared kept for the debugger):
// each variable as its own input piece, for the layout places variables,
// not sections; then the reserved region.
void writeWindow(std::ostream &os, const OutputSection &o) {
    const uint64_t size = o.size;
    for (const OutputSection::WindowEntry &e : o.windowContents) {
        if (!e.variable) {
            os << columns("", plainHex(e.offset), plainHex(size - e.offset), "", "")
               << "        <internal>:(reserved shared memory)\n";
            continue;
        }
        const Symbol &v = *e.variable;
        std::string input = v.section ? v.section->file->name() + ":(" +
                                             std::string(v.section->name()) + ")"
                                       : (v.file ? v.file->name() : std::string("<none>")) +
                                             ":(extern __shared__)";
        os << columns("", plainHex(e.offset), plainHex(v.size),
                      v.section ? std::to_string(v.section->alignment()) : "", "")
           << "        " << input << '\n';
        os << columns("", plainHex(e.offset), plainHex(v.size), "", "") << "                "
           << describeSymbolName(v.name) << '\n';
    }
}

void writeSection(std::ostream &os, const Context &ctx, const OutputSection &o,
                  const std::unordered_map<const InputSection *, std::vector<const Symbol *>> &syms) {
    uint64_t size = sectionSize(o);
    os << columns(std::to_string(o.index), plainHex(o.fileOffset), plainHex(size),
                  std::to_string(o.addralign), sectionTypeText(o.type))
       << o.name << '\n';
    std::string blankType = columns("", "", "", "", "");
    if (o.isSharedMemory() && !ctx.opts.relocatable) {
        writeWindow(os, o);
        return;
    }
    if (o.pieces.empty() && size) {
        // Made by the linker (tables, merged metadata, relocations).
        os << columns("", "0", plainHex(size), "", "") << "        <internal>:(" << o.name << ")\n";
    }
    for (const SectionPiece &p : o.pieces) {
        const InputSection &in = *p.input;
        os << columns("", plainHex(p.offset), plainHex(in.size()), std::to_string(in.alignment()), "")
           << "        " << in.file->name() << ":(" << in.name() << ")\n";
        auto it = syms.find(&in);
        if (it == syms.end())
            continue;
        for (const Symbol *s : it->second)
            os << columns("", plainHex(s->finalValue), plainHex(s->size), "", "") << "                "
               << describeSymbolName(s->name) << '\n';
    }
    if (o.kind == SectionKind::Text && o.owner && o.owner->isEntry())
        os << blankType << "        " << kernelLine(ctx, *o.owner) << '\n';
}

void writeMap(std::ostream &os, const Context &ctx) {
    std::vector<const OutputSection *> sections;
    for (const OutputSection *o : ctx.outputs)
        if (o->index)
            sections.push_back(o);
    std::sort(sections.begin(), sections.end(),
              [](const OutputSection *a, const OutputSection *b) { return a->index < b->index; });
    auto syms = symbolsByInputSection(ctx);
    os << columns("Idx", "Offset", "Size", "Align", "Type") << "Out     In      Symbol\n";
    for (const OutputSection *o : sections)
        writeSection(os, ctx, *o, syms);
}

} // namespace

void writeMapFile(Context &ctx) {
    std::ostringstream text;
    writeMap(text, ctx);
    if (ctx.opts.printMap || ctx.opts.mapFile == "-")
        std::cout << text.str() << std::flush;
    if (ctx.opts.mapFile.empty() || ctx.opts.mapFile == "-")
        return;
    std::ofstream out(ctx.opts.mapFile, std::ios::binary);
    out << text.str();
    if (!out)
        throw FatalError("cannot write map file '" + ctx.opts.mapFile + "'");
}

} // namespace culd
