#include "culd/CubinInfo.h"
#include "culd/Hex.h"

#include <cstdio>
#include <iterator>

namespace culd {

namespace {

template <typename T> struct Named {
    T value;
    const char *name;
};

constexpr Named<uint32_t> kSectionTypes[] = {
    {elf::SHT_NULL, "SHT_NULL"},
    {elf::SHT_PROGBITS, "SHT_PROGBITS"},
    {elf::SHT_SYMTAB, "SHT_SYMTAB"},
    {elf::SHT_STRTAB, "SHT_STRTAB"},
    {elf::SHT_RELA, "SHT_RELA"},
    {elf::SHT_NOTE, "SHT_NOTE"},
    {elf::SHT_NOBITS, "SHT_NOBITS"},
    {elf::SHT_REL, "SHT_REL"},
    {elf::SHT_SYMTAB_SHNDX, "SHT_SYMTAB_SHNDX"},
    {elf::SHT_CUDA_INFO, "SHT_CUDA_INFO"},
    {elf::SHT_CUDA_CALLGRAPH, "SHT_CUDA_CALLGRAPH"},
    {elf::SHT_CUDA_PROTOTYPE, "SHT_CUDA_PROTOTYPE"},
    {elf::SHT_CUDA_RESOLVED_RELA, "SHT_CUDA_RESOLVED_RELA"},
    {elf::SHT_CUDA_METADATA, "SHT_CUDA_METADATA"},
    {elf::SHT_CUDA_CONSTANT, "SHT_CUDA_CONSTANT"},
    {elf::SHT_CUDA_GLOBAL, "SHT_CUDA_GLOBAL"},
    {elf::SHT_CUDA_GLOBAL_INIT, "SHT_CUDA_GLOBAL_INIT"},
    {elf::SHT_CUDA_LOCAL, "SHT_CUDA_LOCAL"},
    {elf::SHT_CUDA_SHARED, "SHT_CUDA_SHARED"},
    {elf::SHT_CUDA_RELOCINFO, "SHT_CUDA_RELOCINFO"},
    {elf::SHT_CUDA_UFT, "SHT_CUDA_UFT"},
    {elf::SHT_CUDA_UFT_ENTRY, "SHT_CUDA_UFT_ENTRY"},
    {elf::SHT_CUDA_UDT, "SHT_CUDA_UDT"},
    {elf::SHT_CUDA_UDT_ENTRY, "SHT_CUDA_UDT_ENTRY"},
    {elf::SHT_CUDA_SHARED_RESERVED, "SHT_CUDA_SHARED_RESERVED"},
    {elf::SHT_CUDA_CAPMERC_TEXT, "SHT_CUDA_CAPMERC_TEXT"},
    {elf::SHT_CUDA_MERC_CONSTANT_USER, "SHT_CUDA_MERC_CONSTANT_USER"},
    {elf::SHT_CUDA_MERC_RELA, "SHT_CUDA_MERC_RELA"},
    {elf::SHT_CUDA_MERC_INFO, "SHT_CUDA_MERC_INFO"},
    {elf::SHT_CUDA_MERC_CONSTANT_OPTIMIZER, "SHT_CUDA_MERC_CONSTANT_OPTIMIZER"},
    {elf::SHT_CUDA_MERC_SYMTAB, "SHT_CUDA_MERC_SYMTAB"},
    {elf::SHT_CUDA_COMPAT, "SHT_CUDA_COMPAT"},
    {elf::SHT_CUDA_HOST, "SHT_CUDA_HOST"},
};
constexpr uint32_t kNumConstantBanks = 18; // .nv.constant0 .. .nv.constant17

constexpr Named<uint64_t> kSectionFlagLetters[] = {
    {elf::SHF_WRITE, "W"},
    {elf::SHF_ALLOC, "A"},
    {elf::SHF_EXECINSTR, "X"},
    {elf::SHF_INFO_LINK, "I"},
};
// Legacy inputs keep a kernel's barrier count in .text sh_flags (eiattr.md §4.3).
constexpr uint64_t kBarrierFlagMask = 0x07F00000;
constexpr unsigned kBarrierFlagShift = 20;

constexpr const char *kSymbolTypes[] = {"NOTYPE", "OBJECT", "FUNC", "SECTION", "FILE"};
constexpr const char *kSymbolBinds[] = {"LOCAL", "GLOBAL", "WEAK"};
constexpr const char *kVisibilities[] = {"DEFAULT", "INTERNAL", "HIDDEN", "PROTECTED"};

// st_other bits 5-7 select the memory space; 0xA0 is the reserved-shared
// placeholder (.nv.reservedSmem*).
constexpr Named<uint8_t> kSymbolSpaces[] = {
    {elf::STO_CUDA_GLOBAL, "global"},
    {elf::STO_CUDA_SHARED, "shared"},
    {elf::STO_CUDA_CONSTANT, "constant"},
    {elf::STO_CUDA_CONSTANT | elf::STO_CUDA_GLOBAL, "reserved_shared"},
};
constexpr uint8_t kSpaceMask = 0xE0;
constexpr uint8_t kVisibilityMask = 0x03;

// OSABI 0x33 e_flags bits (names as cuobjdump/nvdisasm print .headerflags).
// TEXMODE_UNIFIED and 64BIT_ADDRESS are checked against CUDA 11.8 cubins;
// the others come from public headers and are unverified.
constexpr Named<uint32_t> kV7FlagBits[] = {
    {0x100, "EF_CUDA_TEXMODE_UNIFIED"},
    {0x200, "EF_CUDA_TEXMODE_INDEPENDANT"},
    {0x400, "EF_CUDA_64BIT_ADDRESS"},
    {0x800, "EF_CUDA_ACCELERATORS"},
    {0x1000, "EF_CUDA_SW_FLAG_V2"},
};
// OSABI 0x41 low byte (meaning per the wiki; unverified).
constexpr Named<uint32_t> kV8LowBits[] = {
    {0x02, "MERCURY"},
    {0x04, "SASS"},
};

constexpr Named<uint8_t> kRelActionKinds[] = {
    {0, "EIVALUE_SYM_KIND_ADDR"},
    {1, "EIVALUE_SYM_KIND_GADDR"},
    {2, "EIVALUE_SYM_KIND_FDESC"},
    {3, "EIVALUE_SYM_KIND_HEADER_INDEX"},
};

constexpr Named<uint32_t> kCallGraphGroups[] = {
    {uint32_t(CallGraphGroup::None), "ungrouped"},
    {uint32_t(CallGraphGroup::DirectCalls), "direct calls"},
    {uint32_t(CallGraphGroup::AddressTaken), "address-taken functions"},
    {uint32_t(CallGraphGroup::IndirectCalls), "indirect call sites"},
    {uint32_t(CallGraphGroup::FunctionPointers), "function-pointer references"},
};

template <typename T, size_t N> const char *lookup(const Named<T> (&table)[N], T value) {
    for (const Named<T> &entry : table)
        if (entry.value == value)
            return entry.name;
    return nullptr;
}

std::string hex2(uint32_t v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", v & 0xFF);
    return buf;
}

uint32_t readU32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint16_t readU16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

constexpr uint64_t align4(uint64_t v) { return (v + 3) & ~uint64_t(3); }

void requireMultipleOf(ByteView bytes, uint64_t unit, const SectionContext &where) {
    if (bytes.size % unit != 0)
        sectionError(where, "size " + std::to_string(bytes.size) + " is not a multiple of " +
                                std::to_string(unit));
}

// Collects the names of the bits of `flags` found in `table`; returns the
// bits left over.
template <size_t N>
uint32_t nameBits(uint32_t flags, const Named<uint32_t> (&table)[N],
                  std::vector<std::string> &names) {
    for (const Named<uint32_t> &bit : table)
        if (flags & bit.value) {
            names.emplace_back(bit.name);
            flags &= ~bit.value;
        }
    return flags;
}

// A NUL-terminated string at `offset` of a tkinfo string pool.
std::string_view poolString(ByteView pool, uint32_t offset, const SectionContext &where) {
    if (offset >= pool.size)
        sectionError(where, "tkinfo string offset " + hex(offset) + " is past the pool (" +
                                std::to_string(pool.size) + " bytes)");
    const char *start = reinterpret_cast<const char *>(pool.data) + offset;
    uint64_t max = pool.size - offset;
    uint64_t len = 0;
    while (len < max && start[len] != '\0')
        ++len;
    if (len == max)
        sectionError(where, "tkinfo string at offset " + hex(offset) + " is not terminated");
    return std::string_view(start, len);
}

} // namespace

// ---- Names ---------------------------------------------------------------

std::string sectionTypeName(uint32_t type) {
    if (const char *name = lookup(kSectionTypes, type))
        return name;
    if (type >= elf::SHT_CUDA_CONSTANT0 && type < elf::SHT_CUDA_CONSTANT0 + kNumConstantBanks)
        return "SHT_CUDA_CONSTANT" + std::to_string(type - elf::SHT_CUDA_CONSTANT0);
    if (type >= elf::SHT_LOPROC && type <= 0x7FFFFFFF)
        return "LOPROC+" + hex(type - elf::SHT_LOPROC);
    return hex(type);
}

std::string sectionFlagsText(uint64_t flags) {
    const bool isCode = flags & elf::SHF_EXECINSTR;
    std::string letters;
    for (const auto &bit : kSectionFlagLetters)
        if (flags & bit.value) {
            letters += bit.name;
            flags &= ~bit.value;
        }
    std::string text = letters.empty() ? "-" : letters;
    if (flags & elf::SHF_CUDA_MERCURY) {
        text += " MERC";
        flags &= ~elf::SHF_CUDA_MERCURY;
    }
    // Only code sections use these bits for barriers (notes use bits 24-25).
    if (isCode && (flags & kBarrierFlagMask)) {
        text += " bar=" + std::to_string((flags & kBarrierFlagMask) >> kBarrierFlagShift);
        flags &= ~kBarrierFlagMask;
    }
    if (flags)
        text += " +" + hex(flags);
    return text;
}

std::string symbolTypeName(uint8_t type) {
    if (type < std::size(kSymbolTypes))
        return kSymbolTypes[type];
    if (type == elf::STT_CUDA_OBJECT)
        return "CUDA_OBJECT";
    return std::to_string(type);
}

std::string symbolBindName(uint8_t bind) {
    if (bind < std::size(kSymbolBinds))
        return kSymbolBinds[bind];
    return std::to_string(bind);
}

std::string symbolOtherText(uint8_t other) {
    std::string text = kVisibilities[other & kVisibilityMask];
    if (other & elf::STO_CUDA_ENTRY)
        text += " entry";
    if (uint8_t space = other & kSpaceMask) {
        const char *name = lookup(kSymbolSpaces, space);
        text += " ";
        text += name ? name : "space" + hex2(space);
    }
    if (uint8_t rest = other & ~(kSpaceMask | kVisibilityMask | elf::STO_CUDA_ENTRY))
        text += " +" + hex2(rest);
    return text;
}

// ---- e_flags -------------------------------------------------------------

ElfFlagsEncoding elfFlagsEncoding(uint8_t osabi, uint8_t abiVersion) {
    if (osabi == elf::ELFOSABI_CUDA_V8 || (osabi != elf::ELFOSABI_CUDA_V7 && abiVersion == 8))
        return ElfFlagsEncoding::V8;
    if (osabi == elf::ELFOSABI_CUDA_V7 || abiVersion == 7)
        return ElfFlagsEncoding::V7;
    return ElfFlagsEncoding::Unknown;
}

CudaElfFlags decodeElfFlags(uint8_t osabi, uint8_t abiVersion, uint32_t flags) {
    CudaElfFlags f;
    f.raw = flags;
    f.encoding = elfFlagsEncoding(osabi, abiVersion);
    if (f.encoding == ElfFlagsEncoding::V8) {
        f.lowByte = flags & 0xFF;
        f.sm = (flags >> 8) & 0xFF;
        f.cuinfoIndex = flags >> 24;
        uint32_t lowLeft = nameBits(f.lowByte, kV8LowBits, f.flagNames);
        f.unknownBits = lowLeft | (flags & 0x00FF0000);
    } else if (f.encoding == ElfFlagsEncoding::V7) {
        f.sm = flags & 0xFF;
        f.virtualSm = (flags >> 16) & 0xFF;
        f.unknownBits = nameBits(flags & 0xFF00FF00, kV7FlagBits, f.flagNames);
    } else {
        f.unknownBits = flags;
    }
    return f;
}

std::string describeElfFlags(const CudaElfFlags &f) {
    if (f.encoding == ElfFlagsEncoding::Unknown)
        return "unknown encoding";
    std::string text = "sm_" + std::to_string(f.sm);
    if (f.encoding == ElfFlagsEncoding::V7)
        text += ", virtual sm_" + std::to_string(f.virtualSm);
    else
        text += ", low " + hex2(f.lowByte);
    for (const std::string &name : f.flagNames)
        text += ", " + name;
    if (f.encoding == ElfFlagsEncoding::V8)
        text += ", cuinfo section " + std::to_string(f.cuinfoIndex);
    if (f.unknownBits)
        text += ", unknown bits " + hex(f.unknownBits);
    return text;
}

// ---- Notes ---------------------------------------------------------------

std::vector<ElfNote> parseNotes(ByteView bytes, const SectionContext &where) {
    std::vector<ElfNote> notes;
    uint64_t pos = 0;
    while (pos < bytes.size) {
        if (bytes.size - pos < 12)
            sectionError(where, "truncated note header at offset " + hex(pos));
        const uint8_t *p = bytes.data + pos;
        uint32_t namesz = readU32(p), descsz = readU32(p + 4);
        ElfNote note;
        note.offset = pos;
        note.type = readU32(p + 8);
        uint64_t nameStart = pos + 12;
        uint64_t descStart = nameStart + align4(namesz);
        if (descStart > bytes.size || descsz > bytes.size - descStart)
            sectionError(where, "note at offset " + hex(pos) + " runs past end of section");
        const char *name = reinterpret_cast<const char *>(bytes.data + nameStart);
        uint32_t nameLen = namesz;
        while (nameLen > 0 && name[nameLen - 1] == '\0')
            --nameLen;
        note.owner = std::string_view(name, nameLen);
        note.desc = ByteView{bytes.data + descStart, descsz};
        notes.push_back(note);
        pos = std::min<uint64_t>(bytes.size, descStart + align4(descsz));
    }
    return notes;
}

CuInfoNote decodeCuInfo(const ElfNote &note, const SectionContext &where) {
    if (note.desc.size < 8)
        sectionError(where, "cuinfo note at offset " + hex(note.offset) + " has " +
                                std::to_string(note.desc.size) + " bytes, expected 8");
    CuInfoNote info;
    info.version = readU16(note.desc.data);
    info.sm = readU16(note.desc.data + 2);
    info.cudaVersion = readU32(note.desc.data + 4);
    return info;
}

TkInfoNote decodeTkInfo(const ElfNote &note, const SectionContext &where) {
    constexpr uint64_t kHeaderSize = 24; // version + five string offsets
    if (note.desc.size < kHeaderSize)
        sectionError(where, "tkinfo note at offset " + hex(note.offset) + " has " +
                                std::to_string(note.desc.size) + " bytes, expected at least " +
                                std::to_string(kHeaderSize));
    const uint8_t *d = note.desc.data;
    ByteView pool{d + kHeaderSize, note.desc.size - kHeaderSize};
    TkInfoNote info;
    info.version = readU32(d);
    info.objectName = poolString(pool, readU32(d + 4), where);
    info.toolName = poolString(pool, readU32(d + 8), where);
    info.toolVersion = poolString(pool, readU32(d + 12), where);
    info.toolBranch = poolString(pool, readU32(d + 16), where);
    info.toolOptions = poolString(pool, readU32(d + 20), where);
    return info;
}

// ---- .nv.callgraph / .nv.prototype ---------------------------------------

const char *callGraphGroupName(CallGraphGroup group) {
    const char *name = lookup(kCallGraphGroups, uint32_t(group));
    return name ? name : "?";
}

bool isCallGraphMarker(uint32_t first, uint32_t second) {
    return first == 0 && second >= uint32_t(CallGraphGroup::FunctionPointers);
}

std::vector<CallGraphEntry> parseCallGraph(ByteView bytes, const SectionContext &where) {
    requireMultipleOf(bytes, 8, where);
    std::vector<CallGraphEntry> entries;
    CallGraphGroup group = CallGraphGroup::None;
    for (uint64_t pos = 0; pos < bytes.size; pos += 8) {
        uint32_t first = readU32(bytes.data + pos), second = readU32(bytes.data + pos + 4);
        bool marker = isCallGraphMarker(first, second);
        if (marker)
            group = CallGraphGroup(second);
        entries.push_back({group, first, second, marker});
    }
    return entries;
}

std::vector<PrototypeEntry> parsePrototypes(ByteView bytes, const SectionContext &where) {
    requireMultipleOf(bytes, 8, where);
    std::vector<PrototypeEntry> entries;
    for (uint64_t pos = 0; pos < bytes.size; pos += 8)
        entries.push_back({readU32(bytes.data + pos), readU32(bytes.data + pos + 4)});
    return entries;
}

// ---- .nv.rel.action ------------------------------------------------------

RelActionTable parseRelAction(ByteView bytes, const SectionContext &where) {
    requireMultipleOf(bytes, 8, where);
    if (bytes.size < 8)
        sectionError(where, "missing the 8-byte header record");
    RelActionTable table;
    table.firstType = readU32(bytes.data);
    table.reserved = readU32(bytes.data + 4);
    for (uint64_t pos = 8; pos < bytes.size; pos += 8) {
        const uint8_t *p = bytes.data + pos;
        RelActionRecord r;
        r.type = table.firstType + static_cast<uint32_t>(table.records.size());
        r.kind = p[0];
        r.shift = p[1];
        r.slots[0] = {p[2], p[3], p[4]};
        r.slots[1] = {p[5], p[6], p[7]};
        table.records.push_back(r);
    }
    return table;
}

std::string relActionKindName(uint8_t kind) {
    if (const char *name = lookup(kRelActionKinds, kind))
        return name;
    return "EIVALUE_SYM_KIND_" + std::to_string(kind);
}

} // namespace culd
