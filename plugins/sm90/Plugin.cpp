// Hopper backend (sm_90, sm_90a).
//
// Differs from sm_70..89 in the call relocation (R_CUDA_ABS55_16_34), RELA-only
// relocation sections, no register count in .text sh_info, 0x400 bytes of
// reserved shared memory per kernel, and the .nv.compat section.
//
// Verified on CUDA 13.0 cubins / nvlink 13.0 outputs: e_flags 0x06005a04
// (sm_90 and sm_90a alike), EIATTR_PARAM_CBANK 0x000c0210, calls r_type 75,
// only .rela.* sections, .text sh_info = symbol index only. Reserved shared
// memory, .nv.rel.action and .nv.compat presence come from arch-study.md
// (nvlink outputs), not re-measured here.
#include <culd/plugin.hpp>
#include <culd/reloc/Catalog.hpp>

namespace {

constexpr uint32_t kAbs55_16_34 = 75; // R_CUDA_ABS55_16_34: call target

culd_arch_info hopper(uint32_t sm) {
    culd_arch_info a = culd::sdk::nvidiaArchInfo(sm);
    a.variants = CULD_VARIANT_A;
    a.flags = CULD_ARCH_F_REL_ACTION | CULD_ARCH_F_COMPAT;
    a.elf_abi = CULD_ELF_ABI_V8;
    a.elf_flags_low = culd::sdk::kElfV8FlagsSass;
    a.instruction_bytes = 16;
    a.param_cbank_offset = 0x210;
    a.reserved_smem = 0x400;
    a.reloc_style = CULD_RELOC_STYLE_RELA_ONLY;
    a.call_reloc_type = kAbs55_16_34;
    return a;
}

class Sm90Plugin final : public culd::sdk::Plugin {
public:
    const char *name() const override { return "sm90"; }
    const char *version() const override { return "1"; }

    std::vector<culd_arch_info> archs() const override { return {hopper(90)}; }

    std::vector<culd_reloc_desc> relocations() const override {
        return culd::sdk::rCudaCatalog();
    }

    culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code) const override {
        return culd::sdk::nvidiaEiattrPolicy(sm, code);
    }
};

} // namespace

CULD_DEFINE_PLUGIN(Sm90Plugin)
