// ELF constants and on-disk records for CUDA device ELF (cubin) files.
// Only what cubins use: ELF32/ELF64 little-endian, EM_CUDA.
#pragma once

#include <cstdint>

namespace culd::elf {

constexpr uint16_t EM_CUDA = 190;
constexpr unsigned EI_CLASS = 4; // e_ident index of the class (32 or 64 bits)
constexpr unsigned EI_DATA = 5;  // e_ident index of the data encoding
constexpr uint8_t ELFCLASS32 = 1;
constexpr uint8_t ELFCLASS64 = 2;
constexpr uint8_t ELFDATA2LSB = 1;
constexpr uint8_t ELFOSABI_CUDA_V7 = 0x33; // CUDA <= 12 cubins, ABI version 7
constexpr uint8_t ELFOSABI_CUDA_V8 = 0x41; // CUDA 13 cubins, ABI version 8

constexpr uint16_t ET_NONE = 0, ET_REL = 1, ET_EXEC = 2;

// Section header types.
constexpr uint32_t SHT_NULL = 0, SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3,
                   SHT_RELA = 4, SHT_NOTE = 7, SHT_NOBITS = 8, SHT_REL = 9,
                   SHT_SYMTAB_SHNDX = 18;
constexpr uint32_t SHT_LOPROC = 0x70000000;
constexpr uint32_t SHT_CUDA_INFO = 0x70000000;
constexpr uint32_t SHT_CUDA_CALLGRAPH = 0x70000001;
constexpr uint32_t SHT_CUDA_PROTOTYPE = 0x70000002;
constexpr uint32_t SHT_CUDA_RESOLVED_RELA = 0x70000003;
constexpr uint32_t SHT_CUDA_METADATA = 0x70000004;
constexpr uint32_t SHT_CUDA_CONSTANT = 0x70000006;
constexpr uint32_t SHT_CUDA_GLOBAL = 0x70000007;
constexpr uint32_t SHT_CUDA_GLOBAL_INIT = 0x70000008;
constexpr uint32_t SHT_CUDA_LOCAL = 0x70000009;
constexpr uint32_t SHT_CUDA_SHARED = 0x7000000A;
constexpr uint32_t SHT_CUDA_RELOCINFO = 0x7000000B; // .nv.rel.action
constexpr uint32_t SHT_CUDA_UFT = 0x7000000E;
constexpr uint32_t SHT_CUDA_UFT_ENTRY = 0x70000011;
constexpr uint32_t SHT_CUDA_UDT = 0x70000012;
constexpr uint32_t SHT_CUDA_UDT_ENTRY = 0x70000014;
constexpr uint32_t SHT_CUDA_SHARED_RESERVED = 0x70000015;
constexpr uint32_t SHT_CUDA_CAPMERC_TEXT = 0x70000016;
constexpr uint32_t SHT_CUDA_CONSTANT0 = 0x70000064; // + bank number (0..17)
constexpr uint32_t SHT_CUDA_MERC_CONSTANT_USER = 0x7000007C;
constexpr uint32_t SHT_CUDA_MERC_RELA = 0x70000082;
constexpr uint32_t SHT_CUDA_MERC_INFO = 0x70000083;
constexpr uint32_t SHT_CUDA_MERC_CONSTANT_OPTIMIZER = 0x70000084;
constexpr uint32_t SHT_CUDA_MERC_SYMTAB = 0x70000085;
constexpr uint32_t SHT_CUDA_COMPAT = 0x70000086;
constexpr uint32_t SHT_CUDA_HOST = 0x70000087;

// Section flags.
constexpr uint64_t SHF_WRITE = 0x1, SHF_ALLOC = 0x2, SHF_EXECINSTR = 0x4,
                   SHF_INFO_LINK = 0x40;
constexpr uint64_t SHF_CUDA_MERCURY = 0x10000000;

// Special section indices.
constexpr uint16_t SHN_UNDEF = 0, SHN_LORESERVE = 0xFF00, SHN_ABS = 0xFFF1,
                   SHN_COMMON = 0xFFF2, SHN_XINDEX = 0xFFFF;

// Symbol binding/type.
constexpr uint8_t STB_LOCAL = 0, STB_GLOBAL = 1, STB_WEAK = 2;
constexpr uint8_t STT_NOTYPE = 0, STT_OBJECT = 1, STT_FUNC = 2, STT_SECTION = 3,
                  STT_FILE = 4, STT_CUDA_OBJECT = 13;
// st_other bits of CUDA symbols (memory space / entry).
constexpr uint8_t STO_CUDA_ENTRY = 0x10, STO_CUDA_GLOBAL = 0x20, STO_CUDA_SHARED = 0x40,
                  STO_CUDA_CONSTANT = 0x80;
// st_other's visibility (its low two bits).
constexpr uint8_t STV_INTERNAL = 1;

constexpr uint32_t PT_LOAD = 1, PT_PHDR = 6;
constexpr uint32_t PF_X = 1, PF_W = 2, PF_R = 4;

// On-disk records (little-endian hosts only; the reader checks ELFDATA2LSB).
struct Ehdr64 {
    uint8_t ident[16];
    uint16_t type, machine;
    uint32_t version;
    uint64_t entry, phoff, shoff;
    uint32_t flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct Ehdr32 {
    uint8_t ident[16];
    uint16_t type, machine;
    uint32_t version;
    uint32_t entry, phoff, shoff;
    uint32_t flags;
    uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct Shdr64 {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t addralign, entsize;
};
struct Shdr32 {
    uint32_t name, type, flags, addr, offset, size, link, info, addralign, entsize;
};
struct Sym64 {
    uint32_t name;
    uint8_t info, other;
    uint16_t shndx;
    uint64_t value, size;
};
struct Sym32 {
    uint32_t name, value, size;
    uint8_t info, other;
    uint16_t shndx;
};
struct Phdr64 {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
};
struct Phdr32 {
    uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

static_assert(sizeof(Ehdr64) == 64 && sizeof(Shdr64) == 64 && sizeof(Sym64) == 24 &&
              sizeof(Phdr64) == 56);
static_assert(sizeof(Ehdr32) == 52 && sizeof(Shdr32) == 40 && sizeof(Sym32) == 16 &&
              sizeof(Phdr32) == 32);

inline uint8_t symBind(uint8_t info) { return info >> 4; }
inline uint8_t symType(uint8_t info) { return info & 0xF; }
inline uint8_t symInfo(uint8_t bind, uint8_t type) {
    return static_cast<uint8_t>((bind << 4) | (type & 0xF));
}

} // namespace culd::elf
