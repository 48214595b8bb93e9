// culd-run: load a cubin with cuModuleLoadData, launch one kernel, print the
// buffers it wrote. Used to check that culd's output runs and computes what
// nvlink's does.
//
//   culd-run FILE KERNEL [--grid N] [--block N] [--smem BYTES] ARG...
//   ARG:  i32=V | u32=V | f32=V             a scalar parameter
//         buf:i32:N[:iota|:V]               a device buffer of N elements
//         buf:f32:N[:iota|:V]               (pointer parameter), printed after
//   culd-run --probe                        exit 0 if a GPU is usable, 77 if not
//
// Exit codes: 0 ok, 1 usage or CUDA error, 77 no usable GPU (CTest skip).
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr int kNoGpu = 77;

// The driver entry points we use, resolved from libcuda.so.1 at run time.
struct Driver {
    CUresult (*init)(unsigned);
    CUresult (*deviceGet)(CUdevice *, int);
    CUresult (*ctxCreate)(CUcontext *, unsigned, CUdevice);
    CUresult (*moduleLoadData)(CUmodule *, const void *);
    CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*memAlloc)(CUdeviceptr *, size_t);
    CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
    CUresult (*ctxSynchronize)();
    CUresult (*getErrorString)(CUresult, const char **);

    bool load() {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW);
        if (!lib)
            return false;
        auto sym = [&](const char *name) { return dlsym(lib, name); };
        init = reinterpret_cast<decltype(init)>(sym("cuInit"));
        deviceGet = reinterpret_cast<decltype(deviceGet)>(sym("cuDeviceGet"));
        ctxCreate = reinterpret_cast<decltype(ctxCreate)>(sym("cuCtxCreate_v2"));
        moduleLoadData = reinterpret_cast<decltype(moduleLoadData)>(sym("cuModuleLoadData"));
        moduleGetFunction =
            reinterpret_cast<decltype(moduleGetFunction)>(sym("cuModuleGetFunction"));
        memAlloc = reinterpret_cast<decltype(memAlloc)>(sym("cuMemAlloc_v2"));
        memcpyHtoD = reinterpret_cast<decltype(memcpyHtoD)>(sym("cuMemcpyHtoD_v2"));
        memcpyDtoH = reinterpret_cast<decltype(memcpyDtoH)>(sym("cuMemcpyDtoH_v2"));
        launchKernel = reinterpret_cast<decltype(launchKernel)>(sym("cuLaunchKernel"));
        ctxSynchronize = reinterpret_cast<decltype(ctxSynchronize)>(sym("cuCtxSynchronize"));
        getErrorString = reinterpret_cast<decltype(getErrorString)>(sym("cuGetErrorString"));
        return init && deviceGet && ctxCreate && moduleLoadData && moduleGetFunction &&
               memAlloc && memcpyHtoD && memcpyDtoH && launchKernel && ctxSynchronize &&
               getErrorString;
    }
};

Driver drv;

void check(CUresult rc, const char *what) {
    if (rc == CUDA_SUCCESS)
        return;
    const char *msg = "unknown error";
    drv.getErrorString(rc, &msg);
    std::fprintf(stderr, "culd-run error : %s: %s\n", what, msg);
    std::exit(1);
}

struct Buffer {
    bool isFloat = false;
    size_t count = 0;
    std::vector<uint32_t> host; // 32-bit elements (i32 or f32 bits)
    CUdeviceptr dev = 0;
};

struct Param {
    uint64_t value = 0; // scalar bits, or the device pointer
    int buffer = -1;
};

[[noreturn]] void usage(const char *why) {
    std::fprintf(stderr, "culd-run error : %s\nusage: culd-run FILE KERNEL [--grid N] [--block N] "
                         "[--smem BYTES] ARG...  (see the source for ARG)\n", why);
    std::exit(1);
}

uint32_t bitsOf(const std::string &type, const std::string &text) {
    if (type == "f32") {
        float f = std::strtof(text.c_str(), nullptr);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return b;
    }
    return static_cast<uint32_t>(std::strtoll(text.c_str(), nullptr, 0));
}

