// CubinDiff on real nvlink output: a file against itself, against copies
// changed only in numbering or order (equivalent), and against copies with
// one real change (different, and the difference names what changed).
#include "LinkUtil.h"

#include "culd/CubinDiff.h"
#include "culd/Diagnostics.h"
#include "culd/Elf.h"
#include "culd/ElfFile.h"
#include "culd/NvInfo.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace culd;

namespace {

const std::string kCase = std::string(CULD_FIXTURES_DIR) + "/02-cross-file-call/";
const std::string kSm90 = kCase + "sm_90/nvlink.cubin";

std::vector<uint8_t> readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

ElfFile parse(const std::vector<uint8_t> &bytes, const std::string &name) {
    return ElfFile::parse(name, ByteView{bytes.data(), bytes.size()});
}

CubinDiffResult diffBytes(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b,
                          const CubinDiffOptions &options = {}) {
    ElfFile fa = parse(a, "A"), fb = parse(b, "B");
    return diffCubins(fa, fb, options);
}

std::string report(const CubinDiffResult &r) {
    std::ostringstream out;
    printDiffReport(out, r, SIZE_MAX);
    return out.str();
}

bool mentions(const CubinDiffResult &r, DiffKind kind, const std::string &text) {
    return std::any_of(r.differences.begin(), r.differences.end(), [&](const CubinDifference &d) {
        return d.kind == kind && d.str().find(text) != std::string::npos;
    });
}

template <class T> T load(const std::vector<uint8_t> &bytes, uint64_t offset) {
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

template <class T> void store(std::vector<uint8_t> &bytes, uint64_t offset, const T &value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

const ElfSection &sectionNamed(const ElfFile &f, std::string_view name) {
    const ElfSection *s = f.findSection(name);
    REQUIRE(s != nullptr);
    return *s;
}

uint64_t sectionHeaderOffset(const ElfFile &f, uint32_t index) {
    return f.header().shoff + uint64_t(index) * sizeof(elf::Shdr64);
}

// Renumbers symbols `x` and `y` of .symtab everywhere nvlink output refers
// to a symbol by index: the table itself, relocations, .nv.info payloads,
// .text sh_info, .nv.callgraph and .nv.prototype.
std::vector<uint8_t> swapSymbols(const std::vector<uint8_t> &original, uint32_t x, uint32_t y) {
    std::vector<uint8_t> out = original;
    ElfFile f = parse(original, "original");
    auto remap = [&](uint32_t i) { return i == x ? y : i == y ? x : i; };
    auto remapWord = [&](uint64_t offset) {
        store<uint32_t>(out, offset, remap(load<uint32_t>(original, offset)));
    };
    const ElfSection &symtab = f.section(f.symtabIndex());
    store(out, symtab.offset + x * sizeof(elf::Sym64),
          load<elf::Sym64>(original, symtab.offset + y * sizeof(elf::Sym64)));
    store(out, symtab.offset + y * sizeof(elf::Sym64),
          load<elf::Sym64>(original, symtab.offset + x * sizeof(elf::Sym64)));
    for (const ElfSection &s : f.sections()) {
        if (s.isRelocation()) {
            for (uint64_t e = s.offset + 12; e < s.offset + s.size; e += s.entsize)
                remapWord(e); // high half of r_info
        } else if (s.type == elf::SHT_CUDA_INFO) {
            for (const NvInfoRecord &r : parseNvInfo(s.data, {"original", s.name}))
                for (uint32_t off : symbolWordOffsets(r))
                    remapWord(s.offset + uint64_t(r.payload.data - s.data.data) + off);
        } else if (s.type == elf::SHT_CUDA_CALLGRAPH || s.type == elf::SHT_CUDA_PROTOTYPE) {
            bool bothSymbols = false;
            for (uint64_t e = 0; e < s.size; e += 8) {
                uint32_t a = load<uint32_t>(original, s.offset + e),
                         b = load<uint32_t>(original, s.offset + e + 4);
                if (s.type == elf::SHT_CUDA_CALLGRAPH && a == 0 && b >= 0xFFFFFFFCu) {
                    bothSymbols = b == 0xFFFFFFFFu || b == 0xFFFFFFFCu;
                    continue;
                }
                remapWord(s.offset + e);
                if (bothSymbols)
                    remapWord(s.offset + e + 4);
            }
        } else if (s.name.substr(0, 6) == ".text.") {
            uint64_t info = sectionHeaderOffset(f, s.index) + offsetof(elf::Shdr64, info);
            store<uint32_t>(out, info, (s.info & 0xFF000000u) | remap(s.infoIndex()));
        }
    }
    return out;
}

// Renumbers sections `x` and `y`: their headers trade places and every
// reference by index follows (st_shndx, sh_link, and sh_info where it names
// a section). Contents stay where they are.
std::vector<uint8_t> swapSectionHeaders(const std::vector<uint8_t> &original, uint32_t x,
                                        uint32_t y) {
    std::vector<uint8_t> out = original;
    ElfFile f = parse(original, "original");
    auto remap = [&](uint32_t i) { return i == x ? y : i == y ? x : i; };
    for (const ElfSection &s : f.sections()) {
        if (s.index == 0)
            continue;
        uint64_t header = sectionHeaderOffset(f, remap(s.index));
        store(out, header, load<elf::Shdr64>(original, sectionHeaderOffset(f, s.index)));
        store<uint32_t>(out, header + offsetof(elf::Shdr64, link), remap(s.link));
        if (s.isRelocation() || (s.flags & elf::SHF_INFO_LINK))
            store<uint32_t>(out, header + offsetof(elf::Shdr64, info), remap(s.info));
    }
    const ElfSection &symtab = f.section(f.symtabIndex());
    for (uint64_t e = symtab.offset; e < symtab.offset + symtab.size; e += sizeof(elf::Sym64)) {
        uint64_t at = e + offsetof(elf::Sym64, shndx);
        uint16_t shndx = load<uint16_t>(original, at);
        if (shndx != elf::SHN_UNDEF && shndx < elf::SHN_LORESERVE)
            store<uint16_t>(out, at, static_cast<uint16_t>(remap(shndx)));
    }
    return out;
}

std::string hex(uint64_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << value;
    return out.str();
}

uint32_t symbolIndex(const ElfFile &f, std::string_view name) {
    for (const ElfSymbol &s : f.symbols())
        if (s.name == name)
            return s.index;
    FAIL("no symbol " << name);
    return 0;
}

} // namespace

TEST_CASE("cubin diff: a file against itself is identical", "[cubindiff]") {
    CubinDiffResult r = diffCubinFiles(kSm90, kSm90);
    CHECK(r.verdict == CubinDiffVerdict::Identical);
    CHECK(r.differences.empty());
    CHECK(report(r) == "IDENTICAL\n");
}

TEST_CASE("cubin diff: swapped relocation entries are equivalent", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &rela = sectionNamed(f, ".rela.text._Z5applyPfPKfi");
    REQUIRE(rela.size >= 2 * rela.entsize);
    std::swap_ranges(copy.begin() + rela.offset, copy.begin() + rela.offset + rela.entsize,
                     copy.begin() + rela.offset + rela.entsize);
    REQUIRE(copy != bytes);
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Equivalent);
}

TEST_CASE("cubin diff: renumbered symbols are equivalent", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90);
    ElfFile f = parse(bytes, "A");
    // Two functions referenced from .nv.info, the call graph, relocations
    // and their .text sh_info.
    uint32_t x = symbolIndex(f, "_Z6clampiiii"), y = symbolIndex(f, "_Z5scalefi");
    std::vector<uint8_t> copy = swapSymbols(bytes, x, y);
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Equivalent);

    SECTION("but not in strict order") {
        CubinDiffOptions strict;
        strict.strictOrder = true;
        CubinDiffResult s = diffBytes(bytes, copy, strict);
        CHECK(s.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(s, DiffKind::Symbol, "symbol order"));
    }
}

