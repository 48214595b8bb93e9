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
#include <culd-nvidia/Nvidia.h>

namespace {

// Attributes tied to a newer SM than this family: the tcgen05 ones (0x51,
// 0x52) and REG_RECONFIG (0x54) exist from sm_100 on, so a cubin of this
// family carrying them is kept with a warning. (0x50 and 0x5F already occur
// in sm_90 cubins and are not gated.)
constexpr culd::nvidia::EiattrGate kEiattrGates[] = {{0x51, 100}, {0x52, 100}, {0x54, 100}};

culd_arch_info hopper(uint32_t sm) {
    culd_arch_info a = culd::nvidia::archInfo(sm);
    a.variants = CULD_VARIANT_A;
    // nvlink 13.0's Hopper writer drops the frame description of a
    // replaced weak copy with a stack frame (110-weak-replaced-with-frame),
    // and the constant bank of a weak copy that lost goes with its code.
    a.flags = CULD_ARCH_F_REL_ACTION | CULD_ARCH_F_COMPAT | CULD_ARCH_F_RELOCATABLE_PHENTSIZE |
              CULD_ARCH_F_PRESERVE_RELOCS_PARTIAL | CULD_ARCH_F_REPLACED_FRAMES_DROPPED |
              CULD_ARCH_F_LOST_COPY_BANKS_DROPPED | CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE |
              CULD_ARCH_F_EXTERN_SHARED_INSTANCES | CULD_ARCH_F_WIDE_COLOURED_SHARED |
              CULD_ARCH_F_WIDE_EMPTY_WINDOWS;
    a.elf_abi = CULD_ELF_ABI_V8;
    a.elf_flags_low = culd::nvidia::kElfV8FlagsSass;
    a.reserved_smem = 0x400;
    a.reloc_style = CULD_RELOC_STYLE_RELA_ONLY;
    return a;
}

class Sm90Plugin final : public culd::sdk::Plugin {
public:
    const char *name() const override { return "sm90"; }
    const char *version() const override { return "1"; }

    std::vector<culd_arch_info> archs() const override { return {hopper(90)}; }

    std::vector<culd_reloc_desc> relocations() const override {
        // nvlink has one R_CUDA table for every target; sm_90 is class 5,
        // the highest, and nvlink 13.0 refuses no type by class even on
        // sm_75 (docs/nvlink-findings.md, "Relocation classes"), so every
        // row keeps min_arch_class 0. No R_MERCURY type (those live only in
        // sm_100+ shadow sections).
        return culd::nvidia::rCudaTypes();
    }

    culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code) const override {
        return culd::nvidia::eiattrPolicy(sm, code, kEiattrGates);
    }
};

} // namespace

CULD_DEFINE_PLUGIN(Sm90Plugin)
