// Blackwell backend (sm_100, 103, 110, 120, 121 and their a/f variants).
//
// Every cubin for these targets carries ordinary SASS plus a Mercury shadow
// set: capsule code (.nv.capmerc.text.<f>) and .nv.merc.* copies of the info,
// relocation, symbol and data sections, all flagged 0x10000000. The SASS side
// links like sm_90; the Mercury side uses the R_MERCURY catalog and must be
// carried along (see mercury.md). nvlink also re-finalises the SASS of
// kernels after the link (scoreboard re-allocation): finalize() reproduces
// that with Finalizer.cpp.
//
// Verified on CUDA 13.0 cubins: e_flags 0x06006402 / 0x06006702 / 0x06006e02 /
// 0x06007802 / 0x06007902, EIATTR_PARAM_CBANK 0x000c0380, calls r_type 75,
// RELA only, .text sh_info = symbol index; nvlink 13.0 links sm_100 cubins for
// sm_103 and sm_120 ones for sm_121 and refuses every other pair.
#include <culd/plugin.hpp>
#include <culd-nvidia/Nvidia.h>

#include "Capsule.h"
#include "CodeTail.h"
#include "Fastpath.h"
#include "Fences.h"
#include "Finalizer.h"

#include <cstring>
#include <optional>
#include <string>

