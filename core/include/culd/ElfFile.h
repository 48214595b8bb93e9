// A zero-copy, bounds-checked view of one ELF file (cubin) in memory.
//
// ElfFile never copies section bytes: sections, names and symbol names are
// views into the caller's buffer (usually a MappedFile), which must outlive
// the ElfFile. Every offset, size, index and string is validated in parse();
// a violation throws FatalError("<file name>: <what is wrong>").
#pragma once

#include "culd/Elf.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

// A read-only byte range inside a mapped file.
struct ByteView {
    const uint8_t *data = nullptr;
    uint64_t size = 0;

    bool empty() const { return size == 0; }
    const uint8_t *begin() const { return data; }
    const uint8_t *end() const { return data + size; }
};

// Whether two ranges hold the same bytes.
inline bool sameBytes(ByteView a, ByteView b) {
    return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
}

// Whether a section has bytes in the file. Besides SHT_NOBITS, the CUDA
// memory-space types of relocatable cubins (.nv.global, .nv.shared.*,
// .nv.local.*, .nv.shared.reserved.*) describe memory only: ptxas places them
// at the running file offset without advancing it, and their sh_offset may
// even point at the section header table. Mercury (SHF_CUDA_MERCURY) copies
// of such sections (sm_110 has a shared.reserved one), do occupy
// file bytes.
bool sectionHasFileData(uint32_t type, uint64_t flags);

// The largest sh_addralign a section may have (parse() refuses more).
constexpr uint64_t kMaxSectionAlignment = uint64_t(1) << 24;

struct ElfHeader {
    uint8_t elfClass = 0;    // ELFCLASS32 / ELFCLASS64
    uint8_t osabi = 0;       // 0x41 (CUDA 13) / 0x33 (older)
    uint8_t abiVersion = 0;  // 8 / 7
    uint8_t ident[16] = {};
    uint16_t type = 0;       // ET_REL / ET_EXEC
    uint16_t machine = 0;
    uint32_t version = 0;
    uint64_t entry = 0, phoff = 0, shoff = 0;
    uint32_t flags = 0;
    uint16_t ehsize = 0, phentsize = 0, phnum = 0, shentsize = 0;
    uint32_t shnum = 0;      // real count (from section 0's sh_size when e_shnum == 0)
    uint32_t shstrndx = 0;   // real index (from section 0's sh_link when SHN_XINDEX)
    uint16_t rawShnum = 0, rawShstrndx = 0; // as stored in the header
};

struct ElfSection {
    uint32_t index = 0;
    std::string_view name;
    uint32_t nameOffset = 0; // sh_name
    uint32_t type = 0;
    uint64_t flags = 0;
    uint64_t addr = 0, offset = 0, size = 0;
    uint32_t link = 0;
    uint32_t info = 0;       // raw sh_info (mask with 0xFFFFFF for a section index)
    uint64_t addralign = 0, entsize = 0;
    ByteView data;           // file bytes; empty when !hasFileData()

    bool isNobits() const { return type == elf::SHT_NOBITS; }
    // False for SHT_NOBITS and the CUDA memory-only types (see
    // sectionHasFileData); `data` is empty for those.
    bool hasFileData() const { return sectionHasFileData(type, flags); }
    bool isRelocation() const;   // REL, RELA, Mercury RELA, .nv.resolvedrela
    bool isRela() const;         // entries carry an addend
    bool isSymbolTable() const;  // SHT_SYMTAB or the Mercury symbol table
    // sh_info as a section index (the top byte may hold a register count).
    uint32_t infoIndex() const { return info & 0xFFFFFF; }
};

struct ElfSymbol {
    uint32_t index = 0;
    std::string_view name;
    uint32_t nameOffset = 0;
    uint64_t value = 0, size = 0;
    uint8_t info = 0, other = 0;
    uint16_t rawShndx = 0;   // as stored (may be SHN_XINDEX)
    uint32_t shndx = 0;      // real section index (resolved through .symtab_shndx)

    uint8_t bind() const { return elf::symBind(info); }
    uint8_t type() const { return elf::symType(info); }
    bool isUndefined() const { return rawShndx == elf::SHN_UNDEF; }
};

struct ElfReloc {
    uint64_t offset = 0;
    uint32_t symbol = 0;
    uint32_t type = 0;
    int64_t addend = 0;      // 0 for SHT_REL
};

struct ElfProgramHeader {
    uint32_t type = 0, flags = 0;
    uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
};

// How ElfFile::parse treats the machine. Cubins are the default; host
// objects (x86-64, aarch64) carry embedded fatbins and must be readable too.
struct ElfParseOptions {
    // Accept any e_machine. For a machine other than EM_CUDA the CUDA
    // processor-specific section types (0x70000000...) are not interpreted:
    // those numbers mean other things there (SHT_X86_64_UNWIND,
    // SHT_AARCH64_ATTRIBUTES, ...), so only standard symbol and relocation
    // tables are validated and only SHT_NOBITS lacks file bytes.
    bool allowHostMachines = false;
};

class ElfFile {
public:
    // Parses and validates `bytes` (not copied; must outlive the result).
    // `name` is used in error messages. Throws FatalError.
    static ElfFile parse(std::string name, ByteView bytes);
    static ElfFile parse(std::string name, ByteView bytes, const ElfParseOptions &options);

    const std::string &name() const { return name_; }
    ByteView bytes() const { return bytes_; }
    const ElfHeader &header() const { return header_; }
    bool is64() const { return header_.elfClass == elf::ELFCLASS64; }

    const std::vector<ElfSection> &sections() const { return sections_; }
    const ElfSection &section(uint32_t index) const { return sections_.at(index); }
    // First section with this name, or nullptr.
    const ElfSection *findSection(std::string_view name) const;

    // Symbols of the SHT_SYMTAB section (index 0 is the null symbol); empty
    // when the file has no symbol table.
    const std::vector<ElfSymbol> &symbols() const { return symbols_; }
    uint32_t symtabIndex() const { return symtabIndex_; } // 0 if none

    // Decoded entries of a SHT_REL / SHT_RELA section (validated in parse:
    // symbol indices in range, target section exists).
    std::vector<ElfReloc> relocations(const ElfSection &relocSection) const;

    // Decodes a symbol table other than .symtab (e.g. the Mercury one, which
    // has its own section type). Validated in parse as well.
    std::vector<ElfSymbol> symbolsOf(const ElfSection &symtab) const;

    const std::vector<ElfProgramHeader> &programHeaders() const { return programHeaders_; }

    // A string from a string-table section; throws on a bad offset.
    std::string_view stringAt(const ElfSection &strtab, uint32_t offset) const;

private:
    friend class ElfFileParser;

    std::string name_;
    ByteView bytes_;
    ElfHeader header_;
    std::vector<ElfSection> sections_;
    std::vector<ElfSymbol> symbols_;
    uint32_t symtabIndex_ = 0;
    std::vector<ElfProgramHeader> programHeaders_;
};

} // namespace culd
