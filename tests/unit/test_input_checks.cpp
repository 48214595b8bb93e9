// Input constructs culd does not model are refused: a real sm_80 fixture
// with one field patched must make the culd driver fail with the exact
// message naming file, section and the unknown value, and leave no output.

#include "TestUtil.h"

#include "culd/Diagnostics.h"
#include "culd/InputFiles.h"
#include "culd/MappedFile.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace culd;

namespace {

// tests/fixtures/01-single-kernel/sm_80/k.cubin (nvcc 13.0): section 7 is
// .nv.info, 8 .nv.info._Z5saxpyifPKfPf, 9 .nv.callgraph, 10 .rel.debug_frame.
const char *const kFixture = "01-single-kernel/sm_80/k.cubin";
constexpr uint64_t kNvInfo = 0x478, kNvInfoFunc = 0x49c, kRelDebugFrame = 0x530;

std::vector<uint8_t> fixture() {
    std::vector<uint8_t> bytes = test::readFile(test::fixturesDir() / kFixture);
    REQUIRE(bytes.size() > 0x700);
    return bytes;
}

uint64_t sectionHeader(const std::vector<uint8_t> &bytes, unsigned index) {
    uint64_t shoff;
    std::memcpy(&shoff, bytes.data() + 0x28, 8);
    return shoff + 64 * index;
}

template <class T> void put(std::vector<uint8_t> &bytes, uint64_t at, T value) {
    std::memcpy(bytes.data() + at, &value, sizeof value);
}

// Reading alone (ObjectFile) refuses the file with `message`.
void expectRefusedOnRead(const std::vector<uint8_t> &bytes, const std::string &message) {
    REQUIRE_THROWS_MATCHES(ObjectFile::fromBytes(MappedFile::fromMemory("k.cubin", bytes),
                                                 "k.cubin", 0),
                           FatalError, Catch::Message("k.cubin: " + message));
}

// The culd driver fails with `culd error : k.cubin: <message>` and writes
// nothing.
void expectLinkRefused(const std::vector<uint8_t> &bytes, const std::string &message) {
    test::DriverRun run = test::runCuld({{"k.cubin", bytes}}, "-arch=sm_80 k.cubin");
    CHECK(run.rc != 0);
    CHECK(run.err == "culd error : k.cubin: " + message + "\n");
    CHECK(run.out.empty());
}

} // namespace

TEST_CASE("input checks: the unpatched fixture is accepted", "[input-checks]") {
    CHECK_NOTHROW(ObjectFile::fromBytes(MappedFile::fromMemory("k.cubin", fixture()), "k.cubin", 0));
}

TEST_CASE("input checks: unknown section type", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    put<uint32_t>(bytes, sectionHeader(bytes, 9) + 4, 0x70000099);
    std::string message = "section '.nv.callgraph': unknown section type 0x70000099";
    expectRefusedOnRead(bytes, message);
    expectLinkRefused(bytes, message);
}

TEST_CASE("input checks: unknown section flag bits", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    put<uint64_t>(bytes, sectionHeader(bytes, 7) + 8, 0x800); // SHF_COMPRESSED
    expectRefusedOnRead(bytes, "section '.nv.info': unknown section flags 0x800 (sh_flags 0x800)");
}

TEST_CASE("input checks: unknown EIATTR code", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    bytes[kNvInfo + 1] = 0x61; // was REGCOUNT
    std::string message = "section '.nv.info': unknown .nv.info attribute EIATTR_0x61 at offset 0x0";
    expectRefusedOnRead(bytes, message);
    expectLinkRefused(bytes, message);
}

TEST_CASE("input checks: EIATTR codes with no known format", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    bytes[kNvInfo + 1] = 0x56; // EIATTR_UNKNOWN: a name, never seen
    expectRefusedOnRead(bytes,
                        "section '.nv.info': unknown .nv.info attribute EIATTR_UNKNOWN at offset 0x0");
}

TEST_CASE("input checks: known EIATTR code in an unexpected format", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    bytes[kNvInfoFunc + 0x18] = 0x02; // CBANK_PARAM_SIZE: HVAL -> BVAL
    expectRefusedOnRead(bytes, "section '.nv.info._Z5saxpyifPKfPf': EIATTR_CBANK_PARAM_SIZE at "
                               "offset 0x18 has format EIFMT_BVAL, expected EIFMT_HVAL");
}

TEST_CASE("input checks: known EIATTR code with an unexpected payload size", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    bytes[kNvInfo + 1] = 0x1E; // REGCOUNT's 8 bytes as CRS_STACK_SIZE (4)
    expectRefusedOnRead(bytes, "section '.nv.info': EIATTR_CRS_STACK_SIZE at offset 0x0 has a "
                               "payload of 8 bytes, expected 4");
}

TEST_CASE("input checks: relocation type the plugin does not know", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    put<uint32_t>(bytes, kRelDebugFrame + 8, 0xEE); // r_info type of the first entry
    expectLinkRefused(bytes, "section '.rel.debug_frame': unexpected reloc type 0xee at offset 0x44");
}

namespace {
constexpr uint64_t kSymtab = 0x268; // .symtab: 24-byte entries
uint64_t symbolEntry(unsigned index) { return kSymtab + 24 * index; }
} // namespace

TEST_CASE("input checks: unknown symbol binding and type", "[input-checks]") {
    std::vector<uint8_t> bytes = fixture();
    bytes[symbolEntry(8) + 4] = (3 << 4) | 2; // _Z5saxpyifPKfPf: binding 3 (GNU unique)
    expectRefusedOnRead(bytes, "section '.symtab': symbol '_Z5saxpyifPKfPf' (#8) has unknown binding 3");

    bytes = fixture();
    bytes[symbolEntry(8) + 4] = (1 << 4) | 6; // STT_TLS
    expectLinkRefused(bytes, "section '.symtab': symbol '_Z5saxpyifPKfPf' (#8) has unknown type 6");
}
