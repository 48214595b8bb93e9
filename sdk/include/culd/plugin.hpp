// Header-only C++ helper over the culd plugin C ABI (plugin.h).
//
// A plugin author derives from culd::sdk::Plugin, fills in the tables, and
// writes CULD_DEFINE_PLUGIN(MyPlugin) once. The helper builds the C
// descriptor, keeps it alive for the life of the shared object, and turns
// virtual calls into C trampolines that never let an exception escape.
#ifndef CULD_PLUGIN_HPP
#define CULD_PLUGIN_HPP

#include <culd/plugin.h>

#include <exception>
#include <initializer_list>
#include <string>
#include <vector>

namespace culd::sdk {

// One bit action: `width` bits at `offset` receive (value(kind) >> shift).
constexpr culd_bit_action bits(uint16_t offset, uint16_t width, culd_value_kind kind,
                               uint16_t shift = 0) {
    return culd_bit_action{offset, width, static_cast<uint16_t>(kind), shift};
}

// A relocation descriptor from its parts; up to three actions.
inline culd_reloc_desc reloc(uint32_t type, const char *name, culd_resolver resolver,
                             std::initializer_list<culd_bit_action> actions = {},
                             uint32_t flags = 0, uint32_t plainType = 0) {
    culd_reloc_desc d{};
    d.type = type;
    d.name = name;
    d.resolver = resolver;
    d.flags = flags;
    d.plain_type = plainType;
    for (const culd_bit_action &a : actions) {
        if (d.num_actions == CULD_MAX_BIT_ACTIONS)
            break;
        d.actions[d.num_actions++] = a;
    }
    return d;
}

// Base class of a plugin. Override what the family needs; the defaults are
// the core's behaviour.
class Plugin {
public:
    virtual ~Plugin() = default;

    virtual const char *name() const = 0;
    virtual const char *version() const { return "0"; }
    virtual std::vector<culd_arch_info> archs() const = 0;
    virtual std::vector<culd_reloc_desc> relocations() const = 0;

    // Only called for descriptors flagged CULD_RELOC_F_HOOK.
    virtual int32_t applyRelocations(const culd_host &, uint32_t /*sm*/,
                                     culd_section_bytes &, culd_reloc_work *, size_t) {
        return 0;
    }
    virtual culd_eiattr_policy eiattrPolicy(uint32_t /*sm*/, uint32_t code) const {
        return code <= 0x60 ? CULD_EIATTR_KEEP : CULD_EIATTR_ERROR;
    }
    virtual culd_eiattr_policy compatPolicy(uint32_t /*sm*/, uint32_t /*code*/) const {
        return CULD_EIATTR_KEEP;
    }
    // Families with a Mercury shadow set return true and classify sections.
    virtual bool hasMercury() const { return false; }
    virtual culd_mercury_kind classifyMercury(const char *, uint32_t, uint64_t) const {
        return CULD_MERC_NONE;
    }
    // Families with a finaliser return true and implement finalize().
    virtual bool hasFinalizer() const { return false; }
    virtual int32_t finalize(const culd_host &, uint32_t, const uint8_t *, uint64_t,
                             culd_buffer &) {
        return 1;
    }

