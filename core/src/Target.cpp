#include "culd/Target.h"

#include "culd/Bytes.h"
#include "culd/Diagnostics.h"
#include "culd/Elf.h"
#include "culd/ElfFile.h"
#include "culd/NvInfo.h"

#include <algorithm>
#include <cstddef>

namespace culd {

Target::Target(const Plugin &plugin, uint32_t sm) : plugin_(plugin), desc_(plugin.descriptor()) {
    const culd_arch_info *arch = plugin.arch(sm);
    if (!arch)
        throw FatalError("plugin '" + plugin.name() + "' does not serve sm_" + std::to_string(sm));
    arch_ = *arch;
}

bool Target::acceptsInputSm(uint32_t inputSm) const {
    if (inputSm == arch_.sm)
        return true;
    const uint32_t *begin = arch_.compatible_inputs;
    const uint32_t *end = begin ? begin + arch_.num_compatible : begin;
    return std::find(begin, end, inputSm) != end;
}

culd_mercury_kind Target::mercuryKind(const ElfSection &s) const {
    if (desc_.classify_mercury_section) {
        std::string name(s.name);
        auto kind = static_cast<culd_mercury_kind>(
            desc_.classify_mercury_section(name.c_str(), s.type, s.flags));
        if (kind != CULD_MERC_NONE)
            return kind;
    }
    return (s.flags & elf::SHF_CUDA_MERCURY) ? CULD_MERC_DATA : CULD_MERC_NONE;
}

// Whether the plugin's descriptor has a hook of ABI minor `minor` whose
// field ends at `fieldEnd` (an older plugin's struct stops before it).
bool Target::hasField(uint32_t minor, size_t fieldEnd) const {
    return desc_.abi_minor >= minor && desc_.struct_size >= fieldEnd;
}

bool Target::linksMercurySet() const {
    return hasField(2, offsetof(culd_plugin_descriptor, mercury_twin) +
                           sizeof(desc_.mercury_twin)) &&
           desc_.mercury_twin;
}

std::string_view Target::mercuryTwinName(std::string_view mercuryName) const {
    if (!linksMercurySet())
        return {};
    std::string name(mercuryName);
    uint32_t at = desc_.mercury_twin(name.c_str());
    return at == 0 || at >= mercuryName.size() ? std::string_view() : mercuryName.substr(at);
}

std::optional<uint64_t> Target::capsuleField(ByteView capsule, uint32_t relocType,
                                             uint64_t twinOffset) const {
    bool hooked = hasField(4, offsetof(culd_plugin_descriptor, capsule_field) +
                                  sizeof(desc_.capsule_field)) &&
                  desc_.capsule_field;
    if (!hooked)
        throw FatalError("plugin '" + plugin_.name() + "' cannot place linker values in capsules");
    std::string error;
    culd_host host = hostReportingTo(error);
    uint64_t field = 0;
    int32_t rc = desc_.capsule_field(&host, arch_.sm, capsule.data, capsule.size, relocType,
                                     twinOffset, &field);
    if (rc != 0 || !error.empty())
        throw FatalError(error.empty() ? "plugin '" + plugin_.name() + "' cannot place it" : error);
    if (field == CULD_CAPSULE_NO_FIELD)
        return std::nullopt;
    return field;
}

uint32_t Target::fastpathCodeBits(uint32_t codeSm) const {
    const culd_arch_info *a = plugin_.arch(codeSm);
    return a ? a->fastpath_code_bits : 0;
}

uint32_t Target::fastpathClears(ByteView code, uint32_t codeSm) const {
    bool hooked = hasField(5, offsetof(culd_plugin_descriptor, fastpath_clears) +
                                  sizeof(desc_.fastpath_clears)) &&
                  desc_.fastpath_clears;
    if (!hooked)
        throw FatalError("plugin '" + plugin_.name() + "' names code-dependent fast-path bits for " +
                         name() + " but cannot tell which code clears them");
    return desc_.fastpath_clears(codeSm, code.data, code.size);
}

std::optional<culd_code_tail> Target::codeTail(ByteView code) const {
    bool hooked =
        hasField(11, offsetof(culd_plugin_descriptor, code_tail) + sizeof(desc_.code_tail)) &&
        desc_.code_tail;
    culd_code_tail tail{};
    if (!hooked || desc_.code_tail(arch_.sm, code.data, code.size, &tail) != 0 ||
        tail.return_offset >= tail.padding_offset || tail.padding_offset > code.size)
        return std::nullopt;
    return tail;
}

bool Target::admitEiattr(uint8_t code, std::string_view file, std::string_view section) const {
    if (!desc_.eiattr_policy)
        return true;
    uint32_t policy = desc_.eiattr_policy(arch_.sm, code);
    return policy == CULD_EIATTR_KEEP || admit(policy, eiattrName(code), file, section);
}

bool Target::admitCompat(uint8_t code, std::string_view file, std::string_view section) const {
    if (!desc_.compat_policy)
        return true;
    uint32_t policy = desc_.compat_policy(arch_.sm, code);
    return policy == CULD_EIATTR_KEEP || admit(policy, eicompatName(code), file, section);
}

// nvlink's wording: "Attribute %s not supported on %s".
bool Target::admit(uint32_t policy, const std::string &attribute, std::string_view file,
                   std::string_view section) const {
    std::string what = "Attribute " + attribute + " not supported on " + name();
    switch (policy) {
    case CULD_EIATTR_KEEP:
        return true;
    case CULD_EIATTR_WARN: {
        std::lock_guard<std::mutex> lock(warnedMutex_);
        if (warned_.insert(attribute).second)
            Diagnostics::get().warning(what);
        return true;
    }
    case CULD_EIATTR_DROP:
        return false;
    default:
        throw FatalError(std::string(file) + ": section '" + std::string(section) + "': " + what);
    }
}

bool Target::isInfoTailCode(uint32_t code) const {
    const uint32_t *begin = arch_.info_tail_codes;
    if (!begin)
        return false;
    return std::find(begin, begin + arch_.num_info_tail_codes, code) !=
           begin + arch_.num_info_tail_codes;
}

namespace {

// A culd_buffer whose bytes the host owns in `bytes`.
culd_buffer bufferInto(std::vector<uint8_t> &bytes) {
    culd_buffer out{};
    out.struct_size = sizeof out;
    out.opaque = &bytes;
    out.grow = [](void *opaque, uint64_t size) -> uint8_t * {
        std::vector<uint8_t> &grown = *static_cast<std::vector<uint8_t> *>(opaque);
        try {
            grown.assign(size, 0);
        } catch (const std::bad_alloc &) {
            return nullptr;
        }
        return grown.data();
    };
    return out;
}

} // namespace

std::optional<Target::RewrittenCode> Target::rewriteCode(ByteView code, ByteView shadow,
                                                         uint32_t flags,
                                                         uint32_t linkFlags) const {
    bool hooked = hasField(6, offsetof(culd_plugin_descriptor, rewrite_code) +
                                  sizeof(desc_.rewrite_code)) &&
                  desc_.rewrite_code;
    if (!hooked)
        return std::nullopt;
    std::string error;
    culd_host host = hostReportingTo(error, linkFlags);
    std::vector<uint8_t> bytes, removedBytes, shadowBytes;
    culd_buffer outCode = bufferInto(bytes), outRemoved = bufferInto(removedBytes),
                outShadow = bufferInto(shadowBytes);
    int32_t rc = desc_.rewrite_code(&host, arch_.sm, code.data, code.size, shadow.data,
                                    shadow.size, flags, &outCode, &outRemoved, &outShadow);
    if (rc == 1 && error.empty())
        return std::nullopt;
    if (rc != 0 || !error.empty())
        throw FatalError(error.empty() ? "plugin '" + plugin_.name() + "' cannot rewrite it"
                                       : error);
    // The ranges must be what the ABI promises before anything trusts them.
    RewrittenCode result{std::move(bytes), {}, std::move(shadowBytes)};
    if (removedBytes.size() % 16 != 0)
        throw FatalError("plugin '" + plugin_.name() + "' returned a malformed list of removed code");
    uint64_t last = 0;
    for (size_t at = 0; at < removedBytes.size(); at += 16) {
        uint64_t begin = readLittle(removedBytes.data() + at, 8),
                 end = readLittle(removedBytes.data() + at + 8, 8);
        if (begin < last || end <= begin || end > code.size)
            throw FatalError("plugin '" + plugin_.name() + "' removed code ranges out of order or "
                             "outside the function");
        result.removed.emplace_back(begin, end);
        last = end;
    }
    return result;
}

void Target::finalize(std::vector<uint8_t> &image, uint32_t linkFlags) const {
    if (!desc_.finalize)
        return;
    std::string error;
    std::vector<uint8_t> bytes;
    culd_host host = hostReportingTo(error, linkFlags);
    culd_buffer out = bufferInto(bytes);
    int32_t rc = desc_.finalize(&host, arch_.sm, image.data(), image.size(), &out);
    if (rc == 1 && error.empty())
        return;
    if (rc != 0 || !error.empty())
        throw FatalError("plugin '" + plugin_.name() + "' failed to finalize the output" +
                         (error.empty() ? "" : ": " + error));
    image = std::move(bytes);
}

} // namespace culd
