// Maxwell and Pascal backend (sm_50 ... sm_62).
//
// These targets exist only as CUDA <= 12 cubins (ELF ABI v7) and use 64-bit
// SASS words: every 32-byte bundle is one scheduling control word followed by
// three instructions, which is why the relocation types of this family are
// the `_20` variants (fields at bit 20 of a 64-bit word).
//
// Values below were read from cubins built with CUDA 11.8 (`nvcc -cubin
// -rdc=true -arch=sm_5x/6x`) and linked with nvlink 11.8:
//   e_flags 0x00320532 (sm_50) ... 0x003e053e (sm_62)   -> V7, fixed bits 0x500
//   EIATTR_PARAM_CBANK value 0x000c0140                 (params at 0x140)
//   call to bfunc / vprintf: r_type 42 R_CUDA_ABS32_20  (a driver relocation)
//   .text sh_info 0x1200000c = regs << 24 | symbol      -> TEXT_REGCOUNT
//   nvlink output has .nv.rel.action (0xe0 bytes)      -> REL_ACTION
//   inputs carry .rel.text.* with the addend in the instruction; nvlink's
//   output keeps REL for code and RELA only for debug   -> SPLIT
//   nvlink 11.8 links an sm_50 cubin for -arch=sm_52 and an sm_60 one for
//   sm_61, and refuses every other pair inside 50..62   -> compatible_inputs
#include <culd/plugin.hpp>
#include <culd-nvidia/Nvidia.h>

namespace {

// Attributes tied to a newer SM than this family: the tcgen05 ones (0x51,
// 0x52) and REG_RECONFIG (0x54) exist from sm_100 on, so a cubin of this
// family carrying them is kept with a warning. (0x50 and 0x5F already occur
// in sm_90 cubins and are not gated.)
constexpr culd::nvidia::EiattrGate kEiattrGates[] = {{0x51, 100}, {0x52, 100}, {0x54, 100}};

constexpr uint32_t kSm50Inputs[] = {50};
constexpr uint32_t kSm60Inputs[] = {60};

culd_arch_info maxwellPascal(uint32_t sm) {
    culd_arch_info a = culd::nvidia::archInfo(sm);
    a.flags = CULD_ARCH_F_TEXT_REGCOUNT | CULD_ARCH_F_REL_ACTION |
              CULD_ARCH_F_RELOCATABLE_PHENTSIZE;
    a.elf_abi = CULD_ELF_ABI_V7;
    a.elf_flags_low = culd::nvidia::kElfV7FixedFlags;
    a.reserved_smem = 0;
    a.reloc_style = CULD_RELOC_STYLE_SPLIT;
    return a;
}

class Sm50Plugin final : public culd::sdk::Plugin {
public:
    const char *name() const override { return "sm50"; }
    const char *version() const override { return "1"; }

    std::vector<culd_arch_info> archs() const override {
        using culd::sdk::accepting;
        return {maxwellPascal(50), accepting(maxwellPascal(52), kSm50Inputs),
                maxwellPascal(53), maxwellPascal(60),
                accepting(maxwellPascal(61), kSm60Inputs), maxwellPascal(62)};
    }

    std::vector<culd_reloc_desc> relocations() const override {
        // nvlink has one R_CUDA table for every target. Its classes for
        // sm_5x/6x (class 1) cannot be measured with nvlink 13.0, which
        // links sm_75+ only; on sm_75 it gates no type (docs/nvlink-findings.md,
        // "Relocation classes"), so the family keeps every R_CUDA type at
        // class 0 rather than refuse valid input. No R_MERCURY type (those
        // live only in sm_100+ shadow sections).
        return culd::nvidia::rCudaTypes();
    }

    culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code) const override {
        return culd::nvidia::eiattrPolicy(sm, code, kEiattrGates);
    }
};

} // namespace

CULD_DEFINE_PLUGIN(Sm50Plugin)
