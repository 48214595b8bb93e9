// "0x1f": how the plugin's messages write offsets and values.
#pragma once

#include <cstdint>
#include <string>

namespace culd::mercury {

inline std::string hex(uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    do {
        s.insert(s.begin(), digits[v & 0xf]);
        v >>= 4;
    } while (v);
    return "0x" + s;
}

} // namespace culd::mercury
