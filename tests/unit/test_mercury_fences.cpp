// The sm100-mercury plugin's fence rule (Fences.cpp, Capsule.cpp
// shrinkCapsule): which instructions of a kernel nvlink removes, how the
// branches around them move, the padding, the capsule's counts; on
// hand-made instructions and on the kernels of corpus case
// 107-fence-control-flow against nvlink's own output.
#include "Capsule.h"
#include "Fences.h"
#include "Finalizer.h"
#include "MercuryCode.h"
#include "TestUtil.h"

#include "culd/ElfFile.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

using culd::mercury::dropFencePlaceholders;
using culd::mercury::FenceRewrite;
using namespace culd::test;

namespace {

// Instructions as ptxas 13.0 wrote them for sm_100 (hi, lo as dumped).
const Insn kPlaceholder = {0x00000000fffff984, 0x000fe20000000800};
const Insn kFencePrelude = {0x0000000000007992, 0x000fc00000008000};
const Insn kMembarGpu = {0x0000000000007992, 0x000fec0000002000};
const Insn kMembarCta = {0x0000000000007992, 0x0003ec0000000000};
const Insn kStore = {0x0000000702007986, 0x0021e2000c101904};
const Insn kExit = kExitInsn;
const Insn kSelfLoop = {0xfffffffc00fc7947, 0x000fc0000383ffff};
const Insn kNop = {0x0000000000007918, 0x000fc00000000000};
const Insn kCall = {0x0000000000007944, 0x000fea0003c00000};
// LDGSTS (__pipeline_memcpy_async), as ptxas 13.0 wrote it for sm_100.
const Insn kAsyncCopy = {0x0000000002057fae, 0x0003e2000b9a1008};

// `body`, then EXIT, the self-loop and the compiler's padding.
std::vector<Insn> function(std::vector<Insn> body) {
    body.push_back(kExit);
    body.push_back(kSelfLoop);
    size_t padded = (body.size() + 7) / 8 * 8 + 8;
    body.resize(padded, kNop);
    return body;
}

Insn branchTo(int64_t bytesFromNext) {
    Insn bra = {0x0000000000007947, 0x000fea0003800000};
    REQUIRE(culd::mercury::setBranchOffsetBytes(bra, bytesFromNext));
    return bra;
}

FenceRewrite rewrite(const std::vector<Insn> &code, bool entry = true) {
    std::vector<uint8_t> bytes = codeBytes(code);
    return dropFencePlaceholders(bytes.data(), bytes.size(), nullptr, 0, entry);
}

std::vector<Insn> codeOf(const FenceRewrite &r) {
    return culd::mercury::readCode(r.code.data(), r.code.size());
}

} // namespace

TEST_CASE("fences: the placeholders and the prelude go, the fence stays",
          "[mercury][fences]") {
    std::vector<Insn> in = function({kStore, kPlaceholder, kPlaceholder, kPlaceholder,
                                     kPlaceholder, kFencePrelude, kMembarGpu, kStore});
    FenceRewrite r = rewrite(in);
    REQUIRE(r.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(r) == function({kStore, kMembarGpu, kStore}));
    REQUIRE(r.removed.size() == 2);
    CHECK(r.removed[0] == std::make_pair(uint64_t(0x10), uint64_t(0x60)));
    // 10 instructions padded to 24 before, 5 to 16 after: the tail goes.
    CHECK(r.removed[1] == std::make_pair(uint64_t(in.size() * 16 - 0x30), uint64_t(in.size() * 16)));
    // A CTA fence has no prelude.
    FenceRewrite cta = rewrite(function(
        {kStore, kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, kMembarCta}));
    REQUIRE(cta.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(cta) == function({kStore, kMembarCta}));
}

