// Little-endian fields of `width` bytes (1 to 8) in a cubin: the ELF data,
// DWARF and every CUDA table are little-endian.
#pragma once

#include <cstdint>
#include <optional>

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

// An unsigned LEB128 at `at` (advanced past it), or nullopt when it runs to
// `end` or past 64 bits.
inline std::optional<uint64_t> readUleb(const uint8_t *p, uint64_t &at, uint64_t end) {
    uint64_t value = 0;
    for (unsigned shift = 0; at < end && shift < 64; shift += 7) {
        uint8_t b = p[at++];
        value |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return value;
    }
    return std::nullopt;
}

} // namespace culd
