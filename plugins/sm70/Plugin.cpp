// Volta, Turing, Ampere and Ada backend (sm_70 ... sm_89).
//
// 128-bit SASS (control bits in the high word), calls through
// R_CUDA_ABS47_34, relocations split into REL (zero addend) and RELA.
// sm_70/72 exist only as CUDA <= 12 cubins (ELF ABI v7); sm_75+ are written
// as CUDA 13 does (ABI v8).
//
// Verified on real cubins (CUDA 11.8 for sm_70/72/75, CUDA 13.0 for
// sm_75..89; own .nv.info reader for the ABI v8 ones):
//   e_flags 0x00460546 (sm_70), 0x00480548 (sm_72); 0x06004b04 (sm_75),
//   0x06005004 / 0x06005604 / 0x06005704 / 0x06005804 / 0x06005904 (80..89)
//   EIATTR_PARAM_CBANK value 0x000c0160 on every one   (params at 0x160)
//   calls: r_type 58 R_CUDA_ABS47_34 (both toolkits)   (a driver relocation)
//   .text sh_info 0x1800000f = regs << 24 | symbol     -> TEXT_REGCOUNT
//   .rel.text.* + .rela.text.* in inputs and outputs   -> SPLIT
//   nvlink 11.8 writes .nv.rel.action for sm_70 too    -> REL_ACTION
//   nvlink 13.0 links sm_80 cubins for sm_86 and sm_89, sm_86 ones for sm_89,
//   and refuses sm_80 for sm_87/88 and 11.8 sm_70 for sm_75 -> compatible_inputs
// Taken from the references, not re-measured: reserved shared memory 0.
#include <culd/plugin.hpp>
#include <culd-nvidia/Nvidia.h>

namespace {

// Attributes tied to a newer SM than this family: the tcgen05 ones (0x51,
// 0x52) and REG_RECONFIG (0x54) exist from sm_100 on, so a cubin of this
// family carrying them is kept with a warning. (0x50 and 0x5F already occur
// in sm_90 cubins and are not gated.)
constexpr culd::nvidia::EiattrGate kEiattrGates[] = {{0x51, 100}, {0x52, 100}, {0x54, 100}};

constexpr uint32_t kAmpereInputs[] = {80};
constexpr uint32_t kAdaInputs[] = {80, 86};

culd_arch_info voltaToAda(uint32_t sm) {
    culd_arch_info a = culd::nvidia::archInfo(sm);
    a.flags = CULD_ARCH_F_REL_ACTION | CULD_ARCH_F_TEXT_REGCOUNT |
              CULD_ARCH_F_RELOCATABLE_PHENTSIZE | CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE |
              CULD_ARCH_F_EXTERN_SHARED_INSTANCES | CULD_ARCH_F_WIDE_COLOURED_SHARED;
    a.elf_abi = CULD_ELF_ABI_V8;
    a.elf_flags_low = culd::nvidia::kElfV8FlagsSass;
    a.reserved_smem = 0;
    a.reloc_style = CULD_RELOC_STYLE_SPLIT;
    return a;
}

// sm_70 and sm_72 were dropped before CUDA 13, so only the v7 form exists
// (and what nvlink 11.8 writes under -r for an undefined variable or extern
// __shared__ arrays, or for wide coloured shared memory beside those, is not
// measured).
culd_arch_info cuda12Only(culd_arch_info a) {
    a.flags &= ~static_cast<uint32_t>(CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE |
                                      CULD_ARCH_F_EXTERN_SHARED_INSTANCES |
                                      CULD_ARCH_F_WIDE_COLOURED_SHARED);
    a.elf_abi = CULD_ELF_ABI_V7;
    a.elf_flags_low = culd::nvidia::kElfV7FixedFlags;
    return a;
}

class Sm70Plugin final : public culd::sdk::Plugin {
public:
    const char *name() const override { return "sm70"; }
    const char *version() const override { return "1"; }

    std::vector<culd_arch_info> archs() const override {
        using culd::sdk::accepting;
        return {cuda12Only(voltaToAda(70)),
                cuda12Only(voltaToAda(72)),
                voltaToAda(75),
                voltaToAda(80),
                accepting(voltaToAda(86), kAmpereInputs),
                voltaToAda(87),
                voltaToAda(88),
                accepting(voltaToAda(89), kAdaInputs)};
    }

    std::vector<culd_reloc_desc> relocations() const override {
        // nvlink has one R_CUDA table for every target. Its per-type gating
        // classes were measured on nvlink 13.0 (docs/nvlink-findings.md,
        // "Relocation classes"): no type is refused on sm_75 (class 3) that
        // sm_80+ (class 5) accepts, so every row keeps min_arch_class 0. No
        // R_MERCURY type (those live only in sm_100+ shadow sections).
        return culd::nvidia::rCudaTypes();
    }

    culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code) const override {
        return culd::nvidia::eiattrPolicy(sm, code, kEiattrGates);
    }
};

} // namespace

CULD_DEFINE_PLUGIN(Sm70Plugin)
