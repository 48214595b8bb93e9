// The link-time-optimisation options as nvcc passes them, and where culd
// looks for libnvJitLink (core/src/Options.cpp, core/src/NvJitLink.cpp).

#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvJitLink.h"
#include "culd/Options.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

using namespace culd;

TEST_CASE("lto options: nvcc's spellings", "[lto]") {
    Options o = parseOptions({"-arch=sm_80", "-dlto", "-nvvmpath=/cuda/bin/../nvvm",
                              "-maxrregcount=32", "-Xptxas", "-v -O2 ", "-Xnvvm", "-opt=1,-g0",
                              "-split-compile=4", "-emit-ptx", "a.o"});
    CHECK(o.lto);
    CHECK(o.emitPtx);
    CHECK(o.nvvmPath == "/cuda/bin/../nvvm");
    CHECK(o.maxRegCount == 32);
    CHECK(o.splitCompile == 4);
    CHECK(o.xptxas == std::vector<std::string>{"-v", "-O2"});
    CHECK(o.xnvvm == std::vector<std::string>{"-opt=1", "-g0"});
    CHECK(parseOptions({"-arch=sm_80", "-lto", "a.o"}).lto);
    CHECK_FALSE(parseOptions({"-arch=sm_80", "a.o"}).lto);
    REQUIRE_THROWS_WITH(parseOptions({"-arch=sm_80", "-dlto", "-maxrregcount=x", "a.o"}),
                        "option '--maxrregcount' expects a number, not 'x'");
    REQUIRE_THROWS_WITH(parseOptions({"-arch=sm_80", "-dlto", "-Ofc=max", "a.o"}),
                        "option '--Ofast-compile' is not supported yet");
}

TEST_CASE("lto: libnvJitLink is looked for beside libnvvm, then ptxas, then the loader",
          "[lto]") {
    std::vector<std::string> c = nvJitLinkCandidates("/cuda/bin/../nvvm", "/other/bin/ptxas");
    auto at = [&](const std::string &path) {
        return std::find(c.begin(), c.end(), path) - c.begin();
    };
    const auto nvvmLib64 = at("/cuda/bin/../nvvm/../lib64/libnvJitLink.so");
    const auto oldLayout = at("/cuda/bin/../nvvm/lib64/libnvJitLink.so");
    const auto beside = at("/other/bin/../lib64/libnvJitLink.so");
    const auto soname = at("libnvJitLink.so.13");
    CHECK(nvvmLib64 == 0);
    CHECK(nvvmLib64 < oldLayout);
    CHECK(oldLayout < beside);
    CHECK(beside < soname);
    CHECK(soname < static_cast<long>(c.size()));
    CHECK(c.back() == "libnvJitLink.so");
}

TEST_CASE("lto: a missing libnvJitLink is a clear error", "[lto]") {
    REQUIRE_THROWS_WITH(NvJitLink({"/nonexistent/lib64/libnvJitLink.so"}, {"-arch=sm_80"}),
                        Catch::StartsWith("link-time optimisation needs libnvJitLink, and none "
                                          "was found"));
}

TEST_CASE("lto: sm_90a PTX gets nvlink's .target sm_90", "[lto]") {
    // nvlink -dlto -arch=sm_90a -emit-ptx writes ".target sm_90", and its
    // ptxas then refuses sm_90a-only instructions (setmaxnreg).
    const char *head = ".version 9.0\n.target sm_90a\n.address_size 64\n";
    std::string ptx = head;
    retargetPtxAsNvlink(ptx, parseOptions({"-arch=sm_90a", "-dlto", "a.o"}));
    CHECK(ptx == ".version 9.0\n.target sm_90\n.address_size 64\n");
    ptx = ".version 9.0\n.target sm_80\n.address_size 64\n";
    const std::string plain = ptx;
    retargetPtxAsNvlink(ptx, parseOptions({"-arch=sm_80", "-dlto", "a.o"}));
    CHECK(ptx == plain);
}
