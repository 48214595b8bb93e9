// ar archives (core/src/Archive.cpp): GNU archives from `ar rcs` and
// `nvcc -lib`, a thin archive from `ar rcsT` (tests/inputs), and broken
// copies with their exact messages.

#include "TestUtil.h"

#include "culd/Archive.h"
#include "culd/Diagnostics.h"
#include "culd/HostObject.h"
#include "culd/InputKind.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace culd;
using namespace culd::test;

namespace {

// Overwrites `field` of the member header at `header` (space padded).
void setField(std::vector<uint8_t> &bytes, size_t header, size_t offset, size_t width,
              const std::string &value) {
    REQUIRE(value.size() <= width);
    std::memset(bytes.data() + header + offset, ' ', width);
    std::memcpy(bytes.data() + header + offset, value.data(), value.size());
}

} // namespace

TEST_CASE("archive: GNU archive with long names", "[archive]") {
    auto bytes = input("libtext.a");
    auto members = readArchive(view(bytes), "libtext.a");
    REQUIRE(members.size() == 3);
    CHECK(members[0].name == "s.txt");
    CHECK(text(members[0].data) == "hello");
    CHECK(members[1].name == "member_with_a_long_name.ptx");
    CHECK(members[2].name == "another_long_member_name.ptx");
    CHECK(detectInputKind(members[1].data, members[1].name) == InputKind::Ptx);
    for (const auto &m : members) {
        CHECK(m.thinPath.empty());
        CHECK(m.data.data >= bytes.data());
        CHECK(m.data.end() <= bytes.data() + bytes.size()); // views into the archive
    }
}

TEST_CASE("archive: nvcc -lib archive holds host objects with device code", "[archive]") {
    auto bytes = input("libnvcc.a");
    auto members = readArchive(view(bytes), "libnvcc.a");
    REQUIRE(members.size() == 1);
    CHECK(members[0].name == "b.o");
    REQUIRE(detectInputKind(members[0].data, members[0].name) == InputKind::HostObject);
    const std::string name = "libnvcc.a(b.o)";
    ElfFile file = ElfFile::parse(name, members[0].data, ElfParseOptions{true});
    HostObjectInfo info = readHostObject(file, name);
    CHECK(info.entries.size() == 2);
    CHECK_FALSE(info.moduleId.empty());
}

TEST_CASE("archive: thin archive members are paths next to the archive", "[archive]") {
    auto bytes = input("libthin.a");
    auto members = readArchive(view(bytes), "dir/sub/libthin.a");
    REQUIRE(members.size() == 2);
    CHECK(members[0].name == "../arc/s.txt");
    CHECK(members[0].data.empty());
    CHECK(members[0].thinPath == "dir/arc/s.txt");
    CHECK(members[1].thinPath == "dir/arc/member_with_a_long_name.ptx");
    auto here = readArchive(view(bytes), "libthin.a");
    CHECK(here[0].thinPath == "../arc/s.txt");
}

TEST_CASE("archive: malformed archives", "[archive]") {
    auto good = input("libtext.a");
    // Layout of libtext.a: magic, "/" symbol table (empty for text members:
    // ar writes none), "//" name table, then the members.
    auto members = readArchive(view(good), "libx.a");
    const size_t second = members[1].headerOffset;
    auto check = [](const std::vector<uint8_t> &bytes, const std::string &message) {
        REQUIRE_THROWS_MATCHES(readArchive(view(bytes), "libx.a"), FatalError,
                               Catch::Message("libx.a: " + message));
    };
    SECTION("bad magic") {
        auto bytes = good;
        bytes[1] = 'X';
        check(bytes, "not an ar archive (bad magic)");
    }
    SECTION("member runs past the end") {
        auto bytes = good;
        setField(bytes, second, 48, 10, "99999");
        check(bytes, "member 'member_with_a_long_name.ptx': size 99999 runs past the end of the "
                     "archive (" + std::to_string(bytes.size() - second - 60) + " bytes left)");
    }
    SECTION("bad header terminator") {
        auto bytes = good;
        bytes[second + 58] = 'x';
        check(bytes, "member header at offset " + std::to_string(second) +
                         " ('/0'): bad terminator (not an ar member header)");
    }
    SECTION("bad size field") {
        auto bytes = good;
        setField(bytes, second, 48, 10, "12a");
        check(bytes, "member header at offset " + std::to_string(second) +
                         " ('/0'): bad size field '12a'");
    }
    SECTION("long-name offset outside the table") {
        auto bytes = good;
        setField(bytes, second, 0, 16, "/5000");
        check(bytes, "member header at offset " + std::to_string(second) +
                         ": long-name offset 5000 is outside the name table (60 bytes)");
    }
    SECTION("truncated header") {
        std::vector<uint8_t> bytes(good.begin(), good.begin() + second + 30);
        check(bytes, "member header at offset " + std::to_string(second) +
                         " is truncated (30 bytes left)");
    }
}
