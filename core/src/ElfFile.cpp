// Parsing and validation of cubins (CUDA device ELF files).
//
// All validation happens once, in ElfFile::parse(), so that the accessors
// used by the rest of the linker can trust every offset, size and index they
// are handed. The parser never copies section bytes and never allocates an
// amount derived from an unchecked header field: every count is first bounded
// by the file size.

#include "culd/ElfFile.h"
#include "culd/Hex.h"

#include "culd/Diagnostics.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace culd {

using namespace elf;

bool sectionHasFileData(uint32_t type, uint64_t flags) {
    switch (type) {
    case SHT_NOBITS:
        return false;
    case SHT_CUDA_GLOBAL:
    case SHT_CUDA_LOCAL:
    case SHT_CUDA_SHARED:
    case SHT_CUDA_SHARED_RESERVED:
        return (flags & SHF_CUDA_MERCURY) != 0;
    default:
        return true;
    }
}

bool ElfSection::isRela() const {
    return type == SHT_RELA || type == SHT_CUDA_MERC_RELA || type == SHT_CUDA_RESOLVED_RELA;
}

bool ElfSection::isRelocation() const { return type == SHT_REL || isRela(); }

bool ElfSection::isSymbolTable() const {
    return type == SHT_SYMTAB || type == SHT_CUDA_MERC_SYMTAB;
}

namespace {

// The file may be mapped at any address and its records need not be aligned,
// so every multi-byte read goes through memcpy.
template <class T> T load(const uint8_t *p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

// offset + size <= total, without overflowing.
bool fitsIn(uint64_t offset, uint64_t size, uint64_t total) {
    return offset <= total && size <= total - offset;
}

std::string dec(uint64_t value) { return std::to_string(value); }

constexpr uint64_t kIdentSize = 16; // e_ident

ElfSection decodeSection(const uint8_t *p, bool is64) {
    ElfSection s;
    if (is64) {
        auto h = load<Shdr64>(p);
        s.nameOffset = h.name, s.type = h.type, s.flags = h.flags, s.addr = h.addr;
        s.offset = h.offset, s.size = h.size, s.link = h.link, s.info = h.info;
        s.addralign = h.addralign, s.entsize = h.entsize;
    } else {
        auto h = load<Shdr32>(p);
        s.nameOffset = h.name, s.type = h.type, s.flags = h.flags, s.addr = h.addr;
        s.offset = h.offset, s.size = h.size, s.link = h.link, s.info = h.info;
        s.addralign = h.addralign, s.entsize = h.entsize;
    }
    return s;
}

ElfSymbol decodeSymbol(const uint8_t *p, bool is64) {
    ElfSymbol sym;
    if (is64) {
        auto s = load<Sym64>(p);
        sym.nameOffset = s.name, sym.info = s.info, sym.other = s.other;
        sym.rawShndx = s.shndx, sym.value = s.value, sym.size = s.size;
    } else {
        auto s = load<Sym32>(p);
        sym.nameOffset = s.name, sym.info = s.info, sym.other = s.other;
        sym.rawShndx = s.shndx, sym.value = s.value, sym.size = s.size;
    }
    return sym;
}

ElfReloc decodeReloc(const uint8_t *p, bool is64, bool isRela) {
    ElfReloc r;
    if (is64) {
        r.offset = load<uint64_t>(p);
        uint64_t info = load<uint64_t>(p + 8);
        r.symbol = static_cast<uint32_t>(info >> 32);
        r.type = static_cast<uint32_t>(info);
        if (isRela)
            r.addend = load<int64_t>(p + 16);
    } else {
        r.offset = load<uint32_t>(p);
        uint32_t info = load<uint32_t>(p + 4);
        r.symbol = info >> 8;
        r.type = info & 0xFF;
        if (isRela)
            r.addend = load<int32_t>(p + 8);
    }
    return r;
}

ElfProgramHeader decodeProgramHeader(const uint8_t *p, bool is64) {
    ElfProgramHeader ph;
    if (is64) {
        auto h = load<Phdr64>(p);
        ph.type = h.type, ph.flags = h.flags, ph.offset = h.offset, ph.vaddr = h.vaddr;
        ph.paddr = h.paddr, ph.filesz = h.filesz, ph.memsz = h.memsz, ph.align = h.align;
    } else {
        auto h = load<Phdr32>(p);
        ph.type = h.type, ph.flags = h.flags, ph.offset = h.offset, ph.vaddr = h.vaddr;
        ph.paddr = h.paddr, ph.filesz = h.filesz, ph.memsz = h.memsz, ph.align = h.align;
    }
    return ph;
}

uint64_t relocEntrySize(bool is64, bool isRela) {
    if (is64)
        return isRela ? 24 : 16;
    return isRela ? 12 : 8;
}

std::string describe(const ElfSection &s) {
    return "section [" + dec(s.index) + "] '" + std::string(s.name) + "'";
}

// Returns the NUL-terminated string at `offset` of `table`, or an error text
// (without the file name) in `error`.
std::string_view stringIn(const ElfSection &table, uint64_t offset, std::string &error) {
    if (offset >= table.data.size) {
        error = "offset " + hex(offset) + " is past the end of " + describe(table) + " (size " +
                hex(table.data.size) + ")";
        return {};
    }
    const char *begin = reinterpret_cast<const char *>(table.data.data) + offset;
    const void *nul = std::memchr(begin, 0, table.data.size - offset);
    if (!nul) {
        error = "string at offset " + hex(offset) + " is not NUL-terminated inside " +
                describe(table);
        return {};
    }
    return std::string_view(begin, static_cast<const char *>(nul) - begin);
}

} // namespace

// Walks the file once, filling an ElfFile and throwing at the first defect.
class ElfFileParser {
public:
    ElfFileParser(ElfFile &file, const ElfParseOptions &options) : file_(file), options_(options) {}

