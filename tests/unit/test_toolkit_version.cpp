// Inputs newer than the toolkit culd reproduces (CUDA 13.0) are refused as
// nvlink 13.0 refuses them, and --cuda-api-version checks each input's
// EIATTR_CUDA_API_VERSION; messages and conditions measured on nvlink
// (docs/nvlink-findings.md, "Toolkit versions").

#include "LinkUtil.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

using namespace culd;

namespace {

std::vector<uint8_t> fixture() {
    return test::readFile(test::fixturesDir() / "01-single-kernel" / "sm_80" / "k.cubin");
}

// Offset of the first occurrence of `pattern` in `bytes`; fails the test when absent.
size_t find(const std::vector<uint8_t> &bytes, const std::vector<uint8_t> &pattern) {
    auto at = std::search(bytes.begin(), bytes.end(), pattern.begin(), pattern.end());
    REQUIRE(at != bytes.end());
    return static_cast<size_t>(at - bytes.begin());
}

// The u32 version of .note.nv.cuinfo: after namesz 12, descsz 8, type 1000,
// "NVIDIA Corp\0", u16 format 2 and u16 SM 80.
std::vector<uint8_t> withCompiledVersion(uint32_t version) {
    std::vector<uint8_t> bytes = fixture();
    size_t note = find(bytes, {12, 0, 0, 0, 8, 0, 0, 0, 0xe8, 0x03, 0, 0, 'N', 'V', 'I', 'D'});
    uint32_t was;
    std::memcpy(&was, bytes.data() + note + 28, 4);
    REQUIRE(was == 130);
    std::memcpy(bytes.data() + note + 28, &version, 4);
    return bytes;
}

// The EIATTR_CUDA_API_VERSION record: SVAL, code 0x37, 4 bytes, 130.
std::vector<uint8_t> withApiVersion(uint32_t version) {
    std::vector<uint8_t> bytes = fixture();
    size_t record = find(bytes, {0x04, 0x37, 0x04, 0x00, 0x82, 0x00, 0x00, 0x00});
    std::memcpy(bytes.data() + record + 4, &version, 4);
    return bytes;
}

std::string link(const std::vector<uint8_t> &bytes, std::vector<std::string> extra = {}) {
    test::TempDir dir;
    test::writeFile(dir / "k.cubin", bytes);
    std::vector<std::string> args = {"-arch=sm_80", "-o", (dir / "out.cubin").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back((dir / "k.cubin").string());
    std::string result = test::linkInProcess(args);
    // The message names the input as given; keep only its file name.
    std::string prefix = (dir / "").string();
    for (size_t at; (at = result.find(prefix)) != std::string::npos;)
        result.erase(at, prefix.size());
    return result;
}

} // namespace

TEST_CASE("toolkit version: an input from CUDA 13.0 or older links", "[toolkit-version]") {
    CHECK(link(fixture()) == "ok");
    CHECK(link(withCompiledVersion(118)) == "ok");
    CHECK(link(fixture(), {"--cuda-api-version=13.0"}) == "ok");
    CHECK(link(withApiVersion(120), {"--cuda-api-version=13.0"}) == "ok");
}

TEST_CASE("toolkit version: an input compiled by a newer CUDA is refused", "[toolkit-version]") {
    CHECK(link(withCompiledVersion(131)) == "Input file 'k.cubin' newer than toolkit (131 vs 130)");
    CHECK(link(withCompiledVersion(140), {"--cuda-api-version=13.0"}) ==
          "Input file 'k.cubin' newer than toolkit (140 vs 130)");
}

TEST_CASE("toolkit version: EIATTR_CUDA_API_VERSION is checked only against --cuda-api-version",
          "[toolkit-version]") {
    CHECK(link(withApiVersion(131)) == "ok");
    const std::string refused = "Object 'k.cubin' has cuda-api-version of 131 which is greater "
                                "than version on link line (130)";
    CHECK(link(withApiVersion(131), {"--cuda-api-version=13.0"}) == refused);
    // nvlink ignores the minor version: 13.2 still means 130.
    CHECK(link(withApiVersion(131), {"--cuda-api-version=13.2"}) == refused);
}

TEST_CASE("toolkit version: --cuda-api-version takes <major>.<minor> of this toolkit",
          "[toolkit-version]") {
    for (const char *bad : {"13", "13.", ".0", "13.x", "13.0.1", "thirteen"})
        CHECK(link(fixture(), {std::string("--cuda-api-version=") + bad}) ==
              "--cuda-api-version value cannot be parsed");
    for (const char *other : {"12.0", "14.0"})
        CHECK(link(fixture(), {std::string("--cuda-api-version=") + other}) ==
              "--cuda-api-version major number must be == toolkit version");
}
