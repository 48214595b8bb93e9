// Hostile inputs that once crashed culd, made it hang, allocate without
// bound, write a corrupt file or destroy an input (found by fuzzing): each
// must now end in one clear error, checked by its exact message, with no
// output left behind.

#include "LinkUtil.h"

#include "culd/Diagnostics.h"
#include "culd/Elf.h"
#include "culd/ElfWriter.h"
#include "culd/StringTable.h"
#include "culd/Fatbin.h"
#include "culd/Link.h"
#include "culd/Options.h"
#include "culd/PluginRegistry.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <sys/stat.h>

using namespace culd;
using namespace culd::test;

namespace {

const fs::path kMain = crossFileMain();
const fs::path kLib = crossFileLib();

std::string link(const std::vector<std::string> &args) { return linkInProcess(args); }

// A section header of a fixture cubin, editable in place.
struct CubinEditor {
    std::vector<uint8_t> bytes;
    explicit CubinEditor(const fs::path &path) : bytes(readFile(path)) { REQUIRE(!bytes.empty()); }

    elf::Shdr64 header(uint32_t index) const {
        elf::Shdr64 h;
        std::memcpy(&h, bytes.data() + shoff() + index * sizeof h, sizeof h);
        return h;
    }
    void setHeader(uint32_t index, const elf::Shdr64 &h) {
        std::memcpy(bytes.data() + shoff() + index * sizeof h, &h, sizeof h);
    }
    // Index of the section named `name`, else of the first whose name starts
    // with it.
    uint32_t find(const std::string &name) const {
        ElfFile f = ElfFile::parse("x", view(bytes));
        if (const ElfSection *s = f.findSection(name))
            return s->index;
        for (const ElfSection &s : f.sections())
            if (s.name.substr(0, name.size()) == name)
                return s.index;
        FAIL("no section " << name);
        return 0;
    }
    uint64_t shoff() const {
        uint64_t v;
        std::memcpy(&v, bytes.data() + 0x28, 8);
        return v;
    }
};

std::string linkEdited(TempDir &dir, const CubinEditor &edited, std::vector<std::string> extra = {}) {
    writeFile(dir / "bad.cubin", edited.bytes);
    std::vector<std::string> args = {"-arch=sm_80", (dir / "bad.cubin").string(), kLib.string(),
                                     "-o", (dir / "out.cubin").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::string message = link(args);
    CHECK_FALSE(fs::exists(dir / "out.cubin"));
    return message;
}

} // namespace

TEST_CASE("hostile: section 0 must be SHT_NULL", "[hostile]") {
    TempDir dir;
    for (uint32_t type : {elf::SHT_SYMTAB, elf::SHT_RELA}) {
        CubinEditor e(kMain);
        elf::Shdr64 h = e.header(0);
        h.type = type, h.link = 2, h.entsize = 24, h.size = 48;
        e.setHeader(0, h);
        CHECK(linkEdited(dir, e) == (dir / "bad.cubin").string() +
                                        ": section [0] is not SHT_NULL (type 0x" +
                                        std::to_string(type) + ")");
    }
}

TEST_CASE("hostile: alignments must be powers of two within the limit", "[hostile]") {
    TempDir dir;
    const std::string bad = (dir / "bad.cubin").string();
    CubinEditor e(kMain);
    const uint32_t text = e.find(".text.");
    elf::Shdr64 h = e.header(text);
    const std::string subject = bad + ": section [" + std::to_string(text) + "] '.text._Z5applyPfPKfi'";
    h.addralign = ~uint64_t(0);
    e.setHeader(text, h);
    CHECK(linkEdited(dir, e) == subject + ": alignment 0xffffffffffffffff is not a power of two");
    h.addralign = 24;
    e.setHeader(text, h);
    CHECK(linkEdited(dir, e) == subject + ": alignment 0x18 is not a power of two");
    h.addralign = uint64_t(1) << 31;
    e.setHeader(text, h);
    CHECK(linkEdited(dir, e) == subject + ": alignment 0x80000000 exceeds the limit of 0x1000000");
}

TEST_CASE("hostile: relocation sections must patch code or data", "[hostile]") {
    TempDir dir;
    const std::string bad = (dir / "bad.cubin").string();
    CubinEditor e(kMain);
    const uint32_t rela = e.find(".rela.text.");
    const uint32_t strtab = e.find(".strtab");
    elf::Shdr64 h = e.header(rela);
    const std::string subject = bad + ": section [" + std::to_string(rela) +
                                "] '.rela.text._Z5applyPfPKfi': sh_info names section [";
    h.info = rela;
    e.setHeader(rela, h);
    CHECK(linkEdited(dir, e) == subject + std::to_string(rela) +
                                    "] '.rela.text._Z5applyPfPKfi', which relocations cannot patch");
    h.info = strtab;
    e.setHeader(rela, h);
    CHECK(linkEdited(dir, e) == subject + std::to_string(h.info) +
                                    "] '.strtab', which relocations cannot patch");
}

TEST_CASE("hostile: a relocation against a section that is not linked", "[hostile]") {
    // The first relocation of .rela.text now names the section symbol of
    // .note.nv.tkinfo (symbol 1 in this fixture), which culd drops.
    TempDir dir;
    CubinEditor e(kMain);
    const elf::Shdr64 rela = e.header(e.find(".rela.text."));
    uint64_t info;
    std::memcpy(&info, e.bytes.data() + rela.offset + 8, 8);
    info = (uint64_t(1) << 32) | (info & 0xFFFFFFFF);
    std::memcpy(e.bytes.data() + rela.offset + 8, &info, 8);
    uint64_t offset;
    std::memcpy(&offset, e.bytes.data() + rela.offset, 8);
    char hexOffset[32];
    std::snprintf(hexOffset, sizeof hexOffset, "0x%llx", static_cast<unsigned long long>(offset));
    CHECK(linkEdited(dir, e) == (dir / "bad.cubin").string() +
                                    ": section '.rela.text._Z5applyPfPKfi': relocation at offset " +
                                    hexOffset + " refers to section '.note.nv.tkinfo', which is not linked");
}

TEST_CASE("hostile: shared variables' alignment and size are checked", "[hostile]") {
    // Fixture 14-static-shared has a kernel with a static __shared__ array.
    const fs::path shared = fixturesDir() / "14-static-shared" / "sm_80";
    std::vector<fs::path> cubins;
    for (auto &entry : fs::directory_iterator(shared))
        if (entry.path().extension() == ".cubin" && entry.path().filename() != "nvlink.cubin")
            cubins.push_back(entry.path());
    REQUIRE(!cubins.empty());
    CubinEditor e(cubins.front());
    ElfFile f = ElfFile::parse("x", view(e.bytes));
    const ElfSection &symtab = f.section(f.symtabIndex());
    bool edited = false;
    std::string name;
    for (const ElfSymbol &s : f.symbols())
        if ((s.other & 0xE0) == elf::STO_CUDA_SHARED && !s.isUndefined() && !edited) {
            uint64_t value = 0x30000000004ull;
            std::memcpy(e.bytes.data() + symtab.offset + s.index * sizeof(elf::Sym64) + 8, &value, 8);
            edited = true;
            name = std::string(s.name);
        }
    REQUIRE(edited);
    TempDir dir;
    writeFile(dir / "bad.cubin", e.bytes);
    CHECK(link({"-arch=sm_80", (dir / "bad.cubin").string(), "-o", (dir / "out.cubin").string()}) ==
          (dir / "bad.cubin").string() + ": shared variable '" + name +
              "': alignment (st_value) 3298534883332 is not a power of two up to 16777216");
}

TEST_CASE("hostile: a thin archive that names itself is ignored, as nvlink ignores it",
          "[hostile]") {
    // It once recursed until the stack overflowed. nvlink links only the
    // host objects of an archive, so the member (the archive) adds nothing.
    TempDir dir;
    std::string header = "self.a/";
    header.resize(16, ' ');
    header += "0           0     0     644     100       `\n";
    std::string archive = "!<thin>\n" + header;
    const std::string self = (dir / "self.a").string();
    writeFile(self, std::vector<uint8_t>(archive.begin(), archive.end()));
    ReportedLink r = linkReporting({"-arch=sm_80", self, "-o", (dir / "out.cubin").string()});
    CHECK(r.result == "ok");
    CHECK(r.lines == "culd info : ignoring archive member '" + self +
                         "' (thin archive content): nvlink links only the host objects of an "
                         "archive\n");
}

TEST_CASE("hostile: nested archives are ignored; member counts are bounded", "[hostile]") {
    TempDir dir;
    std::vector<uint8_t> nested = readFile(kMain);
    for (int level = 0; level < 3; ++level)
        nested = makeArchive({{"n" + std::to_string(level) + ".a", nested}});
    const std::string deep = (dir / "deep.a").string();
    writeFile(deep, nested);
    const std::string out = (dir / "out.cubin").string();
    ReportedLink r = linkReporting({"-arch=sm_80", deep, "-o", out});
    CHECK(r.result == "ok");
    CHECK(r.lines == "culd info : ignoring archive member '" + deep +
                         ":n2.a' (archive content): nvlink links only the host objects of an "
                         "archive\n");

    const std::vector<uint8_t> cubin = readFile(kMain);
    const std::string wide = (dir / "wide.a").string();
    writeFile(wide, makeArchive({{"a.cubin", cubin}, {"b.cubin", cubin}, {"c.cubin", cubin}}));
    fs::remove(out);
    CHECK(link({"-arch=sm_80", "--max-archive-members=2", wide, "-o", out}) ==
          wide + ": the link's archives hold more than 2 members (--max-archive-members)");
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("hostile: a FIFO is refused without blocking", "[hostile]") {
    TempDir dir;
    REQUIRE(::mkfifo((dir / "fifo.cubin").c_str(), 0600) == 0);
    CHECK(link({"-arch=sm_80", (dir / "fifo.cubin").string(), "-o", (dir / "out.cubin").string()}) ==
          (dir / "fifo.cubin").string() + ": cannot open: not a regular file");
}

TEST_CASE("hostile: the output may not be one of the inputs", "[hostile]") {
    TempDir dir;
    fs::copy_file(kMain, dir / "main.cubin");
    const std::vector<uint8_t> before = readFile(dir / "main.cubin");
    CHECK(link({"-arch=sm_80", (dir / "main.cubin").string(), kLib.string(), "-o",
                (dir / "main.cubin").string()}) ==
          "output file '" + (dir / "main.cubin").string() + "' is also an input ('" +
              (dir / "main.cubin").string() + "'); refusing to overwrite it");
    CHECK(readFile(dir / "main.cubin") == before);
}

TEST_CASE("hostile: decompressed bytes are bounded per link", "[hostile]") {
    TempDir dir;
    const std::string fatbin = (fs::path(CULD_SOURCE_DIR) / "tests" / "inputs" / "zstd-sm90.fatbin").string();
    std::string message = link({"-arch=sm_90", "--max-decompressed-size=1000", fatbin, "-o",
                                (dir / "out.cubin").string()});
    CHECK_THAT(message, Catch::StartsWith(fatbin + ": the sm_90 entry would decompress to "));
    CHECK_THAT(message, Catch::EndsWith(" bytes, past the link's limit of 1000 decompressed bytes "
                                        "(--max-decompressed-size)"));
    CHECK_FALSE(fs::exists(dir / "out.cubin"));
}

TEST_CASE("hostile: the output size is bounded", "[hostile]") {
    TempDir dir;
    const std::string out = (dir / "out.cubin").string();
    std::string message = link({"-arch=sm_80", "--max-output-size=1024", kMain.string(),
                                kLib.string(), "-o", out});
    CHECK_THAT(message, Catch::StartsWith(out + ": the output would be "));
    CHECK_THAT(message, Catch::EndsWith(" bytes, past the limit of 1024 (--max-output-size)"));
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("hostile: memory-only sections take no file space", "[hostile]") {
    // .nv.global describes memory, not file bytes: a 2 GiB one must neither
    // be materialised in a -r image nor make the output large.
    const fs::path globals = fixturesDir() / "10-device-globals" / "sm_80" / "globals.cubin";
    CubinEditor e(globals);
    const uint32_t global = e.find(".nv.global");
    elf::Shdr64 h = e.header(global);
    REQUIRE(h.type == elf::SHT_CUDA_GLOBAL);
    h.size = uint64_t(1) << 31;
    e.setHeader(global, h);
    TempDir dir;
    writeFile(dir / "big.cubin", e.bytes);
    const std::string out = (dir / "out.cubin").string();
    CHECK(link({"-arch=sm_80", "-r", "--max-output-size=1048576", (dir / "big.cubin").string(), "-o",
                out}) == "ok");
    const std::vector<uint8_t> bytes = readFile(out);
    ElfFile linked = ElfFile::parse(out, view(bytes));
    const ElfSection *merged = linked.findSection(".nv.global");
    REQUIRE(merged);
    CHECK(merged->size == h.size);
}

TEST_CASE("hostile: a lying LZ4 size is refused before it is allocated", "[hostile]") {
    std::vector<uint8_t> bytes = input("lz4-sm90.fatbin");
    std::vector<FatbinEntry> entries = parseFatbin(view(bytes), "lz4-sm90.fatbin");
    REQUIRE(!entries.empty());
    FatbinEntry lie = entries.front();
    REQUIRE(lie.compression == FatbinCompression::Lz4);
    lie.uncompressedSize = lie.payload.size * 255 + 17;
    CHECK_THROWS_WITH(decompressEntry(lie, "lz4-sm90.fatbin"),
                      Catch::Contains("declared uncompressed size " +
                                      std::to_string(lie.uncompressedSize) + " is more than " +
                                      std::to_string(lie.payload.size) + " LZ4 bytes can hold"));
}

TEST_CASE("hostile: more than 65279 output sections use SHN_XINDEX", "[hostile]") {
    // A relocatable cubin with one .text section per device function; -r
    // keeps them all, so the output has more sections than e_shnum holds.
    using namespace elf;
    constexpr uint32_t kFunctions = 65300;
    constexpr uint32_t kFirstText = 5; // after .shstrtab .strtab .symtab .symtab_shndx
    ElfImage image;
    image.header.type = ET_REL;
    image.header.flags = (80u << 8) | 0x2; // sm_80, ABI v8
    StringTable names;
    std::vector<Sym64> symbols(1, Sym64{});
    std::vector<uint32_t> shndx(1, 0);
    for (uint32_t i = 0; i < kFunctions; ++i) {
        const uint32_t section = kFirstText + i;
        const bool extended = section >= SHN_LORESERVE;
        symbols.push_back(Sym64{names.add("f" + std::to_string(i)), symInfo(STB_GLOBAL, STT_FUNC), 0,
                                static_cast<uint16_t>(extended ? SHN_XINDEX : section), 0, 16});
        shndx.push_back(extended ? section : 0);
    }
    auto bytesOf = [](const auto &records) {
        std::vector<uint8_t> out(records.size() * sizeof(records[0]));
        std::memcpy(out.data(), records.data(), out.size());
        return out;
    };
    auto add = [&](std::string name, uint32_t type, uint64_t align, SectionContent content) {
        culd::ImageSection s;
        s.name = std::move(name), s.type = type, s.addralign = align, s.content = std::move(content);
        return s;
    };
    image.addSection(add(".shstrtab", SHT_STRTAB, 1, ByteView{}));
    image.addSection(add(".strtab", SHT_STRTAB, 1, names.bytes()));
    culd::ImageSection symtab = add(".symtab", SHT_SYMTAB, 8, bytesOf(symbols));
    symtab.entsize = sizeof(Sym64), symtab.link = 2, symtab.info = 1;
    image.addSection(std::move(symtab));
    culd::ImageSection table = add(".symtab_shndx", SHT_SYMTAB_SHNDX, 4, bytesOf(shndx));
    table.entsize = 4, table.link = 3;
    image.addSection(std::move(table));
    for (uint32_t i = 0; i < kFunctions; ++i) {
        culd::ImageSection text = add(".text.f" + std::to_string(i), SHT_PROGBITS, 16,
                                       std::vector<uint8_t>(16, 0));
        text.flags = SHF_ALLOC | SHF_EXECINSTR, text.link = 3, text.info = i + 1;
        image.addSection(std::move(text));
    }
    TempDir dir;
    const std::string in = (dir / "many.cubin").string(), out = (dir / "out.cubin").string();
    image.writeFileAtomically(in);
    REQUIRE(link({"-arch=sm_80", "-r", in, "-o", out}) == "ok");

    const std::vector<uint8_t> bytes = readFile(out);
    ElfFile linked = ElfFile::parse(out, view(bytes));
    CHECK(linked.header().rawShnum == 0);
    CHECK(linked.header().shnum > SHN_LORESERVE);
    const ElfSection *last = linked.findSection(".text.f" + std::to_string(kFunctions - 1));
    REQUIRE(last);
    CHECK(last->index >= SHN_LORESERVE);
    bool found = false;
    for (const ElfSymbol &s : linked.symbols())
        if (s.name == "f" + std::to_string(kFunctions - 1)) {
            found = true;
            CHECK(s.rawShndx == SHN_XINDEX);
            CHECK(s.shndx == last->index);
        }
    CHECK(found);
}

TEST_CASE("hostile: a relocation against a named undefined local is refused", "[hostile]") {
    // main.cubin's undefined reference to _Z6clampiiii, turned local: a
    // name only a linker could know, which culd does not model.
    CubinEditor e(kMain);
    ElfFile f = ElfFile::parse("x", view(e.bytes));
    const ElfSection &symtab = f.section(f.symtabIndex());
    uint32_t index = 0;
    for (const ElfSymbol &s : f.symbols())
        if (s.name == "_Z6clampiiii")
            index = s.index;
    REQUIRE(index != 0);
    e.bytes[symtab.offset + index * sizeof(elf::Sym64) + 4] = elf::symInfo(elf::STB_LOCAL, elf::STT_FUNC);
    TempDir dir;
    CHECK_THAT(linkEdited(dir, e),
               Catch::Contains("against undefined local symbol '_Z6clampiiii', which culd does not resolve"));
}

TEST_CASE("hostile: code no function symbol names, using extern shared memory", "[hostile]") {
    // Found by fuzz_link (a generated sm_75 cubin whose kernel's .text lost
    // its sh_info and symbol, but whose relocations still name an extern
    // __shared__ array): the shared layout took the section's owner for a
    // function and dereferenced null. Such code has no window to place the
    // array in; the link goes on, under -r too (no kernel to give an
    // instance; -r -g still refuses the array).
    TempDir dir;
    test::writeFile(dir / "in.o", test::input("fuzz/text-without-function.cubin"));
    const std::string in = (dir / "in.o").string(), out = (dir / "out.cubin").string();
    CHECK(linkInProcess({"-arch=sm_75", "-g", in, "-o", out}) == "ok");
    CHECK(linkInProcess({"-arch=sm_75", "-r", in, "-o", out}) == "ok");
    CHECK(linkInProcess({"-arch=sm_75", "-r", "-g", in, "-o", out}) ==
          "extern __shared__ array 'f6_buf' (used by '_Z10f6_dyn_sumi') in a relocatable link "
          "(-r) with -g is not supported yet");
}

namespace {

struct MutationCounts {
    unsigned links = 0, refused = 0;
};

// Links `args` (which name `written`) once for each byte of the first
// `limit` bytes of `section` in `e`, set to 0x00 and to 0xff and written to
// `written`: each link goes through or fails with a message and leaves no
// output (`out`).
MutationCounts linkByteMutations(const CubinEditor &e, const char *section, uint64_t limit,
                                 const fs::path &written, const fs::path &out,
                                 const std::vector<std::string> &args) {
    MutationCounts counts;
    const elf::Shdr64 h = e.header(e.find(section));
    for (uint64_t at = 0; at < std::min<uint64_t>(h.size, limit); ++at) {
        for (uint8_t value : {uint8_t(0x00), uint8_t(0xff)}) {
            CubinEditor copy = e;
            copy.bytes[h.offset + at] = value;
            writeFile(written, copy.bytes);
            std::string result = link(args);
            ++counts.links;
            if (result != "ok") {
                ++counts.refused;
                CHECK_FALSE(result.empty());
                CHECK_FALSE(fs::exists(out));
            }
            fs::remove(out);
        }
    }
    return counts;
}

} // namespace

TEST_CASE("hostile: a replaced weak copy's frame entries, byte by byte", "[hostile]") {
    // 119-weak-replaced-leaf-with-frame (sm_100): frame.cubin's pick() is
    // replaced by small.cubin's, so the linker maps the copy's Mercury
    // call-frame rows through the winner's (DebugFrame.cpp). Every byte of
    // both files' first frame entries of either frame section, set to 0x00
    // and to 0xff: the link either goes through or fails with a message,
    // and never reads past what it was given (run under ASan).
    TempDir dir;
    const fs::path fixtures = fixturesDir() / "119-weak-replaced-leaf-with-frame" / "sm_100";
    const std::vector<std::string> names = {"frame.cubin", "small.cubin"};
    const std::vector<std::string> args = {"-arch=sm_100", (dir / "frame.cubin").string(),
                                           (dir / "small.cubin").string(), "-o",
                                           (dir / "out.cubin").string()};
    unsigned links = 0, refused = 0;
    for (const std::string &edited : names) {
        for (const std::string &other : names)
            if (other != edited)
                fs::copy_file(fixtures / other, dir / other,
                              fs::copy_options::overwrite_existing);
        for (const char *section : {".debug_frame", ".nv.merc.debug_frame"}) {
            // The first CIE (0x38 bytes) and the FDE after it.
            MutationCounts c = linkByteMutations(CubinEditor(fixtures / edited), section, 0x70,
                                                 dir / edited, dir / "out.cubin", args);
            links += c.links;
            refused += c.refused;
        }
    }
    CHECK(links == 2 * 2 * 0x70 * 2);
    CHECK(refused > 0);
}

TEST_CASE("hostile: line tables of code the target rewrites, byte by byte", "[hostile]") {
    // 151-fence-kernels-lineinfo (sm_100): the kernels lose their fence
    // placeholders, so their line sequences are read and encoded again
    // (DebugLine.cpp). Every byte of both line tables set to 0x00 and to
    // 0xff: the link goes through or fails with a message, and never
    // reads past what it was given or divides by a zero header field
    // (run under ASan/UBSan).
    TempDir dir;
    const fs::path input = fixturesDir() / "151-fence-kernels-lineinfo" / "sm_100" / "fences.cubin";
    const std::vector<std::string> args = {"-arch=sm_100", (dir / "fences.cubin").string(), "-o",
                                           (dir / "out.cubin").string()};
    unsigned links = 0, refused = 0;
    for (const char *section : {".debug_line", ".nv_debug_line_sass"}) {
        MutationCounts c = linkByteMutations(CubinEditor(input), section, UINT64_MAX,
                                             dir / "fences.cubin", dir / "out.cubin", args);
        links += c.links;
        refused += c.refused;
    }
    CHECK(links > 500);
    CHECK(refused > 0);
}