    void run() {
        parseHeader();
        parseSectionHeaderTable();
        parseProgramHeaderTable();
        resolveSectionNames();
        checkNullSection();
        checkAlignments();
        checkSectionData();
        checkOverlaps();
        parseSymbolTables();
        checkRelocationSections();
    }

    // Shared with ElfFile::symbolsOf(): decodes and validates one table.
    static std::vector<ElfSymbol> decodeSymbols(const ElfFile &file, const ElfSection &symtab);

private:
    [[noreturn]] void fail(const std::string &what) const { throw FatalError(file_.name_ + ": " + what); }

    uint64_t fileSize() const { return file_.bytes_.size; }
    const uint8_t *at(uint64_t offset) const { return file_.bytes_.data + offset; }
    bool is64() const { return file_.header_.elfClass == ELFCLASS64; }
    uint64_t ehdrSize() const { return is64() ? sizeof(Ehdr64) : sizeof(Ehdr32); }
    uint64_t shdrSize() const { return is64() ? sizeof(Shdr64) : sizeof(Shdr32); }
    uint64_t phdrSize() const { return is64() ? sizeof(Phdr64) : sizeof(Phdr32); }

    void parseHeader();
    void decodeHeaderFields();
    void parseSectionHeaderTable();
    void parseProgramHeaderTable();
    void resolveSectionNames();
    void checkNullSection();
    void checkAlignments();
    void checkSectionData();
    void checkOverlaps();
    void parseSymbolTables();
    void checkRelocationSections();
    void checkRelocationSection(const ElfSection &rel);

    // For host objects the CUDA section types mean nothing (see
    // ElfParseOptions), so these predicates fall back to the standard ones.
    bool isCudaMachine() const { return file_.header_.machine == EM_CUDA; }
    bool hasFileData(const ElfSection &s) const {
        return isCudaMachine() ? s.hasFileData() : s.type != SHT_NOBITS;
    }
    bool isSymbolTable(const ElfSection &s) const {
        return isCudaMachine() ? s.isSymbolTable() : s.type == SHT_SYMTAB;
    }
    bool isRelocation(const ElfSection &s) const {
        return isCudaMachine() ? s.isRelocation() : s.type == SHT_REL || s.type == SHT_RELA;
    }

