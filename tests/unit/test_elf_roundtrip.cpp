// The proof that ElfImage's layout rules are nvlink's and ptxas' rules: every
// fixture cubin is parsed, turned into an image, stripped of its recorded
// offsets, laid out again by ElfImage::layout() and serialized; the result
// must equal the original byte for byte. ElfImage is the linker's own layout
// engine (Writer.cpp describes its output as one), so this proves the code
// every link runs.

#include "TestUtil.h"

#include "culd/Diagnostics.h"
#include "culd/ElfFile.h"
#include "culd/ElfWriter.h"
#include "culd/MappedFile.h"
#include "culd/StringTable.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace culd;
using namespace culd::elf;

namespace {

// Forgets every offset fromFile() copied from the file, so that only
// layout() can bring them back.
void forgetRecordedOffsets(ElfImage &image) {
    for (ImageSection &s : image.sections)
        s.offset = 0;
    image.shoff = image.phoff = 0;
    for (OutputProgramHeader &ph : image.programHeaders)
        if (ph.source != SegmentSource::Explicit)
            ph.offset = ph.filesz = ph.memsz = 0;
}

// "" if equal, else where the first difference is.
std::string firstDifference(const std::vector<uint8_t> &actual, ByteView expected) {
    if (actual.size() == expected.size &&
        std::equal(actual.begin(), actual.end(), expected.begin()))
        return {};
    size_t i = 0;
    while (i < actual.size() && i < expected.size && actual[i] == expected.data[i])
        ++i;
    std::ostringstream out;
    out << "sizes " << actual.size() << " (written) vs " << expected.size
        << " (original); first difference at offset 0x" << std::hex << i;
    return out.str();
}

struct RoundTripStats {
    size_t files = 0, withSlack = 0, preserved = 0, explicitSegments = 0, segments = 0;
    std::vector<std::string> preservedFiles;
};

// Round-trips one file; returns a failure description or "".
std::string roundTrip(const std::string &path, RoundTripStats &stats) {
    auto mapped = MappedFile::open(path);
    ElfFile file = ElfFile::parse(path, mapped->bytes());
    ElfImage image = ElfImage::fromFile(file);

    ++stats.files;
    if (image.preserveOffsets) {
        ++stats.preserved;
        stats.preservedFiles.push_back(test::fixtureName(path) + ": " + image.irregularity());
    } else {
        forgetRecordedOffsets(image);
    }
    bool slack = false;
    for (const ImageSection &s : image.sections)
        slack |= s.reservedSize != 0;
    stats.withSlack += slack;
    for (const OutputProgramHeader &ph : image.programHeaders) {
        ++stats.segments;
        stats.explicitSegments += ph.source == SegmentSource::Explicit;
    }

    image.layout();
    return firstDifference(image.serialize(), file.bytes());
}

} // namespace

TEST_CASE("every fixture cubin round-trips byte-identically through layout()", "[elf][roundtrip]") {
    auto files = test::fixtureCubins();
    if (!test::fs::exists(test::fixturesDir())) {
        WARN("fixtures directory " << test::fixturesDir()
                                   << " does not exist: round-trip NOT proved on real files");
        return;
    }
    // An existing but empty fixture tree must not pass as a proof.
    REQUIRE(!files.empty());

    RoundTripStats stats;
    for (const std::string &path : files) {
        INFO(test::fixtureName(path));
        CHECK(roundTrip(path, stats) == "");
    }

    std::ostringstream summary;
    summary << stats.files << " fixture cubins round-tripped; " << stats.withSlack
            << " needed trimmed-string-table slack (reservedSize); " << stats.preserved
            << " needed preserved offsets; " << stats.segments - stats.explicitSegments << "/"
            << stats.segments << " program headers computed from section ranges";
    for (const std::string &f : stats.preservedFiles)
        summary << "\n  preserved: " << f;
    if (stats.preserved != 0)
        WARN(summary.str());
    else
        INFO(summary.str());
    std::printf("[elf-roundtrip] %s\n", summary.str().c_str());
    CHECK(stats.files == files.size());
}

