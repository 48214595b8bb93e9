// Plugin discovery, ABI checks, and relocation application through a
// plugin's table and hooks, using the mock backend (tests/mock-plugin).
#include "culd/Diagnostics.h"
#include "culd/PluginRegistry.h"
#include "culd/Relocations.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

using namespace culd;

namespace {

const std::string mockRoot = CULD_MOCK_PLUGIN_DIR;

std::string loadError(const std::string &path) {
    try {
        Plugin::load(path);
    } catch (const FatalError &e) {
        return e.what();
    }
    return "";
}

uint32_t le32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

} // namespace

TEST_CASE("mock plugin loads and describes itself", "[plugins]") {
    std::unique_ptr<Plugin> p = Plugin::load(mockRoot + "/good/libculd-plugin-mock.so");
    CHECK(p->name() == "mock");
    CHECK(p->descriptor().abi_major == CULD_PLUGIN_ABI_MAJOR);
    REQUIRE(p->arch(999) != nullptr);
    CHECK(p->arch(999)->reserved_smem == 0x100);
    CHECK(p->arch(998) == nullptr);
    CHECK(p->relocName(3) == "R_MOCK_HOOK");
    CHECK(p->relocName(77) == "R_UNKNOWN_0x4d");
}

TEST_CASE("registry opens the plugin serving the arch from its manifest", "[plugins]") {
    PluginRegistry registry({mockRoot + "/good"});
    const Plugin &p = registry.pluginFor(999);
    CHECK(p.name() == "mock");
    CHECK(&registry.pluginFor(999) == &p); // loaded once
}

TEST_CASE("no plugin for an arch names the arches available", "[plugins]") {
    PluginRegistry registry({mockRoot + "/good"});
    try {
        registry.pluginFor(12345);
        FAIL("expected an error");
    } catch (const FatalError &e) {
        std::string msg = e.what();
        CHECK(msg.find("no plugin serves sm_12345; available: ") == 0);
        CHECK(msg.find("sm_999") != std::string::npos);
    }
}

TEST_CASE("ABI major mismatch is refused naming the file and both versions", "[plugins]") {
    std::string path = mockRoot + "/bad-major/libculd-plugin-mock-bad-major.so";
    std::string host = std::to_string(CULD_PLUGIN_ABI_MAJOR) + "." +
                       std::to_string(CULD_PLUGIN_ABI_MINOR);
    std::string plugin = std::to_string(CULD_PLUGIN_ABI_MAJOR + 1) + "." +
                         std::to_string(CULD_PLUGIN_ABI_MINOR);
    CHECK(loadError(path) == "plugin '" + path + "': ABI mismatch: plugin ABI " + plugin +
                                 ", culd ABI " + host + " (major versions differ)");
}

TEST_CASE("a newer ABI minor is refused", "[plugins]") {
    std::string path = mockRoot + "/newer-minor/libculd-plugin-mock-newer-minor.so";
    std::string host = std::to_string(CULD_PLUGIN_ABI_MAJOR) + "." +
                       std::to_string(CULD_PLUGIN_ABI_MINOR);
    std::string plugin = std::to_string(CULD_PLUGIN_ABI_MAJOR) + "." +
                         std::to_string(CULD_PLUGIN_ABI_MINOR + 1);
    CHECK(loadError(path) == "plugin '" + path + "': ABI mismatch: plugin ABI " + plugin +
                                 " is newer than culd ABI " + host);
}

TEST_CASE("a library without the entry point is refused", "[plugins]") {
    std::string path = mockRoot + "/no-entry/libculd-plugin-mock-no-entry.so";
    CHECK(loadError(path) ==
          "plugin '" + path + "': missing entry point '" + CULD_PLUGIN_ENTRY_NAME + "'");
}

TEST_CASE("a file that is not a shared object is refused", "[plugins]") {
    std::string path = mockRoot + "/not-elf/libculd-plugin-garbage.so";
    std::string err = loadError(path);
    CHECK(err.rfind("plugin '" + path + "': not a loadable shared object (", 0) == 0);
}

TEST_CASE("listing reports every candidate, with reasons for failures", "[plugins]") {
    PluginRegistry registry({mockRoot + "/good", mockRoot + "/bad-major", mockRoot + "/not-elf"});
    std::vector<PluginListing> all = registry.listPlugins();
    int good = 0, failed = 0;
    for (const PluginListing &l : all) {
        if (l.path.find(mockRoot) != 0)
            continue; // the build tree's real plugins are listed too
        if (l.plugin)
            ++good;
        else {
            ++failed;
            CHECK(!l.error.empty());
        }
    }
    CHECK(good == 1);
    CHECK(failed == 2);
}

TEST_CASE("a manifest that lies about its SMs is caught", "[plugins]") {
    // The bad-major manifest claims SM 999 but the library cannot be loaded:
    // asking for 999 from that directory alone surfaces the ABI error.
    PluginRegistry registry({mockRoot + "/bad-major"});
    CHECK_THROWS_AS(registry.pluginFor(999), FatalError);
}

TEST_CASE("relocations go through the plugin's table and its hook", "[plugins][relocations]") {
    std::unique_ptr<Plugin> p = Plugin::load(mockRoot + "/good/libculd-plugin-mock.so");
    std::vector<uint8_t> section(64, 0);
    auto apply = [&](uint32_t type, uint64_t offset, uint64_t s, int64_t a) {
        RelocApply r;
        r.offset = offset;
        r.desc = p->reloc(type);
        REQUIRE(r.desc != nullptr);
        r.symbolValue = s;
        r.addend = a;
        return r;
    };
    std::vector<RelocApply> relocs = {
        apply(1, 0, 0x1000, 0x34),   // R_MOCK_ADDR32: bits 0..31 = S + A
        apply(2, 16, 0x400, 0x10),   // R_MOCK_SPLIT: bits 56..71 = (S + A) >> 2
        apply(3, 40, 0x100, 0x10),   // R_MOCK_HOOK: plugin writes ~(S + A)
    };
    applyRelocations(*p, 999, ".text.k", 1, 0x6, section.data(), section.size(), relocs);
    CHECK(le32(&section[0]) == 0x1034);
    // (0x410 >> 2) = 0x104: low byte 0x04 at byte 23, high byte 0x01 at byte 24.
    CHECK(section[23] == 0x04);
    CHECK(section[24] == 0x01);
    CHECK(le32(&section[40]) == ~uint32_t(0x110));
}

TEST_CASE("a hook error is reported with the section name", "[plugins][relocations]") {
    std::unique_ptr<Plugin> p = Plugin::load(mockRoot + "/good/libculd-plugin-mock.so");
    std::vector<uint8_t> section(8, 0);
    RelocApply r;
    r.offset = 0;
    r.desc = p->reloc(3);
    std::vector<RelocApply> relocs{r};
    // 8 bytes: the engine's bounds check passes (one word), the hook's too.
    CHECK_NOTHROW(
        applyRelocations(*p, 999, ".text.k", 1, 0x6, section.data(), section.size(), relocs));
    relocs[0].offset = 16;
    CHECK_THROWS_WITH(
        applyRelocations(*p, 999, ".text.k", 1, 0x6, section.data(), section.size(), relocs),
        Catch::Contains("past the end of section '.text.k'"));
}
