// Fatbin containers (core/src/Fatbin.cpp) on real files made by fatbinary and
// nvcc (tests/inputs, see docs/inputs.md), deliberately broken copies of them
// with the exact messages expected, and a fuzz loop over every committed
// input: parsing must succeed or throw FatalError, never crash (the suite
// also runs under ASan/UBSan).

#include "TestUtil.h"

#include "culd/Archive.h"
#include "culd/Diagnostics.h"
#include "culd/Fatbin.h"
#include "culd/HostObject.h"
#include "culd/InputKind.h"

#include <catch2/catch.hpp>

#include <zstd.h>

#include <cstring>
#include <random>

using namespace culd;
using namespace culd::test;

namespace {

template <class T> void store(std::vector<uint8_t> &bytes, size_t offset, T value) {
    REQUIRE(offset + sizeof value <= bytes.size());
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

std::vector<FatbinEntry> parse(const std::vector<uint8_t> &bytes) {
    return parseFatbin(view(bytes), "f.fatbin");
}

// Entry offsets in the committed elf-ptx-sm90.fatbin / zstd-sm90.fatbin.
constexpr size_t kFirstEntry = 0x10;

} // namespace

TEST_CASE("fatbin: uncompressed ELF and ZSTD PTX from fatbinary", "[fatbin]") {
    auto bytes = input("elf-ptx-sm90.fatbin");
    auto entries = parse(bytes);
    REQUIRE(entries.size() == 2);

    const FatbinEntry &elf = entries[0];
    CHECK(elf.isElf());
    CHECK(elf.sm == 90);
    CHECK(elf.suffix == 0);
    CHECK(elf.headerSize == 64);
    CHECK(elf.offset == kFirstEntry);
    CHECK_FALSE(elf.compressed());
    CHECK(elf.payload.size == 4696);
    CHECK(elf.uncompressedSize == 4696);
    CHECK(elf.versionMajor == 1);
    CHECK(elf.versionMinor == 8);
    CHECK(elf.flags == 0x11);
    CHECK(std::memcmp(elf.payload.data, "\x7F" "ELF", 4) == 0);
    CHECK(elf.payload.data == bytes.data() + kFirstEntry + 64); // a view, not a copy

    const FatbinEntry &ptx = entries[1];
    CHECK(ptx.isPtx());
    CHECK(ptx.compression == FatbinCompression::Zstd);
    CHECK(ptx.payload.size == 266);
    CHECK(ptx.uncompressedSize == 411);
    CHECK(ptx.versionMajor == 9);
    CHECK(ptx.versionMinor == 0);
    CHECK(ptx.options.empty());
    auto text = decompressEntry(ptx, "f.fatbin");
    REQUIRE(text.size() == 411);
    std::string_view ptxText(reinterpret_cast<const char *>(text.data()), text.size());
    CHECK(ptxText.find(".target sm_90") != std::string_view::npos);
    CHECK(fatbinEntryName(elf) == "sm_90");
    CHECK(fatbinEntryName(ptx) == "compute_90");
}

TEST_CASE("fatbin: --compress-all (ZSTD) and --compress-mode=speed (LZ4) decompress to the same bytes",
          "[fatbin]") {
    auto plain = input("elf-ptx-sm90.fatbin");
    auto zstd = input("zstd-sm90.fatbin");
    auto lz4 = input("lz4-sm90.fatbin");
    auto plainEntries = parse(plain);
    auto zstdEntries = parse(zstd);
    auto lz4Entries = parse(lz4);
    REQUIRE(zstdEntries.size() == 2);
    REQUIRE(lz4Entries.size() == 2);
    CHECK(zstdEntries[0].compression == FatbinCompression::Zstd);
    CHECK(lz4Entries[0].compression == FatbinCompression::Lz4);
    CHECK(lz4Entries[1].compression == FatbinCompression::Lz4);
    CHECK((lz4Entries[0].flags & fatbin::kFlagLz4) != 0);

    auto cubin = decompressEntry(plainEntries[0], "plain");
    CHECK(decompressEntry(zstdEntries[0], "zstd") == cubin);
    CHECK(decompressEntry(lz4Entries[0], "lz4") == cubin);
    CHECK(decompressEntry(lz4Entries[1], "lz4") == decompressEntry(zstdEntries[1], "zstd"));
}

TEST_CASE("fatbin: nvcc host object entries (multi-arch, a/f, sm_100 compat extension)", "[fatbin]") {
    auto bytes = input("host-multi.o");
    ElfFile file = ElfFile::parse("host-multi.o", view(bytes), ElfParseOptions{true});
    HostObjectInfo info = readHostObject(file, "host-multi.o");
    const auto &e = info.entries;
    REQUIRE(e.size() == 5);
    CHECK(fatbinEntryName(e[0]) == "sm_80");
    CHECK(fatbinEntryName(e[1]) == "sm_90");
    CHECK(fatbinEntryName(e[2]) == "compute_90");
    CHECK(fatbinEntryName(e[3]) == "sm_100f");
    CHECK(fatbinEntryName(e[4]) == "sm_90a");
    CHECK(e[2].options == "--compile-only  ");
    CHECK(e[3].headerSize == 112);
    CHECK((e[3].flags & fatbin::kFlagCompatExtension) != 0);
    CHECK(e[3].options.empty());
    CHECK(e[3].extension.size == 36); // "" + a copy of the cubin's .nv.compat
    for (const FatbinEntry &entry : e) {
        CHECK(entry.compression == FatbinCompression::Zstd);
        auto payload = decompressEntry(entry, "host-multi.o");
        CHECK(payload.size() == entry.uncompressedSize);
    }
}

TEST_CASE("fatbin: -G entries carry the source name; LTO IR payloads are opaque", "[fatbin]") {
    auto debug = input("debug-sm90.fatbin");
    auto entries = parse(debug);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].objectName == "b.cu");
    CHECK(entries[0].headerSize == 72);
    CHECK((entries[0].flags & fatbin::kFlagDebug) != 0);
    CHECK(entries[1].objectName == "b.cu");
    CHECK(entries[1].options.substr(0, 19) == "--compile-only  -g ");

    auto bytes = input("host-lto.o");
    ElfFile file = ElfFile::parse("host-lto.o", view(bytes), ElfParseOptions{true});
    HostObjectInfo info = readHostObject(file, "host-lto.o");
    REQUIRE(info.entries.size() == 1);
    const FatbinEntry &ir = info.entries[0];
    CHECK(ir.isLtoIr());
    CHECK(ir.headerSize == 120);
    CHECK(ir.options == "-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 ");
    CHECK(ir.compression == FatbinCompression::Unknown);
    REQUIRE_THROWS_WITH(decompressEntry(ir, "host-lto.o"),
                        Catch::StartsWith("host-lto.o: fatbin entry at offset 0x10 (lto_90): payload "
                                          "is compressed in an unknown format (starts "));
    CHECK(selectEntry(info.entries, {90, 0}) == nullptr); // IR only with -lto
    CHECK(selectEntry(info.entries, {90, 0}, {true, {}}) == &ir);
}

