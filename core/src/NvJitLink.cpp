// libnvJitLink through dlopen: only its documented C API (nvJitLink.h),
// declared here by hand so that no CUDA header is needed to build culd.
#include "culd/NvJitLink.h"

#include "culd/Diagnostics.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace culd {

namespace {

// nvJitLinkResult values culd names in messages.
const char *resultName(int result) {
    switch (result) {
    case 0: return "NVJITLINK_SUCCESS";
    case 1: return "NVJITLINK_ERROR_UNRECOGNIZED_OPTION";
    case 2: return "NVJITLINK_ERROR_MISSING_ARCH";
    case 3: return "NVJITLINK_ERROR_INVALID_INPUT";
    case 4: return "NVJITLINK_ERROR_PTX_COMPILE";
    case 5: return "NVJITLINK_ERROR_NVVM_COMPILE";
    case 6: return "NVJITLINK_ERROR_INTERNAL";
    case 7: return "NVJITLINK_ERROR_THREADPOOL";
    case 8: return "NVJITLINK_ERROR_UNRECOGNIZED_INPUT";
    case 9: return "NVJITLINK_ERROR_FINALIZE";
    case 10: return "NVJITLINK_ERROR_NULL_INPUT";
    case 11: return "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS";
    case 12: return "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE";
    case 13: return "NVJITLINK_ERROR_ARCH_MISMATCH";
    case 14: return "NVJITLINK_ERROR_OUTDATED_LIBRARY";
    case 15: return "NVJITLINK_ERROR_MISSING_FATBIN";
    default: return "unknown nvJitLink result";
    }
}

} // namespace

// Under LeakSanitizer (the sanitized test builds): what libnvJitLink keeps
// allocated until exit is NVIDIA's, not culd's. Visible, and exported by
// libculd.so (libculd.map), so that LSan finds it from any program.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CULD_HAS_LSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CULD_HAS_LSAN 1
#endif
#ifdef CULD_HAS_LSAN
extern "C" __attribute__((visibility("default"))) const char *__lsan_default_suppressions() {
    return "leak:libnvJitLink\n";
}
#endif

struct JitLinkLibrary {
    using Create = int (*)(void **, uint32_t, const char **);
    using Destroy = int (*)(void **);
    using AddData = int (*)(void *, int, const void *, size_t, const char *);
    using Complete = int (*)(void *);
    using GetSize = int (*)(void *, size_t *);
    using GetText = int (*)(void *, char *);

    void *dl = nullptr;
    std::string path;
    Create create = nullptr;
    Destroy destroy = nullptr;
    AddData addData = nullptr;
    Complete complete = nullptr;
    GetSize ptxSize = nullptr, errorLogSize = nullptr;
    GetText ptx = nullptr, errorLog = nullptr;

    template <class Fn> void bind(Fn &fn, const char *symbol) {
        fn = reinterpret_cast<Fn>(dlsym(dl, symbol));
        if (!fn)
            throw FatalError(path + ": no symbol '" + symbol + "' (not a libnvJitLink?)");
    }

    static std::unique_ptr<JitLinkLibrary> open(const std::string &path) {
        auto lib = std::make_unique<JitLinkLibrary>();
        lib->path = path;
        // Never unloaded (RTLD_NODELETE, no dlclose): a library with its own
        // threads and C++ runtime is not torn down under a process that may
        // link again (libculd), and leaks it reports stay attributable.
        lib->dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!lib->dl)
            return nullptr;
        lib->bind(lib->create, "nvJitLinkCreate");
        lib->bind(lib->destroy, "nvJitLinkDestroy");
        lib->bind(lib->addData, "nvJitLinkAddData");
        lib->bind(lib->complete, "nvJitLinkComplete");
        lib->bind(lib->ptxSize, "nvJitLinkGetLinkedPtxSize");
        lib->bind(lib->ptx, "nvJitLinkGetLinkedPtx");
        lib->bind(lib->errorLogSize, "nvJitLinkGetErrorLogSize");
        lib->bind(lib->errorLog, "nvJitLinkGetErrorLog");
        return lib;
    }
};

std::vector<std::string> nvJitLinkCandidates(const std::string &nvvmPath,
                                             const std::string &ptxasPath) {
    const char *soname = "libnvJitLink.so";
    std::vector<std::string> out;
    auto addToolkit = [&](const fs::path &root) {
        out.push_back((root / "lib64" / soname).string());
        out.push_back((root / "targets" / "x86_64-linux" / "lib" / soname).string());
    };
    if (!nvvmPath.empty()) {
        // nvcc passes <cuda>/bin/../nvvm; libnvvm lies in <cuda>/lib64 on
        // current toolkits and in <cuda>/nvvm/lib64 on older layouts.
        addToolkit(fs::path(nvvmPath) / "..");
        out.push_back((fs::path(nvvmPath) / "lib64" / soname).string());
    }
    if (!ptxasPath.empty())
        addToolkit(fs::path(ptxasPath).parent_path() / "..");
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char *root = std::getenv(var))
            addToolkit(root);
    out.push_back(std::string(soname) + ".13");
    out.push_back(soname);
    return out;
}

NvJitLink::NvJitLink(const std::vector<std::string> &candidates,
                     const std::vector<std::string> &options) {
    // The first candidate that loads; a path that does not exist is no
    // candidate, a bare soname goes to the dynamic loader's search.
    std::string tried;
    for (const std::string &path : candidates) {
        std::error_code ec;
        if (path.find('/') != std::string::npos && !fs::exists(path, ec))
            continue;
        if ((lib_ = JitLinkLibrary::open(path)))
            break;
        tried += "\n  " + path + ": " + dlerror();
    }
    if (!lib_)
        throw FatalError("link-time optimisation needs libnvJitLink, and none was found "
                         "(use -nvvmpath=<cuda>/nvvm, --ptxas-path or CUDA_HOME)" +
                         tried);
    std::vector<const char *> argv;
    for (const std::string &o : options)
        argv.push_back(o.c_str());
    if (int r = lib_->create(&handle_, uint32_t(argv.size()), argv.data()))
        fail("nvJitLinkCreate", r);
}

NvJitLink::~NvJitLink() {
    if (handle_)
        lib_->destroy(&handle_);
}

void NvJitLink::add(JitLinkInput type, ByteView bytes, const std::string &name) {
    if (int r = lib_->addData(handle_, int(type), bytes.data, bytes.size, name.c_str()))
        fail("nvJitLinkAddData (" + name + ")", r);
}

void NvJitLink::complete() {
    if (int r = lib_->complete(handle_))
        fail("nvJitLinkComplete", r);
}

std::string NvJitLink::linkedPtx() {
    size_t size = 0;
    if (int r = lib_->ptxSize(handle_, &size))
        fail("nvJitLinkGetLinkedPtxSize", r);
    std::string text(size, '\0');
    if (int r = lib_->ptx(handle_, text.data()))
        fail("nvJitLinkGetLinkedPtx", r);
    // The size counts the terminating NUL.
    text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
    return text;
}

void NvJitLink::fail(const std::string &what, int result) {
    std::string log;
    size_t size = 0;
    if (handle_ && lib_->errorLogSize(handle_, &size) == 0 && size > 1) {
        log.assign(size, '\0');
        if (lib_->errorLog(handle_, log.data()) == 0)
            log.resize(log.find('\0'));
        else
            log.clear();
    }
    while (!log.empty() && log.back() == '\n')
        log.pop_back();
    throw FatalError("link-time optimisation: " + what + " failed (" + resultName(result) + ")" +
                     (log.empty() ? "" : ":\n" + log));
}

} // namespace culd
