// libnvJitLink, loaded at run time: culd's link-time optimisation hands the
// LTO IR to it and takes back PTX. It is never a build-time dependency, so
// culd builds and runs (without -lto) where no CUDA toolkit is installed.
#pragma once

#include "culd/MappedFile.h"

#include <memory>
#include <string>
#include <vector>

namespace culd {

// How an input is handed to nvJitLink (its nvJitLinkInputType values).
enum class JitLinkInput : int { LtoIr = 3, Fatbin = 4, Object = 5 };

struct JitLinkLibrary;

// One nvJitLink link: create with options, add inputs, complete, read the
// PTX. Every failure throws FatalError carrying nvJitLink's error log.
class NvJitLink {
public:
    // Loads the first of `candidates` (nvJitLinkCandidates) that exists and
    // loads, and creates a handle with `options` ("-arch=sm_90", "-lto",
    // "-ptx", ...).
    NvJitLink(const std::vector<std::string> &candidates, const std::vector<std::string> &options);
    ~NvJitLink();
    NvJitLink(const NvJitLink &) = delete;
    NvJitLink &operator=(const NvJitLink &) = delete;

    void add(JitLinkInput type, ByteView bytes, const std::string &name);
    void complete();
    std::string linkedPtx();

private:
    [[noreturn]] void fail(const std::string &what, int result);

    std::unique_ptr<JitLinkLibrary> lib_;
    void *handle_ = nullptr;
};

// Where libnvJitLink is, nvlink's way first: next to the libnvvm that
// -nvvmpath names (<cuda>/nvvm → <cuda>/lib64, <cuda>/nvvm/lib64), then the
// toolkit of the ptxas culd uses (<bin>/../lib64), then $CUDA_HOME and
// $CUDA_PATH; else the bare soname, for the dynamic loader's own search.
// `ptxasPath` may be empty.
std::vector<std::string> nvJitLinkCandidates(const std::string &nvvmPath,
                                             const std::string &ptxasPath);

} // namespace culd