TEST_CASE("fences: a prelude and fence under one guard go as the unguarded ones do",
          "[mercury][fences]") {
    // Cooperative groups' grid sync (corpus 156): four placeholders, then
    // the bit-79 MEMBAR and the fence, both under @P2 (lo 0x2992), as
    // ptxas 13.0 wrote them. nvlink keeps only the fence.
    Insn prelude = {0x0000000000002992, 0x000fc00000008000};
    Insn fence = {0x0000000000002992, 0x000fec000000a000};
    FenceRewrite r = rewrite(function({kStore, kPlaceholder, kPlaceholder, kPlaceholder,
                                       kPlaceholder, prelude, fence, kStore}));
    REQUIRE(r.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(r) == function({kStore, fence, kStore}));
    // A fence under another guard than its prelude's, or none, is refused.
    Insn other = fence;
    other.lo = 0x0000000000001992;
    for (const Insn &f : {other, kMembarGpu}) {
        FenceRewrite mixed = rewrite(function({kStore, kPlaceholder, kPlaceholder, kPlaceholder,
                                               kPlaceholder, prelude, f, kStore}));
        REQUIRE(mixed.status == FenceRewrite::Status::Error);
        CHECK(mixed.error.find("not of the shape culd has measured") != std::string::npos);
    }
    // A trap has no target to move (cooperative groups check with __trap()).
    Insn trap = {0x000000040000795c, 0x000fea0000300000};
    FenceRewrite withTrap = rewrite(function(
        {trap, kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, kMembarCta}));
    REQUIRE(withTrap.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(withTrap) == function({trap, kMembarCta}));
}

TEST_CASE("fences: device functions and kernels that call keep them", "[mercury][fences]") {
    std::vector<Insn> body = {kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder,
                              kMembarCta};
    CHECK(rewrite(function(body), false).status == FenceRewrite::Status::Unchanged);
    body.push_back(kCall);
    CHECK(rewrite(function(body)).status == FenceRewrite::Status::Unchanged);
    CHECK(rewrite(function({kStore})).status == FenceRewrite::Status::Unchanged);
}

TEST_CASE("fences: branches follow the instructions they name", "[mercury][fences]") {
    // 0: BRA over the fence to 7; 6: a backward BRA to 0.
    std::vector<Insn> in =
        function({branchTo(0x60), kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder,
                  kMembarCta, branchTo(-0x70), kStore});
    FenceRewrite r = rewrite(in);
    REQUIRE(r.status == FenceRewrite::Status::Rewritten);
    std::vector<Insn> out = codeOf(r);
    CHECK(culd::mercury::branchOffsetBytes(out[0]) == 0x20); // to the store, now at 3
    CHECK(culd::mercury::branchOffsetBytes(out[2]) == -0x30); // back to 0
    // A branch to a removed placeholder reaches what followed it.
    FenceRewrite into = rewrite(function(
        {branchTo(0x10), kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, kMembarCta}));
    REQUIRE(into.status == FenceRewrite::Status::Rewritten);
    CHECK(culd::mercury::branchOffsetBytes(codeOf(into)[0]) == 0);
    // BSSY's reconvergence point moves too (bits 32-63; bit 73 is not it).
    Insn bssy = {0x000000e000007945, 0x000fe20003800200};
    bssy.lo = (bssy.lo & 0xffffffff) | uint64_t(0x60) << 32;
    FenceRewrite b = rewrite(function({bssy, kPlaceholder, kPlaceholder, kPlaceholder,
                                       kPlaceholder, kMembarCta, kStore, kStore}));
    REQUIRE(b.status == FenceRewrite::Status::Rewritten);
    Insn moved = codeOf(b)[0];
    CHECK((moved.lo >> 32) == 0x20);
    CHECK(moved.hi == bssy.hi);
}

