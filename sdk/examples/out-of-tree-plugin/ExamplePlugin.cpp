// Template for a new architecture backend. Copy this directory, rename the
// plugin, and replace the values below with the facts of your target.
//
// A plugin is data first: one culd_arch_info per SM it serves and the table
// of relocation types its code uses. Behaviour (hooks) is only needed where a
// table row cannot say what to do. The core does everything else: merging,
// layout, symbol resolution, applying ordinary relocations through the bit
// actions, and writing the ELF.
//
// Everything here describes a fictional SM 998 that behaves like a CUDA 13
// Hopper-class target.
#include <culd/plugin.hpp>

namespace {

using culd::sdk::bits;
using culd::sdk::reloc;

constexpr uint32_t kExampleSm = 998;

culd_arch_info exampleArch() {
    // archInfo() fills struct_size and sm; everything else is the target's.
    culd_arch_info a = culd::sdk::archInfo(kExampleSm);
    a.variants = CULD_VARIANT_A;                 // accept sm_998a too
    a.arch_class = 1;                            // relocation rows need <= 1
    a.flags = CULD_ARCH_F_COMPAT;                // write .nv.compat
    a.elf_abi = CULD_ELF_ABI_V8;                 // OSABI 0x41 header
    a.elf_flags_low = 0x04;                      // low byte of e_flags
    a.reserved_smem = 0x400;                     // added to each kernel's smem
    a.max_cbank_size = 0x10000;                  // bytes per constant bank
    a.user_cbank = 3;                            // bank of __constant__ data
    a.reloc_style = CULD_RELOC_STYLE_RELA_ONLY;  // never emit .rel sections
    a.phdr_layout = CULD_PHDR_CODE_DATA;         // PHDR, code, data segments
    return a;
}

class ExamplePlugin final : public culd::sdk::Plugin {
public:
    // Must match `name` in the manifest that culd_add_plugin() writes.
    const char *name() const override { return "example"; }
    const char *version() const override { return "0.1"; }

    std::vector<culd_arch_info> archs() const override { return {exampleArch()}; }

    // Every relocation type the target's code uses, one row each:
    // reloc(type, name, resolver, {bits(offset, width, value kind), ...}, flags).
    std::vector<culd_reloc_desc> relocations() const override {
        return {
            reloc(0, "R_EXAMPLE_NONE", CULD_RESOLVE_NONE),
            reloc(1, "R_EXAMPLE_32", CULD_RESOLVE_EITHER, {bits(0, 32, CULD_VK_ADDR)}),
            reloc(2, "R_EXAMPLE_64", CULD_RESOLVE_EITHER, {bits(0, 64, CULD_VK_ADDR)}),
        };
    }

    // .nv.info gating: which attributes this target accepts.
    culd_eiattr_policy eiattrPolicy(uint32_t /*sm*/, uint32_t code) const override {
        return code <= 0x60 ? CULD_EIATTR_KEEP : CULD_EIATTR_ERROR;
    }

    // Optional hooks, all off by default:
    //  - applyRelocations(): for rows flagged CULD_RELOC_F_HOOK;
    //  - hasMercury() + classifyMercury(): if inputs carry a shadow section set;
    //  - compatPolicy(): .nv.compat gating;
    //  - hasFinalizer() + finalize(): rewrite the serialised output image.
};

} // namespace

// Exports `culd_plugin_entry`, the only symbol the host looks up.
CULD_DEFINE_PLUGIN(ExamplePlugin)