TEST_CASE("every fixture's program headers are derived, not copied", "[elf][roundtrip]") {
    size_t explicitSegments = 0;
    for (const std::string &path : test::fixtureCubins()) {
        auto mapped = MappedFile::open(path);
        ElfImage image = ElfImage::fromFile(ElfFile::parse(path, mapped->bytes()));
        for (const OutputProgramHeader &ph : image.programHeaders) {
            INFO(test::fixtureName(path) << ": program header type " << ph.type << " offset "
                                         << ph.offset << " filesz " << ph.filesz);
            CHECK(ph.source != SegmentSource::Explicit);
            explicitSegments += ph.source == SegmentSource::Explicit;
        }
    }
    REQUIRE(explicitSegments == 0);
}

namespace {

// The smallest fixture, or nothing.
std::vector<uint8_t> someCubin() {
    auto files = test::fixtureCubins();
    std::vector<uint8_t> best;
    for (const std::string &path : files) {
        auto bytes = test::readFile(path);
        if (best.empty() || bytes.size() < best.size())
            best = std::move(bytes);
    }
    return best;
}

} // namespace

TEST_CASE("the round trip notices a changed bit", "[elf][roundtrip]") {
    std::vector<uint8_t> original = someCubin();
    if (original.empty()) {
        WARN("no fixture cubins; using the round-trip of a synthetic file only");
        ElfImage synthetic;
        ImageSection names;
        names.name = ".shstrtab", names.type = SHT_STRTAB;
        synthetic.addSection(names);
        ImageSection text;
        text.name = ".text.k", text.type = SHT_PROGBITS, text.addralign = 128;
        text.content = std::vector<uint8_t>(256, 0x5A);
        synthetic.addSection(text);
        synthetic.layout();
        original = synthetic.serialize();
    }
    ElfFile file = ElfFile::parse("x.cubin", ByteView{original.data(), original.size()});
    ElfImage image = ElfImage::fromFile(file);
    image.layout();
    REQUIRE(image.serialize() == original);

    // Flip one bit in the largest section (as an owned copy).
    uint32_t victim = 0;
    for (uint32_t i = 1; i < image.sections.size(); ++i)
        if (image.sections[i].bytes().size > image.sections[victim].bytes().size)
            victim = i;
    REQUIRE(victim != 0);
    ByteView bytes = image.sections[victim].bytes();
    std::vector<uint8_t> changed(bytes.begin(), bytes.end());
    changed[changed.size() / 2] ^= 0x10;
    image.sections[victim].content = std::move(changed);
    image.layout();
    std::vector<uint8_t> output = image.serialize();

    REQUIRE(output.size() == original.size());
    REQUIRE(output != original);
    size_t differing = 0, at = 0;
    for (size_t i = 0; i < output.size(); ++i)
        if (output[i] != original[i])
            ++differing, at = i;
    REQUIRE(differing == 1);
    REQUIRE(at == image.sections[victim].offset + bytes.size / 2);
    REQUIRE(firstDifference(output, ByteView{original.data(), original.size()}) != "");
}

// --- The layout rules on a hand-made image ---------------------------------

namespace {

ImageSection makeSection(const char *name, uint32_t type, uint64_t align, SectionContent content) {
    ImageSection s;
    s.name = name, s.type = type, s.addralign = align, s.content = std::move(content);
    return s;
}

} // namespace

