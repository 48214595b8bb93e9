#include "TestUtil.h"

#include "culd/Diagnostics.h"
#include "culd/MappedFile.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace culd;
using culd::test::TempDir;

TEST_CASE("MappedFile maps a file's bytes without copying them", "[mapped-file]") {
    TempDir dir;
    std::vector<uint8_t> content = {0x7F, 'E', 'L', 'F', 1, 2, 3};
    test::writeFile(dir / "a.cubin", content);

    auto file = MappedFile::open((dir / "a.cubin").string());
    REQUIRE(file->path() == (dir / "a.cubin").string());
    REQUIRE(file->bytes().size == content.size());
    REQUIRE(std::memcmp(file->bytes().data, content.data(), content.size()) == 0);
}

TEST_CASE("MappedFile gives an empty view for an empty file", "[mapped-file]") {
    TempDir dir;
    test::writeFile(dir / "empty", {});
    auto file = MappedFile::open((dir / "empty").string());
    REQUIRE(file->bytes().empty());
    REQUIRE(file->bytes().size == 0);
}

TEST_CASE("MappedFile reports files it cannot open", "[mapped-file]") {
    TempDir dir;
    const std::string missing = (dir / "missing.cubin").string();
    REQUIRE_THROWS_MATCHES(MappedFile::open(missing), FatalError,
                           Catch::Message(missing + ": cannot open: No such file or directory"));
    const std::string directory = dir.path().string();
    REQUIRE_THROWS_MATCHES(MappedFile::open(directory), FatalError,
                           Catch::Message(directory + ": cannot open: is a directory"));
}

TEST_CASE("MappedFile::fromMemory keeps the bytes it is given", "[mapped-file]") {
    std::vector<uint8_t> bytes(100, 0xAB);
    const uint8_t *storage = bytes.data();
    auto file = MappedFile::fromMemory("fatbin member 3", std::move(bytes));
    REQUIRE(file->path() == "fatbin member 3");
    REQUIRE(file->bytes().size == 100);
    REQUIRE(file->bytes().data == storage); // moved in, not copied
    REQUIRE(file->bytes().data[99] == 0xAB);

    auto empty = MappedFile::fromMemory("nothing", {});
    REQUIRE(empty->bytes().empty());
}
