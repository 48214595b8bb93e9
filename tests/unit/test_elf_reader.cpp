// ElfFile::parse on valid and deliberately broken cubins. The broken ones
// start from a small valid ELF64 built here (with ElfImage) and corrupt one
// field; each must be rejected with its exact message. A fuzz-style loop then
// truncates and scrambles real fixtures: parse must succeed or throw
// FatalError, never crash (the suite also runs under ASan/UBSan).

#include "TestUtil.h"

#include "culd/Diagnostics.h"
#include "culd/ElfFile.h"
#include "culd/ElfWriter.h"
#include "culd/MappedFile.h"

#include <catch2/catch.hpp>

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <random>

using namespace culd;
using namespace culd::elf;

namespace {

std::string hex(uint64_t value) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, value);
    return buffer;
}

ElfFile parseBytes(const std::vector<uint8_t> &bytes) {
    return ElfFile::parse("test.cubin", ByteView{bytes.data(), bytes.size()});
}

ImageSection section(std::string name, uint32_t type, uint64_t align, SectionContent content) {
    ImageSection s;
    s.name = std::move(name);
    s.type = type;
    s.addralign = align;
    s.content = std::move(content);
    return s;
}

template <class T> std::vector<uint8_t> bytesOf(const std::vector<T> &records) {
    std::vector<uint8_t> out(records.size() * sizeof(T));
    std::memcpy(out.data(), records.data(), out.size());
    return out;
}

// Section indices of the synthetic cubin.
enum : uint32_t { kShstrtab = 1, kStrtab, kSymtab, kText, kRela, kInfo, kGlobal, kSectionCount };

// A small but complete relocatable-style cubin: string tables, a symbol
// table, code with a register count in sh_info, RELA relocations, a CUDA
// metadata section, a NOBITS section and two program headers.
ElfImage makeImage() {
    ElfImage image;
    image.header.type = ET_EXEC;
    image.header.flags = 0x06005A04;
    const std::string strtab = std::string("\0_Z1kv\0data\0", 12);
    image.addSection(section(".shstrtab", SHT_STRTAB, 1, ByteView{}));
    image.addSection(section(".strtab", SHT_STRTAB, 1, std::vector<uint8_t>(strtab.begin(), strtab.end())));

    std::vector<Sym64> symbols(3, Sym64{});
    symbols[1] = Sym64{1, symInfo(STB_GLOBAL, STT_FUNC), STO_CUDA_ENTRY, kText, 0, 0x80};
    symbols[2] = Sym64{7, symInfo(STB_GLOBAL, STT_OBJECT), 0, kGlobal, 0x10, 4};
    ImageSection symtab = section(".symtab", SHT_SYMTAB, 8, bytesOf(symbols));
    symtab.entsize = sizeof(Sym64), symtab.link = kStrtab, symtab.info = 1;
    image.addSection(std::move(symtab));

    ImageSection text = section(".text._Z1kv", SHT_PROGBITS, 128, std::vector<uint8_t>(0x80, 0x11));
    text.flags = SHF_ALLOC | SHF_EXECINSTR, text.link = kSymtab, text.info = (0x2Bu << 24) | 1;
    image.addSection(std::move(text));

    struct Rela64 {
        uint64_t offset, info;
        int64_t addend;
    };
    std::vector<Rela64> relocs = {{0x10, (uint64_t(2) << 32) | 0x38, 4}, {0x20, (uint64_t(1) << 32) | 2, 0}};
    ImageSection rela = section(".rela.text._Z1kv", SHT_RELA, 8, bytesOf(relocs));
    rela.entsize = 24, rela.flags = SHF_INFO_LINK, rela.link = kSymtab, rela.info = kText;
    image.addSection(std::move(rela));

    image.addSection(section(".nv.info", SHT_CUDA_INFO, 4, std::vector<uint8_t>{4, 0x2f, 8, 0, 1, 0, 0, 0}));
    ImageSection global = section(".nv.global", SHT_NOBITS, 4, NoFileData{0x100});
    global.flags = SHF_WRITE | SHF_ALLOC;
    image.addSection(std::move(global));

    OutputProgramHeader phdr;
    phdr.type = PT_PHDR, phdr.flags = PF_R | PF_X, phdr.source = SegmentSource::ProgramHeaderTable;
    OutputProgramHeader load;
    load.type = PT_LOAD, load.flags = PF_R | PF_X, load.source = SegmentSource::Sections;
    load.sections = {kText};
    image.programHeaders = {phdr, load};
    return image;
}