    ElfFile &file_;
    ElfParseOptions options_;
};

void ElfFileParser::parseHeader() {
    const uint64_t size = fileSize();
    if (size < kIdentSize)
        fail("file too small for an ELF header (" + dec(size) + " bytes)");
    const uint8_t *ident = at(0);
    if (ident[0] != 0x7F || ident[1] != 'E' || ident[2] != 'L' || ident[3] != 'F')
        fail("not an ELF file (bad magic)");
    if (ident[4] != ELFCLASS32 && ident[4] != ELFCLASS64)
        fail("unsupported ELF class " + dec(ident[4]));
    if (ident[5] != ELFDATA2LSB)
        fail("unsupported ELF data encoding " + dec(ident[5]) + " (only little-endian is supported)");
    file_.header_.elfClass = ident[4];
    if (size < ehdrSize())
        fail("file too small for an ELF header (" + dec(size) + " bytes)");
    decodeHeaderFields();
    if (file_.header_.machine != EM_CUDA && !options_.allowHostMachines)
        fail("not a CUDA device ELF (e_machine " + dec(file_.header_.machine) + ")");
}

void ElfFileParser::decodeHeaderFields() {
    ElfHeader &h = file_.header_;
    std::memcpy(h.ident, at(0), sizeof h.ident);
    h.osabi = h.ident[7];
    h.abiVersion = h.ident[8];
    auto fill = [&](const auto &e) {
        h.type = e.type, h.machine = e.machine, h.version = e.version;
        h.entry = e.entry, h.phoff = e.phoff, h.shoff = e.shoff, h.flags = e.flags;
        h.ehsize = e.ehsize, h.phentsize = e.phentsize, h.phnum = e.phnum;
        h.shentsize = e.shentsize, h.rawShnum = e.shnum, h.rawShstrndx = e.shstrndx;
    };
    if (is64())
        fill(load<Ehdr64>(at(0)));
    else
        fill(load<Ehdr32>(at(0)));
}

void ElfFileParser::parseSectionHeaderTable() {
    ElfHeader &h = file_.header_;
    if (h.shoff == 0) {
        if (h.rawShnum != 0)
            fail("e_shnum is " + dec(h.rawShnum) + " but e_shoff is 0");
        if (h.rawShstrndx != SHN_UNDEF)
            fail("e_shstrndx is " + dec(h.rawShstrndx) + " but the file has no section headers");
        return;
    }
    if (h.shentsize != shdrSize())
        fail("e_shentsize is " + dec(h.shentsize) + ", expected " + dec(shdrSize()));
    if (h.shoff < ehdrSize())
        fail("section header table (offset " + hex(h.shoff) + ") overlaps the ELF header");
    if (!fitsIn(h.shoff, shdrSize(), fileSize()))
        fail("section header table (offset " + hex(h.shoff) + ") runs past end of file (size " +
             hex(fileSize()) + ")");

    // Section 0 holds the real count and string-table index when they do not
    // fit the 16-bit header fields.
    ElfSection first = decodeSection(at(h.shoff), is64());
    uint64_t count = h.rawShnum != 0 ? h.rawShnum : first.size;
    if (count == 0)
        fail("e_shnum is 0 and section 0 does not hold the section count");
    if (count > (fileSize() - h.shoff) / shdrSize())
        fail("section header table (offset " + hex(h.shoff) + ", " + dec(count) + " entries of " +
             dec(shdrSize()) + " bytes) runs past end of file (size " + hex(fileSize()) + ")");
    h.shnum = static_cast<uint32_t>(count);
    h.shstrndx = h.rawShstrndx == SHN_XINDEX ? first.link : h.rawShstrndx;

    auto &sections = file_.sections_;
    sections.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        sections.push_back(decodeSection(at(h.shoff + i * shdrSize()), is64()));
        sections.back().index = i;
    }
}

void ElfFileParser::parseProgramHeaderTable() {
    const ElfHeader &h = file_.header_;
    if (h.phnum == 0)
        return;
    if (h.phentsize != phdrSize())
        fail("e_phentsize is " + dec(h.phentsize) + ", expected " + dec(phdrSize()));
    if (!fitsIn(h.phoff, uint64_t(h.phnum) * phdrSize(), fileSize()))
        fail("program header table (offset " + hex(h.phoff) + ", " + dec(h.phnum) +
             " entries of " + dec(phdrSize()) + " bytes) runs past end of file (size " +
             hex(fileSize()) + ")");
    if (h.phoff < ehdrSize())
        fail("program header table (offset " + hex(h.phoff) + ") overlaps the ELF header");
    for (uint32_t i = 0; i < h.phnum; ++i) {
        ElfProgramHeader ph = decodeProgramHeader(at(h.phoff + i * phdrSize()), is64());
        if (!fitsIn(ph.offset, ph.filesz, fileSize()))
            fail("program header " + dec(i) + ": segment (offset " + hex(ph.offset) + ", size " +
                 hex(ph.filesz) + ") runs past end of file (size " + hex(fileSize()) + ")");
        file_.programHeaders_.push_back(ph);
    }
}