TEST_CASE("fatbin: concatenated containers with padding", "[fatbin]") {
    auto a = input("elf-ptx-sm90.fatbin");
    auto b = input("zstd-sm90.fatbin");
    std::vector<uint8_t> blob = a;
    blob.insert(blob.end(), b.begin(), b.end());
    auto entries = parse(blob);
    REQUIRE(entries.size() == 4);
    CHECK(entries[2].container == 1);
    CHECK(entries[2].offset == a.size() + 16);
    CHECK(decompressEntry(entries[2], "f") == decompressEntry(entries[0], "f"));

    // An empty container with a 20-byte header ends at 20; zero padding to
    // 24 separates it from the next one.
    std::vector<uint8_t> padded(24, 0);
    store<uint32_t>(padded, 0, fatbin::kMagic);
    store<uint16_t>(padded, 4, 1);
    store<uint16_t>(padded, 6, 20);
    padded.insert(padded.end(), b.begin(), b.end());
    entries = parse(padded);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].container == 1);
    CHECK(entries[0].offset == 24 + 16);

    // Non-zero bytes there are no padding.
    padded[21] = 1;
    REQUIRE_THROWS_WITH(parse(padded), "f.fatbin: bad fatbin magic 0x100 at offset 0x14 (expected "
                                       "0xba55ed50)");
}