namespace {

constexpr uint32_t kSm100Inputs[] = {100};
constexpr uint32_t kSm120Inputs[] = {120};

// nvlink's Mercury-mode output keeps these .nv.info.<f> records after the
// reversed others, in input order (measured on every sm_100+ fixture).
constexpr uint32_t kInfoTailCodes[] = {0x19 /* CBANK_PARAM_SIZE */, 0x0a /* PARAM_CBANK */,
                                       0x36 /* SW_WAR */};

culd_arch_info blackwell(uint32_t sm) {
    culd_arch_info a = culd::nvidia::archInfo(sm);
    a.variants = CULD_VARIANT_A | CULD_VARIANT_F;
    // nvlink 13.0's Mercury-mode writer: the symbols it defines typed
    // STT_CUDA_OBJECT, the symbol table not re-sorted after layout, its own
    // program-header split (code, data, constant banks), .debug_frame
    // rebuilt entry by entry, no .nv.resolvedrela sections under
    // --preserve-relocs, and shared windows holding only the reservation
    // (the module's kept for extern arrays among them) left unnamed; the
    // frame of a replaced weak copy with a stack frame dropped, and so is the
    // constant bank of a weak copy that lost.
    a.flags = CULD_ARCH_F_MERCURY | CULD_ARCH_F_CONST0_AFTER_DATA | CULD_ARCH_F_COMPAT |
              CULD_ARCH_F_PRESERVE_RELOCS_PARTIAL | CULD_ARCH_F_LINKER_SYMBOLS_CUDA_OBJECT |
              CULD_ARCH_F_LATE_SECTION_SYMBOLS_LAST | CULD_ARCH_F_FRAME_BY_ENTRY |
              CULD_ARCH_F_NO_RESOLVED_RELOCS | CULD_ARCH_F_MODULE_SHARED_RESERVED |
              CULD_ARCH_F_EMPTY_WINDOWS_UNNAMED | CULD_ARCH_F_REPLACED_FRAMES_DROPPED |
              CULD_ARCH_F_LOST_COPY_BANKS_DROPPED | CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE |
              CULD_ARCH_F_EXTERN_SHARED_INSTANCES | CULD_ARCH_F_WIDE_COLOURED_SHARED;
    a.phdr_layout = CULD_PHDR_SPLIT;
    a.num_info_tail_codes = sizeof kInfoTailCodes / sizeof kInfoTailCodes[0];
    a.info_tail_codes = kInfoTailCodes;
    a.elf_abi = CULD_ELF_ABI_V8;
    a.elf_flags_low = culd::nvidia::kElfV8FlagsMercury;
    a.reserved_smem = 0x400;
    a.reserved_smem_offset0 = 0x40;
    a.optimizer_cbank = 2;
    // nvlink -r: _Z3sw1ii.const_opt.0.12 -> .nv.constant.optimizer._Z3sw1ii.1
    a.relocatable_bank_symbol_prefix = ".nv.constant.optimizer.";
    a.reloc_style = CULD_RELOC_STYLE_RELA_ONLY;
    a.fastpath_code_bits = culd::mercury::fastpathCodeBits(sm);
    return a;
}

// Section facts of the Mercury set (arch-study.md §5.1).
constexpr uint64_t kShfMercury = 0x10000000;
constexpr uint32_t kShtMercRela = 0x70000082;
// A function's jump tables, twin of its .nv.constant2.<f> (all zero bytes:
// R_MERCURY_PROG_REL32 entries the driver fills).
constexpr const char *kOptimizerBank = ".nv.merc.nv.constant.optimizer.";
constexpr uint32_t kShtMercInfo = 0x70000083;
constexpr uint32_t kShtMercSymtab = 0x70000085;

bool startsWith(const char *s, const char *prefix) {
    return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

bool isMercuryName(const char *name) {
    return startsWith(name, ".nv.capmerc.") || startsWith(name, ".nv.merc.");
}

// These share their file bytes with a SASS twin (.nv.constant3,
// .nv.global.init), so the core must lay them out on top of the twin instead
// of copying them.
bool isAlias(const char *name) {
    return startsWith(name, ".nv.merc.nv.constant.") ||
           std::strcmp(name, ".nv.merc.nv.global.init") == 0;
}

class Sm100MercuryPlugin final : public culd::sdk::Plugin {
public:
    const char *name() const override { return "sm100-mercury"; }
    const char *version() const override { return "1"; }

    std::vector<culd_arch_info> archs() const override {
        using culd::sdk::accepting;
        return {blackwell(100), accepting(blackwell(103), kSm100Inputs), blackwell(110),
                blackwell(120), accepting(blackwell(121), kSm120Inputs)};
    }

    std::vector<culd_reloc_desc> relocations() const override {
        // The SASS side uses R_CUDA, the capsules R_MERCURY (mercury.md).
        std::vector<culd_reloc_desc> all = culd::nvidia::rCudaTypes();
        std::vector<culd_reloc_desc> mercury = culd::nvidia::rMercuryTypes();
        all.insert(all.end(), mercury.begin(), mercury.end());
        return all;
    }

    culd_eiattr_policy eiattrPolicy(uint32_t sm, uint32_t code) const override {
        // Every attribute up to 0x60 exists on these SMs: nothing is gated.
        return culd::nvidia::eiattrPolicy(sm, code, nullptr, 0);
    }

    bool hasMercury() const override { return true; }

    culd_mercury_kind classifyMercury(const char *name, uint32_t shType,
                                      uint64_t shFlags) const override {
        if (!name)
            return CULD_MERC_NONE;
        if (!(shFlags & kShfMercury) && !isMercuryName(name))
            return CULD_MERC_NONE;
        if (startsWith(name, ".nv.capmerc.text."))
            return CULD_MERC_CODE;
        if (shType == kShtMercInfo)
            return CULD_MERC_INFO;
        if (shType == kShtMercRela)
            return CULD_MERC_RELA;
        if (shType == kShtMercSymtab)
            return CULD_MERC_SYMTAB;
        if (startsWith(name, kOptimizerBank))
            return CULD_MERC_FUNCTION_BANK;
        if (isAlias(name))
            return CULD_MERC_ALIAS;
        // Debug copies, .nv.merc.symtab_shndx, reserved shared ...
        return CULD_MERC_DATA;
    }

    // The SASS twin of a shadow section is its name without the Mercury
    // prefix: .nv.capmerc.text.f -> .text.f, .nv.merc.nv.info.f ->
    // .nv.info.f, .nv.merc.rela.debug_frame -> .rela.debug_frame. Symbol
    // tables and aliases (paired by their bytes) have none. A function's
    // optimizer bank names the function (its twin is the function's bank).
    uint32_t mercuryTwin(const char *name) const override {
        if (name && startsWith(name, kOptimizerBank))
            return std::strlen(kOptimizerBank); // the function's name
        if (!name || isAlias(name) || std::strcmp(name, ".nv.merc.symtab") == 0 ||
            startsWith(name, ".nv.merc.symtab_shndx"))
            return 0;
        if (startsWith(name, ".nv.capmerc."))
            return std::strlen(".nv.capmerc");
        if (startsWith(name, ".nv.merc."))
            return std::strlen(".nv.merc");
        return 0;
    }

    // nvlink writes a constant-bank offset into the capsule's record of
    // the instruction as into its SASS twin (Capsule.cpp); an instruction
    // without a record takes it from the twin.
    bool hasCapsuleFields() const override { return true; }
    int32_t capsuleField(const culd_host &host, uint32_t, const uint8_t *capsule, uint64_t size,
                         uint32_t relocType, uint64_t twinOffset,
                         uint64_t &field) const override {
        std::optional<uint64_t> at;
        std::string error;
        if (culd::mercury::resolvedField(capsule, static_cast<size_t>(size), relocType,
                                         twinOffset, at, error)) {
            field = at ? *at : CULD_CAPSULE_NO_FIELD;
            return 0;
        }
        report(host, CULD_LOG_ERROR, error);
        return -1;
    }

    // The compat mask's bit for sm_103 follows the functions kept
    // (Fastpath.cpp).
    bool hasFastpathClears() const override { return true; }
    uint32_t fastpathClears(uint32_t sm, const uint8_t *code, uint64_t size) const override {
        return culd::mercury::fastpathClears(sm, code, static_cast<size_t>(size));
    }

    // Where a function's code ends: nvlink maps a replaced weak copy's
    // call-frame rows through the winner's Mercury code (CodeTail.cpp).
    bool hasCodeTail() const override { return true; }
    int32_t codeTail(uint32_t, const uint8_t *code, uint64_t size,
                     culd_code_tail &tail) const override {
        return culd::mercury::codeTail(code, static_cast<size_t>(size), tail) ? 0 : 1;
    }

    // nvlink removes the memory-fence placeholders of kernels that make no
    // call before it lays them out (Fences.cpp).
    bool hasCodeRewrite() const override { return true; }
    int32_t rewriteCode(const culd_host &host, uint32_t, const uint8_t *code, uint64_t size,
                        const uint8_t *capsule, uint64_t capsuleSize, uint32_t flags,
                        culd_buffer &outCode, culd_buffer &outRemoved,
                        culd_buffer &outCapsule) const override {
        using culd::mercury::FenceRewrite;
        FenceRewrite r = culd::mercury::dropFencePlaceholders(
            code, static_cast<size_t>(size), capsule, static_cast<size_t>(capsuleSize),
            flags & CULD_CODE_F_ENTRY);
        if (r.status == FenceRewrite::Status::Unchanged)
            return 1;
        if (r.status == FenceRewrite::Status::Error) {
            report(host, CULD_LOG_ERROR, "nvlink removes the memory-fence placeholders of this "
                                         "kernel, which culd cannot do here: " + r.error);
            return -1;
        }
        uint8_t *dst = outCode.grow ? outCode.grow(outCode.opaque, r.code.size()) : nullptr;
        uint8_t *ranges = outRemoved.grow
                              ? outRemoved.grow(outRemoved.opaque, r.removed.size() * 16)
                              : nullptr;
        uint8_t *newCapsule = r.capsule.empty() || !outCapsule.grow
                                  ? nullptr
                                  : outCapsule.grow(outCapsule.opaque, r.capsule.size());
        if (!dst || (!ranges && !r.removed.empty()) || (!newCapsule && !r.capsule.empty())) {
            report(host, CULD_LOG_ERROR, "out of memory rewriting a kernel's code");
            return -1;
        }
        std::memcpy(dst, r.code.data(), r.code.size());
        if (newCapsule)
            std::memcpy(newCapsule, r.capsule.data(), r.capsule.size());
        for (size_t i = 0; i < r.removed.size(); ++i) {
            std::memcpy(ranges + i * 16, &r.removed[i].first, 8);
            std::memcpy(ranges + i * 16 + 8, &r.removed[i].second, 8);
        }
        return 0;
    }

    // nvlink re-finalises sm_100+ kernels after the link: the scoreboard of
    // the stack-pointer load is dropped and the barriers re-allocated
    // (Finalizer.cpp). Debug links either keep the code or make nvlink
    // regenerate it, which culd cannot reproduce: refuse those.
    bool hasFinalizer() const override { return true; }
    int32_t finalize(const culd_host &host, uint32_t sm, const uint8_t *image, uint64_t size,
                     culd_buffer &out) override {
        using namespace culd::mercury;
        const std::string arch = "sm_" + std::to_string(sm);
        // The words nvlink rewrites in every output first (capsules name
        // their .text by its output index).
        FinalizeResult fixed = fixUpImage(image, static_cast<size_t>(size));
        if (fixed.status == FinalizeResult::Status::Error) {
            report(host, CULD_LOG_ERROR, "malformed " + arch + " output: " + fixed.error);
            return -1;
        }
        if (fixed.status == FinalizeResult::Status::Rewritten) {
            image = fixed.image.data();
            size = fixed.image.size();
        }
        FinalizeResult result;
        switch (debugAction(host.link_flags & CULD_LINK_F_DEBUG,
                            host.link_flags & CULD_LINK_F_DEBUG_INPUTS,
                            host.link_flags & CULD_LINK_F_RELEASE_CODE)) {
        case DebugAction::Unchanged:
            break;
        case DebugAction::Refuse:
            report(host, CULD_LOG_ERROR,
                   "culd cannot reproduce nvlink's code regeneration for " + arch + ": " +
                       ((host.link_flags & CULD_LINK_F_DEBUG)
                            ? "-g on code compiled without -G (nvlink inserts instructions "
                              "into the kernels)"
                            : "inputs compiled with -G linked without -g (nvlink strips the "
                              "debug information and regenerates the code)"));
            return -1;
        case DebugAction::Rewrite:
            result = finalizeImage(image, static_cast<size_t>(size));
            break;
        }
        if (result.status == FinalizeResult::Status::Error) {
            report(host, CULD_LOG_ERROR,
                   "culd cannot reproduce nvlink's finalisation of " + arch + " code: " +
                       result.error);
            return -1;
        }
        if (result.status == FinalizeResult::Status::Rewritten) {
            image = result.image.data();
            size = result.image.size();
        } else if (fixed.status != FinalizeResult::Status::Rewritten) {
            return 1;
        }
        uint8_t *dst = out.grow ? out.grow(out.opaque, size) : nullptr;
        if (!dst) {
            report(host, CULD_LOG_ERROR, "out of memory finalising the " + arch + " output");
            return -1;
        }
        std::memcpy(dst, image, static_cast<size_t>(size));
        return 0;
    }
};

} // namespace

CULD_DEFINE_PLUGIN(Sm100MercuryPlugin)
