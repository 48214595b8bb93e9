// Input checks: constructs culd does not model are refused with a message
// naming the file, the section and the unknown value, rather than linked
// into a silently different output.
//
// The sets below are what nvcc 13.0 (and 11.8) output was seen to contain,
// sm_50 to sm_121, with -G, -lineinfo, textures, printf, malloc, dynamic
// parallelism, cooperative groups, cluster dimensions, WMMA, Thrust, and
// nvlink -r output fed back in. Symbols: LOCAL/GLOBAL/WEAK; NOTYPE, OBJECT,
// FUNC, SECTION and STT_CUDA_OBJECT (ElfFile already refuses reserved
// section indices other than ABS and COMMON).
#include "culd/InputChecks.h"
#include "culd/Hex.h"

#include "culd/Diagnostics.h"
#include "culd/Elf.h"
#include "culd/NvInfo.h"
#include "culd/Options.h"

#include <cstdio>

namespace culd {

using namespace elf;

namespace {

bool isKnownSectionType(uint32_t type) {
    switch (type) {
    case SHT_NULL: case SHT_PROGBITS: case SHT_SYMTAB: case SHT_STRTAB: case SHT_RELA:
    case SHT_NOTE: case SHT_NOBITS: case SHT_REL: case SHT_SYMTAB_SHNDX:
    case SHT_CUDA_INFO: case SHT_CUDA_CALLGRAPH: case SHT_CUDA_PROTOTYPE:
    case SHT_CUDA_RESOLVED_RELA: case SHT_CUDA_GLOBAL: case SHT_CUDA_GLOBAL_INIT:
    case SHT_CUDA_LOCAL: case SHT_CUDA_SHARED: case SHT_CUDA_RELOCINFO:
    case SHT_CUDA_SHARED_RESERVED: case SHT_CUDA_CAPMERC_TEXT: case SHT_CUDA_MERC_RELA:
    case SHT_CUDA_MERC_INFO: case SHT_CUDA_MERC_SYMTAB: case SHT_CUDA_COMPAT:
    case SHT_CUDA_MERC_CONSTANT_USER: case SHT_CUDA_MERC_CONSTANT_OPTIMIZER:
        return true;
    default:
        // .nv.constant0 .. .nv.constant17
        return type >= SHT_CUDA_CONSTANT0 && type < SHT_CUDA_CONSTANT0 + 18;
    }
}

// SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, SHF_INFO_LINK; 0x100000 on CUDA 11
// code; 0x1000000 / 0x2000000 on the .note.nv.* notes; Mercury sections.
constexpr uint64_t kKnownSectionFlags = SHF_WRITE | SHF_ALLOC | SHF_EXECINSTR | SHF_INFO_LINK |
                                        0x100000 | 0x1000000 | 0x2000000 | SHF_CUDA_MERCURY;

// The payload size culd relies on for what it reads, 0 when any multiple of
// four will do, UINT32_MAX when the payload is opaque.
uint32_t expectedPayloadSize(const EiattrInfo &info) {
    switch (info.payload) {
    case EiPayload::Word: return 4;
    case EiPayload::SymbolValue: return 8;
    case EiPayload::ParamCbank: return 8;
    case EiPayload::KparamInfo: return 12;
    case EiPayload::Symbol: return 4;
    case EiPayload::SymbolList:
    case EiPayload::Offsets:
    case EiPayload::OffsetPairs:
    case EiPayload::BankOffsets:
    case EiPayload::Words: return 0;
    default: return UINT32_MAX;
    }
}

void checkEiattr(const NvInfoRecord &r, const SectionContext &where) {
    const EiattrInfo *info = eiattrInfo(r.code);
    std::string at = " at offset " + hex(r.offset);
    if (!info || !info->usualFormat)
        sectionError(where, "unknown .nv.info attribute " + eiattrName(r.code) + at);
    if (r.format != info->usualFormat)
        sectionError(where, eiattrName(r.code) + at + " has format " + eiFormatName(r.format) +
                                ", expected " + eiFormatName(info->usualFormat));
    if (r.format != EIFMT_SVAL)
        return;
    uint32_t size = expectedPayloadSize(*info);
    bool ok = size == UINT32_MAX || (size ? r.payload.size == size : r.payload.size % 4 == 0);
    if (!ok)
        sectionError(where, eiattrName(r.code) + at + " has a payload of " +
                                std::to_string(r.payload.size) + " bytes, expected " +
                                (size ? std::to_string(size) : "a multiple of 4"));
}

void checkEicompat(const NvInfoRecord &r, const SectionContext &where) {
    const EicompatInfo *info = eicompatInfo(r.code);
    std::string at = " at offset " + hex(r.offset);
    if (!info || !info->usualFormat)
        sectionError(where, "unknown .nv.compat attribute " + eicompatName(r.code) + at);
    if (r.format != info->usualFormat)
        sectionError(where, eicompatName(r.code) + at + " has format " +
                                eiFormatName(r.format) + ", expected " +
                                eiFormatName(info->usualFormat));
}

bool isKnownSymbolType(uint8_t type) {
    return type == STT_NOTYPE || type == STT_OBJECT || type == STT_FUNC ||
           type == STT_SECTION || type == STT_CUDA_OBJECT;
}

bool isKnownSymbolBinding(uint8_t bind) {
    return bind == STB_LOCAL || bind == STB_GLOBAL || bind == STB_WEAK;
}

} // namespace

void checkSymbols(std::string_view file, const ElfSection &symtab,
                  const std::vector<ElfSymbol> &symbols) {
    SectionContext where{file, symtab.name};
    for (size_t i = 1; i < symbols.size(); ++i) {
        const ElfSymbol &sym = symbols[i];
        std::string what = "symbol '" + std::string(sym.name) + "' (#" + std::to_string(i) + ")";
        if (!isKnownSymbolBinding(sym.bind()))
            sectionError(where, what + " has unknown binding " + std::to_string(sym.bind()));
        if (!isKnownSymbolType(sym.type()))
            sectionError(where, what + " has unknown type " + std::to_string(sym.type()));
    }
}

void checkSectionHeader(std::string_view file, const ElfSection &s) {
    SectionContext where{file, s.name};
    if (!isKnownSectionType(s.type))
        sectionError(where, "unknown section type " + hex(s.type));
    if (uint64_t unknown = s.flags & ~kKnownSectionFlags)
        sectionError(where, "unknown section flags " + hex(unknown) + " (sh_flags " +
                                hex(s.flags) + ")");
}

void checkNvInfoSection(std::string_view file, const ElfSection &s) {
    SectionContext where{file, s.name};
    for (const NvInfoRecord &r : parseNvInfo(s.data, where))
        checkEiattr(r, where);
}

void checkCompatSection(std::string_view file, const ElfSection &s) {
    SectionContext where{file, s.name};
    for (const NvInfoRecord &r : parseNvInfo(s.data, where))
        checkEicompat(r, where);
}

// The CUDA version an input was compiled with, as its .note.nv.cuinfo says
// (130 = 13.0): after the note header and owner, the descriptor is u16
// format, u16 SM, u32 version. 0 when the input has no such note.
static uint32_t compiledCudaVersion(const ElfFile &elf) {
    const ElfSection *note = elf.findSection(".note.nv.cuinfo");
    if (!note || note->data.size < 32)
        return 0;
    auto word = [d = note->data.data](size_t at) {
        return uint32_t(d[at]) | uint32_t(d[at + 1]) << 8 | uint32_t(d[at + 2]) << 16 |
               uint32_t(d[at + 3]) << 24;
    };
    if (word(0) != 12 || word(4) < 8)
        return 0;
    return word(28);
}

void checkCudaVersions(std::string_view file, const ElfFile &elf, uint32_t linkLineVersion) {
    constexpr uint8_t kEiattrCudaApiVersion = 0x37;
    if (uint32_t compiled = compiledCudaVersion(elf); compiled > kToolkitVersion)
        throw FatalError("Input file '" + std::string(file) + "' newer than toolkit (" +
                         std::to_string(compiled) + " vs " + std::to_string(kToolkitVersion) +
                         ")");
    if (!linkLineVersion)
        return;
    for (const ElfSection &s : elf.sections()) {
        if (s.type != SHT_CUDA_INFO)
            continue;
        for (const NvInfoRecord &r : parseNvInfo(s.data, SectionContext{file, s.name}))
            if (r.code == kEiattrCudaApiVersion && r.wordCount() == 1 &&
                r.word(0) > linkLineVersion)
                throw FatalError("Object '" + std::string(file) + "' has cuda-api-version of " +
                                 std::to_string(r.word(0)) +
                                 " which is greater than version on link line (" +
                                 std::to_string(linkLineVersion) + ")");
    }
}

} // namespace culd
