// Relocation architecture classes as nvlink 13.0 applies them: measured
// (scripts/measure-reloc-classes.py, docs/nvlink-findings.md "Relocation
// classes"), no R_CUDA type is refused on sm_75 (class 3) that sm_80
// (class 5) accepts, so the sm70 plugin gates none of its rows. A real
// fixture's call relocation retyped to the newest types links on both.

#include "TestUtil.h"

#include "culd/ElfFile.h"
#include "culd/PluginRegistry.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace culd;

namespace {

const char *const kCase = "02-cross-file-call";
const char *const kCallRelocs = ".rel.text._Z5applyPfPKfi";

// main.cubin of the fixture for `arch` with the first entry of its call
// relocation section retyped to `type`.
std::vector<uint8_t> retypedMain(const std::string &arch, uint32_t type) {
    std::vector<uint8_t> bytes = test::readFile(test::fixturesDir() / kCase / arch / "main.cubin");
    ElfFile elf = ElfFile::parse("main.cubin", ByteView{bytes.data(), bytes.size()});
    const ElfSection *rel = elf.findSection(kCallRelocs);
    REQUIRE(rel != nullptr);
    REQUIRE(rel->size >= 16);
    std::memcpy(bytes.data() + rel->offset + 8, &type, sizeof type); // low half of r_info
    return bytes;
}

test::DriverRun linkRetyped(const std::string &arch, uint32_t type) {
    return test::runCuld({{"main.cubin", retypedMain(arch, type)},
                          {"lib.cubin", test::readFile(test::fixturesDir() / kCase / arch /
                                                       "lib.cubin")}},
                         "-arch=" + arch + " lib.cubin main.cubin");
}

} // namespace

TEST_CASE("reloc classes: the sm70 plugin gates no R_CUDA row below sm_75",
          "[reloc-classes]") {
    std::unique_ptr<Plugin> p =
        Plugin::load(std::string(CULD_BUILD_PLUGIN_DIR) + "/libculd-plugin-sm70.so");
    const culd_arch_info *turing = p->arch(75);
    REQUIRE(turing != nullptr);
    REQUIRE(turing->arch_class == 3);
    unsigned rows = 0;
    for (uint32_t type = 0; type < 0x100; ++type)
        if (const culd_reloc_desc *r = p->reloc(type)) {
            ++rows;
            CHECK(r->min_arch_class <= turing->arch_class);
        }
    CHECK(rows == 117);
}

TEST_CASE("reloc classes: the newest R_CUDA types link on sm_75 as on sm_80",
          "[reloc-classes]") {
    // 75 and 114 are the sm_90 / UFT call types, 102 the first UNIFIED one,
    // 115 the last real type: nvlink 13.0 links each of them, in this place,
    // for sm_75 as for sm_80, silently.
    for (uint32_t type : {75u, 102u, 114u, 115u})
        for (const char *arch : {"sm_75", "sm_80"}) {
            INFO(arch << " type " << type);
            test::DriverRun run = linkRetyped(arch, type);
            CHECK(run.rc == 0);
            CHECK(run.err.empty());
        }
}

TEST_CASE("reloc classes: a type past the table is refused, not class-gated",
          "[reloc-classes]") {
    test::DriverRun run = linkRetyped("sm_75", 0x75);
    CHECK(run.rc != 0);
    CHECK(run.err == "culd error : main.cubin: section '" + std::string(kCallRelocs) +
                                "': unexpected reloc type 0x75 at offset 0x120\n");
}
