// Extraction of embedded device code and host-reference lists from host
// objects. The sections are only viewed, never copied.

#include "culd/HostObject.h"

#include "culd/Diagnostics.h"

#include <cstring>
#include <string>

namespace culd {

namespace {

constexpr std::string_view kRelocatableFatbin = "__nv_relfatbin";
constexpr std::string_view kWholeProgramFatbin = ".nv_fatbin";
constexpr std::string_view kModuleId = "__nv_module_id";

std::string sectionContext(std::string_view file, std::string_view section) {
    return std::string(file) + ": section '" + std::string(section) + "'";
}

void checkIsHostObject(const ElfFile &file, std::string_view name) {
    const ElfHeader &h = file.header();
    auto fail = [&](const std::string &what) { throw FatalError(std::string(name) + ": " + what); };
    if (h.machine == elf::EM_CUDA)
        fail("is a device ELF, not a host object");
    if (!file.is64())
        fail("host object is not ELF64");
    if (h.type != elf::ET_REL)
        fail("host object is not relocatable (e_type " + std::to_string(h.type) + ")");
}

// The bytes of a section that must hold file data (e.g. not SHT_NOBITS).
ByteView sectionBytes(const ElfSection &s, std::string_view name) {
    if (s.type == elf::SHT_NOBITS && s.size != 0)
        throw FatalError(sectionContext(name, s.name) + ": has no file data (SHT_NOBITS)");
    return s.data;
}

// NUL-separated patterns; the list ends with a NUL, and an empty list is a
// single NUL byte.
std::vector<std::string_view> readPatternList(const ElfFile &file, std::string_view sectionName,
                                              std::string_view name, bool &present) {
    std::vector<std::string_view> patterns;
    const ElfSection *s = file.findSection(sectionName);
    if (!s)
        return patterns;
    present = true;
    ByteView bytes = sectionBytes(*s, name);
    if (bytes.empty())
        return patterns;
    if (bytes.data[bytes.size - 1] != 0)
        throw FatalError(sectionContext(name, sectionName) + ": list is not NUL-terminated");
    const char *text = reinterpret_cast<const char *>(bytes.data);
    for (uint64_t at = 0; at < bytes.size;) {
        const size_t length = std::strlen(text + at); // stops at the final NUL at the latest
        if (length != 0)
            patterns.emplace_back(text + at, length);
        at += length + 1;
    }
    return patterns;
}

std::string_view readModuleId(const ElfFile &file, std::string_view name) {
    const ElfSection *s = file.findSection(kModuleId);
    if (!s)
        return {};
    ByteView bytes = sectionBytes(*s, name);
    const char *text = reinterpret_cast<const char *>(bytes.data);
    const void *nul = bytes.empty() ? nullptr : std::memchr(text, 0, bytes.size);
    if (!nul)
        throw FatalError(sectionContext(name, kModuleId) + ": module id is not NUL-terminated");
    return std::string_view(text, static_cast<const char *>(nul) - text);
}

HostReferences readHostReferences(const ElfFile &file, std::string_view name) {
    HostReferences r;
    r.kernelsExternal = readPatternList(file, ".nvHRKE", name, r.present);
    r.kernelsInternal = readPatternList(file, ".nvHRKI", name, r.present);
    r.deviceVarsExternal = readPatternList(file, ".nvHRDE", name, r.present);
    r.deviceVarsInternal = readPatternList(file, ".nvHRDI", name, r.present);
    r.constantsExternal = readPatternList(file, ".nvHRCE", name, r.present);
    r.constantsInternal = readPatternList(file, ".nvHRCI", name, r.present);
    return r;
}

} // namespace

HostObjectInfo readHostObject(const ElfFile &file, std::string_view name) {
    checkIsHostObject(file, name);
    HostObjectInfo info;
    if (const ElfSection *s = file.findSection(kRelocatableFatbin)) {
        info.hasRelocatableDeviceCode = true;
        info.entries = parseFatbin(sectionBytes(*s, name), sectionContext(name, kRelocatableFatbin));
    }
    info.hasWholeProgramDeviceCode = file.findSection(kWholeProgramFatbin) != nullptr;
    info.refs = readHostReferences(file, name);
    info.moduleId = readModuleId(file, name);
    return info;
}

bool matchesHostReference(std::string_view pattern, std::string_view name) {
    // Iterative glob with backtracking to the last '*': linear in practice
    // and never recursive, whatever the pattern.
    size_t p = 0, n = 0, starP = std::string_view::npos, starN = 0;
    while (n < name.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            starP = p++;
            starN = n;
        } else if (p < pattern.size() && pattern[p] == name[n]) {
            ++p, ++n;
        } else if (starP != std::string_view::npos) {
            p = starP + 1;
            n = ++starN;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

} // namespace culd