TEST_CASE("cubin diff: code order is reported on request only", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90);
    ElfFile f = parse(bytes, "A");
    // Two .text sections trade places (headers, names and sh_info with them).
    uint32_t x = sectionNamed(f, ".text._Z6clampiiii").index,
             y = sectionNamed(f, ".text._Z5scalefi").index;
    std::vector<uint8_t> copy = swapSectionHeaders(bytes, x, y);
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Equivalent);

    CubinDiffOptions code;
    code.codeOrder = true;
    CubinDiffResult c = diffBytes(bytes, copy, code);
    INFO(report(c));
    CHECK(c.verdict == CubinDiffVerdict::Different);
    CHECK(mentions(c, DiffKind::Section, "code order"));
}

TEST_CASE("cubin diff: the linker's own tkinfo record is not compared", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &note = sectionNamed(f, ".note.nv.tkinfo");
    auto first = copy.begin() + note.offset;
    // nvlink's record comes first; its options string says "-arch sm_90".
    auto at = std::search(first, first + note.size, std::begin("-arch"), std::end("-arch") - 1);
    REQUIRE(at != first + note.size);
    at[1] = 'A';
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Equivalent);
}

TEST_CASE("cubin diff: one bit of code is a difference naming the section", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    copy[sectionNamed(f, ".text._Z5scalefi").offset + 0x20] ^= 0x01;
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Different);
    CHECK(mentions(r, DiffKind::Section, "section '.text._Z5scalefi': content differs at offset 0x20"));
}

