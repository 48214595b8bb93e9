// Prints one parsed cubin as stable, diffable text (see docs/culd-dump.md).
#pragma once

#include "culd/ElfFile.h"
#include "culd/NvInfo.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

class Plugin;

// Which parts to print.
struct DumpParts {
    bool header = false;
    bool programHeaders = false;
    bool sections = false;
    bool symbols = false;
    bool relocations = false;
    bool nvInfo = false; // .nv.info*, .nv.compat, callgraph, prototype, rel.action
    bool notes = false;
};

class Dumper {
public:
    // `plugin` names relocation types; null prints them as numbers, after
    // `pluginNote` (one line saying why).
    Dumper(const ElfFile &elf, const Plugin *plugin, std::string pluginNote, std::string &out)
        : elf_(elf), plugin_(plugin), pluginNote_(std::move(pluginNote)), out_(out) {}

    void dump(const DumpParts &parts);

private:
    // Dumper.cpp: the plain ELF views.
    void printHeader();
    void printProgramHeaders();
    void printSections();
    void printSymbols();
    void printSymbolTable(const ElfSection &table, const std::vector<ElfSymbol> &symbols);
    void printRelocations();
    void printRelocationSection(const ElfSection &section);

    // DumpMetadata.cpp: CUDA metadata sections.
    void printNvInfoSections();
    void printNvInfo(const ElfSection &section);
    void printCompat(const ElfSection &section);
    void printCallGraph(const ElfSection &section);
    void printPrototypes(const ElfSection &section);
    void printRelAction(const ElfSection &section);
    void printNotes();
    void printNote(const ElfSection &section);
    std::string describeRecord(const NvInfoRecord &record, const ElfSection &section);
    std::string describeSval(const NvInfoRecord &record, const ElfSection &section);

    // Shared helpers.
    std::string relocTypeName(uint32_t type) const;
    std::string sectionLabel(uint32_t index) const;   // "[21] '.text._Z4kernPii'"
    // Symbols of the table `symtabIndex` (the section's sh_link); cached.
    const std::vector<ElfSymbol> &symbolsFor(uint32_t symtabIndex);
    // "21 <_Z4kernPii>" using the table linked from `section`.
    std::string symbolRef(const ElfSection &section, uint32_t index);
    std::string symbolDisplayName(const ElfSymbol &symbol) const;
    // The string table of the symbol table `section` links to (prototype
    // strings live there), or nullptr.
    const ElfSection *stringTableOf(const ElfSection &section) const;
    SectionContext context(const ElfSection &section) const;
    void line(const std::string &text) { out_ += text + '\n'; }

    const ElfFile &elf_;
    const Plugin *plugin_;
    std::string pluginNote_;
    std::string &out_;
    bool pluginNotePrinted_ = false;
    std::map<uint32_t, std::vector<ElfSymbol>> symbolCache_; // stable references
};

} // namespace culd