TEST_CASE("fatbin: malformed containers and entries", "[fatbin]") {
    auto good = input("elf-ptx-sm90.fatbin");
    auto check = [](const std::vector<uint8_t> &bytes, const std::string &message) {
        REQUIRE_THROWS_MATCHES(parse(bytes), FatalError, Catch::Message("f.fatbin: " + message));
    };
    SECTION("bad magic") {
        auto bytes = good;
        store<uint32_t>(bytes, 0, 0x12345678);
        check(bytes, "bad fatbin magic 0x12345678 at offset 0x0 (expected 0xba55ed50)");
    }
    SECTION("truncated header") {
        std::vector<uint8_t> bytes(good.begin(), good.begin() + 10);
        check(bytes, "fatbin header at offset 0x0 is truncated (10 bytes left)");
    }
    SECTION("total size past the end") {
        auto bytes = good;
        store<uint64_t>(bytes, 8, 99999);
        check(bytes, "fatbin at offset 0x0: size 99999 runs past the end (5112 bytes left)");
    }
    SECTION("entry header size smaller than 64") {
        auto bytes = good;
        store<uint32_t>(bytes, kFirstEntry + 4, 32);
        check(bytes, "fatbin entry at offset 0x10: header size 32 is smaller than 64");
    }
    SECTION("payload size past the end") {
        auto bytes = good;
        store<uint64_t>(bytes, kFirstEntry + 8, 1u << 20);
        check(bytes, "fatbin entry at offset 0x10: payload size 1048576 runs past the end of the "
                     "fatbin (5048 bytes left)");
    }
    SECTION("compressed size larger than the payload") {
        auto bytes = good;
        const size_t ptx = 0x12a8;
        store<uint32_t>(bytes, ptx + 16, 100000);
        check(bytes, "fatbin entry at offset 0x12a8: compressed size 100000 exceeds the payload size 272");
    }
    SECTION("extension block past the header") {
        auto bytes = good;
        const size_t ptx = 0x12a8;
        store<uint32_t>(bytes, ptx + 0x44, 500); // option data size
        check(bytes, "fatbin entry at offset 0x12a8: option string (offset 72, size 500) runs past "
                     "the entry header (80 bytes)");
    }
    SECTION("a and f at once") {
        auto bytes = good;
        store<uint64_t>(bytes, kFirstEntry + 40, 0x300011);
        check(bytes, "fatbin entry at offset 0x10: flags 0x300011 mark it both arch- and "
                     "family-specific");
    }
}

