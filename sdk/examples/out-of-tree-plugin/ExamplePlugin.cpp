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
#include <culd/reloc/Catalog.hpp>

namespace {

constexpr uint32_t kExampleSm = 998;

// Call relocation of the target (R_CUDA_ABS55_16_34 here). The core uses it to
// find call-graph edges when a cubin has no .nv.callgraph.
constexpr uint32_t kCallRelocType = 75;

culd_arch_info exampleArch() {
    // nvidiaArchInfo() fills struct_size, sm, the gating class and the values
    // every NVIDIA target shares (64 KiB constant banks, 18 banks, user bank
    // 3). Start from archInfo(sm) instead if your target differs there.
    culd_arch_info a = culd::sdk::nvidiaArchInfo(kExampleSm);
    a.variants = CULD_VARIANT_A;                   // accept sm_998a too
    a.flags = CULD_ARCH_F_COMPAT;                  // write .nv.compat
    a.elf_abi = CULD_ELF_ABI_V8;                   // OSABI 0x41 header
    a.elf_flags_low = culd::sdk::kElfV8FlagsSass;  // low byte of e_flags
    a.instruction_bytes = 16;                      // one SASS instruction
    a.param_cbank_offset = 0x210;                  // kernel params in cbank 0
    a.reserved_smem = 0x400;                       // added to each kernel's smem
    a.reloc_style = CULD_RELOC_STYLE_RELA_ONLY;    // never emit .rel sections
    a.call_reloc_type = kCallRelocType;
    return a;
}

class ExamplePlugin final : public culd::sdk::Plugin {
public:
    // Must match `name` in the manifest that culd_add_plugin() writes.
    const char *name() const override { return "example"; }
    const char *version() const override { return "0.1"; }

    std::vector<culd_arch_info> archs() const override { return {exampleArch()}; }

    // The full R_CUDA catalog: the compiler has one action table for every
    // target. A new relocation kind is one more row: append it here with
    // culd::sdk::reloc(type, name, resolver, {bits(...), ...}, flags).
    std::vector<culd_reloc_desc> relocations() const override {
        return culd::sdk::rCudaCatalog();
    }

    // .nv.info gating: which attributes this target accepts.
    culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code) const override {
        return culd::sdk::nvidiaEiattrPolicy(sm, code);
    }

    // Optional hooks, all off by default:
    //  - applyRelocations(): for rows flagged CULD_RELOC_F_HOOK;
    //  - hasMercury() + classifyMercury(): if inputs carry a shadow section set;
    //  - hasFinalizer() + finalize(): rewrite the serialised output image.
};

} // namespace

// Exports `culd_plugin_entry`, the only symbol the host looks up.
CULD_DEFINE_PLUGIN(ExamplePlugin)