Buffer parseBuffer(const std::string &spec) {
    // buf:TYPE:N[:INIT]
    size_t a = spec.find(':', 4), b = spec.find(':', a + 1);
    if (a == std::string::npos)
        usage(("bad buffer '" + spec + "'").c_str());
    std::string type = spec.substr(4, a - 4);
    if (type != "i32" && type != "f32")
        usage(("bad buffer type in '" + spec + "'").c_str());
    Buffer buf;
    buf.isFloat = type == "f32";
    buf.count = std::strtoull(spec.substr(a + 1, b - a - 1).c_str(), nullptr, 0);
    std::string init = b == std::string::npos ? "0" : spec.substr(b + 1);
    for (size_t i = 0; i < buf.count; ++i)
        buf.host.push_back(init == "iota" ? bitsOf(type, std::to_string(i)) : bitsOf(type, init));
    return buf;
}

void print(const Buffer &buf, size_t index) {
    std::printf("buffer %zu:", index);
    for (uint32_t bits : buf.host) {
        if (buf.isFloat) {
            float f;
            std::memcpy(&f, &bits, 4);
            std::printf(" %g", f);
        } else {
            std::printf(" %d", static_cast<int32_t>(bits));
        }
    }
    std::printf("\n");
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    bool probe = !args.empty() && args[0] == "--probe";
    if (!drv.load() || drv.init(0) != CUDA_SUCCESS) {
        std::fprintf(stderr, "culd-run: no usable CUDA driver or GPU\n");
        return kNoGpu;
    }
    CUdevice dev;
    if (drv.deviceGet(&dev, 0) != CUDA_SUCCESS) {
        std::fprintf(stderr, "culd-run: no CUDA device\n");
        return kNoGpu;
    }
    if (probe)
        return 0;
    if (args.size() < 2)
        usage("need a cubin and a kernel name");

    unsigned grid = 1, block = 32, smem = 0;
    std::vector<Buffer> buffers;
    std::vector<Param> params;
    for (size_t i = 2; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto number = [&](unsigned &out) {
            if (++i >= args.size())
                usage(("missing value for " + a).c_str());
            out = static_cast<unsigned>(std::strtoul(args[i].c_str(), nullptr, 0));
        };
        if (a == "--grid")
            number(grid);
        else if (a == "--block")
            number(block);
        else if (a == "--smem")
            number(smem);
        else if (a.rfind("buf:", 0) == 0) {
            buffers.push_back(parseBuffer(a));
            params.push_back({0, static_cast<int>(buffers.size() - 1)});
        } else if (a.size() > 4 && a[3] == '=') {
            params.push_back({bitsOf(a.substr(0, 3), a.substr(4)), -1});
        } else {
            usage(("unknown argument '" + a + "'").c_str());
        }
    }

    std::ifstream in(args[0], std::ios::binary);
    if (!in)
        usage(("cannot read '" + args[0] + "'").c_str());
    std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

    CUcontext ctx;
    check(drv.ctxCreate(&ctx, 0, dev), "cuCtxCreate");
    CUmodule module;
    check(drv.moduleLoadData(&module, image.data()), "cuModuleLoadData");
    CUfunction fn;
    check(drv.moduleGetFunction(&fn, module, args[1].c_str()), "cuModuleGetFunction");

    std::vector<void *> kernelParams;
    std::vector<uint64_t> storage(params.size());
    for (Buffer &b : buffers) {
        check(drv.memAlloc(&b.dev, b.count * 4 + 4), "cuMemAlloc");
        check(drv.memcpyHtoD(b.dev, b.host.data(), b.count * 4), "cuMemcpyHtoD");
    }
    for (size_t i = 0; i < params.size(); ++i) {
        storage[i] = params[i].buffer >= 0 ? static_cast<uint64_t>(buffers[params[i].buffer].dev)
                                           : params[i].value;
        kernelParams.push_back(&storage[i]);
    }
    check(drv.launchKernel(fn, grid, 1, 1, block, 1, 1, smem, nullptr, kernelParams.data(),
                           nullptr),
          "cuLaunchKernel");
    check(drv.ctxSynchronize(), "cuCtxSynchronize");
    for (size_t i = 0; i < buffers.size(); ++i) {
        check(drv.memcpyDtoH(buffers[i].host.data(), buffers[i].dev, buffers[i].count * 4),
              "cuMemcpyDtoH");
        print(buffers[i], i);
    }
    return 0;
}
