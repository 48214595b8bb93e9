// EIATTR / EICOMPAT attribute records: the tables that give codes their
// meaning, a bounds-checked walker and a serializer.
//
// `.nv.info`, `.nv.info.<f>`, their Mercury shadow copies and `.nv.compat`
// all hold the same 4-byte-aligned TLV records:
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
    OffsetPairs, // SVAL: [u32 instruction byte offset][u32 datum] pairs
    BankOffsets, // SVAL: u32 offsets in the parameter constant bank
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

// Every EIATTR code of the compiler's table (eiattr.md), one enum for the
// whole core: passes name the codes they treat specially from here.
enum EiattrCode : uint8_t {
    EIATTR_ERROR = 0x00,
    EIATTR_PAD = 0x01,
    EIATTR_IMAGE_SLOT = 0x02,
    EIATTR_JUMPTABLE_RELOCS = 0x03,
    EIATTR_CTAIDZ_USED = 0x04,
    EIATTR_MAX_THREADS = 0x05,
    EIATTR_IMAGE_OFFSET = 0x06,
    EIATTR_IMAGE_SIZE = 0x07,
    EIATTR_TEXTURE_NORMALIZED = 0x08,
    EIATTR_SAMPLER_INIT = 0x09,
    EIATTR_PARAM_CBANK = 0x0A,
    EIATTR_SMEM_PARAM_OFFSETS = 0x0B,
    EIATTR_CBANK_PARAM_OFFSETS = 0x0C,
    EIATTR_SYNC_STACK = 0x0D,
    EIATTR_TEXID_SAMPID_MAP = 0x0E,
    EIATTR_EXTERNS = 0x0F,
    EIATTR_REQNTID = 0x10,
    EIATTR_FRAME_SIZE = 0x11,
    EIATTR_MIN_STACK_SIZE = 0x12,
    EIATTR_SAMPLER_FORCE_UNNORMALIZED = 0x13,
    EIATTR_BINDLESS_IMAGE_OFFSETS = 0x14,
    EIATTR_BINDLESS_TEXTURE_BANK = 0x15,
    EIATTR_BINDLESS_SURFACE_BANK = 0x16,
    EIATTR_KPARAM_INFO = 0x17,
    EIATTR_SMEM_PARAM_SIZE = 0x18,
    EIATTR_CBANK_PARAM_SIZE = 0x19,
    EIATTR_QUERY_NUMATTRIB = 0x1A,
    EIATTR_MAXREG_COUNT = 0x1B,
    EIATTR_EXIT_INSTR_OFFSETS = 0x1C,
    EIATTR_S2RCTAID_INSTR_OFFSETS = 0x1D,
    EIATTR_CRS_STACK_SIZE = 0x1E,
    EIATTR_NEED_CNP_WRAPPER = 0x1F,
    EIATTR_NEED_CNP_PATCH = 0x20,
    EIATTR_EXPLICIT_CACHING = 0x21,
    EIATTR_ISTYPEP_USED = 0x22,
    EIATTR_MAX_STACK_SIZE = 0x23,
    EIATTR_SUQ_USED = 0x24,
    EIATTR_LD_CACHEMOD_INSTR_OFFSETS = 0x25,
    EIATTR_LOAD_CACHE_REQUEST = 0x26,
    EIATTR_ATOM_SYS_INSTR_OFFSETS = 0x27,
    EIATTR_COOP_GROUP_INSTR_OFFSETS = 0x28,
    EIATTR_COOP_GROUP_MASK_REGIDS = 0x29,
    EIATTR_SW1850030_WAR = 0x2A,
    EIATTR_WMMA_USED = 0x2B,
    EIATTR_HAS_PRE_V10_OBJECT = 0x2C,
    EIATTR_ATOMF16_EMUL_INSTR_OFFSETS = 0x2D,
    EIATTR_ATOM16_EMUL_INSTR_REG_MAP = 0x2E,
    EIATTR_REGCOUNT = 0x2F,
    EIATTR_SW2393858_WAR = 0x30,
    EIATTR_INT_WARP_WIDE_INSTR_OFFSETS = 0x31,
    EIATTR_SHARED_SCRATCH = 0x32,
    EIATTR_STATISTICS = 0x33,
    EIATTR_INDIRECT_BRANCH_TARGETS = 0x34,
    EIATTR_SW2861232_WAR = 0x35,
    EIATTR_SW_WAR = 0x36,
    EIATTR_CUDA_API_VERSION = 0x37,
    EIATTR_NUM_MBARRIERS = 0x38,
    EIATTR_MBARRIER_INSTR_OFFSETS = 0x39,
    EIATTR_COROUTINE_RESUME_OFFSETS = 0x3A,
    EIATTR_SAM_REGION_STACK_SIZE = 0x3B,
    EIATTR_PER_REG_TARGET_PERF_STATS = 0x3C,
    EIATTR_CTA_PER_CLUSTER = 0x3D,
    EIATTR_EXPLICIT_CLUSTER = 0x3E,
    EIATTR_MAX_CLUSTER_RANK = 0x3F,
    EIATTR_INSTR_REG_MAP = 0x40,
    EIATTR_RESERVED_SMEM_USED = 0x41,
    EIATTR_RESERVED_SMEM_0_SIZE = 0x42,
    EIATTR_UCODE_SECTION_DATA = 0x43,
    EIATTR_UNUSED_LOAD_BYTE_OFFSET = 0x44,
    EIATTR_KPARAM_INFO_V2 = 0x45,
    EIATTR_SYSCALL_OFFSETS = 0x46,
    EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS = 0x47,
    EIATTR_GRAPHICS_GLOBAL_CBANK = 0x48,
    EIATTR_SHADER_TYPE = 0x49,
    EIATTR_VRC_CTA_INIT_COUNT = 0x4A,
    EIATTR_TOOLS_PATCH_FUNC = 0x4B,
    EIATTR_NUM_BARRIERS = 0x4C,
    EIATTR_TEXMODE_INDEPENDENT = 0x4D,
    EIATTR_PERF_STATISTICS = 0x4E,
    EIATTR_AT_ENTRY_FRAGEMENTS = 0x4F,
    EIATTR_SPARSE_MMA_MASK = 0x50,
    EIATTR_TCGEN05_1CTA_USED = 0x51,
    EIATTR_TCGEN05_2CTA_USED = 0x52,
    EIATTR_GEN_ERRBAR_AT_EXIT = 0x53,
    EIATTR_REG_RECONFIG = 0x54,
    EIATTR_ANNOTATIONS = 0x55,
    EIATTR_UNKNOWN = 0x56,
    EIATTR_STACK_CANARY_TRAP_OFFSETS = 0x57,
    EIATTR_STUB_FUNCTION_KIND = 0x58,
    EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS = 0x59,
    EIATTR_MERCURY_FINALIZER_OPTIONS = 0x5A,
    EIATTR_BLOCKS_ARE_CLUSTERS = 0x5B,
    EIATTR_SANITIZE = 0x5C,
    EIATTR_SYSCALLS_FALLBACK = 0x5D,
    EIATTR_CUDA_REQ = 0x5E,
    EIATTR_MERCURY_ISA_VERSION = 0x5F,
    EIATTR_ERROR_LAST = 0x60,
};

constexpr uint8_t EIATTR_LAST = EIATTR_ERROR_LAST; // codes above it are unknown

// Table entry of an EIATTR code, or nullptr when code > EIATTR_LAST.
const EiattrInfo *eiattrInfo(uint8_t code);
// "EIATTR_REGCOUNT", or "EIATTR_0x<code>" for unknown codes.
std::string eiattrName(uint8_t code);

// The .nv.compat codes (EICOMPAT_ATTR_*), for the passes that merge them.
enum EicompatCode : uint8_t {
    EICOMPAT_ATTR_ISA_CLASS = 2,
    EICOMPAT_ATTR_INST_TENSORMAP_V1 = 3,
    EICOMPAT_ATTR_INST_TCGEN05_MMA = 5,
    EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION = 6,
    EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET = 9,
    EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE = 11,
};

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