std::vector<uint8_t> makeCubin() {
    ElfImage image = makeImage();
    image.layout();
    return image.serialize();
}

// Byte patching of the synthetic cubin at header / section-header fields.
struct Patcher {
    std::vector<uint8_t> bytes = makeCubin();

    template <class T> void put(uint64_t offset, T value) {
        REQUIRE(offset + sizeof value <= bytes.size());
        std::memcpy(bytes.data() + offset, &value, sizeof value);
    }
    template <class T> T get(uint64_t offset) const {
        T value;
        std::memcpy(&value, bytes.data() + offset, sizeof value);
        return value;
    }
    uint64_t shoff() const { return get<uint64_t>(offsetof(Ehdr64, shoff)); }
    uint64_t phoff() const { return get<uint64_t>(offsetof(Ehdr64, phoff)); }
    uint64_t shdr(uint32_t index) const { return shoff() + index * sizeof(Shdr64); }
    uint64_t sectionOffset(uint32_t index) const { return get<uint64_t>(shdr(index) + offsetof(Shdr64, offset)); }
    uint64_t sectionSize(uint32_t index) const { return get<uint64_t>(shdr(index) + offsetof(Shdr64, size)); }
    std::string size() const { return hex(bytes.size()); }
};

#define SET_EHDR(p, field, value) (p).put(offsetof(Ehdr64, field), static_cast<decltype(Ehdr64::field)>(value))
#define SET_SHDR(p, index, field, value) \
    (p).put((p).shdr(index) + offsetof(Shdr64, field), static_cast<decltype(Shdr64::field)>(value))

void requireError(const std::vector<uint8_t> &bytes, const std::string &message) {
    REQUIRE_THROWS_MATCHES(parseBytes(bytes), FatalError, Catch::Message("test.cubin: " + message));
}

} // namespace

TEST_CASE("the synthetic cubin parses and decodes", "[elf][reader]") {
    Patcher p;
    ElfFile f = parseBytes(p.bytes);
    REQUIRE(f.is64());
    REQUIRE(f.header().machine == EM_CUDA);
    REQUIRE(f.header().osabi == ELFOSABI_CUDA_V8);
    REQUIRE(f.header().abiVersion == 8);
    REQUIRE(f.header().shnum == kSectionCount);
    REQUIRE(f.sections().size() == kSectionCount);
    REQUIRE(f.section(kText).name == ".text._Z1kv");
    REQUIRE(f.section(kText).infoIndex() == 1);
    REQUIRE(f.section(kText).data.size == 0x80);
    REQUIRE(f.section(kText).offset % 128 == 0);
    REQUIRE(f.section(kGlobal).data.empty());
    REQUIRE_FALSE(f.section(kGlobal).hasFileData());
    REQUIRE(f.findSection(".nv.info") == &f.section(kInfo));
    REQUIRE(f.findSection(".nope") == nullptr);

    REQUIRE(f.symtabIndex() == kSymtab);
    REQUIRE(f.symbols().size() == 3);
    REQUIRE(f.symbols()[1].name == "_Z1kv");
    REQUIRE(f.symbols()[1].shndx == kText);
    REQUIRE(f.symbols()[1].other == STO_CUDA_ENTRY);
    REQUIRE(f.symbols()[2].name == "data");
    REQUIRE(f.symbols()[2].value == 0x10);

    auto relocs = f.relocations(f.section(kRela));
    REQUIRE(relocs.size() == 2);
    REQUIRE(relocs[0].offset == 0x10);
    REQUIRE(relocs[0].symbol == 2);
    REQUIRE(relocs[0].type == 0x38);
    REQUIRE(relocs[0].addend == 4);
    REQUIRE(relocs[1].symbol == 1);
    REQUIRE(relocs[1].type == 2);

    REQUIRE(f.programHeaders().size() == 2);
    REQUIRE(f.programHeaders()[0].type == PT_PHDR);
    REQUIRE(f.programHeaders()[0].offset == p.phoff());
    REQUIRE(f.programHeaders()[1].offset == f.section(kText).offset);
    REQUIRE(f.programHeaders()[1].filesz == 0x80);

    REQUIRE(f.stringAt(f.section(kStrtab), 7) == "data");
    REQUIRE_THROWS_MATCHES(f.stringAt(f.section(kStrtab), 12), FatalError,
                           Catch::Message("test.cubin: string offset 0xc is past the end of "
                                          "section [2] '.strtab' (size 0xc)"));
    REQUIRE_THROWS_MATCHES(f.relocations(f.section(kText)), FatalError,
                           Catch::Message("test.cubin: section [4] '.text._Z1kv' is not a relocation section"));
}

