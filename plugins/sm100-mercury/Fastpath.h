// Which code keeps sm_100 SASS from being handed to sm_103 unchanged: the
// bit 3 of .nv.compat CAN_FASTPATH_FINALIZE that ptxas clears in a unit with
// such code, and that nvlink clears only where such code is linked. See
// Fastpath.cpp for the rule and docs/nvlink-findings.md for the data.
#pragma once

#include <cstddef>
#include <cstdint>

namespace culd::mercury {

// The mask bits the code decides, per target SM (0: none, the inputs' masks
// are ANDed).
uint32_t fastpathCodeBits(uint32_t sm);

// Which of them one function's SASS clears (`size` bytes, whole 16-byte
// instructions; a trailing partial one is ignored).
uint32_t fastpathClears(uint32_t sm, const uint8_t *code, size_t size);

} // namespace culd::mercury
