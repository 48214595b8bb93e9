// Host objects (core/src/HostObject.cpp) and input classification
// (core/src/InputKind.cpp) on objects made by nvcc for x86-64 and an aarch64
// object assembled around the same device code (tests/inputs).

#include "TestUtil.h"

#include "culd/Diagnostics.h"
#include "culd/HostObject.h"
#include "culd/InputKind.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace culd;
using namespace culd::test;

namespace {

ElfFile parseHost(const std::vector<uint8_t> &bytes, const std::string &name) {
    return ElfFile::parse(name, view(bytes), ElfParseOptions{true});
}

using Patterns = std::vector<std::string_view>;

} // namespace

TEST_CASE("host object: ElfFile rejects host machines unless asked", "[host]") {
    auto bytes = input("host-sm90.o");
    REQUIRE_THROWS_MATCHES(ElfFile::parse("host-sm90.o", view(bytes)), FatalError,
                           Catch::Message("host-sm90.o: not a CUDA device ELF (e_machine 62)"));
    ElfFile file = parseHost(bytes, "host-sm90.o");
    CHECK(file.header().machine == 62);
    CHECK(file.findSection("__nv_relfatbin") != nullptr);
}

TEST_CASE("host object: x86-64 nvcc -rdc object", "[host]") {
    auto bytes = input("host-sm90.o");
    ElfFile file = parseHost(bytes, "host-sm90.o");
    HostObjectInfo info = readHostObject(file, "host-sm90.o");
    CHECK(info.hasRelocatableDeviceCode);
    CHECK_FALSE(info.hasWholeProgramDeviceCode);
    CHECK(info.moduleId == "_e752f9f2_4_h_cu_66014d31");
    REQUIRE(info.entries.size() == 2);
    CHECK(info.entries[0].isElf());
    CHECK(info.entries[1].isPtx());
    CHECK(info.entries[1].options == "--compile-only  ");
    auto cubin = decompressEntry(info.entries[0], "host-sm90.o");
    CHECK(std::memcmp(cubin.data(), "\x7F" "ELF", 4) == 0);
    CHECK(detectInputKind(view(cubin), "") == InputKind::Cubin);

    const HostReferences &r = info.refs;
    CHECK(r.present);
    CHECK(r.kernelsExternal == Patterns{"_Z5ekern*"});
    CHECK(r.kernelsInternal == Patterns{"__nv_static_25__e752f9f2_4_h_cu_66014d31_*5skern*"});
    CHECK(r.deviceVarsExternal == Patterns{"g_dev"});
    CHECK(r.deviceVarsInternal == Patterns{"__nv_static_25__e752f9f2_4_h_cu_66014d31_*s_dev"});
    CHECK(r.constantsExternal == Patterns{"c_ext"});
    CHECK(r.constantsInternal == Patterns{"__nv_static_25__e752f9f2_4_h_cu_66014d31_*c_int"});
    CHECK(matchesHostReference(r.kernelsExternal[0], "_Z5ekernPi"));
    CHECK(matchesHostReference(r.kernelsInternal[0],
                               "__nv_static_25__e752f9f2_4_h_cu_66014d31__Z5skernPi"));
    CHECK_FALSE(matchesHostReference(r.kernelsExternal[0], "_Z5fkernPi"));
}

TEST_CASE("host object: aarch64 object and empty lists", "[host]") {
    auto bytes = input("host-aarch64.o");
    ElfFile file = parseHost(bytes, "host-aarch64.o");
    CHECK(file.header().machine == 183);
    HostObjectInfo info = readHostObject(file, "host-aarch64.o");
    CHECK(info.moduleId == "_arm_module_id");
    CHECK(info.entries.size() == 2);
    CHECK(info.refs.kernelsExternal == Patterns{"_Z5ekern*"});
    CHECK(info.refs.kernelsInternal.empty()); // a single NUL byte
    CHECK(info.refs.deviceVarsExternal == Patterns{"g_dev", "other_*"});
    CHECK(info.refs.constantsInternal.empty());
    CHECK(detectInputKind(view(bytes), "x.o") == InputKind::HostObject);
}

TEST_CASE("host object: whole-program (.nv_fatbin) code is not linked", "[host]") {
    auto bytes = input("host-nordc.o");
    HostObjectInfo info = readHostObject(parseHost(bytes, "host-nordc.o"), "host-nordc.o");
    CHECK_FALSE(info.hasRelocatableDeviceCode);
    CHECK(info.hasWholeProgramDeviceCode);
    CHECK(info.entries.empty());
}