// --- Corruptions: one field each, exact messages ---------------------------

TEST_CASE("corrupt: file shorter than e_ident", "[elf][reader][corrupt]") {
    std::vector<uint8_t> bytes = makeCubin();
    bytes.resize(10);
    requireError(bytes, "file too small for an ELF header (10 bytes)");
    requireError({}, "file too small for an ELF header (0 bytes)");
}

TEST_CASE("corrupt: truncated ELF header", "[elf][reader][corrupt]") {
    std::vector<uint8_t> bytes = makeCubin();
    bytes.resize(40);
    requireError(bytes, "file too small for an ELF header (40 bytes)");
}

TEST_CASE("corrupt: wrong magic", "[elf][reader][corrupt]") {
    Patcher p;
    p.bytes[1] = 'X';
    requireError(p.bytes, "not an ELF file (bad magic)");
}

TEST_CASE("corrupt: ELF class 3", "[elf][reader][corrupt]") {
    Patcher p;
    p.bytes[4] = 3;
    requireError(p.bytes, "unsupported ELF class 3");
}

TEST_CASE("corrupt: big-endian", "[elf][reader][corrupt]") {
    Patcher p;
    p.bytes[5] = 2;
    requireError(p.bytes, "unsupported ELF data encoding 2 (only little-endian is supported)");
}

TEST_CASE("corrupt: not EM_CUDA", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, machine, 62);
    requireError(p.bytes, "not a CUDA device ELF (e_machine 62)");
}

TEST_CASE("corrupt: section header table past end of file", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shoff, p.bytes.size() - 10);
    requireError(p.bytes, "section header table (offset " + hex(p.bytes.size() - 10) +
                              ") runs past end of file (size " + p.size() + ")");
}

TEST_CASE("corrupt: too many section headers for the file", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shnum, 500);
    requireError(p.bytes, "section header table (offset " + hex(p.shoff()) +
                              ", 500 entries of 64 bytes) runs past end of file (size " + p.size() + ")");
}

TEST_CASE("corrupt: e_shentsize wrong", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shentsize, 40);
    requireError(p.bytes, "e_shentsize is 40, expected 64");
}

TEST_CASE("corrupt: e_shoff so large that offset + size overflows", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shoff, 0xFFFFFFFFFFFFFFF0ull);
    requireError(p.bytes, "section header table (offset 0xfffffffffffffff0) runs past end of file (size " +
                              p.size() + ")");
}

TEST_CASE("corrupt: extended section count in section 0 is huge", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shnum, 0);
    SET_SHDR(p, 0, size, 0x4000000000000000ull);
    requireError(p.bytes, "section header table (offset " + hex(p.shoff()) +
                              ", 4611686018427387904 entries of 64 bytes) runs past end of file (size " +
                              p.size() + ")");
}

TEST_CASE("corrupt: e_shstrndx out of range", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shstrndx, 50);
    requireError(p.bytes, "section name string table index 50 is out of range (8 sections)");
}

TEST_CASE("corrupt: e_shstrndx names a non-string table", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, shstrndx, kSymtab);
    requireError(p.bytes, "section [3] named by e_shstrndx is not a string table (type 0x2)");
}

TEST_CASE("corrupt: section name offset past .shstrtab", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kText, name, 0x1000);
    requireError(p.bytes, "section [4]: name offset 0x1000 is past the end of section [1] '.shstrtab' (size " +
                              hex(p.sectionSize(kShstrtab)) + ")");
}

