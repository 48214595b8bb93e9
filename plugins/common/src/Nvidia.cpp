#include <culd-nvidia/Catalog.hpp>
#include <culd-nvidia/Nvidia.h>

namespace culd::nvidia {

culd_arch_info archInfo(uint32_t sm) {
    culd_arch_info a{};
    a.struct_size = sizeof(culd_arch_info);
    a.sm = sm;
    a.arch_class = archClass(sm);
    a.max_cbank_size = 0x10000;
    a.user_cbank = 3;
    a.phdr_layout = CULD_PHDR_CODE_DATA;
    return a;
}

culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code, const EiattrGate *gates,
                                size_t numGates) {
    if (code > 0x60)
        return CULD_EIATTR_ERROR;
    for (size_t i = 0; i < numGates; ++i)
        if (gates[i].code == code && sm < gates[i].firstSm)
            return CULD_EIATTR_WARN;
    return CULD_EIATTR_KEEP;
}

std::vector<culd_reloc_desc> rCudaTypes() { return catalog::rCudaCatalog(); }

std::vector<culd_reloc_desc> rMercuryTypes() { return catalog::rMercuryCatalog(); }

} // namespace culd::nvidia
