// Little-endian fields of `width` bytes (1 to 8) in a cubin: the ELF data,
// DWARF and every CUDA table are little-endian.
#pragma once

#include <cstdint>

namespace culd {

inline uint64_t readLittle(const uint8_t *p, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i)
        v |= uint64_t(p[i]) << (8 * i);
    return v;
}

inline void writeLittle(uint8_t *p, uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width; ++i)
        p[i] = static_cast<uint8_t>(value >> (8 * i));
}

} // namespace culd