TEST_CASE("fatbin: decompression is capped at the declared size", "[fatbin]") {
    SECTION("real ZSTD entry with a smaller declared size") {
        auto bytes = input("zstd-sm90.fatbin");
        store<uint64_t>(bytes, kFirstEntry + 56, 100);
        auto entries = parse(bytes);
        REQUIRE_THROWS_MATCHES(decompressEntry(entries[0], "f.fatbin"), FatalError,
                               Catch::Message("f.fatbin: fatbin entry at offset 0x10 (sm_90): "
                                              "decompressed size exceeds the declared 100 bytes "
                                              "(the ZSTD frames hold 4696)"));
    }
    SECTION("real ZSTD entry with a larger declared size") {
        auto bytes = input("zstd-sm90.fatbin");
        store<uint64_t>(bytes, kFirstEntry + 56, 5000);
        auto entries = parse(bytes);
        REQUIRE_THROWS_MATCHES(decompressEntry(entries[0], "f.fatbin"), FatalError,
                               Catch::Message("f.fatbin: fatbin entry at offset 0x10 (sm_90): "
                                              "decompressed to 4696 bytes, but 5000 were declared"));
    }
    SECTION("ZSTD stream without a content size, 64 MiB real vs 1000 declared") {
        // A frame that does not announce its size: only the output buffer of
        // the declared size stops it.
        std::vector<uint8_t> big(64u << 20, 0);
        std::vector<uint8_t> frame(ZSTD_compressBound(big.size()));
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
        ZSTD_outBuffer out{frame.data(), frame.size(), 0};
        ZSTD_inBuffer in{big.data(), big.size(), 0};
        REQUIRE(ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end) == 0);
        ZSTD_freeCCtx(cctx);
        frame.resize(out.pos);
        REQUIRE(ZSTD_getFrameContentSize(frame.data(), frame.size()) == ZSTD_CONTENTSIZE_UNKNOWN);

        FatbinEntry entry;
        entry.kind = fatbin::kKindElf;
        entry.sm = 90;
        entry.compression = FatbinCompression::Zstd;
        entry.payload = view(frame);
        entry.uncompressedSize = 1000;
        REQUIRE_THROWS_MATCHES(decompressEntry(entry, "x"), FatalError,
                               Catch::Message("x: fatbin entry at offset 0x0 (sm_90): decompressed "
                                              "size exceeds the declared 1000 bytes"));
    }
    SECTION("declared size above the limit") {
        auto bytes = input("zstd-sm90.fatbin");
        store<uint64_t>(bytes, kFirstEntry + 56, uint64_t(1) << 40);
        auto entries = parse(bytes);
        REQUIRE_THROWS_MATCHES(decompressEntry(entries[0], "f.fatbin"), FatalError,
                               Catch::Message("f.fatbin: fatbin entry at offset 0x10 (sm_90): "
                                              "declared uncompressed size 1099511627776 exceeds "
                                              "the limit of 1073741824 bytes"));
        CHECK_THROWS_WITH(decompressEntry(parse(input("zstd-sm90.fatbin"))[0], "f", 4000),
                          Catch::Contains("declared uncompressed size 4696 exceeds the limit of 4000"));
    }
    SECTION("LZ4 entry with a smaller declared size") {
        auto bytes = input("lz4-sm90.fatbin");
        store<uint64_t>(bytes, kFirstEntry + 56, 100);
        auto entries = parse(bytes);
        REQUIRE_THROWS_MATCHES(decompressEntry(entries[0], "f.fatbin"), FatalError,
                               Catch::Message("f.fatbin: fatbin entry at offset 0x10 (sm_90): LZ4 "
                                              "data is corrupt or its decompressed size exceeds "
                                              "the declared 100 bytes"));
    }
    SECTION("ZSTD flag over bytes that are not ZSTD") {
        auto bytes = input("zstd-sm90.fatbin");
        store<uint32_t>(bytes, kFirstEntry + 64, 0x11223344);
        auto entries = parse(bytes);
        CHECK(entries[0].compression == FatbinCompression::Unknown);
        CHECK_THROWS_WITH(decompressEntry(entries[0], "f"),
                          Catch::Contains("unknown format (starts 44 33 22 11)"));
    }
}

