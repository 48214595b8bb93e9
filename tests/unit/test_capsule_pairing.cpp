// Constant-bank offsets in sm_100+ capsules, end to end: the culd driver
// writes an immediate `__constant__` operand's offset into the capsule's
// record as nvlink does, pairing the capsule's relocations with its SASS
// twin's in offset order, and refuses a pairing it cannot vouch for.
//
// tests/fixtures/134-capsule-constant-offset/sm_100/a.cubin (nvcc 13.0):
// `pick` reads c[28] with an immediate offset (R_CUDA_CONST_FIELD21_38,
// addend 0x70, at 0x0 of its .text) and indexes `c` from a base
// (R_CUDA_ABS16_32 at 0x10); its capsule's two R_MERCURY_ABS16 against `c`
// pair with them in order. nvlink writes 0x70 at 0x30 of the capsule, the
// field of the record of the instruction at 0x0; the other has no record.

#include "TestUtil.h"

#include "culd/ElfFile.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using namespace culd;

namespace {

const char *const kFixture = "134-capsule-constant-offset/sm_100/a.cubin";
const char *const kCapsule = ".nv.capmerc.text._Z4picki";
constexpr uint64_t kRelaEntry = 24;

std::vector<uint8_t> fixture() {
    return test::readFile(test::fixturesDir() / kFixture);
}

// The file offset of relocation `index` of section `name` in `bytes`.
uint64_t relocationAt(const std::vector<uint8_t> &bytes, const char *name, unsigned index) {
    ElfFile elf = ElfFile::parse("a.cubin", test::view(bytes));
    const ElfSection *s = elf.findSection(name);
    REQUIRE(s);
    REQUIRE(s->size >= (index + 1) * kRelaEntry);
    return s->offset + index * kRelaEntry;
}

test::DriverRun link(const std::vector<uint8_t> &bytes, const std::string &flags = "") {
    return test::runCuld({{"a.cubin", bytes}}, "-arch=sm_100 " + flags + " a.cubin");
}

uint16_t capsuleField(const std::vector<uint8_t> &cubin) {
    ElfFile elf = ElfFile::parse("out.cubin", test::view(cubin));
    const ElfSection *capsule = elf.findSection(kCapsule);
    REQUIRE(capsule);
    REQUIRE(capsule->size > 0x32);
    uint16_t field = 0;
    std::memcpy(&field, capsule->data.data + 0x30, 2);
    return field;
}

void expectRefused(const std::vector<uint8_t> &bytes, const std::string &message) {
    test::DriverRun l = link(bytes);
    CHECK(l.rc != 0);
    CHECK(l.err.find(message) != std::string::npos);
    CHECK(l.out.empty());
}

} // namespace

TEST_CASE("capsule pairing: the immediate operand's offset is written, final and -r",
          "[capsule]") {
    std::vector<uint8_t> input = fixture();
    CHECK(capsuleField(input) == 0);
    for (const char *flags : {"", "-r"}) {
        test::DriverRun l = link(input, flags);
        REQUIRE(l.rc == 0);
        CHECK(capsuleField(l.out) == 0x70);
    }
}

TEST_CASE("capsule pairing: what culd cannot pair is refused, naming the relocation",
          "[capsule]") {
    const char *rela = ".nv.merc.rela.text._Z4picki";
    std::vector<uint8_t> bytes = fixture();
    // The capsule's relocation of c[28] (its second entry, at 0x1c) with
    // another addend than its twin's.
    uint64_t second = relocationAt(bytes, rela, 1);
    int64_t addend = 0x74;
    std::memcpy(bytes.data() + second + 16, &addend, 8);
    expectRefused(bytes, "section '.nv.merc.rela.text._Z4picki': relocation R_MERCURY_ABS16 at "
                         "offset 0x1c against 'c': its SASS twin's paired relocation at 0x0 has "
                         "another addend (112)");

    // Both capsule relocations at one offset.
    bytes = fixture();
    uint64_t first = relocationAt(bytes, rela, 0);
    std::memcpy(bytes.data() + first, bytes.data() + relocationAt(bytes, rela, 1), 8);
    expectRefused(bytes, "the capsule has more than one relocation at the offset");

    // The twin's indexed-base relocation names another symbol: one twin
    // relocation for two of the capsule's.
    bytes = fixture();
    uint64_t twin = relocationAt(bytes, ".rela.text._Z4picki", 0);
    uint32_t cSymbol = 0;
    std::memcpy(&cSymbol, bytes.data() + twin + 12, 4);
    uint32_t other = cSymbol - 1;
    std::memcpy(bytes.data() + twin + 12, &other, 4);
    expectRefused(bytes, "1 relocations of the SASS twin and 2 of the capsule use the symbol; culd "
                         "pairs them one to one");

    // A capsule whose record already holds a value.
    bytes = fixture();
    const std::vector<uint8_t> original = fixture();
    ElfFile elf = ElfFile::parse("a.cubin", test::view(original));
    const ElfSection *capsule = elf.findSection(kCapsule);
    REQUIRE(capsule);
    bytes[capsule->offset + 0x30] = 0x11;
    expectRefused(bytes, "the constant-bank operand at 0x14 of the capsule already holds 0x11");
}
