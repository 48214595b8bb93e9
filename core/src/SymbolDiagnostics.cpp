#include "culd/SymbolDiagnostics.h"

#include "culd/Context.h"
#include "culd/InputFiles.h"
#include "culd/Sections.h"
#include "culd/SymbolNames.h"
#include "culd/Symbols.h"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace culd {

namespace {

// What libcudadevrt (CUDA 13.0) defines for device code, besides the
// __cudaCDP2* entry points: the device runtime API that dynamic parallelism
// and cooperative groups' grid synchronisation compile to.
constexpr std::string_view kDeviceRuntimeNames[] = {
    "__CNPRT_VERSION_NUMBER__",
    "__cudaDeviceSynchronizeDeprecationAvoidance",
    "cudaDeviceGetAttribute",
    "cudaDeviceGetCacheConfig",
    "cudaDeviceGetLimit",
    "cudaDeviceGetSharedMemConfig",
    "cudaDeviceSynchronize",
    "cudaEventCreateWithFlags",
    "cudaEventDestroy",
    "cudaEventRecord",
    "cudaFree",
    "cudaFuncGetAttributes",
    "cudaGetDevice",
    "cudaGetDeviceCount",
    "cudaGetErrorName",
    "cudaGetErrorString",
    "cudaGetLastError",
    "cudaGetParameterBuffer",
    "cudaGetParameterBufferV2",
    "cudaLaunchDevice",
    "cudaLaunchDeviceV2",
    "cudaMalloc",
    "cudaMemcpy2DAsync",
    "cudaMemcpy3DAsync",
    "cudaMemcpyAsync",
    "cudaMemset2DAsync",
    "cudaMemset3DAsync",
    "cudaMemsetAsync",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaPeekAtLastError",
    "cudaRuntimeGetVersion",
    "cudaStreamCreateWithFlags",
    "cudaStreamDestroy",
    "cudaStreamWaitEvent",
    "cudartErrorCnpMap",
    "cudartErrorCnpMapEntryCount",
    "cudartErrorTable",
    "cudartErrorTableEntryCount",
};

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool definedByDeviceRuntime(std::string_view name) {
    if (startsWith(name, "__cudaCDP2") || startsWith(name, "cudaCG"))
        return true;
    // Per-thread default stream variants (cudaMemcpyAsync_ptsz).
    constexpr std::string_view ptsz = "_ptsz";
    if (name.size() > ptsz.size() && name.substr(name.size() - ptsz.size()) == ptsz)
        name.remove_suffix(ptsz.size());
    return std::find(std::begin(kDeviceRuntimeNames), std::end(kDeviceRuntimeNames), name) !=
           std::end(kDeviceRuntimeNames);
}

// A root says why it lives: a kernel kept for itself, or a function (a
// kernel launched from the device included) whose address some code takes.
void nameInput(const Context &ctx, const ObjectFile &input, Diagnostic &d) {
    d.file = input.name();
    auto member = ctx.archiveMembers.find(input.name());
    if (member != ctx.archiveMembers.end())
        std::tie(d.file, d.member) = member->second;
}

std::string describeFunction(const Symbol &f) {
    std::string name = demangleForMessage(f.name);
    if (f.rootKernel)
        return "kernel " + name;
    if (f.func && f.func->addressTaken && !f.func->reachedFrom)
        return (f.isEntry() ? "kernel " : "") + name + " (address taken)";
    return name;
}

// From a root (a kernel, an address-taken function) down to `f`, along the
// calls that first reached each function (markLive's reachedFrom).
std::vector<std::string> liveChain(const Symbol *f) {
    std::vector<std::string> chain;
    // A call graph has no cycle among first reaches, but stay bounded.
    for (size_t steps = 0; f && steps < 4096; ++steps) {
        chain.push_back(describeFunction(*f));
        f = f->func ? f->func->reachedFrom : nullptr;
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

} // namespace

std::string undefinedSymbolHint(std::string_view name) {
    if (definedByDeviceRuntime(name))
        return "defined by the device runtime library: link with -lcudadevrt";
    return "";
}

Diagnostic describeSymbolProblem(const Context &ctx, std::string_view name, const ObjectFile &input,
                                 const std::string &message) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.message = message;
    d.mangled = std::string(name);
    d.symbol = demangleForMessage(name);
    nameInput(ctx, input, d);
    return d;
}

Diagnostic describeUndefined(const Context &ctx, const Symbol &symbol, const ObjectFile &input,
                             const InputSection *reference) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.mangled = std::string(symbol.name);
    d.symbol = demangleForMessage(symbol.name);
    nameInput(ctx, input, d);
    d.message = "Undefined reference to '" + d.mangled + "' in '" + input.name() + "'";
    if (reference && reference->owner && reference->owner->isFunction())
        d.chain = liveChain(reference->owner);
    d.hint = undefinedSymbolHint(symbol.name);
    return d;
}

} // namespace culd