TEST_CASE("fatbin: member selection", "[fatbin]") {
    auto pick = [](const std::vector<FatbinEntry> &entries, uint32_t sm, char suffix) {
        const FatbinEntry *e = selectEntry(entries, {sm, suffix});
        return e ? fatbinEntryName(*e) : std::string("none");
    };
    auto multiBytes = input("host-multi.o");
    ElfFile file = ElfFile::parse("host-multi.o", view(multiBytes), ElfParseOptions{true});
    auto multi = readHostObject(file, "host-multi.o").entries; // sm_80 sm_90 compute_90 sm_100f sm_90a

    CHECK(pick(multi, 80, 0) == "sm_80");
    CHECK(pick(multi, 86, 0) == "sm_80");   // same-family SASS
    CHECK(pick(multi, 89, 0) == "sm_80");
    CHECK(pick(multi, 90, 'a') == "sm_90a");
    CHECK(pick(multi, 90, 0) == "sm_90a");  // nvlink 13 prefers the 'a' sibling (observed)
    CHECK(pick(multi, 100, 0) == "sm_100f");
    CHECK(pick(multi, 103, 0) == "sm_100f");
    CHECK(pick(multi, 120, 0) == "compute_90"); // PTX is forward compatible
    CHECK(pick(multi, 75, 0) == "none");

    // nvlink 13 picks compute_86 PTX over an sm_80 cubin for sm_89: the
    // higher version wins before the kind does.
    auto mix = parse(input("mix-sm80-ptx86.fatbin"));
    CHECK(pick(mix, 89, 0) == "compute_86");
    CHECK(pick(mix, 86, 0) == "compute_86");
    CHECK(pick(mix, 80, 0) == "sm_80");
    CHECK(pick(mix, 90, 0) == "compute_86");

    // Equal version: the cubin beats the PTX.
    auto plain = parse(input("elf-ptx-sm90.fatbin"));
    CHECK(pick(plain, 90, 0) == "sm_90");
    CHECK(selectEntry(plain, {90, 0}) == &plain[0]);

    // Both orders of sm_90 and sm_90a: 'a' wins for either target.
    auto both = parse(input("sm90-sm90a.fatbin"));
    CHECK(pick(both, 90, 0) == "sm_90a");
    CHECK(pick(both, 90, 'a') == "sm_90a");

    // A plugin's compatibility list overrides the built-in rule.
    FatbinSelectOptions strict;
    strict.cubinCompatible = [](uint32_t sm, char) { return sm == 89; };
    CHECK(selectEntry(mix, {89, 0}, strict)->isPtx());

    // PTX only: what culd compiles instead of a cubin for another SM.
    FatbinSelectOptions ptxOnly;
    ptxOnly.ptxOnly = true;
    auto pickPtx = [&](const std::vector<FatbinEntry> &entries, uint32_t sm) {
        const FatbinEntry *e = selectEntry(entries, {sm, 0}, ptxOnly);
        return e ? fatbinEntryName(*e) : std::string("none");
    };
    CHECK(pickPtx(multi, 103) == "compute_90");
    CHECK(pickPtx(multi, 80) == "none");
    CHECK(pickPtx(plain, 90) == "compute_90");
    CHECK(pickPtx(mix, 80) == "none");

    CHECK(cubinRunsOn(100, 0, {103, 0}));
    CHECK_FALSE(cubinRunsOn(100, 'a', {103, 0}));
    CHECK_FALSE(cubinRunsOn(90, 0, {100, 0}));
    CHECK(ptxCompilesFor(90, 'a', {90, 'a'}));
    CHECK_FALSE(ptxCompilesFor(90, 'a', {90, 0}));
    CHECK(ptxCompilesFor(100, 'f', {103, 'f'}));
    CHECK_FALSE(ptxCompilesFor(100, 'f', {110, 0}));
}

// ---- Fuzz ------------------------------------------------------------------

namespace {

// Every reader that could see these bytes, the way a link would drive them.
void readEverything(const std::vector<uint8_t> &bytes, int depth = 0) {
    ByteView v = view(bytes);
    switch (detectInputKind(v, "fuzz")) {
    case InputKind::Fatbin:
        for (const FatbinEntry &e : parseFatbin(v, "fuzz"))
            decompressEntry(e, "fuzz", 1u << 20);
        break;
    case InputKind::HostObject: {
        ElfFile file = ElfFile::parse("fuzz", v, ElfParseOptions{true});
        for (const FatbinEntry &e : readHostObject(file, "fuzz").entries)
            if (e.compression != FatbinCompression::Unknown)
                decompressEntry(e, "fuzz", 1u << 20);
        break;
    }
    case InputKind::Archive:
    case InputKind::ThinArchive:
        for (const ArchiveMember &m : readArchive(v, "fuzz.a"))
            if (depth == 0 && !m.data.empty())
                readEverything(std::vector<uint8_t>(m.data.begin(), m.data.end()), depth + 1);
        break;
    default:
        break;
    }
}

} // namespace

TEST_CASE("fatbin: fuzzed inputs are rejected cleanly", "[fatbin][fuzz]") {
    const fs::path dir = fs::path(CULD_SOURCE_DIR) / "tests" / "inputs";
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(dir))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 10);

    std::mt19937 rng(20240611);
    unsigned accepted = 0, rejected = 0;
    for (const fs::path &path : files) {
        const auto original = readFile(path);
        REQUIRE_NOTHROW(readEverything(original));
        for (int round = 0; round < 300; ++round) {
            auto bytes = original;
            if (round % 3 == 0) {
                bytes.resize(std::uniform_int_distribution<size_t>(0, bytes.size())(rng));
            } else {
                const int flips = 1 + round % 8;
                for (int i = 0; i < flips && !bytes.empty(); ++i) {
                    size_t at = std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(rng);
                    bytes[at] = static_cast<uint8_t>(rng());
                }
            }
            try {
                readEverything(bytes);
                ++accepted;
            } catch (const FatalError &) {
                ++rejected;
            }
        }
    }
    CHECK(accepted > 0);
    CHECK(rejected > 0);
}
