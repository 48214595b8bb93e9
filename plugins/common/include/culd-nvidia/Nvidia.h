// Knowledge the NVIDIA family plugins share (sm50, sm70, sm90,
// sm100-mercury): the gating class map, the arch record defaults, the ELF
// header constants, the EIATTR policy shape and the relocation catalogs.
// A static library linked into each plugin, not part of the public SDK: a
// vendor's plugin starts from culd::sdk::archInfo() and its own tables.
#pragma once

#include <culd/plugin.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace culd::nvidia {

// nvlink's SM -> gating class map for relocations and EIATTR codes
// (relocations.md §10): <= 70 -> 1, 71-72 -> 2, 73-75 -> 3, >= 76 -> 5.
constexpr uint32_t archClass(uint32_t sm) {
    return sm <= 70 ? 1 : sm <= 72 ? 2 : sm <= 75 ? 3 : 5;
}

// The record every NVIDIA target from sm_50 to sm_121 starts from: 64 KiB
// constant banks, __constant__ data in bank 3, the gating class, and
// nvlink's program headers (PHDR, code, data, self). Families fill in the rest.
culd_arch_info archInfo(uint32_t sm);

// e_flags bits a CUDA <= 12 (ELF ABI v7, OSABI 0x33) cubin carries besides
// its SMs: 0x100 EF_CUDA_TEXMODE_UNIFIED | 0x400 EF_CUDA_64BIT_ADDRESS. The
// whole word is `virtual SM << 16 | 0x500 | SM` (sm_52: 0x00340534, read
// from CUDA 11.8 cubins). V7 plugins put these bits in elf_flags_low.
constexpr uint32_t kElfV7FixedFlags = 0x500;

// Low byte of a CUDA 13 (ELF ABI v8) e_flags: 0x04 up to sm_90, 0x02 on the
// Mercury targets; the SM sits in bits 8-15.
constexpr uint32_t kElfV8FlagsSass = 0x04;
constexpr uint32_t kElfV8FlagsMercury = 0x02;

// An .nv.info attribute the compiler only emits from some SM on.
struct EiattrGate {
    uint32_t code;
    uint32_t firstSm;
};

// The EIATTR policy shape of the NVIDIA families: codes above 0x60 are
// unknown (error, like nvlink's "unknown attribute"); a known code used
// below its first SM in the family's `gates` is kept with a warning, since
// nvlink's per-code classes are not published and refusing a cubin the
// compiler produced would be worse.
culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code, const EiattrGate *gates,
                                size_t numGates);
template <size_t N>
culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code, const EiattrGate (&gates)[N]) {
    return eiattrPolicy(sm, code, gates, N);
}

// r_type of the first R_MERCURY type.
constexpr uint32_t kMercuryTypeBase = 0x10000;

// The compiler's relocation action tables (r_cuda.def, r_mercury.def): all
// R_CUDA types ordered by code, all R_MERCURY types by index.
std::vector<culd_reloc_desc> rCudaTypes();
std::vector<culd_reloc_desc> rMercuryTypes();

} // namespace culd::nvidia
