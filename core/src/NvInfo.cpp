#include "culd/NvInfo.h"
#include "culd/Hex.h"

#include "culd/Diagnostics.h"

#include <array>
#include <cstdio>

namespace culd {

namespace {

using P = EiPayload;
using S = EiSymbols;
constexpr uint8_t NV = EIFMT_NVAL, BV = EIFMT_BVAL, HV = EIFMT_HVAL, SV = EIFMT_SVAL;

// Indexed by code. Formats and payloads follow eiattr.md §3, corrected where
// real cubins (CUDA 13 nvcc, CUDA 11.8 cuobjdump) disagree: flags such as
// EXPLICIT_CLUSTER are NVAL records, MAX_THREADS / CTA_PER_CLUSTER carry
// three u32 (x, y, z) and CRS_STACK_SIZE one u32, all without a symbol.
// Flag codes not seen yet are assumed to be NVAL like EXPLICIT_CLUSTER.
// The SW*_WAR workaround markers are NVAL flags in real cubins, not SVAL.
constexpr std::array<EiattrInfo, EIATTR_LAST + 1> kEiattrs = {{
    {0x00, "ERROR", 0, P::None, S::None},
    {0x01, "PAD", 0, P::None, S::None},
    {0x02, "IMAGE_SLOT", SV, P::SymbolValue, S::FirstWord},
    {0x03, "JUMPTABLE_RELOCS", SV, P::Offsets, S::None},
    {0x04, "CTAIDZ_USED", NV, P::Symbol, S::None},
    {0x05, "MAX_THREADS", SV, P::Words, S::None},
    {0x06, "IMAGE_OFFSET", SV, P::SymbolValue, S::FirstWord},
    {0x07, "IMAGE_SIZE", SV, P::SymbolValue, S::FirstWord},
    {0x08, "TEXTURE_NORMALIZED", SV, P::SymbolValue, S::FirstWord},
    {0x09, "SAMPLER_INIT", SV, P::SymbolValue, S::FirstWord},
    {0x0A, "PARAM_CBANK", SV, P::ParamCbank, S::FirstWord},
    {0x0B, "SMEM_PARAM_OFFSETS", SV, P::Words, S::None},
    {0x0C, "CBANK_PARAM_OFFSETS", SV, P::BankOffsets, S::None},
    {0x0D, "SYNC_STACK", SV, P::SymbolValue, S::None},
    {0x0E, "TEXID_SAMPID_MAP", SV, P::Words, S::None},
    {0x0F, "EXTERNS", SV, P::SymbolList, S::EveryWord},
    {0x10, "REQNTID", SV, P::Words, S::None},
    {0x11, "FRAME_SIZE", SV, P::SymbolValue, S::FirstWord},
    {0x12, "MIN_STACK_SIZE", SV, P::SymbolValue, S::FirstWord},
    {0x13, "SAMPLER_FORCE_UNNORMALIZED", SV, P::SymbolValue, S::FirstWord},
    {0x14, "BINDLESS_IMAGE_OFFSETS", SV, P::Words, S::FirstWord},
    {0x15, "BINDLESS_TEXTURE_BANK", SV, P::SymbolValue, S::None},
    {0x16, "BINDLESS_SURFACE_BANK", SV, P::SymbolValue, S::None},
    {0x17, "KPARAM_INFO", SV, P::KparamInfo, S::FirstWord},
    {0x18, "SMEM_PARAM_SIZE", SV, P::SymbolValue, S::None},
    {0x19, "CBANK_PARAM_SIZE", HV, P::Value, S::None},
    {0x1A, "QUERY_NUMATTRIB", SV, P::SymbolValue, S::None},
    {0x1B, "MAXREG_COUNT", HV, P::Value, S::None},
    {0x1C, "EXIT_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x1D, "S2RCTAID_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x1E, "CRS_STACK_SIZE", SV, P::Word, S::None},
    {0x1F, "NEED_CNP_WRAPPER", NV, P::Symbol, S::None},
    {0x20, "NEED_CNP_PATCH", NV, P::Symbol, S::None},
    {0x21, "EXPLICIT_CACHING", NV, P::Symbol, S::None},
    {0x22, "ISTYPEP_USED", NV, P::Symbol, S::None},
    {0x23, "MAX_STACK_SIZE", SV, P::SymbolValue, S::FirstWord},
    {0x24, "SUQ_USED", NV, P::Symbol, S::None},
    {0x25, "LD_CACHEMOD_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x26, "LOAD_CACHE_REQUEST", SV, P::SymbolValue, S::FirstWord},
    {0x27, "ATOM_SYS_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x28, "COOP_GROUP_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x29, "COOP_GROUP_MASK_REGIDS", SV, P::Words, S::None},
    {0x2A, "SW1850030_WAR", NV, P::None, S::None},
    {0x2B, "WMMA_USED", NV, P::Symbol, S::None},
    {0x2C, "HAS_PRE_V10_OBJECT", BV, P::Value, S::None},
    {0x2D, "ATOMF16_EMUL_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x2E, "ATOM16_EMUL_INSTR_REG_MAP", SV, P::Words, S::None},
    {0x2F, "REGCOUNT", SV, P::SymbolValue, S::FirstWord},
    {0x30, "SW2393858_WAR", NV, P::None, S::None},
    {0x31, "INT_WARP_WIDE_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x32, "SHARED_SCRATCH", SV, P::SymbolValue, S::None},
    {0x33, "STATISTICS", SV, P::Opaque, S::None},
    {0x34, "INDIRECT_BRANCH_TARGETS", SV, P::Words, S::None},
    {0x35, "SW2861232_WAR", NV, P::None, S::None},
    {0x36, "SW_WAR", SV, P::Word, S::None},
    {0x37, "CUDA_API_VERSION", SV, P::Word, S::None},
    {0x38, "NUM_MBARRIERS", HV, P::Value, S::None},
    // Records of four words (offset, 0xff, 0, flags: simpleAWBarrier);
    // only the first is an offset, and moving them is not measured.
    {0x39, "MBARRIER_INSTR_OFFSETS", SV, P::Opaque, S::None},
    {0x3A, "COROUTINE_RESUME_OFFSETS", SV, P::Offsets, S::None},
    {0x3B, "SAM_REGION_STACK_SIZE", SV, P::SymbolValue, S::FirstWord},
    {0x3C, "PER_REG_TARGET_PERF_STATS", SV, P::Opaque, S::None},
    {0x3D, "CTA_PER_CLUSTER", SV, P::Words, S::None},
    {0x3E, "EXPLICIT_CLUSTER", NV, P::Symbol, S::None},
    {0x3F, "MAX_CLUSTER_RANK", SV, P::Words, S::None},
    {0x40, "INSTR_REG_MAP", SV, P::Opaque, S::None},
    {0x41, "RESERVED_SMEM_USED", NV, P::Symbol, S::None},
    {0x42, "RESERVED_SMEM_0_SIZE", SV, P::SymbolValue, S::None},
    {0x43, "UCODE_SECTION_DATA", SV, P::Opaque, S::None},
    // (offset, byte mask) pairs: nvlink moves the offset with the code
    // and keeps the mask (0xfff0; Thrust's unique kernel, sm_100).
    {0x44, "UNUSED_LOAD_BYTE_OFFSET", SV, P::OffsetPairs, S::None},
    {0x45, "KPARAM_INFO_V2", SV, P::Words, S::FirstWord},
    {0x46, "SYSCALL_OFFSETS", SV, P::Offsets, S::None},
    {0x47, "SW_WAR_MEMBAR_SYS_INSTR_OFFSETS", SV, P::Offsets, S::None},
    {0x48, "GRAPHICS_GLOBAL_CBANK", SV, P::Opaque, S::None},
    {0x49, "SHADER_TYPE", SV, P::Opaque, S::None},
    {0x4A, "VRC_CTA_INIT_COUNT", BV, P::Value, S::None},
    {0x4B, "TOOLS_PATCH_FUNC", SV, P::Symbol, S::None},
    {0x4C, "NUM_BARRIERS", BV, P::Value, S::None},
    {0x4D, "TEXMODE_INDEPENDENT", NV, P::Symbol, S::None},
    {0x4E, "PERF_STATISTICS", SV, P::Opaque, S::None},
    {0x4F, "AT_ENTRY_FRAGEMENTS", SV, P::Words, S::None},
    {0x50, "SPARSE_MMA_MASK", HV, P::Value, S::None},
    {0x51, "TCGEN05_1CTA_USED", NV, P::Symbol, S::None},
    {0x52, "TCGEN05_2CTA_USED", NV, P::Symbol, S::None},
    {0x53, "GEN_ERRBAR_AT_EXIT", NV, P::Symbol, S::None},
    {0x54, "REG_RECONFIG", NV, P::Symbol, S::None},
    {0x55, "ANNOTATIONS", SV, P::Opaque, S::None},
    {0x56, "UNKNOWN", 0, P::None, S::None},
    {0x57, "STACK_CANARY_TRAP_OFFSETS", SV, P::Offsets, S::None},
    {0x58, "STUB_FUNCTION_KIND", SV, P::SymbolValue, S::None},
    {0x59, "LOCAL_CTA_ASYNC_STORE_OFFSETS", SV, P::Offsets, S::None},
    {0x5A, "MERCURY_FINALIZER_OPTIONS", SV, P::Opaque, S::None},
    {0x5B, "BLOCKS_ARE_CLUSTERS", NV, P::Symbol, S::None},
    {0x5C, "SANITIZE", NV, P::Symbol, S::None},
    {0x5D, "SYSCALLS_FALLBACK", SV, P::Words, S::None},
    {0x5E, "CUDA_REQ", SV, P::Opaque, S::None},
    {0x5F, "MERCURY_ISA_VERSION", HV, P::Value, S::None},
    {0x60, "ERROR_LAST", 0, P::None, S::None},
}};

constexpr bool codesMatchIndices() {
    for (size_t i = 0; i < kEiattrs.size(); ++i)
        if (kEiattrs[i].code != i)
            return false;
    return true;
}
static_assert(codesMatchIndices(), "kEiattrs must be indexed by code");

// eiattr.md §6; code 10 has never been seen and has no known name.
constexpr std::array<EicompatInfo, 11> kEicompats = {{
    {0, "ERROR", 0},
    {1, "PAD", 0},
    {2, "ISA_CLASS", BV},
    {3, "INST_TENSORMAP_V1", BV},
    {4, "INST_TCGEN05_MMA_DEPRECATED", BV},
    {5, "INST_TCGEN05_MMA", BV},
    {6, "ENABLE_OPPORTUNISTIC_FINALIZATION", BV},
    {7, "MERCURY_ISA_MAJOR_MINOR_VERSION", HV},
    {8, "MERCURY_ISA_PATCH_VERSION", BV},
    {9, "CUDA_ACCELERATOR_TARGET", BV},
    {11, "CAN_FASTPATH_FINALIZE", SV},
}};

constexpr std::array<const char *, 5> kFormatNames = {nullptr, "EIFMT_NVAL", "EIFMT_BVAL",
                                                      "EIFMT_HVAL", "EIFMT_SVAL"};

std::string hexByte(uint8_t v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", v);
    return buf;
}

uint32_t readU32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint16_t readU16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

void pushU16(std::vector<uint8_t> &out, uint16_t v) {
    out.push_back(static_cast<uint8_t>(v));
    out.push_back(static_cast<uint8_t>(v >> 8));
}

constexpr uint64_t align4(uint64_t v) { return (v + 3) & ~uint64_t(3); }

} // namespace

void sectionError(const SectionContext &where, const std::string &what) {
    throw FatalError(std::string(where.file) + ": section '" + std::string(where.section) +
                     "': " + what);
}

std::string eiFormatName(uint8_t format) {
    if (format >= EIFMT_NVAL && format <= EIFMT_SVAL)
        return kFormatNames[format];
    return "EIFMT_" + hexByte(format);
}

const EiattrInfo *eiattrInfo(uint8_t code) {
    return code <= EIATTR_LAST ? &kEiattrs[code] : nullptr;
}

std::string eiattrName(uint8_t code) {
    if (const EiattrInfo *info = eiattrInfo(code))
        return std::string("EIATTR_") + info->name;
    return "EIATTR_" + hexByte(code);
}

const EicompatInfo *eicompatInfo(uint8_t code) {
    for (const EicompatInfo &info : kEicompats)
        if (info.code == code)
            return &info;
    return nullptr;
}

std::string eicompatName(uint8_t code) {
    if (const EicompatInfo *info = eicompatInfo(code))
        return std::string("EICOMPAT_ATTR_") + info->name;
    return "EICOMPAT_ATTR_" + hexByte(code);
}

uint32_t NvInfoRecord::word(size_t i) const { return readU32(payload.data + 4 * i); }

std::vector<NvInfoRecord> parseNvInfo(ByteView bytes, const NvInfoContext &where) {
    std::vector<NvInfoRecord> records;
    uint64_t pos = 0;
    while (pos < bytes.size) {
        uint64_t left = bytes.size - pos;
        if (left < 4)
            sectionError(where, "truncated record at offset " + hex(pos) + " (" +
                            std::to_string(left) + " bytes left, need 4)");
        const uint8_t *p = bytes.data + pos;
        NvInfoRecord r;
        r.format = p[0];
        r.code = p[1];
        r.value = readU16(p + 2);
        r.offset = pos;
        if (r.format < EIFMT_NVAL || r.format > EIFMT_SVAL)
            sectionError(where, "unknown record format " + hexByte(r.format) + " at offset " +
                            hex(pos));
        pos += 4;
        if (r.format == EIFMT_SVAL) {
            if (r.value > bytes.size - pos)
                sectionError(where, "payload of " + eiattrName(r.code) + " at offset " + hex(r.offset) +
                                " (" + std::to_string(r.value) +
                                " bytes) runs past end of section (" +
                                std::to_string(bytes.size) + " bytes)");
            r.payload = ByteView{bytes.data + pos, r.value};
            // The last record's padding may be cut off by the section end.
            pos = std::min<uint64_t>(bytes.size, pos + align4(r.value));
        }
        records.push_back(r);
    }
    return records;
}

std::vector<uint32_t> symbolWordOffsets(const NvInfoRecord &record) {
    const EiattrInfo *info = eiattrInfo(record.code);
    if (!record.hasPayload() || !info || record.wordCount() == 0)
        return {};
    if (info->symbols == EiSymbols::FirstWord)
        return {0};
    std::vector<uint32_t> offsets;
    if (info->symbols == EiSymbols::EveryWord)
        for (size_t i = 0; i < record.wordCount(); ++i)
            offsets.push_back(static_cast<uint32_t>(4 * i));
    return offsets;
}

void appendValueRecord(std::vector<uint8_t> &out, uint8_t format, uint8_t code,
                       uint16_t value) {
    out.push_back(format);
    out.push_back(code);
    pushU16(out, value); // NVAL keeps its (normally zero) field for round trips
}

void appendSvalRecord(std::vector<uint8_t> &out, uint8_t code, const uint8_t *payload,
                      uint16_t size) {
    out.push_back(EIFMT_SVAL);
    out.push_back(code);
    pushU16(out, size);
    out.insert(out.end(), payload, payload + size);
    out.resize(out.size() + (align4(size) - size), 0);
}

void appendSvalRecord(std::vector<uint8_t> &out, uint8_t code,
                      const std::vector<uint32_t> &words) {
    std::vector<uint8_t> bytes;
    for (uint32_t w : words)
        for (int shift = 0; shift < 32; shift += 8)
            bytes.push_back(static_cast<uint8_t>(w >> shift));
    appendSvalRecord(out, code, bytes.data(), static_cast<uint16_t>(bytes.size()));
}

void appendRecord(std::vector<uint8_t> &out, const NvInfoRecord &record) {
    if (record.format == EIFMT_SVAL)
        appendSvalRecord(out, record.code, record.payload.data,
                         static_cast<uint16_t>(record.payload.size));
    else
        appendValueRecord(out, record.format, record.code, record.value);
}

std::vector<uint8_t> serializeNvInfo(const std::vector<NvInfoRecord> &records) {
    std::vector<uint8_t> out;
    for (const NvInfoRecord &r : records)
        appendRecord(out, r);
    return out;
}

KparamInfo decodeKparamInfo(const NvInfoRecord &record, const NvInfoContext &where) {
    if (record.payload.size != 12)
        sectionError(where, eiattrName(record.code) + " at offset " + hex(record.offset) +
                        " has a payload of " + std::to_string(record.payload.size) +
                        " bytes, expected 12");
    const uint8_t *p = record.payload.data;
    uint32_t packed = readU32(p + 8);
    KparamInfo k;
    k.index = readU32(p);
    k.ordinal = readU16(p + 4);
    k.offset = readU16(p + 6);
    k.logAlignment = packed & 0xFF;
    k.space = (packed >> 8) & 0xF;
    k.cbank = (packed >> 12) & 0x1F;
    k.isCbank = ((packed >> 17) & 1) == 0;
    k.size = packed >> 18;
    return k;
}

} // namespace culd