TEST_CASE("cubin diff: a changed relocation is a difference naming it", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &rela = sectionNamed(f, ".rela.text._Z5applyPfPKfi");
    ElfReloc first = f.relocations(rela).at(0);
    const std::string subject = "relocation section '.rela.text._Z5applyPfPKfi'";

    SECTION("type") {
        copy[rela.offset + 8] ^= 0x01; // low byte of r_info = type
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Relocation, subject + ": entry (offset " + hex(first.offset)));
    }
    SECTION("offset") {
        copy[rela.offset] ^= 0x10;
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Relocation, subject + ": entry (offset " + hex(first.offset)));
    }
}

TEST_CASE("cubin diff: a changed st_value is a difference naming the symbol", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    uint32_t sym = symbolIndex(f, "_Z5scalefi");
    uint64_t at = f.section(f.symtabIndex()).offset + sym * sizeof(elf::Sym64) +
                  offsetof(elf::Sym64, value);
    store<uint64_t>(copy, at, load<uint64_t>(bytes, at) + 0x80);
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Different);
    CHECK(mentions(r, DiffKind::Symbol, "symbol '_Z5scalefi': value"));
}

// nvlink names every section symbol after its section (in .strtab); culd
// wrote them unnamed for a long time, which the comparison did not see.
TEST_CASE("cubin diff: a section symbol's name is compared", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSymbol *section = nullptr;
    for (const ElfSymbol &s : f.symbols())
        if (s.type() == elf::STT_SECTION && !section)
            section = &s;
    REQUIRE(section);
    REQUIRE(!section->name.empty());
    uint64_t at = f.section(f.symtabIndex()).offset + section->index * sizeof(elf::Sym64) +
                  offsetof(elf::Sym64, name);
    store<uint32_t>(copy, at, 0);
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Different);
    CHECK(mentions(r, DiffKind::Symbol, "(section)': name"));
}

TEST_CASE("cubin diff: outputs for two archs differ in the header", "[cubindiff]") {
    CubinDiffResult r = diffCubinFiles(kCase + "sm_89/nvlink.cubin", kSm90);
    CHECK(r.verdict == CubinDiffVerdict::Different);
    CHECK(mentions(r, DiffKind::Header, "e_flags (bits 0-23) 0x5904 vs 0x5a04"));
    std::ostringstream out;
    printDiffReport(out, r, 2);
    CHECK(out.str().find("more difference(s)") != std::string::npos);
}

TEST_CASE("cubin diff: ignored sections are skipped", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    copy[sectionNamed(f, ".text._Z5scalefi").offset] ^= 0x01;
    CubinDiffOptions options;
    options.ignoredSections = {".text._Z5scalefi"};
    CHECK(diffBytes(bytes, copy, options).verdict == CubinDiffVerdict::Equivalent);
}

TEST_CASE("cubin diff: an unreadable file is an error", "[cubindiff]") {
    CHECK_THROWS_AS(diffCubinFiles(kCase + "no-such-arch/nvlink.cubin", kSm90), FatalError);
    CHECK_THROWS_AS(diffCubinFiles(kCase + "sm_90/cmd", kSm90), FatalError);
}

// ------------------------------------------------------------------------
// Each tolerance of culd-diff (docs/culd-diff.md) with a difference it
// forgives, which the driver cannot observe, next to one it must report.