TEST_CASE("layout applies alignment, NOBITS, alias and table placement rules", "[elf][writer]") {
    ElfImage image;
    image.addSection(makeSection(".shstrtab", SHT_STRTAB, 1, ByteView{}));                          // 1
    image.addSection(makeSection(".nv.info", SHT_CUDA_INFO, 4, std::vector<uint8_t>(6, 1)));          // 2
    image.addSection(makeSection(".text.a", SHT_PROGBITS, 128, std::vector<uint8_t>(0x90, 2)));       // 3
    image.addSection(makeSection(".nv.global.init", SHT_PROGBITS, 8, std::vector<uint8_t>(5, 3)));   // 4
    image.addSection(makeSection(".nv.shared.a", SHT_NOBITS, 16, NoFileData{0x400}));                // 5
    image.addSection(makeSection(".nv.constant0.a", SHT_PROGBITS, 4, std::vector<uint8_t>(8, 4)));   // 6
    ImageSection alias = makeSection(".nv.merc.nv.global.init", SHT_CUDA_GLOBAL_INIT, 8, AliasOf{4});
    alias.flags = SHF_CUDA_MERCURY | SHF_ALLOC | SHF_WRITE;
    image.addSection(std::move(alias));                                                              // 7
    ImageSection slack = makeSection(".strtab", SHT_STRTAB, 1, std::vector<uint8_t>{0, 'x', 0});
    slack.reservedSize = 40;
    image.addSection(std::move(slack));                                                              // 8

    OutputProgramHeader phdr, code, data, table, memoryOnly, scattered;
    phdr.type = PT_PHDR, phdr.source = SegmentSource::ProgramHeaderTable;
    code.source = SegmentSource::Sections, code.sections = {3};
    data.source = SegmentSource::Sections, data.sections = {4, 5};
    table.source = SegmentSource::ProgramHeaderTable;
    memoryOnly.source = SegmentSource::Sections, memoryOnly.sections = {5};
    scattered.source = SegmentSource::Sections, scattered.sections = {3, 6};
    image.programHeaders = {phdr, code, data, table, memoryOnly, scattered};
    image.layout();

    const char namesLiteral[] = "\0.shstrtab\0.nv.info\0.text.a\0.nv.global.init\0.nv.shared.a\0"
                                ".nv.constant0.a\0.nv.merc.nv.global.init\0.strtab";
    const uint64_t namesSize = sizeof namesLiteral; // 105, with the final NUL
    const std::string names(namesLiteral, namesSize);
    REQUIRE(image.sectionSize(1) == namesSize);
    REQUIRE(image.sections[1].offset == 0x40);                         // right after the header
    REQUIRE(image.sections[2].offset == 0xAC);                         // 0x40 + 105, aligned 4
    REQUIRE(image.sections[3].offset == 0x100);                        // aligned to 128
    REQUIRE(image.sections[4].offset == 0x190);                        // 0x100 + 0x90, aligned 8
    REQUIRE(image.sections[5].offset == 0x1A0);                        // 0x195 aligned 16, no space
    // A NOBITS section moves the cursor to its aligned offset (ptxas output
    // with .nv.global (align 1) then .nv.shared (align 16) last puts the
    // section header table at the aligned offset: case 82's cub_b.cubin).
    REQUIRE(image.sections[6].offset == 0x1A0);                        // after the NOBITS offset
    REQUIRE(image.sections[7].offset == 0x190);                        // alias: same bytes as [4]
    REQUIRE(image.sectionSize(7) == 5);
    REQUIRE(image.sections[8].offset == 0x1A8);
    REQUIRE(image.shoff == 0x1D0);                                     // 0x1A8 + 40 reserved, aligned 8
    REQUIRE(image.phoff == 0x1D0 + 9 * 64);
    REQUIRE(image.fileSize() == image.phoff + 6 * 56);

    REQUIRE(image.programHeaders[0].offset == image.phoff);
    REQUIRE(image.programHeaders[0].filesz == 6 * 56);
    REQUIRE(image.programHeaders[1].offset == 0x100);
    REQUIRE(image.programHeaders[1].filesz == 0x90);
    REQUIRE(image.programHeaders[2].offset == 0x190);
    REQUIRE(image.programHeaders[2].filesz == 0x10);                  // up to the NOBITS offset
    REQUIRE(image.programHeaders[2].memsz == 0x10 + 0x400);
    REQUIRE(image.programHeaders[4].offset == 0x1A0);                 // starts with NOBITS:
    REQUIRE(image.programHeaders[4].filesz == 0);                     // no file bytes
    REQUIRE(image.programHeaders[4].memsz == 0x400);
    REQUIRE(image.programHeaders[5].offset == 0x100);                 // sections need not be
    REQUIRE(image.programHeaders[5].filesz == 0x1A8 - 0x100);         // adjacent

    std::vector<uint8_t> bytes = image.serialize();
    ElfFile f = ElfFile::parse("layout.cubin", ByteView{bytes.data(), bytes.size()});
    REQUIRE(f.section(7).name == ".nv.merc.nv.global.init");
    REQUIRE(f.section(7).data.data == f.section(4).data.data);
    REQUIRE(std::string(reinterpret_cast<const char *>(f.section(1).data.data), namesSize) == names);
    REQUIRE(bytes[0x1AB] == 0); // reserved slack is zero-filled
}

