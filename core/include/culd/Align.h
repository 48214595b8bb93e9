// Rounding offsets up to an alignment (0 and 1 mean none).
#pragma once

#include <cstdint>

namespace culd {

inline uint64_t alignTo(uint64_t value, uint64_t align) {
    return align <= 1 ? value : (value + align - 1) / align * align;
}

} // namespace culd