TEST_CASE("fences: the placeholders of an asynchronous copy stay", "[mercury][fences]") {
    // Three placeholders in front of an LDGSTS: nvlink keeps every one
    // (generated variable-latency kernels, 674 functions).
    std::vector<Insn> copy = function({kStore, kPlaceholder, kPlaceholder, kPlaceholder,
                                       kAsyncCopy, kStore});
    CHECK(rewrite(copy).status == FenceRewrite::Status::Unchanged);
    // Beside a fence's run, only the fence's go.
    std::vector<Insn> both = function({kPlaceholder, kPlaceholder, kPlaceholder, kAsyncCopy,
                                       kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder,
                                       kMembarCta});
    FenceRewrite r = rewrite(both);
    REQUIRE(r.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(r) == function({kPlaceholder, kPlaceholder, kPlaceholder, kAsyncCopy,
                                 kMembarCta}));
    // Four in front of it are no shape culd knows.
    CHECK(rewrite(function({kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, kAsyncCopy}))
              .status == FenceRewrite::Status::Error);
}

TEST_CASE("fences: two or three placeholders go as four do", "[mercury][fences]") {
    // ptxas writes fewer where it scheduled other instructions of the block
    // in the fence's shadow (generated fence kernels fa1002_0, fa1131_2,
    // fa1055_1, sm_100 and sm_120: nvlink removed every one).
    for (size_t count : {2, 3}) {
        std::vector<Insn> body = {kStore};
        body.insert(body.end(), count, kPlaceholder);
        body.push_back(kFencePrelude);
        body.push_back(kMembarGpu);
        body.push_back(kStore);
        FenceRewrite r = rewrite(function(body));
        REQUIRE(r.status == FenceRewrite::Status::Rewritten);
        CHECK(codeOf(r) == function({kStore, kMembarGpu, kStore}));
    }
}

TEST_CASE("fences: a bit-79 MEMBAR before an atomic is the fence and stays", "[mercury][fences]") {
    // A release fetch_or of cuda::atomic_ref (the libcudacxx-cg library
    // program, sm_100): four placeholders, the bit-79 MEMBAR, the atomic
    // (0x98a), as ptxas 13.0 wrote them. nvlink removes the placeholders
    // only.
    const Insn atomic = {0x8000000608ff798a, 0x0011e2000b10b504};
    const Insn fence = {0x0000000000007992, 0x0001ec0000008000};
    FenceRewrite r = rewrite(function(
        {kStore, kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, fence, atomic, kStore}));
    REQUIRE(r.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(r) == function({kStore, fence, atomic, kStore}));
    // Without placeholders, under a guard too, nothing goes.
    Insn guardedFence = fence;
    guardedFence.lo = 0x0000000000001992;
    CHECK(rewrite(function({kStore, guardedFence, atomic, kStore})).status ==
          FenceRewrite::Status::Unchanged);
}

TEST_CASE("fences: a guarded prelude goes without placeholders too", "[mercury][fences]") {
    // A sequentially consistent atomic of cuda::atomic_ref under a branch
    // (generated ordered-atomic kernels oa15_2, sm_100 and sm_120): the
    // prelude and its fence under @P1, no placeholders; nvlink removes the
    // prelude.
    Insn prelude = {0x0000000000001992, 0x000fc00000008000};
    Insn fence = {0x0000000000001992, 0x000fec000000b000};
    FenceRewrite r = rewrite(function({kStore, prelude, fence, kStore}));
    REQUIRE(r.status == FenceRewrite::Status::Rewritten);
    CHECK(codeOf(r) == function({kStore, fence, kStore}));
}

