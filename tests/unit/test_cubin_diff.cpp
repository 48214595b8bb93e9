// CubinDiff on real nvlink output: a file against itself, against copies
// changed only in numbering or order (equivalent), and against copies with
// one real change (different, and the difference names what changed).
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

// EIATTR_EXTERNS is a set for the loader: order does not count, but a name
// present on one side only does (62-externs-order: k lists free and malloc).
TEST_CASE("cubin diff: EXTERNS members compare as a set by name", "[cubindiff]") {
    const std::string path = std::string(CULD_FIXTURES_DIR) + "/62-externs-order/sm_80/nvlink.cubin";
    std::vector<uint8_t> bytes = readFile(path), copy = bytes;
    ElfFile f = parse(bytes, "A");
    const ElfSection &info = sectionNamed(f, ".nv.info._Z1kPi");
    constexpr uint8_t EIATTR_EXTERNS = 0x0F;
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
