// EIATTR / EICOMPAT attribute records: the tables that give codes their
// meaning, a bounds-checked walker and a serializer.
//
// `.nv.info`, `.nv.info.<f>`, `.nv.merc.nv.info*` and `.nv.compat` all hold
// the same 4-byte-aligned TLV records:
//   u8 format   1 NVAL (no value), 2 BVAL (byte), 3 HVAL (u16), 4 SVAL
//   u8 code     EIATTR_* (or EICOMPAT_ATTR_* in .nv.compat)
//   u16 value   the value (BVAL/HVAL) or the payload size (SVAL)
//   payload     SVAL only: `value` bytes, padded to a multiple of 4
// The linker parses records, rewrites symbol indices in payloads and
// serialises them again; the dump tool prints them.
#pragma once

#include "culd/ElfFile.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

// Record formats (EIFMT_*).
enum EiFormat : uint8_t { EIFMT_NVAL = 1, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4 };

// "EIFMT_SVAL", or "EIFMT_0x<n>" for an invalid format byte.
std::string eiFormatName(uint8_t format);

// How the payload (or value) of an attribute is to be read.
enum class EiPayload : uint8_t {
    None,        // no data (sentinels, NVAL flags)
    Value,       // the BVAL/HVAL value field is the datum
    Word,        // SVAL: one u32, no symbol (CUDA_API_VERSION, SW_WAR)
    SymbolValue, // SVAL: [u32 symbol index][u32 value]
    Symbol,      // SVAL: [u32 symbol index]
    SymbolList,  // SVAL: every u32 is a symbol index (EXTERNS)
    Offsets,     // SVAL: u32 instruction byte offsets
    Words,       // SVAL: u32 list without symbols (MAX_THREADS x,y,z ...)
    ParamCbank,  // SVAL: [u32 constant-section symbol][u16 offset][u16 size]
    KparamInfo,  // SVAL: [u32 index][u16 ordinal][u16 offset][u32 packed]
    Opaque       // SVAL: bytes without known structure
};

// Which payload words hold symbol indices the linker must renumber.
enum class EiSymbols : uint8_t { None, FirstWord, EveryWord };

struct EiattrInfo {
    uint8_t code;
    const char *name;    // without the "EIATTR_" prefix, e.g. "REGCOUNT"
    uint8_t usualFormat; // EiFormat, 0 when the code never appears
    EiPayload payload;
    EiSymbols symbols;   // as nvlink renumbers them (eiattr.md §4)
};

constexpr uint8_t EIATTR_LAST = 0x60; // codes above it are unknown

// Table entry of an EIATTR code, or nullptr when code > EIATTR_LAST.
const EiattrInfo *eiattrInfo(uint8_t code);
// "EIATTR_REGCOUNT", or "EIATTR_0x<code>" for unknown codes.
std::string eiattrName(uint8_t code);

struct EicompatInfo {
    uint8_t code;
    const char *name; // without the "EICOMPAT_ATTR_" prefix
    uint8_t usualFormat;
};

// Table entry of a .nv.compat code, or nullptr when unknown.
const EicompatInfo *eicompatInfo(uint8_t code);
// "EICOMPAT_ATTR_ISA_CLASS", or "EICOMPAT_ATTR_0x<code>".
std::string eicompatName(uint8_t code);

// One record, viewing the section bytes (zero-copy).
struct NvInfoRecord {
    uint8_t format = 0;
    uint8_t code = 0;
    uint16_t value = 0;  // BVAL/HVAL value; SVAL payload size
    ByteView payload;    // SVAL payload (unpadded), empty otherwise
    uint64_t offset = 0; // of the record inside its section

    bool hasPayload() const { return format == EIFMT_SVAL; }
    size_t wordCount() const { return payload.size / 4; }
    // Payload word `i` (little-endian); requires i < wordCount().
    uint32_t word(size_t i) const;
};

// Where a section comes from, for error messages:
// "<file>: section '<section>': <what>".
struct SectionContext {
    std::string_view file;
    std::string_view section;
};
using NvInfoContext = SectionContext;

// Throws FatalError("<file>: section '<section>': <what>").
[[noreturn]] void sectionError(const SectionContext &where, const std::string &what);

// Walks every record of `bytes`. Throws FatalError on a truncated record,
// a payload past the end of the section or an unknown format byte.
std::vector<NvInfoRecord> parseNvInfo(ByteView bytes, const NvInfoContext &where);

// Byte offsets (inside the payload) of the words that hold symbol indices,
// following the attribute's EiSymbols rule. Empty for non-SVAL records.
std::vector<uint32_t> symbolWordOffsets(const NvInfoRecord &record);

// Serialisation. Records are appended in the on-disk form; SVAL payloads are
// zero-padded to 4 bytes.
void appendValueRecord(std::vector<uint8_t> &out, uint8_t format, uint8_t code,
                       uint16_t value);
void appendSvalRecord(std::vector<uint8_t> &out, uint8_t code, const uint8_t *payload,
                      uint16_t size);
void appendSvalRecord(std::vector<uint8_t> &out, uint8_t code,
                      const std::vector<uint32_t> &words);
void appendRecord(std::vector<uint8_t> &out, const NvInfoRecord &record);
std::vector<uint8_t> serializeNvInfo(const std::vector<NvInfoRecord> &records);

// Decoded EIATTR_KPARAM_INFO payload (layout as cuobjdump prints it).
struct KparamInfo {
    uint32_t index = 0;
    uint16_t ordinal = 0;
    uint16_t offset = 0;
    uint32_t logAlignment = 0; // bits 0-7 of the packed word
    uint32_t space = 0;        // bits 8-11
    uint32_t cbank = 0;        // bits 12-16
    bool isCbank = true;       // bit 17 clear = parameter lives in a cbank
    uint32_t size = 0;         // bits 18-31, bytes
};
// Requires a 12-byte payload; throws FatalError (with `where`) otherwise.
KparamInfo decodeKparamInfo(const NvInfoRecord &record, const NvInfoContext &where);

} // namespace culd
