// How a function's code ends, for the frame entries nvlink maps through the
// Mercury code (ABI 2.11 code_tail). See CodeTail.cpp.
#pragma once

#include <culd/plugin.h>

#include <cstddef>
#include <cstdint>

namespace culd::mercury {

// Fills `tail` and returns true when the code (`size` bytes) ends with an
// unconditional return followed by a branch to itself and no-ops.
bool codeTail(const uint8_t *code, size_t size, culd_code_tail &tail);

} // namespace culd::mercury