void ElfFileParser::resolveSectionNames() {
    auto &sections = file_.sections_;
    const uint32_t index = file_.header_.shstrndx;
    if (sections.empty() || index == SHN_UNDEF)
        return; // no names; all sections stay anonymous
    if (index >= sections.size())
        fail("section name string table index " + dec(index) + " is out of range (" +
             dec(sections.size()) + " sections)");
    ElfSection &names = sections[index];
    if (names.type != SHT_STRTAB)
        fail("section [" + dec(index) + "] named by e_shstrndx is not a string table (type " +
             hex(names.type) + ")");
    if (!fitsIn(names.offset, names.size, fileSize()))
        fail("section [" + dec(index) + "] (section name string table): data (offset " +
             hex(names.offset) + ", size " + hex(names.size) + ") runs past end of file (size " +
             hex(fileSize()) + ")");
    names.data = ByteView{at(names.offset), names.size};

    // The table's own name first, so that messages below can use it.
    std::string error;
    names.name = stringIn(names, names.nameOffset, error);
    if (!error.empty())
        fail("section [" + dec(index) + "]: name " + error);
    for (ElfSection &s : sections) {
        if (s.nameOffset == 0 && names.size == 0)
            continue;
        s.name = stringIn(names, s.nameOffset, error);
        if (!error.empty())
            fail("section [" + dec(s.index) + "]: name " + error);
    }
}

// Section 0 is never a real section: it may only carry the extended section
// count (sh_size) and name-table index (sh_link). Anything else in it would
// be decoded as a table without data.
void ElfFileParser::checkNullSection() {
    if (file_.sections_.empty())
        return;
    const ElfSection &first = file_.sections_.front();
    if (first.type != SHT_NULL)
        fail("section [0] is not SHT_NULL (type " + hex(first.type) + ")");
}

// Every layout computation aligns by sh_addralign: it must be 0, 1 or a power
// of two, and not absurdly large (nvcc emits up to the __align__ the user
// wrote; 2^24 leaves room for any real one).
void ElfFileParser::checkAlignments() {
    for (const ElfSection &s : file_.sections_) {
        if (s.index == 0)
            continue;
        if (s.addralign & (s.addralign - 1))
            fail(describe(s) + ": alignment " + hex(s.addralign) + " is not a power of two");
        if (s.addralign > kMaxSectionAlignment)
            fail(describe(s) + ": alignment " + hex(s.addralign) + " exceeds the limit of " +
                 hex(kMaxSectionAlignment));
    }
}

void ElfFileParser::checkSectionData() {
    for (ElfSection &s : file_.sections_) {
        if (s.index == 0 || !hasFileData(s))
            continue;
        if (!fitsIn(s.offset, s.size, fileSize()))
            fail(describe(s) + ": data (offset " + hex(s.offset) + ", size " + hex(s.size) +
                 ") runs past end of file (size " + hex(fileSize()) + ")");
        s.data = ByteView{at(s.offset), s.size};
    }
}

