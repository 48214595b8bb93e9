// The memory-fence placeholders of sm_100+ kernels, which nvlink 13.0
// removes at link time. See Fences.cpp for the rule and
// docs/nvlink-findings.md ("Memory fences") for the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace culd::mercury {

struct FenceRewrite {
    enum class Status { Unchanged, Rewritten, Error };
    Status status = Status::Unchanged;
    std::vector<uint8_t> code; // the new .text when Rewritten
    // Input byte ranges [begin, end) removed, sorted (when Rewritten).
    std::vector<std::pair<uint64_t, uint64_t>> removed;
    std::vector<uint8_t> capsule; // the new capsule, when there is one
    std::string error; // when Error
};

// One function's .text (`size` bytes) and its capsule (null when it has
// none); `entry`: it is a kernel.
FenceRewrite dropFencePlaceholders(const uint8_t *code, size_t size, const uint8_t *capsule,
                                   size_t capsuleSize, bool entry);

} // namespace culd::mercury
