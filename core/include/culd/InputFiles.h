// Input files: a relocatable cubin, mapped and parsed once. The file keeps
// its mapping alive for the whole link; sections and symbol names are views
// into it.
#pragma once

#include "culd/ElfFile.h"
#include "culd/MappedFile.h"
#include "culd/Sections.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace culd {

struct Context;
struct Symbol;

class ObjectFile {
public:
    // Maps and parses the cubin at `path` (messages call it by that path).
    // Throws FatalError.
    static std::unique_ptr<ObjectFile> open(const std::string &path, uint32_t order);

    // A cubin held by `bytes` (an archive member's view, a decompressed
    // fatbin entry); `name` is what messages call it, e.g. "libx.a:a.o".
    static std::unique_ptr<ObjectFile> fromBytes(std::unique_ptr<MappedFile> bytes,
                                                 std::string name, uint32_t order);

    const std::string &name() const { return name_; }
    uint32_t order() const { return order_; }
    const ElfFile &elf() const { return elf_; }
    uint32_t sm() const { return sm_; }

    // A cubin made for another SM of the target's family whose fatbin also
    // holds PTX the target's ptxas compiles: culd links that PTX instead
    // where the target would regenerate some of this code (CrossTarget.cpp).
    bool ptxAlternative = false;

    // Input sections by ELF index (nullptr for sections the linker rebuilds
    // or ignores).
    std::vector<InputSection *> sections;
    // Symbols by .symtab index: globals point into the SymbolTable, locals
    // are this file's own.
    std::vector<Symbol *> symbols;
    // Relocation sections with their (live) target.
    std::vector<std::pair<const ElfSection *, InputSection *>> relocSections;
    // The Mercury shadow set (sm_100+): its symbol table, which mirrors
    // .symtab entry for entry (MercurySet.cpp checks it), and its
    // relocation sections with their target (a Mercury section).
    const ElfSection *mercurySymtab = nullptr;
    std::vector<ElfSymbol> mercurySymbols;
    std::vector<std::pair<const ElfSection *, InputSection *>> mercuryRelocSections;

    InputSection *makeSection(const ElfSection &header, SectionKind kind);

private:
    ObjectFile() = default;
    static void checkSharedSymbols(const ObjectFile &file);

    std::string name_;
    void checkModelled() const;

    uint32_t order_ = 0;
    std::unique_ptr<MappedFile> map_;
    ElfFile elf_;
    uint32_t sm_ = 0;
    std::deque<InputSection> sectionArena_;
};

// Shared memory is addressed with 32 bits: no variable can be larger.
constexpr uint64_t kMaxSharedVariableSize = uint64_t(1) << 32;

// The SM an input cubin was built for, from e_flags (both encodings).
uint32_t cubinSm(const ElfHeader &header);

// Classifies a section by name and type, as nvlink does.
SectionKind classifySection(const ElfSection &section, uint32_t *bank);


} // namespace culd