// Sections with file bytes must not overlap each other or the ELF metadata.
// The one exception is Mercury's alias sections (flagged SHF_CUDA_MERCURY),
// which name exactly the bytes of a SASS twin.
void ElfFileParser::checkOverlaps() {
    struct Range {
        uint64_t offset, size;
        const ElfSection *section; // null for the ELF's own tables
        const char *what;
    };
    const ElfHeader &h = file_.header_;
    std::vector<Range> ranges;
    ranges.reserve(file_.sections_.size() + 3);
    ranges.push_back({0, ehdrSize(), nullptr, "the ELF header"});
    if (h.shnum)
        ranges.push_back({h.shoff, h.shnum * shdrSize(), nullptr, "the section header table"});
    if (h.phnum)
        ranges.push_back({h.phoff, h.phnum * phdrSize(), nullptr, "the program header table"});
    for (const ElfSection &s : file_.sections_)
        if (s.index != 0 && hasFileData(s) && s.size != 0)
            ranges.push_back({s.offset, s.size, &s, nullptr});
    std::sort(ranges.begin(), ranges.end(), [](const Range &a, const Range &b) {
        return a.offset != b.offset ? a.offset < b.offset : a.size < b.size;
    });

    auto name = [](const Range &r) {
        return r.section ? describe(*r.section) + " (offset " + hex(r.offset) + ", size " +
                               hex(r.size) + ")"
                         : std::string(r.what);
    };
    const bool cuda = isCudaMachine();
    auto isAlias = [cuda](const Range &a, const Range &b) {
        return cuda && a.section && b.section && a.offset == b.offset && a.size == b.size &&
               ((a.section->flags | b.section->flags) & SHF_CUDA_MERCURY);
    };
    const Range *furthest = nullptr;
    for (const Range &r : ranges) {
        if (furthest && r.offset < furthest->offset + furthest->size && !isAlias(*furthest, r)) {
            // Prefer a section as the subject: "section [4] '.x' overlaps the ELF header".
            const Range &subject = furthest->section ? *furthest : r;
            const Range &object = &subject == furthest ? r : *furthest;
            fail(name(subject) + " overlaps " + name(object));
        }
        if (!furthest || r.offset + r.size > furthest->offset + furthest->size)
            furthest = &r;
    }
}

void ElfFileParser::parseSymbolTables() {
    for (const ElfSection &s : file_.sections_) {
        if (!isSymbolTable(s))
            continue;
        std::vector<ElfSymbol> symbols = decodeSymbols(file_, s);
        if (s.type == SHT_SYMTAB && file_.symtabIndex_ == 0) {
            file_.symtabIndex_ = s.index;
            file_.symbols_ = std::move(symbols);
        }
    }
}

// The SHT_SYMTAB_SHNDX section that extends `symtab`, or nullptr.
static const ElfSection *findShndxTable(const ElfFile &file, const ElfSection &symtab) {
    for (const ElfSection &s : file.sections())
        if (s.type == SHT_SYMTAB_SHNDX && s.link == symtab.index)
            return &s;
    return nullptr;
}

[[noreturn]] static void failIn(const ElfFile &file, const ElfSection &section,
                                const std::string &what) {
    throw FatalError(file.name() + ": " + describe(section) + ": " + what);
}

std::vector<ElfSymbol> ElfFileParser::decodeSymbols(const ElfFile &file, const ElfSection &symtab) {
    auto fail = [&](const std::string &what) { failIn(file, symtab, what); };
    const bool is64 = file.is64();
    const uint64_t entsize = is64 ? sizeof(Sym64) : sizeof(Sym32);
    if (symtab.entsize != entsize)
        fail("entry size " + dec(symtab.entsize) + ", expected " + dec(entsize));
    if (symtab.size % entsize != 0)
        fail("size " + hex(symtab.size) + " is not a multiple of the entry size " + dec(entsize));
    const auto &sections = file.sections();
    if (symtab.link >= sections.size() || sections[symtab.link].type != SHT_STRTAB)
        fail("sh_link " + dec(symtab.link) + " is not a string table");
    const ElfSection &strtab = sections[symtab.link];

    const uint64_t count = symtab.size / entsize;
    const ElfSection *shndxTable = findShndxTable(file, symtab);
    if (shndxTable && (shndxTable->data.size / 4 < count || shndxTable->entsize != 4))
        throw FatalError(file.name() + ": " + describe(*shndxTable) + ": too small for the " +
                         dec(count) + " symbols of " + describe(symtab) + " or entry size not 4");

    std::vector<ElfSymbol> symbols;
    symbols.reserve(count);
    std::string error;
    for (uint32_t i = 0; i < count; ++i) {
        ElfSymbol sym = decodeSymbol(symtab.data.data + i * entsize, is64);
        sym.index = i;
        sym.name = stringIn(strtab, sym.nameOffset, error);
        if (!error.empty())
            fail("symbol " + dec(i) + ": name " + error);
        sym.shndx = sym.rawShndx;
        if (sym.rawShndx == SHN_XINDEX) {
            if (!shndxTable)
                fail("symbol " + dec(i) + " '" + std::string(sym.name) +
                     "' uses SHN_XINDEX but there is no SHT_SYMTAB_SHNDX section");
            sym.shndx = load<uint32_t>(shndxTable->data.data + i * 4);
        }
        bool special = sym.rawShndx == SHN_UNDEF || sym.rawShndx == SHN_ABS ||
                       sym.rawShndx == SHN_COMMON;
        if (!special && sym.shndx >= sections.size())
            fail("symbol " + dec(i) + " '" + std::string(sym.name) + "': section index " +
                 dec(sym.shndx) + " is out of range (" + dec(sections.size()) + " sections)");
        symbols.push_back(sym);
    }
    return symbols;
}