TEST_CASE("corrupt: section name not NUL-terminated inside .shstrtab", "[elf][reader][corrupt]") {
    Patcher p;
    // .nv.global is the last name in the table; cut off its terminator.
    const uint64_t size = p.sectionSize(kShstrtab);
    SET_SHDR(p, kShstrtab, size, size - 1);
    ElfFile valid = parseBytes(makeCubin());
    requireError(p.bytes, "section [7]: name string at offset " + hex(valid.section(kGlobal).nameOffset) +
                              " is not NUL-terminated inside section [1] '.shstrtab'");
}

TEST_CASE("corrupt: section data past end of file", "[elf][reader][corrupt]") {
    Patcher p;
    const uint64_t offset = p.bytes.size() - 16;
    SET_SHDR(p, kText, offset, offset);
    requireError(p.bytes, "section [4] '.text._Z1kv': data (offset " + hex(offset) +
                              ", size 0x80) runs past end of file (size " + p.size() + ")");
}

TEST_CASE("corrupt: huge sh_size", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kInfo, size, 0xFFFFFFFFFFFFFF00ull);
    requireError(p.bytes, "section [6] '.nv.info': data (offset " + hex(p.sectionOffset(kInfo)) +
                              ", size 0xffffffffffffff00) runs past end of file (size " + p.size() + ")");
}

TEST_CASE("corrupt: overlapping sections", "[elf][reader][corrupt]") {
    Patcher p;
    const uint64_t at = p.sectionOffset(kShstrtab) + 1;
    SET_SHDR(p, kStrtab, offset, at);
    requireError(p.bytes, "section [1] '.shstrtab' (offset 0x40, size " + hex(p.sectionSize(kShstrtab)) +
                              ") overlaps section [2] '.strtab' (offset " + hex(at) + ", size 0xc)");
}

TEST_CASE("corrupt: section overlapping the ELF header", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kStrtab, offset, 0x10);
    requireError(p.bytes, "section [2] '.strtab' (offset 0x10, size 0xc) overlaps the ELF header");
}

TEST_CASE("corrupt: section overlapping the section header table", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kInfo, offset, p.shoff() + 8);
    requireError(p.bytes, "section [6] '.nv.info' (offset " + hex(p.shoff() + 8) +
                              ", size 0x8) overlaps the section header table");
}

TEST_CASE("corrupt: exact duplicate without the Mercury flag is an overlap", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kInfo, offset, p.sectionOffset(kStrtab));
    SET_SHDR(p, kInfo, size, p.sectionSize(kStrtab));
    const std::string range = "(offset " + hex(p.sectionOffset(kStrtab)) + ", size 0xc)";
    requireError(p.bytes, "section [2] '.strtab' " + range + " overlaps section [6] '.nv.info' " + range);

    // The same bytes shared by a Mercury section are an alias, which is legal.
    SET_SHDR(p, kInfo, flags, SHF_CUDA_MERCURY);
    ElfFile f = parseBytes(p.bytes);
    REQUIRE(f.section(kInfo).data.data == f.section(kStrtab).data.data);
}

TEST_CASE("corrupt: symbol table entry size", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kSymtab, entsize, 16);
    requireError(p.bytes, "section [3] '.symtab': entry size 16, expected 24");
}

TEST_CASE("corrupt: symbol table size not a multiple of the entry size", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kSymtab, size, 70);
    requireError(p.bytes, "section [3] '.symtab': size 0x46 is not a multiple of the entry size 24");
}

TEST_CASE("corrupt: symbol table linked to a non-string table", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kSymtab, link, kText);
    requireError(p.bytes, "section [3] '.symtab': sh_link 4 is not a string table");
}

TEST_CASE("corrupt: symbol name past .strtab", "[elf][reader][corrupt]") {
    Patcher p;
    p.put<uint32_t>(p.sectionOffset(kSymtab) + 1 * sizeof(Sym64) + offsetof(Sym64, name), 0x5000);
    requireError(p.bytes, "section [3] '.symtab': symbol 1: name offset 0x5000 is past the end of "
                          "section [2] '.strtab' (size 0xc)");
}

