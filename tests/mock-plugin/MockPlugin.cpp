// Mock backend for the plugin-loader and relocation-engine tests.
//
// Plugin "mock" (the ABI scenarios build it as "mock-bad-major" and
// "mock-newer-minor"), one fictional target, SM 999:
//   variants A; arch_class 5; flags REL_ACTION; ELF ABI v8, e_flags low 0x04;
//   reserved smem 0x100; 64 KiB banks, user bank 3; RELA only; program
//   headers CODE_DATA; accepts SM 997 inputs.
//
// Relocation table (exactly four types, nothing else):
//   1 R_MOCK_ADDR32  LINKER  bits [0..31]  = S + A
//   2 R_MOCK_SPLIT   LINKER  bits [56..71] = (S + A) >> 2   (SHIFT2; the field
//                            crosses the 64-bit boundary: 8 bits in word 0,
//                            8 bits in word 1)
//   3 R_MOCK_HOOK    LINKER  CULD_RELOC_F_HOOK, no bit actions. The plugin's
//                            apply hook writes the little-endian u32
//                            ~(uint32_t)(S + A) at r_offset and sets status
//                            APPLIED. An offset past the section end is
//                            reported as an ERROR through the host ("mock:
//                            R_MOCK_HOOK at 0x.. is past the end of <sec>"),
//                            status ERROR, and the hook returns 1.
//   4 R_MOCK_DRIVER  DRIVER  bits [0..63]  = GADDR (never applied: kept)
//
// Build switches for the ABI scenarios (both default to 0):
//   MOCK_ABI_MAJOR_DELTA / MOCK_ABI_MINOR_DELTA are added to the abi_major /
//   abi_minor the SDK helper writes, MOCK_PLUGIN_NAME names the plugin.
#include <culd/plugin.hpp>

#include <cstdio>
#include <cstring>

#ifndef MOCK_ABI_MAJOR_DELTA
#define MOCK_ABI_MAJOR_DELTA 0
#endif
#ifndef MOCK_ABI_MINOR_DELTA
#define MOCK_ABI_MINOR_DELTA 0
#endif
#ifndef MOCK_PLUGIN_NAME
#define MOCK_PLUGIN_NAME "mock"
#endif

namespace {

using culd::sdk::bits;
using culd::sdk::reloc;

constexpr uint32_t kMockSm = 999;
constexpr uint32_t kMockInputs[] = {997};

enum MockReloc : uint32_t { kAddr32 = 1, kSplit = 2, kHook = 3, kDriver = 4 };

culd_arch_info mockArch() {
    culd_arch_info a = culd::sdk::archInfo(kMockSm);
    a.variants = CULD_VARIANT_A;
    a.arch_class = 5;
    a.flags = CULD_ARCH_F_REL_ACTION;
    a.elf_abi = CULD_ELF_ABI_V8;
    a.elf_flags_low = 0x04;
    a.reserved_smem = 0x100;
    a.max_cbank_size = 0x10000;
    a.user_cbank = 3;
    a.reloc_style = CULD_RELOC_STYLE_RELA_ONLY;
    a.phdr_layout = CULD_PHDR_CODE_DATA;
    return culd::sdk::accepting(a, kMockInputs);
}

void writeLe32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<uint8_t>(v >> (8 * i));
}

class MockPlugin final : public culd::sdk::Plugin {
public:
    const char *name() const override { return MOCK_PLUGIN_NAME; }
    const char *version() const override { return "mock-1"; }

    std::vector<culd_arch_info> archs() const override { return {mockArch()}; }

    std::vector<culd_reloc_desc> relocations() const override {
        return {
            reloc(kAddr32, "R_MOCK_ADDR32", CULD_RESOLVE_LINKER, {bits(0, 32, CULD_VK_ADDR)}),
            reloc(kSplit, "R_MOCK_SPLIT", CULD_RESOLVE_LINKER, {bits(56, 16, CULD_VK_SHIFT2)}),
            reloc(kHook, "R_MOCK_HOOK", CULD_RESOLVE_LINKER, {}, CULD_RELOC_F_HOOK),
            reloc(kDriver, "R_MOCK_DRIVER", CULD_RESOLVE_DRIVER, {bits(0, 64, CULD_VK_GADDR)}),
        };
    }

    int32_t applyRelocations(const culd_host &host, uint32_t, culd_section_bytes &section,
                             culd_reloc_work *relocs, size_t count) override {
        int32_t result = 0;
        for (size_t i = 0; i < count; ++i)
            if (!applyHook(host, section, relocs[i]))
                result = 1;
        return result;
    }

private:
    static bool applyHook(const culd_host &host, culd_section_bytes &section,
                          culd_reloc_work &r) {
        if (r.offset > section.size || section.size - r.offset < 4) {
            char msg[160];
            std::snprintf(msg, sizeof msg, "mock: R_MOCK_HOOK at 0x%llx is past the end of %s",
                          static_cast<unsigned long long>(r.offset),
                          section.name ? section.name : "?");
            report(host, CULD_LOG_ERROR, msg);
            r.status = CULD_RELOC_ERROR;
            return false;
        }
        uint64_t value = r.symbol_value + static_cast<uint64_t>(r.addend);
        writeLe32(section.data + r.offset, ~static_cast<uint32_t>(value));
        r.status = CULD_RELOC_APPLIED;
        return true;
    }
};

// The SDK's describe() always stamps the real ABI version; the ABI scenarios
// need a wrong one, so patch a copy.
const culd_plugin_descriptor *patchedDescriptor() {
    static const culd_plugin_descriptor *const patched =
        []() -> const culd_plugin_descriptor * {
        static culd_plugin_descriptor copy{};
        const culd_plugin_descriptor *real = culd::sdk::detail::Holder<MockPlugin>::describe();
        if (!real)
            return nullptr;
        copy = *real;
        copy.abi_major += MOCK_ABI_MAJOR_DELTA;
        copy.abi_minor += MOCK_ABI_MINOR_DELTA;
        return &copy;
    }();
    return patched;
}

} // namespace

extern "C" CULD_PLUGIN_EXPORT const culd_plugin_descriptor *culd_plugin_entry(uint32_t,
                                                                              uint32_t) {
    return patchedDescriptor();
}