TEST_CASE("fences: shapes culd has not measured are refused", "[mercury][fences]") {
    // One placeholder; a guarded fence after four, not a prelude's; a jump
    // table (BRX).
    CHECK(rewrite(function({kStore, kPlaceholder, kMembarCta})).status ==
          FenceRewrite::Status::Error);
    Insn guarded = kMembarCta;
    guarded.lo = 0x0000000000000992;
    CHECK(rewrite(function({kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, guarded}))
              .status == FenceRewrite::Status::Error);
    Insn brx = {0x0000000002007949, 0x000fea0003800000};
    FenceRewrite withBrx = rewrite(function(
        {brx, kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, kMembarCta}));
    REQUIRE(withBrx.status == FenceRewrite::Status::Error);
    CHECK(withBrx.error.find("target culd does not move") != std::string::npos);
    // A bit-79 MEMBAR followed by a second one, or by a MEMBAR under
    // another guard: neither is measured.
    Insn guardedPrelude = {0x0000000000000992, 0x000fc00000008000};
    for (const Insn &next : {kFencePrelude, kMembarGpu}) {
        FenceRewrite pair = rewrite(function({kStore, guardedPrelude, next, kStore}));
        REQUIRE(pair.status == FenceRewrite::Status::Error);
        CHECK(pair.error.find("not of the shape culd has measured") != std::string::npos);
    }
    // After placeholders, a guarded bit-79 MEMBAR that is the fence itself.
    CHECK(rewrite(function({kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder, guardedPrelude,
                            kStore}))
              .status == FenceRewrite::Status::Error);
    // Padding that is not the compiler's.
    std::vector<Insn> odd = function({kPlaceholder, kPlaceholder, kPlaceholder, kPlaceholder,
                                      kMembarCta});
    odd.push_back(kNop);
    CHECK(rewrite(odd).status == FenceRewrite::Status::Error);
}

TEST_CASE("fences: nvlink's own output for corpus case 107", "[mercury][fences]") {
    // Every kernel of the input, rewritten, is nvlink's .text and capsule
    // (but for the finaliser's scoreboard fields and the capsule's first
    // word, which later passes write).
    for (const char *arch : {"sm_100", "sm_103", "sm_110", "sm_120", "sm_121"}) {
        INFO(arch);
        const auto dir = fixturesDir() / "107-fence-control-flow" / arch;
        std::vector<uint8_t> inBytes = readFile(dir / "fences.cubin");
        std::vector<uint8_t> outBytes = readFile(dir / "nvlink.cubin");
        culd::ElfFile in = culd::ElfFile::parse("in", {inBytes.data(), inBytes.size()});
        culd::ElfFile out = culd::ElfFile::parse("out", {outBytes.data(), outBytes.size()});
        std::map<std::string, const culd::ElfSection *> outByName;
        for (const culd::ElfSection &s : out.sections())
            outByName[std::string(s.name)] = &s;
        unsigned rewritten = 0;
        for (const culd::ElfSymbol &sym : in.symbols()) {
            if (sym.type() != culd::elf::STT_FUNC || !(sym.other & culd::elf::STO_CUDA_ENTRY))
                continue;
            const std::string name(sym.name);
            INFO(name);
            const culd::ElfSection &text = in.section(sym.shndx);
            const culd::ElfSection *capsule = in.findSection(".nv.capmerc.text." + name);
            REQUIRE(capsule);
            FenceRewrite r = dropFencePlaceholders(text.data.data, text.size, capsule->data.data,
                                                   capsule->size, true);
            REQUIRE(r.status != FenceRewrite::Status::Error);
            if (r.status == FenceRewrite::Status::Unchanged)
                continue;
            ++rewritten;
            const culd::ElfSection *outText = outByName.at(".text." + name);
            const culd::ElfSection *outCapsule = outByName.at(".nv.capmerc.text." + name);
            REQUIRE(r.code.size() == outText->size);
            std::vector<Insn> mine = culd::mercury::readCode(r.code.data(), r.code.size());
            std::vector<Insn> theirs = culd::mercury::readCode(outText->data.data, outText->size);
            for (size_t i = 0; i < mine.size(); ++i) {
                INFO("instruction " << i);
                CHECK(mine[i].lo == theirs[i].lo);
                // The scoreboard fields (bits 110-121) are the finaliser's.
                constexpr uint64_t kScoreboard = uint64_t(0xfff) << 46;
                CHECK((mine[i].hi & ~kScoreboard) == (theirs[i].hi & ~kScoreboard));
            }
            REQUIRE(r.capsule.size() == outCapsule->size);
            CHECK(std::equal(r.capsule.begin() + 4, r.capsule.end(), outCapsule->data.data + 4));
        }
        CHECK(rewritten == 8); // every kernel but kcall
    }
}