TEST_CASE("corrupt: symbol section index out of range", "[elf][reader][corrupt]") {
    Patcher p;
    p.put<uint16_t>(p.sectionOffset(kSymtab) + 1 * sizeof(Sym64) + offsetof(Sym64, shndx), 100);
    requireError(p.bytes, "section [3] '.symtab': symbol 1 '_Z1kv': section index 100 is out of range (8 sections)");
    p.put<uint16_t>(p.sectionOffset(kSymtab) + 1 * sizeof(Sym64) + offsetof(Sym64, shndx), 0xFF05);
    requireError(p.bytes, "section [3] '.symtab': symbol 1 '_Z1kv': section index 65285 is out of range (8 sections)");
    // The special indices are fine.
    for (uint16_t special : {SHN_UNDEF, SHN_ABS, SHN_COMMON}) {
        p.put<uint16_t>(p.sectionOffset(kSymtab) + 1 * sizeof(Sym64) + offsetof(Sym64, shndx), special);
        REQUIRE(parseBytes(p.bytes).symbols()[1].shndx == special);
    }
}

TEST_CASE("corrupt: SHN_XINDEX without .symtab_shndx", "[elf][reader][corrupt]") {
    Patcher p;
    p.put<uint16_t>(p.sectionOffset(kSymtab) + 2 * sizeof(Sym64) + offsetof(Sym64, shndx), SHN_XINDEX);
    requireError(p.bytes, "section [3] '.symtab': symbol 2 'data' uses SHN_XINDEX but there is no "
                          "SHT_SYMTAB_SHNDX section");
}

TEST_CASE("corrupt: relocation section targets a missing section", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kRela, info, 99);
    requireError(p.bytes, "section [5] '.rela.text._Z1kv': sh_info 99 does not name an existing section (8 sections)");
    // The top byte of sh_info is not part of the index.
    SET_SHDR(p, kRela, info, (0x2Bu << 24) | kText);
    REQUIRE(parseBytes(p.bytes).section(kRela).infoIndex() == kText);
}

TEST_CASE("corrupt: relocation symbol index out of range", "[elf][reader][corrupt]") {
    Patcher p;
    p.put<uint64_t>(p.sectionOffset(kRela) + 24 + 8, (uint64_t(50) << 32) | 2);
    requireError(p.bytes, "section [5] '.rela.text._Z1kv': relocation 1: symbol index 50 is out of range "
                          "(3 symbols in section [3] '.symtab')");
}

TEST_CASE("corrupt: relocation entry size", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kRela, entsize, 16);
    requireError(p.bytes, "section [5] '.rela.text._Z1kv': entry size 16, expected 24");
}

TEST_CASE("corrupt: relocation section not linked to a symbol table", "[elf][reader][corrupt]") {
    Patcher p;
    SET_SHDR(p, kRela, link, kStrtab);
    requireError(p.bytes, "section [5] '.rela.text._Z1kv': sh_link 2 is not a symbol table");
}

TEST_CASE("corrupt: program header table past end of file", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, phoff, p.bytes.size() - 8);
    requireError(p.bytes, "program header table (offset " + hex(p.bytes.size() - 8) +
                              ", 2 entries of 56 bytes) runs past end of file (size " + p.size() + ")");
}

TEST_CASE("corrupt: e_phentsize wrong", "[elf][reader][corrupt]") {
    Patcher p;
    SET_EHDR(p, phentsize, 32);
    requireError(p.bytes, "e_phentsize is 32, expected 56");
}

TEST_CASE("corrupt: segment past end of file", "[elf][reader][corrupt]") {
    Patcher p;
    p.put<uint64_t>(p.phoff() + sizeof(Phdr64) + offsetof(Phdr64, filesz), 0x100000);
    ElfFile valid = parseBytes(makeCubin());
    requireError(p.bytes, "program header 1: segment (offset " + hex(valid.section(kText).offset) +
                              ", size 0x100000) runs past end of file (size " + p.size() + ")");
}

// --- Extended indices, ELF32, Mercury symbol tables ------------------------