    // Helper for hooks: report through the host.
    static void report(const culd_host &host, culd_log_level level, const std::string &msg) {
        if (host.report)
            host.report(host.opaque, level, msg.c_str());
    }
};

namespace detail {

template <class P> struct Holder {
    static P &instance() {
        static P plugin;
        return plugin;
    }

    static void reportException(const culd_host *host, const char *what) {
        if (host)
            Plugin::report(*host, CULD_LOG_ERROR,
                           std::string("plugin '") + instance().name() + "': " + what);
    }

    static int32_t apply(const culd_host *host, uint32_t sm, culd_section_bytes *section,
                         culd_reloc_work *relocs, size_t count) {
        try {
            return instance().applyRelocations(*host, sm, *section, relocs, count);
        } catch (const std::exception &e) {
            reportException(host, e.what());
        } catch (...) {
            reportException(host, "unknown exception");
        }
        return -1;
    }

    static uint32_t eiattr(uint32_t sm, uint32_t code) {
        try {
            return instance().eiattrPolicy(sm, code);
        } catch (...) {
            return CULD_EIATTR_ERROR;
        }
    }

    static uint32_t compat(uint32_t sm, uint32_t code) {
        try {
            return instance().compatPolicy(sm, code);
        } catch (...) {
            return CULD_EIATTR_ERROR;
        }
    }

    static uint32_t mercury(const char *name, uint32_t type, uint64_t flags) {
        try {
            return instance().classifyMercury(name, type, flags);
        } catch (...) {
            return CULD_MERC_NONE;
        }
    }

    static int32_t finalize(const culd_host *host, uint32_t sm, const uint8_t *image,
                            uint64_t size, culd_buffer *out) {
        try {
            return instance().finalize(*host, sm, image, size, *out);
        } catch (const std::exception &e) {
            reportException(host, e.what());
        } catch (...) {
            reportException(host, "unknown exception");
        }
        return -1;
    }

    static const culd_plugin_descriptor *describe() noexcept {
        try {
            static const std::vector<culd_arch_info> archs = instance().archs();
            static const std::vector<culd_reloc_desc> relocs = instance().relocations();
            static const culd_plugin_descriptor desc = [] {
                culd_plugin_descriptor d{};
                d.abi_major = CULD_PLUGIN_ABI_MAJOR;
                d.abi_minor = CULD_PLUGIN_ABI_MINOR;
                d.struct_size = sizeof(culd_plugin_descriptor);
                d.name = instance().name();
                d.version = instance().version();
                d.archs = archs.data();
                d.num_archs = static_cast<uint32_t>(archs.size());
                d.arch_info_size = sizeof(culd_arch_info);
                d.relocs = relocs.data();
                d.num_relocs = static_cast<uint32_t>(relocs.size());
                d.reloc_desc_size = sizeof(culd_reloc_desc);
                d.apply_relocations = &apply;
                d.eiattr_policy = &eiattr;
                d.compat_policy = &compat;
                d.classify_mercury_section = instance().hasMercury() ? &mercury : nullptr;
                d.finalize = instance().hasFinalizer() ? &Holder::finalize : nullptr;
                return d;
            }();
            return &desc;
        } catch (...) {
            return nullptr;
        }
    }
};

} // namespace detail

// Fills the common fields of a culd_arch_info.
inline culd_arch_info archInfo(uint32_t sm) {
    culd_arch_info a{};
    a.struct_size = sizeof(culd_arch_info);
    a.sm = sm;
    return a;
}

// nvlink's SM -> gating class map for relocations and EIATTR codes
// (relocations.md §10): <= 70 -> 1, 71-72 -> 2, 73-75 -> 3, >= 76 -> 5.
constexpr uint32_t nvidiaArchClass(uint32_t sm) {
    return sm <= 70 ? 1 : sm <= 72 ? 2 : sm <= 75 ? 3 : 5;
}

// archInfo() plus what every NVIDIA target from sm_50 to sm_121 shares:
// 64 KiB constant banks, 18 numbered banks, __constant__ data in bank 3, and
// the gating class. Families fill in the rest.
inline culd_arch_info nvidiaArchInfo(uint32_t sm) {
    culd_arch_info a = archInfo(sm);
    a.arch_class = nvidiaArchClass(sm);
    a.max_cbank_size = 0x10000;
    a.num_cbanks = 18;
    a.user_cbank = 3;
    return a;
}

// e_flags bits a CUDA <= 12 (ELF ABI v7, OSABI 0x33) cubin carries besides
// its SMs: 0x100 EF_CUDA_TEXMODE_UNIFIED | 0x400 EF_CUDA_64BIT_ADDRESS. The
// whole word is `virtual SM << 16 | 0x500 | SM` (sm_52: 0x00340534, read
// from CUDA 11.8 cubins). V7 plugins put these bits in elf_flags_low.
constexpr uint32_t kElfV7FixedFlags = 0x500;

// Low byte of a CUDA 13 (ELF ABI v8) e_flags: 0x04 up to sm_90, 0x02 on the
// Mercury targets; the SM sits in bits 8-15.
constexpr uint32_t kElfV8FlagsSass = 0x04;
constexpr uint32_t kElfV8FlagsMercury = 0x02;

// Sets the other input SMs a target accepts; `sms` must outlive the plugin
// (a namespace-scope array).
template <size_t N>
culd_arch_info accepting(culd_arch_info a, const uint32_t (&sms)[N]) {
    a.num_compatible = static_cast<uint32_t>(N);
    a.compatible_inputs = sms;
    return a;
}

// An .nv.info attribute the compiler only emits from some SM on.
struct EiattrMinSm {
    uint32_t code;
    uint32_t firstSm;
};

// Attributes tied to a newer SM than the codes <= 0x60 in general: the
// tcgen05 ones (0x51, 0x52) and REG_RECONFIG (0x54) exist from sm_100 on.
// sm_90 cubins already carry 0x50 and 0x5F, so those are not gated.
inline constexpr EiattrMinSm kNvidiaEiattrMinSm[] = {{0x51, 100}, {0x52, 100}, {0x54, 100}};

// The EIATTR policy of the NVIDIA families: codes above 0x60 are unknown
// (error, like nvlink's "unknown attribute"); a known code used below its
// first SM is kept with a warning, since nvlink's per-code classes are not
// published and refusing a cubin the compiler produced would be worse.
inline culd_eiattr_policy nvidiaEiattrPolicy(uint32_t sm, uint32_t code) {
    if (code > 0x60)
        return CULD_EIATTR_ERROR;
    for (const EiattrMinSm &gate : kNvidiaEiattrMinSm)
        if (gate.code == code && sm < gate.firstSm)
            return CULD_EIATTR_WARN;
    return CULD_EIATTR_KEEP;
}

} // namespace culd::sdk

// Defines the exported entry point for plugin class `Class`.
#define CULD_DEFINE_PLUGIN(Class)                                                              \
    extern "C" CULD_PLUGIN_EXPORT const culd_plugin_descriptor *culd_plugin_entry(              \
        uint32_t /*hostMajor*/, uint32_t /*hostMinor*/) {                                      \
        /* Always describe ourselves: the host refuses a mismatch and names */                 \
        /* both versions, which it cannot do if we return NULL. */                             \
        return ::culd::sdk::detail::Holder<Class>::describe();                                 \
    }

#endif // CULD_PLUGIN_HPP
