// What the libFuzzer harnesses share: the input as a ByteView, and the one
// rule every harness checks, that bad input ends in FatalError and nothing
// else (a crash, a sanitizer report, a leak or a hang is a finding).
#pragma once

#include "culd/Diagnostics.h"
#include "culd/ElfFile.h"

#include <cstddef>
#include <cstdint>

namespace culd::fuzz {

inline ByteView view(const uint8_t *data, size_t size) { return ByteView{data, size}; }

// Runs `body`, accepting the clean refusal culd promises for bad input.
template <class Body> int refuseOrAccept(Body body) {
    try {
        body();
    } catch (const FatalError &) {
    }
    return 0;
}

// Decompression is bounded per link; the harnesses use a small limit so a
// lying size header is caught rather than allocated.
constexpr uint64_t kFuzzDecompressLimit = uint64_t(64) << 20;

} // namespace culd::fuzz
