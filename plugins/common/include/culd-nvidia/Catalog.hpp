// Expands the X-macro tables r_cuda.def and r_mercury.def into descriptor
// rows. Included only by the helper library's Catalog.cpp; plugins call
// culd::nvidia::rCudaTypes() / rMercuryTypes() (Nvidia.h).
#ifndef CULD_NVIDIA_CATALOG_HPP
#define CULD_NVIDIA_CATALOG_HPP

#include <culd-nvidia/Nvidia.h>
#include <culd/plugin.hpp>

#include <cstdint>
#include <vector>

namespace culd::nvidia::catalog {

// Value-kind names as the .def files spell them. The byte kinds (ADDR8_8 ...)
// are consecutive enumerators after their _0 entry in culd_value_kind, which
// names only the first of each run.
namespace vk {
constexpr uint16_t NONE = CULD_VK_NONE, ADDR = CULD_VK_ADDR, GADDR = CULD_VK_GADDR,
                   HEADER = CULD_VK_HEADER, HWDESC = CULD_VK_HWDESC,
                   HWSWDESC = CULD_VK_HWSWDESC, LOADDR = CULD_VK_LOADDR,
                   HIADDR = CULD_VK_HIADDR, SLOT = CULD_VK_SLOT, SHIFT2 = CULD_VK_SHIFT2,
                   CBANK = CULD_VK_CBANK, CBANK4 = CULD_VK_CBANK4, FDESC = CULD_VK_FDESC,
                   LOFDESC = CULD_VK_LOFDESC, HIFDESC = CULD_VK_HIFDESC,
                   FDESCA = CULD_VK_FDESCA, PCREL = CULD_VK_PCREL, INST = CULD_VK_INST,
                   INST_OPCODE = CULD_VK_INST_OPCODE,
                   INST_FIELD_CLEAR = CULD_VK_INST_FIELD_CLEAR, CLEAR = CULD_VK_CLEAR,
                   SHIFT8 = CULD_VK_SHIFT8, UADDR = CULD_VK_UADDR,
                   LOUADDR = CULD_VK_LOUADDR, HIUADDR = CULD_VK_HIUADDR;

#define CULD_BYTE_KINDS(P, first)                                                          \
    constexpr uint16_t P##_0 = first, P##_8 = first + 1, P##_16 = first + 2,               \
                       P##_24 = first + 3, P##_32 = first + 4, P##_40 = first + 5,         \
                       P##_48 = first + 6, P##_56 = first + 7;
CULD_BYTE_KINDS(ADDR8, CULD_VK_ADDR8_0)
CULD_BYTE_KINDS(GADDR8, CULD_VK_GADDR8_0)
CULD_BYTE_KINDS(FDESC8, CULD_VK_FDESC8_0)
CULD_BYTE_KINDS(UADDR8, CULD_VK_UADDR8_0)
#undef CULD_BYTE_KINDS
} // namespace vk

namespace detail {

inline culd_bit_action catalogBits(uint16_t offset, uint16_t width, uint16_t kind,
                                   uint16_t shift) {
    return culd_bit_action{offset, width, kind, shift};
}

inline culd_reloc_desc catalogRow(uint32_t type, const char *name, culd_resolver resolver,
                                  uint32_t flags, uint32_t plainType,
                                  std::initializer_list<culd_bit_action> actions) {
    return culd::sdk::reloc(type, name, resolver, actions, flags, plainType);
}

} // namespace detail

#define CULD_BITS(offset, width, kind, shift)                                              \
    ::culd::nvidia::catalog::detail::catalogBits(offset, width,                              \
                                                 ::culd::nvidia::catalog::vk::kind, shift)
#define CULD_CATALOG_ACTIONS(...) {__VA_ARGS__}

// Every R_CUDA type, ordered by code (index == r_type).
inline std::vector<culd_reloc_desc> rCudaCatalog() {
    return {
#define CULD_R_CUDA(code, name, resolver, flags, plain, actions)                           \
    detail::catalogRow(code, "R_CUDA_" #name, CULD_RESOLVE_##resolver, flags, plain,         \
                       CULD_CATALOG_ACTIONS actions),
#include <culd-nvidia/r_cuda.def>
#undef CULD_R_CUDA
    };
}

// Every R_MERCURY type, ordered by index (r_type = kMercuryTypeBase + index).
inline std::vector<culd_reloc_desc> rMercuryCatalog() {
    return {
#define CULD_R_MERCURY(index, name, resolver, flags, plain, actions)                       \
    detail::catalogRow(kMercuryTypeBase + (index), "R_MERCURY_" #name,                      \
                       CULD_RESOLVE_##resolver, flags, plain, CULD_CATALOG_ACTIONS actions),
#include <culd-nvidia/r_mercury.def>
#undef CULD_R_MERCURY
    };
}

#undef CULD_CATALOG_ACTIONS
#undef CULD_BITS

} // namespace culd::nvidia::catalog

#endif // CULD_NVIDIA_CATALOG_HPP
