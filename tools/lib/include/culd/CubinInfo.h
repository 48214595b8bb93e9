// The CUDA meaning of cubin headers and special sections: section type
// names, e_flags of both header encodings, st_other bits, the NVIDIA notes,
// .nv.callgraph, .nv.prototype and .nv.rel.action. Everything is decoded
// from views with bounds checks; malformed content throws
// FatalError("<file>: section '<name>': <what>").
#pragma once

#include "culd/ElfFile.h"
#include "culd/NvInfo.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

// ---- Names ---------------------------------------------------------------

// "SHT_PROGBITS", "SHT_CUDA_INFO", "SHT_CUDA_CONSTANT3"; unknown processor
// types as "LOPROC+0x<n>", anything else as "0x<n>".
std::string sectionTypeName(uint32_t type);

// readelf-like letters ("WAX", "AI") plus CUDA meaning: "MERC" for Mercury
// sections, "bar=N" for the legacy barrier count in bits 20-26 of code sections,
// and
// "+0x<bits>" for anything left over.
std::string sectionFlagsText(uint64_t flags);

// "NOTYPE", "OBJECT", "FUNC", "SECTION", "FILE", "CUDA_OBJECT", or "<n>".
std::string symbolTypeName(uint8_t type);
// "LOCAL", "GLOBAL", "WEAK", or "<n>".
std::string symbolBindName(uint8_t bind);
// Memory space / entry bits and visibility of st_other, e.g.
// "DEFAULT", "DEFAULT entry", "INTERNAL constant".
std::string symbolOtherText(uint8_t other);

// ---- e_flags -------------------------------------------------------------

// Header encodings: OSABI 0x41 / ABI 8 (CUDA 13) and OSABI 0x33 / ABI 7.
enum class ElfFlagsEncoding { V7, V8, Unknown };

struct CudaElfFlags {
    ElfFlagsEncoding encoding = ElfFlagsEncoding::Unknown;
    uint32_t raw = 0;
    uint32_t sm = 0;          // real SM (V7 bits 0-7, V8 bits 8-15)
    uint32_t virtualSm = 0;   // V7 bits 16-23
    uint32_t lowByte = 0;     // V8 bits 0-7 (0x04 SASS targets, 0x02 Mercury)
    uint32_t cuinfoIndex = 0; // V8 bits 24-31: section index of .note.nv.cuinfo
    std::vector<std::string> flagNames; // named single bits, in bit order
    uint32_t unknownBits = 0;           // bits no rule explains
};

ElfFlagsEncoding elfFlagsEncoding(uint8_t osabi, uint8_t abiVersion);
CudaElfFlags decodeElfFlags(uint8_t osabi, uint8_t abiVersion, uint32_t flags);
// One line: "sm_90, low 0x04 (SASS), cuinfo section 6".
std::string describeElfFlags(const CudaElfFlags &flags);

// ---- Notes ---------------------------------------------------------------

constexpr uint32_t NT_CUDA_CUINFO = 1000;
constexpr uint32_t NT_CUDA_TKINFO = 2000;

struct ElfNote {
    uint64_t offset = 0; // of the note header inside the section
    std::string_view owner; // without the trailing NUL
    uint32_t type = 0;
    ByteView desc;
};
std::vector<ElfNote> parseNotes(ByteView bytes, const SectionContext &where);

struct CuInfoNote {
    uint16_t version = 0;
    uint16_t sm = 0;
    uint32_t cudaVersion = 0; // 0x82 = 130 = CUDA 13.0
};
CuInfoNote decodeCuInfo(const ElfNote &note, const SectionContext &where);

struct TkInfoNote {
    uint32_t version = 0;
    std::string_view objectName, toolName, toolVersion, toolBranch, toolOptions;
};
TkInfoNote decodeTkInfo(const ElfNote &note, const SectionContext &where);

// ---- .nv.callgraph / .nv.prototype ---------------------------------------

// The group a {0, marker} record opens.
enum class CallGraphGroup : uint32_t {
    None = 0,                      // records before any marker
    DirectCalls = 0xFFFFFFFF,      // {caller, callee}
    AddressTaken = 0xFFFFFFFE,     // {function, prototype strtab offset}
    IndirectCalls = 0xFFFFFFFD,    // {caller, prototype strtab offset}
    FunctionPointers = 0xFFFFFFFC, // {referrer, function}
};
const char *callGraphGroupName(CallGraphGroup group);

struct CallGraphEntry {
    CallGraphGroup group = CallGraphGroup::None;
    uint32_t first = 0, second = 0;
    bool isMarker = false; // a {0, marker} record opening `group`
};
// Every record, markers included (so empty groups stay visible), each with
// the group it belongs to, in file order.
std::vector<CallGraphEntry> parseCallGraph(ByteView bytes, const SectionContext &where);
// Whether a raw pair is a group marker.
bool isCallGraphMarker(uint32_t first, uint32_t second);

struct PrototypeEntry {
    uint32_t symbol = 0;
    uint32_t stringOffset = 0; // into the .strtab of the linked symbol table
};
std::vector<PrototypeEntry> parsePrototypes(ByteView bytes, const SectionContext &where);

// ---- .nv.rel.action ------------------------------------------------------

struct RelActionSlot {
    uint8_t sourceBit = 0; // first bit of the (shifted) value
    uint8_t width = 0;
    uint8_t destBit = 0;   // first bit in the patched field
};

struct RelActionRecord {
    uint32_t type = 0;     // relocation type the record describes
    uint8_t kind = 0;      // EIVALUE_SYM_KIND_*
    uint8_t shift = 0;     // addend shift
    std::array<RelActionSlot, 2> slots;
};

struct RelActionTable {
    uint32_t firstType = 0;
    uint32_t reserved = 0;
    std::vector<RelActionRecord> records; // types firstType, firstType+1, ...
};
RelActionTable parseRelAction(ByteView bytes, const SectionContext &where);
// "EIVALUE_SYM_KIND_ADDR" ..., "EIVALUE_SYM_KIND_<n>" when unknown.
std::string relActionKindName(uint8_t kind);

} // namespace culd
