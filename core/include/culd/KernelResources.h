// What one kernel uses, as -v reports it and the link map lists it.
#pragma once

#include <cstdint>

namespace culd {

struct Context;
struct Symbol;

struct KernelResources {
    uint32_t registers = 0; // propagated through the call graph
    uint32_t barriers = 0;
    uint64_t stack = 0;     // deepest call path
    uint64_t sharedBytes = 0;
    uint64_t constantBytes = 0; // its cmem[0] (parameters and driver data)
    uint64_t localBytes = 0;
};

// From the output sections it owns and its call-graph facts (Report.cpp).
KernelResources kernelResources(const Context &ctx, const Symbol &kernel);

} // namespace culd
