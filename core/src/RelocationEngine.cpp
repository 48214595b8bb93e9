// The bit-field patching engine. A relocation descriptor has up to three
// actions "bits [offset, offset+width) receive value(kind) >> shift"; words
// are little-endian and a field may cross a 64-bit boundary (instructions are
// 128 bits from sm_70). Ordinary actions are applied here in a tight loop;
// only types flagged CULD_RELOC_F_HOOK cross into the plugin, once per
// section.
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/PluginRegistry.h"
#include "culd/Relocations.h"

#include <cstring>
#include <sstream>

namespace culd {

namespace {

uint64_t loadU64(const uint8_t *p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

void storeU64(uint8_t *p, uint64_t v) { std::memcpy(p, &v, 8); }

uint64_t mask(uint32_t width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

// The right shift a value kind implies when the descriptor does not say.
uint32_t intrinsicShift(uint16_t kind) {
    if (kind == CULD_VK_SHIFT2)
        return 2;
    if (kind == CULD_VK_SHIFT8)
        return 10;
    if (kind == CULD_VK_HIADDR || kind == CULD_VK_HIUADDR || kind == CULD_VK_HIFDESC)
        return 32;
    if (kind >= CULD_VK_ADDR8_0 && kind < CULD_VK_ADDR8_0 + 8)
        return 8 * (kind - CULD_VK_ADDR8_0);
    if (kind >= CULD_VK_UADDR8_0 && kind < CULD_VK_UADDR8_0 + 8)
        return 8 * (kind - CULD_VK_UADDR8_0);
    return 0;
}

} // namespace

uint64_t bytesTouched(const culd_reloc_desc &desc) {
    uint32_t end = 0;
    for (uint32_t i = 0; i < desc.num_actions; ++i) {
        uint32_t e = desc.actions[i].bit_offset + desc.actions[i].bit_width;
        if (e > end)
            end = e;
    }
    return (end + 7) / 8;
}

uint64_t extractBits(const uint8_t *p, uint32_t offset, uint32_t width) {
    uint64_t out = 0;
    uint32_t done = 0;
    while (done < width) {
        uint32_t bit = offset + done;
        uint32_t word = bit / 64, shift = bit % 64;
        uint32_t take = std::min(width - done, 64 - shift);
        uint64_t piece = (loadU64(p + word * 8) >> shift) & mask(take);
        out |= piece << done;
        done += take;
    }
    return out;
}

void insertBits(uint8_t *p, uint32_t offset, uint32_t width, uint64_t value) {
    uint32_t done = 0;
    while (done < width) {
        uint32_t bit = offset + done;
        uint32_t word = bit / 64, shift = bit % 64;
        uint32_t take = std::min(width - done, 64 - shift);
        uint64_t m = mask(take) << shift;
        uint64_t w = loadU64(p + word * 8);
        w = (w & ~m) | (((value >> done) & mask(take)) << shift);
        storeU64(p + word * 8, w);
        done += take;
    }
}

uint64_t actionValue(const culd_bit_action &a, uint64_t sa, uint64_t place, uint32_t cbank) {
    uint32_t shift = a.shift ? a.shift : intrinsicShift(a.kind);
    switch (a.kind) {
    case CULD_VK_CBANK:
        return cbank;
    case CULD_VK_CBANK4:
        return cbank >> 4;
    case CULD_VK_CLEAR:
    case CULD_VK_INST_FIELD_CLEAR:
        return 0;
    case CULD_VK_PCREL:
        return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(sa)) -
                                     static_cast<int64_t>(place));
    case CULD_VK_LOADDR:
    case CULD_VK_LOUADDR:
        return sa & 0xFFFFFFFFull;
    default:
        return shift >= 64 ? 0 : sa >> shift;
    }
}

void applyRelocations(const Plugin &plugin, uint32_t sm, const std::string &sectionName,
                      uint32_t sectionType, uint64_t sectionFlags, uint8_t *data, uint64_t size,
                      const std::vector<RelocApply> &relocs) {
    std::vector<culd_reloc_work> hooked;
    for (const RelocApply &r : relocs) {
        const culd_reloc_desc &d = *r.desc;
        uint64_t span = bytesTouched(d);
        // The engine reads whole 64-bit words, so a field in the last bytes
        // needs a full word to be in bounds.
        uint64_t wordSpan = (span + 7) / 8 * 8;
        if (r.offset > size || wordSpan > size - r.offset)
            throw FatalError("relocation " + std::string(d.name) + " at offset " + hex(r.offset) +
                             " is past the end of section '" + sectionName + "' (size " +
                             hex(size) + ")");
        if (d.flags & CULD_RELOC_F_HOOK) {
            culd_reloc_work w{};
            w.offset = r.offset;
            w.type = d.type;
            w.target_kind = r.targetKind;
            w.addend = r.addend;
            w.symbol_value = r.symbolValue;
            w.symbol_size = r.symbolSize;
            w.cbank = r.cbank;
            hooked.push_back(w);
            continue;
        }
        uint8_t *p = data + r.offset;
        uint64_t sa = r.symbolValue + static_cast<uint64_t>(r.addend);
        for (uint32_t i = 0; i < d.num_actions; ++i) {
            const culd_bit_action &a = d.actions[i];
            uint64_t v = actionValue(a, sa, r.offset, r.cbank);
            if (r.addendInField)
                v += extractBits(p, a.bit_offset, a.bit_width);
            insertBits(p, a.bit_offset, a.bit_width, v);
        }
    }
    if (hooked.empty())
        return;

    std::string hookError;
    culd_host host = hostReportingTo(hookError);
    culd_section_bytes bytes{};
    bytes.name = sectionName.c_str();
    bytes.sh_type = sectionType;
    bytes.sh_flags = sectionFlags;
    bytes.data = data;
    bytes.size = size;
    int32_t rc = plugin.descriptor().apply_relocations(&host, sm, &bytes, hooked.data(),
                                                       hooked.size());
    if (rc != 0 || !hookError.empty())
        throw FatalError("plugin '" + plugin.name() + "' failed to relocate section '" +
                         sectionName + "'" + (hookError.empty() ? "" : ": " + hookError));
    for (const culd_reloc_work &w : hooked)
        if (w.status == CULD_RELOC_ERROR)
            throw FatalError("plugin '" + plugin.name() + "' could not apply relocation at " +
                             hex(w.offset) + " in section '" + sectionName + "'");
}

} // namespace culd
