// The plain ELF views of culd-dump: header, program headers, sections,
// symbols and relocations, with CUDA meaning added.
#include "Dumper.h"

#include "culd/CubinInfo.h"
#include "culd/PluginRegistry.h"

#include <spdlog/fmt/fmt.h>

namespace culd {

namespace {

constexpr const char *kElfTypes[] = {"ET_NONE", "ET_REL", "ET_EXEC"};
constexpr const char *kProgramTypes[] = {"PT_NULL", "PT_LOAD", "PT_DYNAMIC", "PT_INTERP",
                                         "PT_NOTE", "PT_SHLIB", "PT_PHDR"};

std::string elfTypeName(uint16_t type) {
    if (type < std::size(kElfTypes))
        return kElfTypes[type];
    return fmt::format("{:#x}", type);
}

std::string programTypeName(uint32_t type) {
    if (type < std::size(kProgramTypes))
        return kProgramTypes[type];
    return fmt::format("{:#x}", type);
}

std::string programFlagsText(uint32_t flags) {
    std::string text;
    text += (flags & elf::PF_R) ? 'R' : '-';
    text += (flags & elf::PF_W) ? 'W' : '-';
    text += (flags & elf::PF_X) ? 'X' : '-';
    if (uint32_t rest = flags & ~uint32_t(elf::PF_R | elf::PF_W | elf::PF_X))
        text += fmt::format(" +{:#x}", rest);
    return text;
}

bool isRelocationSection(uint32_t type) {
    return type == elf::SHT_REL || type == elf::SHT_RELA || type == elf::SHT_CUDA_MERC_RELA ||
           type == elf::SHT_CUDA_RESOLVED_RELA;
}

bool isSymbolTable(uint32_t type) {
    return type == elf::SHT_SYMTAB || type == elf::SHT_CUDA_MERC_SYMTAB;
}

std::string shndxText(const ElfSymbol &symbol) {
    switch (symbol.rawShndx) {
    case elf::SHN_UNDEF:
        return "UND";
    case elf::SHN_ABS:
        return "ABS";
    case elf::SHN_COMMON:
        return "COM";
    default:
        return std::to_string(symbol.shndx);
    }
}

// sh_info of code sections may carry the register count in its top byte.
std::string sectionInfoText(const ElfSection &section) {
    uint32_t top = section.info >> 24;
    if (top == 0)
        return std::to_string(section.info);
    if (section.flags & elf::SHF_EXECINSTR)
        return fmt::format("{} regs={}", section.infoIndex(), top);
    return fmt::format("{:#x}", section.info);
}

} // namespace

void Dumper::dump(const DumpParts &parts) {
    line(fmt::format("File: {}", elf_.name()));
    if (parts.header)
        printHeader();
    if (parts.programHeaders)
        printProgramHeaders();
    if (parts.sections)
        printSections();
    if (parts.symbols)
        printSymbols();
    if (parts.relocations)
        printRelocations();
    if (parts.nvInfo)
        printNvInfoSections();
    if (parts.notes)
        printNotes();
}

void Dumper::printHeader() {
    const ElfHeader &h = elf_.header();
    CudaElfFlags flags = decodeElfFlags(h.osabi, h.abiVersion, h.flags);
    line("");
    line("ELF header:");
    line(fmt::format("  Class:       {}", h.elfClass == elf::ELFCLASS64 ? "ELF64" : "ELF32"));
    line(fmt::format("  OS/ABI:      {:#04x}, ABI version {}", h.osabi, h.abiVersion));
    line(fmt::format("  Type:        {}", elfTypeName(h.type)));
    line(fmt::format("  Machine:     {}{}", h.machine,
                     h.machine == elf::EM_CUDA ? " (EM_CUDA)" : ""));
    line(fmt::format("  Version:     {}", h.version));
    line(fmt::format("  Entry:       {:#x}", h.entry));
    line(fmt::format("  Flags:       {:#010x}: {}", h.flags, describeElfFlags(flags)));
    line(fmt::format("  Sections:    {} at {:#x} (entsize {}, e_shnum {}), shstrndx {}", h.shnum,
                     h.shoff, h.shentsize, h.rawShnum, h.shstrndx));
    line(fmt::format("  Segments:    {} at {:#x} (entsize {})", h.phnum, h.phoff, h.phentsize));
    line(fmt::format("  Header size: {}", h.ehsize));
}

void Dumper::printProgramHeaders() {
    const auto &phdrs = elf_.programHeaders();
    line("");
    line(fmt::format("Program headers ({}):", phdrs.size()));
    if (phdrs.empty())
        return;
    line("  Type     Flags Offset     VirtAddr   PhysAddr   FileSize   MemSize    Align");
    for (const ElfProgramHeader &p : phdrs)
        line(fmt::format("  {:<8} {:<5} {:#010x} {:#010x} {:#010x} {:#010x} {:#010x} {}",
                         programTypeName(p.type), programFlagsText(p.flags), p.offset, p.vaddr,
                         p.paddr, p.filesz, p.memsz, p.align));
}

void Dumper::printSections() {
    const auto &sections = elf_.sections();
    line("");
    line(fmt::format("Sections ({}):", sections.size()));
    line("  [Nr] Name                             Type                         "
         "Flags          Offset     Size       Link Info          Align EntSz");
    for (const ElfSection &s : sections)
        line(fmt::format("  [{:>2}] {:<32} {:<28} {:<14} {:#010x} {:#010x} {:>4} {:<13} {:>5} {}",
                         s.index, s.name, sectionTypeName(s.type), sectionFlagsText(s.flags),
                         s.offset, s.size, s.link, sectionInfoText(s), s.addralign, s.entsize));
}

void Dumper::printSymbols() {
    for (const ElfSection &s : elf_.sections()) {
        if (!isSymbolTable(s.type))
            continue;
        if (s.index == elf_.symtabIndex())
            printSymbolTable(s, elf_.symbols());
        else
            printSymbolTable(s, symbolsFor(s.index));
    }
}

void Dumper::printSymbolTable(const ElfSection &table, const std::vector<ElfSymbol> &symbols) {
    line("");
    line(fmt::format("Symbol table {} ({} entries, first non-local {}):", sectionLabel(table.index),
                     symbols.size(), table.info));
    line("   Num Value              Size       Type        Bind   Other                  "
         "Ndx Section                          Name");
    for (const ElfSymbol &sym : symbols) {
        std::string sectionName;
        if (sym.rawShndx != elf::SHN_UNDEF && sym.shndx < elf::SHN_LORESERVE &&
            sym.shndx < elf_.sections().size())
            sectionName = std::string(elf_.section(sym.shndx).name);
        line(fmt::format("  {:>4} {:#018x} {:<10} {:<11} {:<6} {:<20} {:>5} {:<32} {}", sym.index,
                         sym.value, sym.size, symbolTypeName(sym.type()),
                         symbolBindName(sym.bind()), symbolOtherText(sym.other), shndxText(sym),
                         sectionName, sym.name));
    }
}

void Dumper::printRelocations() {
    for (const ElfSection &s : elf_.sections())
        if (isRelocationSection(s.type))
            printRelocationSection(s);
}

void Dumper::printRelocationSection(const ElfSection &section) {
    std::vector<ElfReloc> relocs = elf_.relocations(section);
    line("");
    if (!plugin_ && !pluginNotePrinted_) {
        line("note: " + pluginNote_);
        pluginNotePrinted_ = true;
    }
    line(fmt::format("Relocation section {} {}, applies to {}, symbols {} ({} entries):",
                     sectionLabel(section.index), sectionTypeName(section.type),
                     sectionLabel(section.infoIndex()), sectionLabel(section.link),
                     relocs.size()));
    line("  Offset             Type                              Addend     Symbol");
    for (const ElfReloc &r : relocs)
        line(fmt::format("  {:#018x} {:<33} {:<10} {}", r.offset, relocTypeName(r.type),
                         r.addend < 0 ? fmt::format("-{:#x}", -static_cast<uint64_t>(r.addend))
                                      : fmt::format("{:#x}", r.addend),
                         symbolRef(section, r.symbol)));
}

// ---- Shared helpers ------------------------------------------------------

std::string Dumper::relocTypeName(uint32_t type) const {
    if (plugin_)
        return fmt::format("{} ({:#x})", plugin_->relocName(type), type);
    return fmt::format("type {:#x}", type);
}

std::string Dumper::sectionLabel(uint32_t index) const {
    if (index >= elf_.sections().size())
        return fmt::format("[{}] <out of range>", index);
    return fmt::format("[{}] '{}'", index, elf_.section(index).name);
}

const std::vector<ElfSymbol> &Dumper::symbolsFor(uint32_t symtabIndex) {
    static const std::vector<ElfSymbol> none;
    if (symtabIndex == elf_.symtabIndex() && symtabIndex != 0)
        return elf_.symbols();
    if (symtabIndex == 0 || symtabIndex >= elf_.sections().size() ||
        !isSymbolTable(elf_.section(symtabIndex).type))
        return none;
    auto it = symbolCache_.find(symtabIndex);
    if (it == symbolCache_.end())
        it = symbolCache_.emplace(symtabIndex, elf_.symbolsOf(elf_.section(symtabIndex))).first;
    return it->second;
}

std::string Dumper::symbolDisplayName(const ElfSymbol &symbol) const {
    // Section symbols may be unnamed; show the section they stand for.
    if (symbol.name.empty() && symbol.type() == elf::STT_SECTION &&
        symbol.shndx < elf_.sections().size())
        return std::string(elf_.section(symbol.shndx).name);
    return std::string(symbol.name);
}

std::string Dumper::symbolRef(const ElfSection &section, uint32_t index) {
    const std::vector<ElfSymbol> &symbols = symbolsFor(section.link);
    if (index < symbols.size())
        return fmt::format("{} <{}>", index, symbolDisplayName(symbols[index]));
    return fmt::format("{} <?>", index);
}

SectionContext Dumper::context(const ElfSection &section) const {
    return SectionContext{elf_.name(), section.name};
}

} // namespace culd
