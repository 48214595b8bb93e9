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
    virtual culd_eiattr_policy eiattrPolicy(uint32_t /*sm*/, uint32_t /*code*/) const {
        return CULD_EIATTR_KEEP;
    }
    virtual culd_eiattr_policy compatPolicy(uint32_t /*sm*/, uint32_t /*code*/) const {
        return CULD_EIATTR_KEEP;
    }
    // Families with a Mercury shadow set return true and classify sections.
    virtual bool hasMercury() const { return false; }
    virtual culd_mercury_kind classifyMercury(const char *, uint32_t, uint64_t) const {
        return CULD_MERC_NONE;
    }
    // Where the SASS twin's name starts inside a Mercury section's name
    // (0: no twin by name); see culd_plugin_descriptor::mercury_twin.
    virtual uint32_t mercuryTwin(const char *) const { return 0; }
    // Where a resolved value goes in a capsule (0, writing `field`) or why
    // it cannot be placed (non-zero, reported); see
    // culd_plugin_descriptor::capsule_field. Families whose capsules take
    // such values return true from hasCapsuleFields().
    virtual bool hasCapsuleFields() const { return false; }
    virtual int32_t capsuleField(const culd_host &, uint32_t /*sm*/, const uint8_t *, uint64_t,
                                 uint32_t /*relocType*/, uint64_t /*twinOffset*/,
                                 uint64_t & /*field*/) const {
        return -1;
    }
    // Which of an arch's fastpath_code_bits a function's code clears; see
    // culd_plugin_descriptor::fastpath_clears. Families whose archs set
    // fastpath_code_bits return true from hasFastpathClears().
    virtual bool hasFastpathClears() const { return false; }
    virtual uint32_t fastpathClears(uint32_t /*sm*/, const uint8_t *, uint64_t) const {
        return 0;
    }
    // Code rewritten before layout (1: unchanged, 0: rewritten, else an
    // error reported); see culd_plugin_descriptor::rewrite_code. Families
    // that rewrite code return true from hasCodeRewrite().
    virtual bool hasCodeRewrite() const { return false; }
    virtual int32_t rewriteCode(const culd_host &, uint32_t /*sm*/, const uint8_t *, uint64_t,
                                const uint8_t * /*shadow*/, uint64_t, uint32_t /*flags*/,
                                culd_buffer & /*code*/, culd_buffer & /*removed*/,
                                culd_buffer & /*shadow*/) const {
        return 1;
    }
    // How a function's code ends (0: `tail` filled, 1: not with a return
    // and padding); see culd_plugin_descriptor::code_tail. Families with
    // Mercury code return true from hasCodeTail().
    virtual bool hasCodeTail() const { return false; }
    virtual int32_t codeTail(uint32_t /*sm*/, const uint8_t *, uint64_t,
                             culd_code_tail & /*tail*/) const {
        return 1;
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

    static uint32_t twin(const char *name) {
        try {
            return instance().mercuryTwin(name);
        } catch (...) {
            return 0;
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

    static int32_t rewriteCode(const culd_host *host, uint32_t sm, const uint8_t *code,
                               uint64_t size, const uint8_t *shadow, uint64_t shadowSize,
                               uint32_t flags, culd_buffer *outCode, culd_buffer *outRemoved,
                               culd_buffer *outShadow) {
        try {
            return instance().rewriteCode(*host, sm, code, size, shadow, shadowSize, flags,
                                          *outCode, *outRemoved, *outShadow);
        } catch (const std::exception &e) {
            reportException(host, e.what());
        } catch (...) {
            reportException(host, "unknown exception");
        }
        return -1;
    }

    static int32_t capsuleField(const culd_host *host, uint32_t sm, const uint8_t *capsule,
                                uint64_t size, uint32_t type, uint64_t twinOffset,
                                uint64_t *field) {
        try {
            return instance().capsuleField(*host, sm, capsule, size, type, twinOffset, *field);
        } catch (const std::exception &e) {
            reportException(host, e.what());
        } catch (...) {
            reportException(host, "unknown exception");
        }
        return -1;
    }

    static uint32_t fastpathClears(uint32_t sm, const uint8_t *code, uint64_t size) {
        try {
            return instance().fastpathClears(sm, code, size);
        } catch (...) {
            return ~0u; // more than any arch's bits: the core refuses the input
        }
    }

    static int32_t codeTail(uint32_t sm, const uint8_t *code, uint64_t size,
                            culd_code_tail *tail) {
        try {
            return instance().codeTail(sm, code, size, *tail);
        } catch (...) {
            return 1; // cannot tell: the core refuses what needed it
        }
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
                d.mercury_twin = instance().hasMercury() ? &twin : nullptr;
                d.finalize = instance().hasFinalizer() ? &Holder::finalize : nullptr;
                d.capsule_field =
                    instance().hasCapsuleFields() ? &Holder::capsuleField : nullptr;
                d.fastpath_clears =
                    instance().hasFastpathClears() ? &Holder::fastpathClears : nullptr;
                d.rewrite_code = instance().hasCodeRewrite() ? &Holder::rewriteCode : nullptr;
                d.code_tail = instance().hasCodeTail() ? &Holder::codeTail : nullptr;
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

// Sets the other input SMs a target accepts; `sms` must outlive the plugin
// (a namespace-scope array).
template <size_t N>
culd_arch_info accepting(culd_arch_info a, const uint32_t (&sms)[N]) {
    a.num_compatible = static_cast<uint32_t>(N);
    a.compatible_inputs = sms;
    return a;
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
