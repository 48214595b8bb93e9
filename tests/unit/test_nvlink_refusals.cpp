// Refusals of nvlink that culd reproduces and that no corpus case covers
// (docs/nvlink-findings.md, Refusals): each checked by its exact message.

#include "LinkUtil.h"

#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/Options.h"
#include "culd/PluginRegistry.h"

#include <catch2/catch.hpp>

using namespace culd;
using namespace culd::test;

namespace {

const fs::path kMain = crossFileMain();
const fs::path kLib = crossFileLib();

std::string link(const std::vector<std::string> &args) { return linkInProcess(args); }

// main.cubin with one header byte changed, linked with lib.cubin.
std::string linkWithByte(TempDir &dir, size_t offset, uint8_t value) {
    std::vector<uint8_t> bytes = readFile(kMain);
    bytes[offset] = value;
    writeFile(dir / "main.cubin", bytes);
    return link({"-arch=sm_80", (dir / "main.cubin").string(), kLib.string(), "-o",
                 (dir / "out.cubin").string()});
}

} // namespace

TEST_CASE("refusal: OSABI and ABI version must be a known pair", "[refusal]") {
    TempDir dir;
    std::string expected = "Input file '" + (dir / "main.cubin").string() + "' abi does not match";
    CHECK(linkWithByte(dir, 8, 7) == expected);    // OSABI 0x41 with ABI 7
    CHECK(linkWithByte(dir, 8, 9) == expected);    // an unknown ABI
    CHECK(linkWithByte(dir, 7, 0x33) == expected); // OSABI 0x33 with ABI 8
    CHECK_FALSE(fs::exists(dir / "out.cubin"));
}

TEST_CASE("refusal: an ET_EXEC cubin is skipped, not linked", "[refusal]") {
    TempDir dir;
    // main.cubin made a whole-program cubin: nothing of it is linked, so the
    // link of lib.cubin alone succeeds.
    CHECK(linkWithByte(dir, 16, 2) == "ok");
    CHECK(fs::exists(dir / "out.cubin"));
}

TEST_CASE("refusal: -cpu-arch takes nvlink's values only", "[refusal]") {
    TempDir dir;
    std::vector<std::string> args = {"-arch=sm_80", kMain.string(), kLib.string(), "-o",
                                     (dir / "out.cubin").string()};
    args.push_back("-cpu-arch=x86_64");
    CHECK(link(args) == "Value 'x86_64' is not defined for option 'cpu-arch'");
    args.back() = "-cpu-arch=AARCH64";
    CHECK(link(args) == "ok");
}

TEST_CASE("refusal: -ghls takes no input files", "[refusal]") {
    TempDir dir;
    CHECK(link({"-ghls=lcs-aug", kMain.string(), "-o", (dir / "out.ld").string()}) ==
          "Input files are not allowed with -ghls option; use --help for more information");
    CHECK_FALSE(fs::exists(dir / "out.ld"));
}

TEST_CASE("refusal: a cubin that is not ELF64 little-endian is skipped, as nvlink does",
          "[refusal]") {
    // nvlink 13.0 links such an input as if it were absent (exit 0, no
    // message; 255 only when its symbols were needed): the output equals
    // the link of lib.cubin alone.
    TempDir dir;
    REQUIRE(link({"-arch=sm_80", kLib.string(), "-o", (dir / "alone.cubin").string()}) == "ok");
    const std::vector<uint8_t> alone = readFile(dir / "alone.cubin");
    for (auto [offset, value] : {std::pair<size_t, uint8_t>{4, 1}, {4, 0}, {4, 3}, {5, 2}, {5, 0}}) {
        CAPTURE(offset, int(value));
        CHECK(linkWithByte(dir, offset, value) == "ok");
        CHECK(readFile(dir / "out.cubin") == alone);
    }
}

TEST_CASE("e_ident of the output is nvlink's whatever the input's version and padding",
          "[refusal]") {
    // nvlink takes only OS/ABI and ABI version from its first input; an
    // input with EI_VERSION 0 or non-zero padding is linked, and the output
    // has EI_VERSION 1 and zero padding.
    TempDir dir;
    for (auto [offset, value] : {std::pair<size_t, uint8_t>{6, 0}, {6, 2}, {9, 5}, {15, 7}}) {
        CAPTURE(offset, int(value));
        REQUIRE(linkWithByte(dir, offset, value) == "ok");
        std::vector<uint8_t> out = readFile(dir / "out.cubin");
        REQUIRE(out.size() > 16);
        CHECK(out[6] == 1);
        for (size_t i = 9; i < 16; ++i)
            CHECK(out[i] == 0);
    }
}

TEST_CASE("refusal: virtual link targets without LTO", "[refusal]") {
    TempDir dir;
    const std::string out = (dir / "out.cubin").string();
    // lto_XX: refused in nvlink's words, -o or not.
    const std::string lto = "Link target of 'lto_80' is virtual target that is not JIT-able; "
                            "use 'sm_' target instead";
    CHECK(link({"-arch=lto_80", kMain.string(), kLib.string(), "-o", out}) == lto);
    CHECK(link({"-arch=lto_80", kMain.string(), kLib.string()}) == lto);
    // compute_XX: nvlink opens the inputs and writes nothing, exit 0, even
    // with -o and inputs of another SM.
    CHECK(link({"-arch=compute_80", kMain.string(), kLib.string(), "-o", out}) == "ok");
    CHECK(link({"-arch=compute_90", kMain.string(), kLib.string()}) == "ok");
    CHECK_FALSE(fs::exists(out));
    CHECK(link({"-arch=compute_80", (dir / "absent.cubin").string(), "-o", out}) ==
          (dir / "absent.cubin").string() + ": cannot open: No such file or directory");
}