TEST_CASE("host object: malformed device sections", "[host]") {
    auto original = input("host-sm90.o");
    ElfFile file = parseHost(original, "host-sm90.o");
    const ElfSection *fatbinSection = file.findSection("__nv_relfatbin");
    REQUIRE(fatbinSection);
    const uint64_t shdr = file.header().shoff + uint64_t(fatbinSection->index) * 64;
    const uint64_t size = fatbinSection->size;

    SECTION("truncated fatbin") {
        auto bytes = original;
        const uint64_t truncated = 100;
        std::memcpy(bytes.data() + shdr + 32, &truncated, 8);
        ElfFile broken = parseHost(bytes, "a.o");
        REQUIRE_THROWS_MATCHES(readHostObject(broken, "a.o"), FatalError,
                               Catch::Message("a.o: section '__nv_relfatbin': fatbin at offset 0x0: "
                                              "size " + std::to_string(size - 16) +
                                              " runs past the end (84 bytes left)"));
    }
    SECTION("module id without NUL") {
        auto bytes = original;
        const ElfSection *id = file.findSection("__nv_module_id");
        REQUIRE(id);
        std::memset(bytes.data() + id->offset, 'x', id->size);
        REQUIRE_THROWS_MATCHES(readHostObject(parseHost(bytes, "a.o"), "a.o"), FatalError,
                               Catch::Message("a.o: section '__nv_module_id': module id is not "
                                              "NUL-terminated"));
    }
    SECTION("reference list without final NUL") {
        auto bytes = original;
        const ElfSection *list = file.findSection(".nvHRKE");
        REQUIRE(list);
        bytes[list->offset + list->size - 1] = '*';
        REQUIRE_THROWS_MATCHES(readHostObject(parseHost(bytes, "a.o"), "a.o"), FatalError,
                               Catch::Message("a.o: section '.nvHRKE': list is not NUL-terminated"));
    }
    SECTION("a cubin is no host object") {
        auto bytes = original;
        const uint16_t cuda = 190;
        std::memcpy(bytes.data() + 18, &cuda, 2);
        CHECK(detectInputKind(view(bytes), "a.o") == InputKind::Cubin);
    }
}

TEST_CASE("host-reference patterns", "[host]") {
    CHECK(matchesHostReference("abc", "abc"));
    CHECK_FALSE(matchesHostReference("abc", "abcd"));
    CHECK(matchesHostReference("*", ""));
    CHECK(matchesHostReference("a*c*e", "abxcxxe"));
    CHECK_FALSE(matchesHostReference("a*c*e", "abxcxxf"));
    CHECK(matchesHostReference("**x", "yyx"));
    CHECK_FALSE(matchesHostReference("", "a"));
}

TEST_CASE("input kinds by content", "[host][input-kind]") {
    auto kind = [](const std::string &text, const std::string &path) {
        return detectInputKind(ByteView{reinterpret_cast<const uint8_t *>(text.data()), text.size()}, path);
    };
    CHECK(detectInputKind(view(input("elf-ptx-sm90.fatbin")), "x.o") == InputKind::Fatbin);
    CHECK(detectInputKind(view(input("libnvcc.a")), "x") == InputKind::Archive);
    CHECK(detectInputKind(view(input("libthin.a")), "x") == InputKind::ThinArchive);
    CHECK(detectInputKind(view(input("host-sm90.o")), "x.cubin") == InputKind::HostObject);
    CHECK(kind("//\n// Generated\n\n.version 9.0\n.target sm_90\n", "x.txt") == InputKind::Ptx);
    CHECK(kind("/* c */ .target sm_90", "") == InputKind::Ptx);
    CHECK(kind("hello", "x.ptx") == InputKind::Ptx); // extension as tie-breaker
    CHECK(kind("hello", "x.txt") == InputKind::Unknown);
    CHECK(kind("hello", "dir/ltoir") == InputKind::LtoIr);
    CHECK(kind(std::string("\x01\x5A\xE5\x1E", 4), "") == InputKind::LtoIr);
    CHECK(kind(std::string("\0\0\0\0\x01\x5A\xE5\x1E", 8), "") == InputKind::LtoIr);
    CHECK(kind(std::string("\xED\x43\x4E\x7F\x01\x41\x02\x62", 8), "x.o") == InputKind::LtoIr);
    CHECK(kind("", "") == InputKind::Unknown);

    std::vector<uint8_t> so = input("host-sm90.o");
    so[16] = 3; // ET_DYN
    CHECK(detectInputKind(view(so), "x.so") == InputKind::SharedObject);
    CHECK(std::string(inputKindName(InputKind::ThinArchive)) == "thin archive");
}
