// Dead-code elimination over the call graph: a device function survives if a
// root reaches it through direct calls. Roots are the kernels (or those named
// by --kernels-used) and every address-taken function. A dead function takes
// its .text, .nv.info.<f>, per-function banks, shared/local sections and the
// relocations that patch them along.
#include "culd/Context.h"
#include "culd/HostObject.h"
#include "culd/Link.h"

#include <spdlog/spdlog.h>

namespace culd {

namespace {

bool matchesAny(std::string_view name, const std::vector<std::string> &patterns) {
    for (const std::string &p : patterns)
        if (name.find(p) != std::string_view::npos)
            return true;
    return false;
}

// Host-reference lists decide which kernels live only when some host code
// of the link launches (or takes the address of) a kernel: an input host
// object with a non-empty kernel list (.nvHRKE/.nvHRKI). When no input names
// a kernel -- a library object whose kernels another program launches,
// objects without host launchers, kernels launched only from the device --
// nvlink keeps every kernel. libcudadevrt's own list (its internal
// memcpy/memset kernels) does not count: nvlink recognises the library by
// name and ignores it, while the same object given as a plain input or in a
// user archive switches the pruning on. Off as well when an input carries
// device code without host information (cubin, fatbin, PTX), for -r,
// --ignore-host-info and explicit --kernels-used / --variables-used.
bool useHostInfo(const Context &ctx) {
    if (ctx.opts.relocatable || ctx.opts.ignoreHostInfo || ctx.inputsWithoutHostInfo ||
        !ctx.opts.kernelsUsed.empty() || !ctx.opts.variablesUsed.empty())
        return false;
    bool someKernelNamed = false;
    for (const Context::HostModule &m : ctx.hostModules) {
        if (!m.hasHostInfo)
            return false;
        if (!m.systemLibrary && !m.kernelPatterns.empty())
            someKernelNamed = true;
    }
    return someKernelNamed;
}

bool launchedFromHost(const Context &ctx, std::string_view kernel) {
    for (const Context::HostModule &m : ctx.hostModules)
        for (const std::string &pattern : m.kernelPatterns)
            if (matchesHostReference(pattern, kernel))
                return true;
    return false;
}

// Whether DCE keeps kernel `s` for itself. With --kernels-used or
// --variables-used, only the kernels named by --kernels-used (nvlink drops
// every kernel for --variables-used alone, and keeps every variable).
bool isRootKernel(const Context &ctx, const Symbol &s, bool hostInfo) {
    if (!s.isEntry())
        return false;
    if (hostInfo)
        return launchedFromHost(ctx, s.name);
    if (ctx.opts.kernelsUsed.empty() && ctx.opts.variablesUsed.empty())
        return true;
    return matchesAny(s.name, ctx.opts.kernelsUsed);
}

// Address-taken functions (kernels launched from device code included) live
// whoever takes their address.
bool isRoot(const Symbol &s) { return s.rootKernel || (s.func && s.func->addressTaken); }

} // namespace

void markLive(Context &ctx) {
    // A relocatable link removes nothing: a later link decides what lives.
    if (ctx.opts.relocatable)
        return;
    std::vector<Symbol *> functions;
    for (Symbol *s : ctx.symtab.globals())
        if (s->isFunction() && s->defined && s->section)
            functions.push_back(s);
    for (auto &file : ctx.files)
        for (Symbol *s : file->symbols)
            if (s && s->isLocal && s->isFunction() && s->section)
                functions.push_back(s);

    bool hostInfo = useHostInfo(ctx);
    ctx.rootsFromHostInfo = hostInfo;
    ctx.rootKernels = 0;
    for (Symbol *s : functions) {
        s->live = false;
        s->rootKernel = isRootKernel(ctx, *s, hostInfo);
        ctx.rootKernels += s->rootKernel;
    }
    // Breadth first, so that each function's reachedFrom gives a shortest
    // call chain from a root.
    std::vector<Symbol *> work;
    for (Symbol *s : functions)
        if (isRoot(*s)) {
            s->live = true;
            if (s->func)
                s->func->reachedFrom = nullptr;
            work.push_back(s);
        }
    for (size_t next = 0; next < work.size(); ++next) {
        Symbol *s = work[next];
        if (!s->func)
            continue;
        for (Symbol *callee : s->func->callees)
            if (!callee->live) {
                callee->live = true;
                if (callee->func)
                    callee->func->reachedFrom = s;
                work.push_back(callee);
            }
    }
    // A debug link (-g) removes nothing either: nvlink keeps unused
    // functions, kernels no host code launches and whole library members;
    // only undefined references stay excused in what nothing reaches. A
    // kernel kept that way counts as a root kernel (its own stack record).
    for (Symbol *s : functions)
        if (!s->live) {
            s->section->reachable = false;
            if (ctx.opts.debug) {
                s->live = true;
                if (s->isEntry() && !s->rootKernel) {
                    s->rootKernel = true;
                    ++ctx.rootKernels;
                }
                continue;
            }
            spdlog::debug("removed unused function {}", s->name);
            s->section->live = false;
        }
}

} // namespace culd