namespace {

const std::string kFuncPtr = std::string(CULD_FIXTURES_DIR) + "/87-funcptr-banks/sm_90/nvlink.cubin";
const std::string kExterns = std::string(CULD_FIXTURES_DIR) + "/62-externs-order/sm_90/nvlink.cubin";

// Removes `n` bytes at `at` inside section `s` (shifting the rest of the
// section down and shrinking sh_size); the freed tail is not in any section.
void removeBytes(std::vector<uint8_t> &bytes, const ElfFile &f, const ElfSection &s, uint64_t at,
                 uint64_t n) {
    REQUIRE(at + n <= s.size);
    auto first = bytes.begin() + s.offset;
    std::copy(first + at + n, first + s.size, first + at);
    std::fill(first + s.size - n, first + s.size, 0);
    uint64_t size = sectionHeaderOffset(f, s.index) + offsetof(elf::Shdr64, size);
    store<uint64_t>(bytes, size, s.size - n);
}

void swapRanges(std::vector<uint8_t> &bytes, uint64_t x, uint64_t y, uint64_t n) {
    std::swap_ranges(bytes.begin() + x, bytes.begin() + x + n, bytes.begin() + y);
}

// Offsets (inside .nv.callgraph) of the records of one group.
std::vector<uint64_t> callgraphRecords(const std::vector<uint8_t> &bytes, const ElfSection &s,
                                       uint32_t marker) {
    std::vector<uint64_t> records;
    uint32_t group = 0;
    for (uint64_t e = 0; e < s.size; e += 8) {
        uint32_t a = load<uint32_t>(bytes, s.offset + e), b = load<uint32_t>(bytes, s.offset + e + 4);
        if (a == 0 && b >= 0xFFFFFFFCu)
            group = b;
        else if (group == marker)
            records.push_back(e);
    }
    return records;
}

} // namespace

TEST_CASE("cubin diff: .nv.callgraph is a multiset", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kFuncPtr), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &cg = sectionNamed(f, ".nv.callgraph");
    std::vector<uint64_t> indirect = callgraphRecords(bytes, cg, 0xFFFFFFFDu);
    // kp calls through `#iii` twice: two identical records (case 87).
    uint64_t first = 0, second = 0;
    for (size_t i = 0; i < indirect.size() && !second; ++i)
        for (size_t j = i + 1; j < indirect.size() && !second; ++j)
            if (load<uint64_t>(bytes, cg.offset + indirect[i]) ==
                load<uint64_t>(bytes, cg.offset + indirect[j]))
                first = indirect[i], second = indirect[j];
    REQUIRE(second != 0);

    SECTION("a missing repeated indirect-call record is reported") {
        removeBytes(copy, f, cg, second, 8);
        CubinDiffResult r = diffBytes(copy, bytes);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Record, "record indirect call sites: '_Z2kpPiii' prototype"));
        CHECK(mentions(r, DiffKind::Section, "section '.nv.callgraph': size"));
    }
    SECTION("records of one group in another order are equivalent") {
        // The loader builds a graph from the edges; their order is not read.
        REQUIRE(indirect.size() >= 3);
        uint64_t other = indirect[0] == first ? indirect.back() : indirect[0];
        swapRanges(copy, cg.offset + first, cg.offset + other, 8);
        REQUIRE(copy != bytes);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("a record moved into another group is reported") {
        std::vector<uint64_t> taken = callgraphRecords(bytes, cg, 0xFFFFFFFEu);
        REQUIRE(!taken.empty());
        // The last address-taken record and the indirect marker after it
        // trade places: the record now says "indirect call site".
        uint64_t record = taken.back(), markerAt = record + 8;
        REQUIRE(load<uint32_t>(bytes, cg.offset + markerAt + 4) == 0xFFFFFFFDu);
        swapRanges(copy, cg.offset + record, cg.offset + markerAt, 8);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Record, "address-taken"));
    }
}

TEST_CASE("cubin diff: .nv.prototype is a multiset", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &proto = sectionNamed(f, ".nv.prototype");
    REQUIRE(proto.size == 16);
    SECTION("entries in another order are equivalent") {
        swapRanges(copy, proto.offset, proto.offset + 8, 8);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("an entry repeated in place of another is reported") {
        std::copy(copy.begin() + proto.offset, copy.begin() + proto.offset + 8,
                  copy.begin() + proto.offset + 8);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Record, "section '.nv.prototype': record '_Z6clampiiii'"));
    }
}

TEST_CASE("cubin diff: EXTERNS is compared as a set of names", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kExterns), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection *info = nullptr;
    const NvInfoRecord *externs = nullptr;
    std::vector<NvInfoRecord> records;
    for (const ElfSection &s : f.sections()) {
        if (s.type != elf::SHT_CUDA_INFO || s.name == ".nv.info")
            continue;
        records = parseNvInfo(s.data, {"A", s.name});
        for (const NvInfoRecord &r : records)
            if (r.code == 0x0F && r.wordCount() == 2)
                info = &s, externs = &r;
        if (externs)
            break;
    }
    REQUIRE(externs != nullptr);
    uint64_t words = info->offset + uint64_t(externs->payload.data - info->data.data);
    SECTION("its names in another order are equivalent") {
        // The loader resolves every name; the order decides nothing.
        swapRanges(copy, words, words + 4, 4);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("another member is reported") {
        store<uint32_t>(copy, words + 4, externs->word(0)); // {malloc, malloc}
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Record, "EIATTR_EXTERNS"));
    }
}