TEST_CASE("extended section numbering (e_shnum 0, SHN_XINDEX) is decoded", "[elf][reader]") {
    // 0xFF10 sections: e_shnum must be 0, the count lives in section 0, and
    // .shstrtab is put last so that e_shstrndx must be SHN_XINDEX.
    constexpr uint32_t count = 0xFF10;
    ElfImage image;
    image.header.type = ET_REL;
    const std::string strtab("\0far\0", 5);
    image.addSection(section(".strtab", SHT_STRTAB, 1, std::vector<uint8_t>(strtab.begin(), strtab.end())));
    std::vector<Sym64> symbols(2, Sym64{});
    symbols[1] = Sym64{1, symInfo(STB_GLOBAL, STT_OBJECT), 0, SHN_XINDEX, 0, 0};
    ImageSection symtab = section(".symtab", SHT_SYMTAB, 8, bytesOf(symbols));
    symtab.entsize = sizeof(Sym64), symtab.link = 1;
    image.addSection(std::move(symtab));
    ImageSection shndx = section(".symtab_shndx", SHT_SYMTAB_SHNDX, 4, bytesOf(std::vector<uint32_t>{0, 0xFF05}));
    shndx.entsize = 4, shndx.link = 2;
    image.addSection(std::move(shndx));
    while (image.sections.size() < count - 1)
        image.addSection(section(".nv.empty", SHT_PROGBITS, 1, ByteView{}));
    image.header.shstrndx = image.addSection(section(".shstrtab", SHT_STRTAB, 1, ByteView{}));
    image.layout();
    std::vector<uint8_t> bytes = image.serialize();

    ElfFile f = parseBytes(bytes);
    REQUIRE(f.header().rawShnum == 0);
    REQUIRE(f.header().shnum == count);
    REQUIRE(f.header().rawShstrndx == SHN_XINDEX);
    REQUIRE(f.header().shstrndx == count - 1);
    REQUIRE(f.section(count - 1).name == ".shstrtab");
    REQUIRE(f.section(0xFF05).name == ".nv.empty");
    REQUIRE(f.symbols()[1].rawShndx == SHN_XINDEX);
    REQUIRE(f.symbols()[1].shndx == 0xFF05);

    // And it survives the round trip.
    ElfImage again = ElfImage::fromFile(f);
    REQUIRE_FALSE(again.preserveOffsets);
    again.layout();
    REQUIRE(again.serialize() == bytes);
}

TEST_CASE("ELF32 cubins: headers, symbols and REL entries (sym << 8 | type)", "[elf][reader]") {
    ElfImage image;
    image.header.elfClass = ELFCLASS32;
    image.header.osabi = ELFOSABI_CUDA_V7;
    image.header.abiVersion = 7;
    image.header.type = ET_REL;
    const std::string strtab("\0f\0", 3);
    image.addSection(section(".shstrtab", SHT_STRTAB, 1, ByteView{}));
    image.addSection(section(".strtab", SHT_STRTAB, 1, std::vector<uint8_t>(strtab.begin(), strtab.end())));
    std::vector<Sym32> symbols(2, Sym32{});
    symbols[1] = Sym32{1, 0, 0x40, symInfo(STB_GLOBAL, STT_FUNC), 0, 4};
    ImageSection symtab = section(".symtab", SHT_SYMTAB, 4, bytesOf(symbols));
    symtab.entsize = sizeof(Sym32), symtab.link = 2;
    image.addSection(std::move(symtab));
    image.addSection(section(".text.f", SHT_PROGBITS, 64, std::vector<uint8_t>(0x40, 0x22)));
    ImageSection rel = section(".rel.text.f", SHT_REL, 4, bytesOf(std::vector<uint32_t>{0x8, (1u << 8) | 0x14}));
    rel.entsize = 8, rel.link = 3, rel.info = 4;
    image.addSection(std::move(rel));
    image.layout();
    std::vector<uint8_t> bytes = image.serialize();

    ElfFile f = parseBytes(bytes);
    REQUIRE_FALSE(f.is64());
    REQUIRE(f.header().osabi == ELFOSABI_CUDA_V7);
    REQUIRE(f.header().ehsize == sizeof(Ehdr32));
    REQUIRE(f.section(1).offset == sizeof(Ehdr32));
    REQUIRE(f.section(4).offset % 64 == 0);
    REQUIRE(f.symbols()[1].name == "f");
    REQUIRE(f.symbols()[1].size == 0x40);
    REQUIRE(f.symbols()[1].shndx == 4);
    auto relocs = f.relocations(f.section(5));
    REQUIRE(relocs.size() == 1);
    REQUIRE(relocs[0].offset == 8);
    REQUIRE(relocs[0].symbol == 1);
    REQUIRE(relocs[0].type == 0x14);
    REQUIRE(relocs[0].addend == 0);

    ElfImage again = ElfImage::fromFile(f);
    REQUIRE_FALSE(again.preserveOffsets);
    again.layout();
    REQUIRE(again.serialize() == bytes);
}