TEST_CASE("StringTable shares identical strings", "[elf][writer]") {
    StringTable table;
    REQUIRE(table.add("") == 0);
    REQUIRE(table.add(".text") == 1);
    REQUIRE(table.add(".data") == 7);
    REQUIRE(table.add(".text") == 1);
    REQUIRE(table.bytes().size() == 13);
}

TEST_CASE("an inconsistent image is rejected by layout()", "[elf][writer]") {
    ElfImage image;
    image.addSection(makeSection(".shstrtab", SHT_STRTAB, 1, ByteView{}));
    image.addSection(makeSection(".alias", SHT_PROGBITS, 1, AliasOf{9}));
    REQUIRE_THROWS_MATCHES(image.layout(), FatalError,
                           Catch::Message("invalid output image: section 2 '.alias' aliases section 9, "
                                          "which has no file data of its own"));
    ElfImage odd;
    odd.addSection(makeSection(".x", SHT_PROGBITS, 3, std::vector<uint8_t>{1}));
    REQUIRE_THROWS_MATCHES(odd.layout(), FatalError,
                           Catch::Message("invalid output image: section 1 '.x' has alignment 0x3 "
                                          "(not a power of two up to 4 GiB)"));
    ElfImage unlaid;
    REQUIRE_THROWS_AS(unlaid.serialize(), FatalError);
}

TEST_CASE("writeFileAtomically writes the whole file or nothing", "[elf][writer]") {
    test::TempDir dir;
    ElfImage image;
    image.addSection(makeSection(".shstrtab", SHT_STRTAB, 1, ByteView{}));
    image.addSection(makeSection(".text.k", SHT_PROGBITS, 128, std::vector<uint8_t>(64, 7)));

    const std::string out = (dir / "out.cubin").string();
    test::writeFile(out, {1, 2, 3}); // an older output is replaced
    image.writeFileAtomically(out);
    REQUIRE(test::readFile(out) == image.serialize());

    auto entries = [&] {
        size_t n = 0;
        for (auto &e : test::fs::directory_iterator(dir.path()))
            n += e.path().filename().string().find("culd-tmp") != std::string::npos;
        return n;
    };
    REQUIRE(entries() == 0);

    // Into a missing directory: fails to create the temporary.
    const std::string missing = (dir / "no/such/dir/out.cubin").string();
    REQUIRE_THROWS_MATCHES(image.writeFileAtomically(missing), FatalError,
                           Catch::Message(missing + ": cannot create temporary file: No such file or directory"));

    // Over a non-empty directory: the rename fails; the temporary is removed.
    test::fs::create_directories(dir / "busy" / "child");
    const std::string busy = (dir / "busy").string();
    REQUIRE_THROWS_AS(image.writeFileAtomically(busy), FatalError);
    REQUIRE(entries() == 0);
    REQUIRE(test::fs::is_directory(busy));
}