TEST_CASE("cubin diff: the module .nv.info is a multiset of records", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &info = sectionNamed(f, ".nv.info");
    // Records 0 and 1: FRAME_SIZE and REGCOUNT of one kernel, 12 bytes each.
    std::vector<NvInfoRecord> records = parseNvInfo(info.data, {"A", ".nv.info"});
    REQUIRE(records.size() >= 2);
    REQUIRE(records[1].offset == 12);
    REQUIRE(records[2].offset == 24);
    SECTION("records in another order are equivalent") {
        // Each record names its function; the driver looks them up by it.
        swapRanges(copy, info.offset, info.offset + 12, 12);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("a changed register count is reported") {
        REQUIRE(records[1].code == 0x2F); // REGCOUNT
        copy[info.offset + 12 + 8] ^= 0x08;
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Record, "EIATTR_REGCOUNT"));
    }
}

TEST_CASE("cubin diff: where the headers lie is layout", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    SECTION("a moved section header table is equivalent") {
        // The loader finds sections through e_shoff, wherever it points.
        uint64_t shoff = f.header().shoff, size = uint64_t(f.header().shnum) * sizeof(elf::Shdr64);
        uint64_t moved = (copy.size() + 7) & ~uint64_t(7);
        copy.resize(moved + size);
        std::copy(bytes.begin() + shoff, bytes.begin() + shoff + size, copy.begin() + moved);
        store<uint64_t>(copy, offsetof(elf::Ehdr64, shoff), moved);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("a changed alignment is reported") {
        const ElfSection &text = sectionNamed(f, ".text._Z5scalefi");
        uint64_t align = sectionHeaderOffset(f, text.index) + offsetof(elf::Shdr64, addralign);
        store<uint64_t>(copy, align, 256);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Section, "section '.text._Z5scalefi': addralign"));
    }
}

TEST_CASE("cubin diff: a compiler's tkinfo record is compared", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &note = sectionNamed(f, ".note.nv.tkinfo");
    auto first = copy.begin() + note.offset, last = first + note.size;
    const char options[] = "-m 64"; // ptxas's options, not the linker's
    auto at = std::search(first, last, options, options + sizeof options - 1);
    REQUIRE(at != last);
    at[3] = '3';
    CubinDiffResult r = diffBytes(bytes, copy);
    INFO(report(r));
    CHECK(r.verdict == CubinDiffVerdict::Different);
    CHECK(mentions(r, DiffKind::Record, "tool 'ptxas'"));
}

TEST_CASE("cubin diff: .strtab is compared only where it is used", "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kSm90), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &strtab = sectionNamed(f, ".strtab");
    auto first = copy.begin() + strtab.offset, last = first + strtab.size;
    SECTION("a string nothing refers to is not compared") {
        // nvlink keeps the names of the __UFT/__UDT placeholders it removed;
        // no symbol, prototype or section points at them, so nothing reads them.
        for (const ElfSymbol &s : f.symbols())
            REQUIRE(s.name != "__UDT_OFFSET");
        const char unused[] = "__UDT_OFFSET";
        auto at = std::search(first, last, unused, unused + sizeof unused - 1);
        REQUIRE(at != last);
        at[2] = 'X';
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("a symbol's name is compared through the symbol") {
        first[f.symbols()[symbolIndex(f, "_Z5scalefi")].nameOffset + 3] = 'X';
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Symbol, "symbol '_Z5scalefi': only in A"));
    }
}