void ElfFileParser::checkRelocationSections() {
    for (const ElfSection &s : file_.sections_)
        if (isRelocation(s))
            checkRelocationSection(s);
}

void ElfFileParser::checkRelocationSection(const ElfSection &rel) {
    const uint64_t entsize = relocEntrySize(is64(), rel.isRela());
    if (rel.entsize != entsize)
        fail(describe(rel) + ": entry size " + dec(rel.entsize) + ", expected " + dec(entsize));
    if (rel.size % entsize != 0)
        fail(describe(rel) + ": size " + hex(rel.size) + " is not a multiple of the entry size " +
             dec(entsize));
    const auto &sections = file_.sections_;
    if (rel.link >= sections.size() || !isSymbolTable(sections[rel.link]))
        fail(describe(rel) + ": sh_link " + dec(rel.link) + " is not a symbol table");
    if (rel.infoIndex() == 0 || rel.infoIndex() >= sections.size())
        fail(describe(rel) + ": sh_info " + dec(rel.infoIndex()) +
             " does not name an existing section (" + dec(sections.size()) + " sections)");
    // Relocations patch code or data, never the ELF's own tables.
    const ElfSection &target = sections[rel.infoIndex()];
    if (isRelocation(target) || isSymbolTable(target) || target.type == SHT_STRTAB ||
        target.type == SHT_SYMTAB_SHNDX)
        fail(describe(rel) + ": sh_info names " + describe(target) +
             ", which relocations cannot patch");

    const ElfSection &symtab = sections[rel.link];
    const uint64_t symbolCount = symtab.size / symtab.entsize; // validated above
    for (uint64_t i = 0; i < rel.size / entsize; ++i) {
        ElfReloc r = decodeReloc(rel.data.data + i * entsize, is64(), rel.isRela());
        if (r.symbol >= symbolCount)
            fail(describe(rel) + ": relocation " + dec(i) + ": symbol index " + dec(r.symbol) +
                 " is out of range (" + dec(symbolCount) + " symbols in " + describe(symtab) +
                 ")");
    }
}

ElfFile ElfFile::parse(std::string name, ByteView bytes) {
    return parse(std::move(name), bytes, ElfParseOptions{});
}

ElfFile ElfFile::parse(std::string name, ByteView bytes, const ElfParseOptions &options) {
    ElfFile file;
    file.name_ = std::move(name);
    file.bytes_ = bytes;
    ElfFileParser(file, options).run();
    return file;
}

const ElfSection *ElfFile::findSection(std::string_view sectionName) const {
    for (const ElfSection &s : sections_)
        if (s.name == sectionName)
            return &s;
    return nullptr;
}

std::vector<ElfReloc> ElfFile::relocations(const ElfSection &rel) const {
    if (!rel.isRelocation())
        throw FatalError(name_ + ": " + describe(rel) + " is not a relocation section");
    const uint64_t entsize = relocEntrySize(is64(), rel.isRela());
    std::vector<ElfReloc> relocs;
    relocs.reserve(rel.data.size / entsize);
    for (uint64_t offset = 0; offset + entsize <= rel.data.size; offset += entsize)
        relocs.push_back(decodeReloc(rel.data.data + offset, is64(), rel.isRela()));
    return relocs;
}

std::vector<ElfSymbol> ElfFile::symbolsOf(const ElfSection &symtab) const {
    if (!symtab.isSymbolTable())
        throw FatalError(name_ + ": " + describe(symtab) + " is not a symbol table");
    return ElfFileParser::decodeSymbols(*this, symtab);
}

std::string_view ElfFile::stringAt(const ElfSection &strtab, uint32_t offset) const {
    std::string error;
    std::string_view s = stringIn(strtab, offset, error);
    if (!error.empty())
        throw FatalError(name_ + ": string " + error);
    return s;
}

} // namespace culd
