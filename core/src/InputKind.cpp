// Input classification by content. The magic numbers are unambiguous for
// ELF, fatbins and archives; PTX is text, recognised by its first directive
// after comments and blank lines.

#include "culd/InputKind.h"

#include "culd/Elf.h"
#include "culd/Fatbin.h"
#include "culd/Strings.h"

#include <cstring>

namespace culd {

namespace {

constexpr uint16_t kEtDyn = 3;
constexpr uint32_t kNvvmWrapperMagic = 0x1EE55A01;   // "01 5A E5 1E"
constexpr uint32_t kLlvmBitcodeMagic = 0xDEC04342;   // "BC C0 DE"
constexpr uint32_t kLlvmBitcodeWrapper = 0x0B17C0DE; // bitcode wrapper header
constexpr uint32_t kLtoIrFileMagic = 0x7F4E43ED;     // "ED 43 4E 7F": nvcc's .ltoir files

uint32_t loadU32(const uint8_t *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

uint16_t loadU16(const uint8_t *p) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

InputKind classifyElf(ByteView bytes) {
    // e_type and e_machine sit at the same offsets in ELF32 and ELF64.
    if (bytes.size < 20)
        return InputKind::Unknown;
    const uint16_t type = loadU16(bytes.data + 16);
    const uint16_t machine = loadU16(bytes.data + 18);
    if (machine == elf::EM_CUDA)
        return InputKind::Cubin;
    if (type == elf::ET_REL)
        return InputKind::HostObject;
    if (type == kEtDyn)
        return InputKind::SharedObject;
    return InputKind::Unknown;
}

// PTX files start with comments, blank lines and then a directive such as
// ".version" (nvcc) or ".target"; ptxas accepts nothing else first.
bool looksLikePtx(ByteView bytes) {
    std::string_view text(reinterpret_cast<const char *>(bytes.data), bytes.size);
    size_t at = 0;
    while (at < text.size()) {
        const char c = text[at];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            ++at;
        } else if (text.compare(at, 2, "//") == 0) {
            const size_t end = text.find('\n', at);
            at = end == std::string_view::npos ? text.size() : end + 1;
        } else if (text.compare(at, 2, "/*") == 0) {
            const size_t end = text.find("*/", at + 2);
            if (end == std::string_view::npos)
                return false;
            at = end + 2;
        } else {
            return text.compare(at, 8, ".version") == 0 || text.compare(at, 7, ".target") == 0;
        }
    }
    return false;
}

bool looksLikeNvvmIr(ByteView bytes) {
    if (bytes.size < 4)
        return false;
    const uint32_t first = loadU32(bytes.data);
    if (first == kNvvmWrapperMagic || first == kLlvmBitcodeMagic || first == kLlvmBitcodeWrapper ||
        first == kLtoIrFileMagic)
        return true;
    // The wrapper may follow four zero bytes.
    return first == 0 && bytes.size >= 8 && loadU32(bytes.data + 4) == kNvvmWrapperMagic;
}

} // namespace

const char *inputKindName(InputKind kind) {
    switch (kind) {
    case InputKind::Cubin: return "cubin";
    case InputKind::HostObject: return "host object";
    case InputKind::Fatbin: return "fatbin";
    case InputKind::Archive: return "archive";
    case InputKind::ThinArchive: return "thin archive";
    case InputKind::Ptx: return "PTX";
    case InputKind::LtoIr: return "LTO IR";
    case InputKind::SharedObject: return "shared object";
    case InputKind::Unknown: return "unknown";
    }
    return "?";
}

InputKind detectInputKind(ByteView bytes, std::string_view path) {
    if (startsWith(bytes, "\x7F" "ELF"))
        return classifyElf(bytes);
    if (bytes.size >= 4 && loadU32(bytes.data) == fatbin::kMagic)
        return InputKind::Fatbin;
    if (startsWith(bytes, "!<arch>\n"))
        return InputKind::Archive;
    if (startsWith(bytes, "!<thin>\n"))
        return InputKind::ThinArchive;
    if (looksLikeNvvmIr(bytes))
        return InputKind::LtoIr;
    if (looksLikePtx(bytes))
        return InputKind::Ptx;
    // Content did not decide: trust the name, as nvlink does.
    if (endsWith(path, ".ptx"))
        return InputKind::Ptx;
    if (endsWith(path, ".nvvm") || baseName(path) == "ltoir" || endsWith(path, ".ltoir"))
        return InputKind::LtoIr;
    return InputKind::Unknown;
}

} // namespace culd