// EIATTR_EXTERNS is a set for the loader: order does not count, but a name
// present on one side only does (62-externs-order: k lists free and malloc).
TEST_CASE("cubin diff: EXTERNS members compare as a set by name", "[cubindiff]") {
    const std::string path = std::string(CULD_FIXTURES_DIR) + "/62-externs-order/sm_80/nvlink.cubin";
    std::vector<uint8_t> bytes = readFile(path), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &info = sectionNamed(f, ".nv.info._Z1kPi");
    uint64_t words = 0; // file offset of the record's symbol words
    for (const NvInfoRecord &r : parseNvInfo(info.data, {"A", info.name}))
        if (r.code == EIATTR_EXTERNS && r.payload.size == 8)
            words = info.offset + r.offset + 4;
    REQUIRE(words != 0);
    uint32_t first = load<uint32_t>(bytes, words), second = load<uint32_t>(bytes, words + 4);

    SECTION("the same names in another order are equivalent") {
        store<uint32_t>(copy, words, second);
        store<uint32_t>(copy, words + 4, first);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Equivalent);
    }
    SECTION("a name on one side only is a difference") {
        store<uint32_t>(copy, words + 4, symbolIndex(f, "_Z1fi"));
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Record, "'_Z1fi'"));
    }
    SECTION("a name listed twice instead of two names is a difference") {
        store<uint32_t>(copy, words + 4, first);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
    }
}

// A capsule's first word is the output index of its function's .text: it is
// compared by the section it names (two linkers may number sections
// differently), so naming another section is a difference, and the rest of
// the capsule is still compared byte for byte.
TEST_CASE("cubin diff: a capsule's first word is compared by the section it names",
          "[cubindiff]") {
    std::vector<uint8_t> bytes = readFile(kCase + "sm_100/nvlink.cubin"), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &capsule = sectionNamed(f, ".nv.capmerc.text._Z5scalefi");
    const uint32_t apply = sectionNamed(f, ".text._Z5applyPfPKfi").index;
    CHECK(diffBytes(bytes, copy).verdict == CubinDiffVerdict::Identical);

    SECTION("another section") {
        std::memcpy(copy.data() + capsule.offset, &apply, 4);
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Section, "capsule names section"));
    }
    SECTION("a byte after the first word") {
        copy[capsule.offset + 8] ^= 0x01;
        CubinDiffResult r = diffBytes(bytes, copy);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Section, "section '.nv.capmerc.text._Z5scalefi': content differs"));
    }
}

// sm_110's Mercury copy of reserved shared memory holds a copy of a
// .shstrtab header whose sh_size (at 0x60) is an offset into the file's own
// .shstrtab: compared by the string it points at. culd's string table is
// laid out differently from nvlink's, so the raw words differ while both
// name the first .nv.constant0 section; pointing at another string, or
// changing another byte of the section, is a difference.
TEST_CASE("cubin diff: the string-table size in sm_110's reserved copy is compared by name",
          "[cubindiff]") {
    const std::string dir = kCase + "sm_110/";
    culd::test::TempDir tmp;
    const std::string out = (tmp.path() / "culd.cubin").string();
    REQUIRE(culd::test::linkInProcess({"-arch=sm_110", dir + "lib.cubin", dir + "main.cubin",
                                       "-o", out}) == "ok");
    std::vector<uint8_t> nv = readFile(dir + "nvlink.cubin"), mine = readFile(out);
    ElfFile fn = parse(nv, "A"), fm = parse(mine, "B");
    const ElfSection &copyA = sectionNamed(fn, ".nv.merc.nv.shared.reserved.0");
    const ElfSection &copyB = sectionNamed(fm, ".nv.merc.nv.shared.reserved.0");
    const uint64_t atA = copyA.offset + 0x60, atB = copyB.offset + 0x60;
    REQUIRE(load<uint64_t>(nv, atA) == sectionNamed(fn, ".nv.constant0._Z5applyPfPKfi").nameOffset);
    REQUIRE(load<uint64_t>(mine, atB) ==
            sectionNamed(fm, ".nv.constant0._Z5applyPfPKfi").nameOffset);
    CHECK(load<uint64_t>(nv, atA) != load<uint64_t>(mine, atB));
    CHECK(diffBytes(nv, mine).verdict == CubinDiffVerdict::Equivalent);

    SECTION("another string") {
        store<uint64_t>(mine, atB, sectionNamed(fm, ".nv.shared.reserved.0").nameOffset);
        CubinDiffResult r = diffBytes(nv, mine);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Section, "string-table size copied at 0x60 points at"));
    }
    SECTION("another byte of the copy") {
        mine[copyB.offset + 0x70] ^= 0x02;
        CubinDiffResult r = diffBytes(nv, mine);
        INFO(report(r));
        CHECK(r.verdict == CubinDiffVerdict::Different);
        CHECK(mentions(r, DiffKind::Section,
                       "section '.nv.merc.nv.shared.reserved.0': content differs"));
    }
}