// --- Real files --------------------------------------------------------------

TEST_CASE("every fixture cubin parses", "[elf][reader][fixtures]") {
    auto files = test::fixtureCubins();
    if (files.empty()) {
        WARN("no *.cubin under " << test::fixturesDir() << ": fixture parsing not exercised");
        return;
    }
    size_t relocations = 0, symbols = 0, mercurySymbols = 0;
    for (const std::string &path : files) {
        INFO(test::fixtureName(path));
        auto mapped = MappedFile::open(path);
        ElfFile f = ElfFile::parse(path, mapped->bytes());
        REQUIRE(f.header().machine == EM_CUDA);
        REQUIRE(f.symtabIndex() != 0);
        symbols += f.symbols().size();
        for (const ElfSection &s : f.sections()) {
            if (s.isRelocation())
                relocations += f.relocations(s).size();
            if (s.type == SHT_CUDA_MERC_SYMTAB)
                mercurySymbols += f.symbolsOf(s).size();
        }
    }
    INFO("parsed " << files.size() << " cubins: " << symbols << " symbols, " << mercurySymbols
                   << " Mercury symbols, " << relocations << " relocations");
    CHECK(files.size() > 0);
}

namespace {

// Parses `bytes` and, when that succeeds, uses every accessor once; nothing
// may fault whatever the bytes are.
void parseAndUse(const std::vector<uint8_t> &bytes) {
    try {
        ElfFile f = parseBytes(bytes);
        for (const ElfSection &s : f.sections()) {
            if (s.isRelocation())
                (void)f.relocations(s);
            if (s.isSymbolTable())
                (void)f.symbolsOf(s);
        }
        ElfImage image = ElfImage::fromFile(f);
        image.layout();
        (void)image.serialize();
    } catch (const FatalError &) {
    }
}

std::vector<std::vector<uint8_t>> fuzzSeeds() {
    std::vector<std::vector<uint8_t>> seeds = {makeCubin()};
    auto files = test::fixtureCubins();
    // A few real files of different shapes: the first, the last (often a
    // newer architecture) and one from the middle.
    if (!files.empty())
        for (size_t i : {size_t(0), files.size() / 2, files.size() - 1})
            seeds.push_back(test::readFile(files[i]));
    return seeds;
}

} // namespace

TEST_CASE("truncated cubins never crash the parser", "[elf][reader][fuzz]") {
    for (const auto &seed : fuzzSeeds()) {
        const size_t step = std::max<size_t>(1, seed.size() / 1500);
        for (size_t length = 0; length <= seed.size(); length += step) {
            std::vector<uint8_t> cut(seed.begin(), seed.begin() + static_cast<std::ptrdiff_t>(length));
            parseAndUse(cut);
        }
    }
    SUCCEED();
}

TEST_CASE("scrambled cubins never crash the parser", "[elf][reader][fuzz]") {
    std::mt19937 random(12345);
    for (const auto &seed : fuzzSeeds()) {
        const uint64_t shoff = parseBytes(seed).header().shoff;
        for (int round = 0; round < 1500; ++round) {
            std::vector<uint8_t> bytes = seed;
            const int flips = 1 + static_cast<int>(random() % 4);
            for (int i = 0; i < flips; ++i) {
                // Half the flips hit the ELF header or section headers, where a
                // single byte changes the most.
                size_t at = random() % bytes.size();
                if (random() % 2 == 0 && shoff < bytes.size())
                    at = (random() % 2 == 0) ? random() % 64 : shoff + random() % (bytes.size() - shoff);
                bytes[at] ^= static_cast<uint8_t>(1u << (random() % 8));
            }
            parseAndUse(bytes);
        }
    }
    SUCCEED();
}
