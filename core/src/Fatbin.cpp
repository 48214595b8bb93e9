// Parsing, decompression and member selection for fatbin containers.
//
// Every header field is checked against the bytes actually present before it
// is used, and decompression writes into a buffer of exactly the declared
// size, so a lying header can cause an error but never a large allocation or
// an out-of-bounds read.

#include "culd/Fatbin.h"
#include "culd/Hex.h"

#include "culd/Diagnostics.h"

#include <lz4.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <tuple>

namespace culd {

using namespace fatbin;

namespace {

template <class T> T load(const uint8_t *p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

std::string dec(uint64_t value) { return std::to_string(value); }

// offset + size <= total, without overflowing.
bool fitsIn(uint64_t offset, uint64_t size, uint64_t total) {
    return offset <= total && size <= total - offset;
}

bool isZstdFrame(ByteView data) {
    static const uint8_t magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    return data.size >= 4 && std::memcmp(data.data, magic, 4) == 0;
}

// Reads the entries of one container; `blob` is the whole blob so that
// offsets in messages are blob-relative.
class ContainerParser {
public:
    ContainerParser(ByteView blob, std::string_view context, uint32_t index)
        : blob_(blob), context_(context), index_(index) {}

    // Parses the container at `start`; returns the offset just past it.
    uint64_t parse(uint64_t start, std::vector<FatbinEntry> &out);

private:
    [[noreturn]] void fail(const std::string &what) const {
        throw FatalError(std::string(context_) + ": " + what);
    }
    [[noreturn]] void failEntry(uint64_t entry, const std::string &what) const {
        fail("fatbin entry at offset " + hex(entry) + ": " + what);
    }
    FatbinEntry parseEntry(uint64_t at, uint64_t end);
    void decodeCompression(FatbinEntry &e, uint64_t payloadSize, uint32_t compressedSize);
    void decodeExtension(FatbinEntry &e, uint32_t extensionOffset);
    void decodeObjectName(FatbinEntry &e, uint32_t nameOffset, uint32_t nameSize);

    ByteView blob_;
    std::string_view context_;
    uint32_t index_;
};

uint64_t ContainerParser::parse(uint64_t start, std::vector<FatbinEntry> &out) {
    const uint64_t left = blob_.size - start;
    if (left < kContainerHeaderSize)
        fail("fatbin header at offset " + hex(start) + " is truncated (" + dec(left) +
             " bytes left)");
    const uint8_t *p = blob_.data + start;
    const uint32_t magic = load<uint32_t>(p);
    if (magic != kMagic)
        fail("bad fatbin magic " + hex(magic) + " at offset " + hex(start) + " (expected " +
             hex(kMagic) + ")");
    const uint16_t headerSize = load<uint16_t>(p + 6);
    const uint64_t size = load<uint64_t>(p + 8);
    if (headerSize < kContainerHeaderSize || headerSize > left)
        fail("fatbin at offset " + hex(start) + ": header size " + dec(headerSize) +
             " is invalid (" + dec(left) + " bytes left)");
    if (!fitsIn(headerSize, size, left))
        fail("fatbin at offset " + hex(start) + ": size " + dec(size) +
             " runs past the end (" + dec(left - headerSize) + " bytes left)");
    const uint64_t end = start + headerSize + size;
    for (uint64_t at = start + headerSize; at < end;) {
        FatbinEntry e = parseEntry(at, end);
        const uint64_t storedSize = load<uint64_t>(blob_.data + at + 8); // checked in parseEntry
        at += e.headerSize + storedSize;
        out.push_back(e);
    }
    return end;
}

FatbinEntry ContainerParser::parseEntry(uint64_t at, uint64_t end) {
    const uint64_t left = end - at;
    if (left < kEntryHeaderMinSize)
        failEntry(at, "header is truncated (" + dec(left) + " bytes left in the fatbin)");
    const uint8_t *p = blob_.data + at;
    FatbinEntry e;
    e.offset = at;
    e.container = index_;
    e.kind = load<uint16_t>(p);
    e.headerSize = load<uint32_t>(p + 4);
    const uint64_t payloadSize = load<uint64_t>(p + 8);
    const uint32_t compressedSize = load<uint32_t>(p + 16);
    const uint32_t extensionOffset = load<uint32_t>(p + 20);
    e.versionMinor = load<uint16_t>(p + 24);
    e.versionMajor = load<uint16_t>(p + 26);
    e.sm = load<uint32_t>(p + 28);
    const uint32_t nameOffset = load<uint32_t>(p + 32);
    const uint32_t nameSize = load<uint32_t>(p + 36);
    e.flags = load<uint64_t>(p + 40);
    e.uncompressedSize = load<uint64_t>(p + 56);

    if (e.headerSize < kEntryHeaderMinSize)
        failEntry(at, "header size " + dec(e.headerSize) + " is smaller than " +
                          dec(kEntryHeaderMinSize));
    if (e.headerSize > left)
        failEntry(at, "header size " + dec(e.headerSize) + " runs past the end of the fatbin (" +
                          dec(left) + " bytes left)");
    if (!fitsIn(e.headerSize, payloadSize, left))
        failEntry(at, "payload size " + dec(payloadSize) + " runs past the end of the fatbin (" +
                          dec(left - e.headerSize) + " bytes left)");
    if ((e.flags & kFlagArchSpecific) && (e.flags & kFlagFamilySpecific))
        failEntry(at, "flags " + hex(e.flags) + " mark it both arch- and family-specific");
    e.suffix = (e.flags & kFlagArchSpecific) ? 'a' : (e.flags & kFlagFamilySpecific) ? 'f' : 0;
    decodeCompression(e, payloadSize, compressedSize);
    decodeExtension(e, extensionOffset);
    decodeObjectName(e, nameOffset, nameSize);
    return e;
}

void ContainerParser::decodeCompression(FatbinEntry &e, uint64_t payloadSize,
                                        uint32_t compressedSize) {
    const uint8_t *payload = blob_.data + e.offset + e.headerSize;
    const bool zstdFlag = e.flags & kFlagCompressed, lz4Flag = e.flags & kFlagLz4;
    if (!zstdFlag && !lz4Flag) {
        e.payload = ByteView{payload, payloadSize};
        e.uncompressedSize = payloadSize;
        return;
    }
    if (zstdFlag && lz4Flag)
        failEntry(e.offset, "flags " + hex(e.flags) + " name two compression methods");
    if (compressedSize > payloadSize)
        failEntry(e.offset, "compressed size " + dec(compressedSize) +
                                " exceeds the payload size " + dec(payloadSize));
    e.payload = ByteView{payload, compressedSize};
    if (lz4Flag)
        e.compression = FatbinCompression::Lz4;
    else
        // LTO IR entries carry the flag over bytes that are no ZSTD frame.
        e.compression = isZstdFrame(e.payload) ? FatbinCompression::Zstd : FatbinCompression::Unknown;
}

// The extension block: u32 data offset and u32 data size (both relative to
// the entry header), the data starting with a NUL-terminated option string.
void ContainerParser::decodeExtension(FatbinEntry &e, uint32_t extensionOffset) {
    if (extensionOffset == 0)
        return;
    if (!fitsIn(extensionOffset, 8, e.headerSize))
        failEntry(e.offset, "extension offset " + dec(extensionOffset) +
                                " runs past the entry header (" + dec(e.headerSize) + " bytes)");
    const uint8_t *header = blob_.data + e.offset;
    const uint32_t dataOffset = load<uint32_t>(header + extensionOffset);
    const uint32_t dataSize = load<uint32_t>(header + extensionOffset + 4);
    if (!fitsIn(dataOffset, dataSize, e.headerSize))
        failEntry(e.offset, "option string (offset " + dec(dataOffset) + ", size " +
                                dec(dataSize) + ") runs past the entry header (" +
                                dec(e.headerSize) + " bytes)");
    e.extension = ByteView{header + dataOffset, dataSize};
    const char *text = reinterpret_cast<const char *>(e.extension.data);
    const void *nul = std::memchr(text, 0, dataSize);
    e.options = std::string_view(text, nul ? static_cast<const char *>(nul) - text : dataSize);
}

// -G entries name their source file inside the header.
void ContainerParser::decodeObjectName(FatbinEntry &e, uint32_t nameOffset, uint32_t nameSize) {
    if (nameOffset == 0 && nameSize == 0)
        return;
    if (!fitsIn(nameOffset, nameSize, e.headerSize))
        failEntry(e.offset, "object name (offset " + dec(nameOffset) + ", size " +
                                dec(nameSize) + ") runs past the entry header (" +
                                dec(e.headerSize) + " bytes)");
    const char *text = reinterpret_cast<const char *>(blob_.data + e.offset + nameOffset);
    const void *nul = std::memchr(text, 0, nameSize);
    e.objectName = std::string_view(text, nul ? static_cast<const char *>(nul) - text : nameSize);
}

// Containers are 8-aligned within a section; the gap is zero bytes.
uint64_t skipPadding(ByteView blob, uint64_t at) {
    uint64_t aligned = (at + 7) & ~uint64_t(7);
    if (aligned > blob.size)
        aligned = blob.size;
    for (uint64_t i = at; i < aligned; ++i)
        if (blob.data[i] != 0)
            return at;
    return aligned;
}

[[noreturn]] void failDecompress(const FatbinEntry &e, std::string_view context,
                                 const std::string &what) {
    throw FatalError(std::string(context) + ": fatbin entry at offset " + hex(e.offset) + " (" +
                     fatbinEntryName(e) + "): " + what);
}

std::string exceedsDeclared(uint64_t declared) {
    return "decompressed size exceeds the declared " + dec(declared) + " bytes";
}

// The content size the frame headers announce, ZSTD_CONTENTSIZE_UNKNOWN if
// any frame omits it, ZSTD_CONTENTSIZE_ERROR if the data is no frame sequence.
// (ZSTD_findDecompressedSize does this but is not in the stable API.)
unsigned long long announcedZstdSize(ByteView data) {
    unsigned long long total = 0;
    bool unknown = false;
    for (uint64_t at = 0; at < data.size;) {
        const unsigned long long frame = ZSTD_getFrameContentSize(data.data + at, data.size - at);
        if (frame == ZSTD_CONTENTSIZE_ERROR)
            return ZSTD_CONTENTSIZE_ERROR;
        const size_t frameSize = ZSTD_findFrameCompressedSize(data.data + at, data.size - at);
        if (ZSTD_isError(frameSize) || frameSize == 0)
            return ZSTD_CONTENTSIZE_ERROR;
        if (frame == ZSTD_CONTENTSIZE_UNKNOWN)
            unknown = true;
        else if (frame > ZSTD_CONTENTSIZE_ERROR - 1 - total)
            return ZSTD_CONTENTSIZE_ERROR; // overflow
        else
            total += frame;
        at += frameSize;
    }
    return unknown ? ZSTD_CONTENTSIZE_UNKNOWN : total;
}

// A stream whose frames do not announce their size is decoded chunk by chunk,
// so memory grows with the bytes really produced, never beyond `declared`.
uint64_t decompressZstdStreaming(const FatbinEntry &e, std::string_view context,
                                 std::vector<uint8_t> &out, uint64_t declared) {
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!dctx)
        throw std::bad_alloc();
    ZSTD_inBuffer in{e.payload.data, e.payload.size, 0};
    uint64_t produced = 0;
    for (;;) {
        if (produced == out.size()) {
            if (out.size() == declared)
                break; // full: anything still pending is more than declared
            out.resize(std::min<uint64_t>(declared, std::max<uint64_t>(out.size() * 2, 1 << 16)));
        }
        ZSTD_outBuffer o{out.data() + produced, out.size() - produced, 0};
        const size_t rc = ZSTD_decompressStream(dctx.get(), &o, &in);
        if (ZSTD_isError(rc))
            failDecompress(e, context, std::string("ZSTD: ") + ZSTD_getErrorName(rc));
        produced += o.pos;
        if (rc == 0 && in.pos == in.size)
            break; // every frame ended
        if (o.pos == 0 && in.pos == in.size && produced < out.size())
            failDecompress(e, context, "ZSTD: the stream is truncated");
    }
    if (in.pos != in.size || produced > declared)
        failDecompress(e, context, exceedsDeclared(declared));
    return produced;
}

void decompressZstd(const FatbinEntry &e, std::string_view context, std::vector<uint8_t> &out,
                    uint64_t declared) {
    const unsigned long long announced = announcedZstdSize(e.payload);
    if (announced == ZSTD_CONTENTSIZE_ERROR)
        failDecompress(e, context, "payload is not a valid ZSTD stream");
    if (announced != ZSTD_CONTENTSIZE_UNKNOWN && announced > declared)
        failDecompress(e, context, exceedsDeclared(declared) + " (the ZSTD frames hold " +
                                       dec(announced) + ")");
    uint64_t got = 0;
    if (announced == ZSTD_CONTENTSIZE_UNKNOWN) {
        got = decompressZstdStreaming(e, context, out, declared);
    } else {
        // The frames say how much they hold: allocate that, not the
        // (untrusted) declared size, and let a mismatch fail below.
        out.resize(announced);
        const size_t rc = ZSTD_decompress(out.data(), out.size(), e.payload.data, e.payload.size);
        if (ZSTD_isError(rc))
            failDecompress(e, context, std::string("ZSTD: ") + ZSTD_getErrorName(rc));
        got = rc;
    }
    if (got != declared)
        failDecompress(e, context, "decompressed to " + dec(got) + " bytes, but " +
                                       dec(declared) + " were declared");
    out.resize(got);
}

void decompressLz4(const FatbinEntry &e, std::string_view context, std::vector<uint8_t> &out,
                   uint64_t declared) {
    if (e.payload.size > uint64_t(LZ4_MAX_INPUT_SIZE) || declared > uint64_t(LZ4_MAX_INPUT_SIZE) * 255)
        failDecompress(e, context, "LZ4 payload is too large");
    // An LZ4 block expands by at most 255:1; a larger declared size is a lie
    // that must not be allocated.
    if (declared > e.payload.size * 255 + 16)
        failDecompress(e, context, "declared uncompressed size " + dec(declared) +
                                       " is more than " + dec(e.payload.size) +
                                       " LZ4 bytes can hold");
    out.resize(declared);
    // LZ4_decompress_safe stops at the end of `out`; a stream that needs more
    // room is reported like a corrupt one (the API cannot tell them apart).
    const int got = LZ4_decompress_safe(reinterpret_cast<const char *>(e.payload.data),
                                        reinterpret_cast<char *>(out.data()),
                                        static_cast<int>(e.payload.size),
                                        static_cast<int>(std::min<uint64_t>(declared, INT32_MAX)));
    if (got < 0)
        failDecompress(e, context, "LZ4 data is corrupt or its " + exceedsDeclared(declared));
    if (static_cast<uint64_t>(got) != declared)
        failDecompress(e, context, "decompressed to " + dec(got) + " bytes, but " +
                                       dec(declared) + " were declared");
}

} // namespace

std::vector<FatbinEntry> parseFatbin(ByteView blob, std::string_view context) {
    std::vector<FatbinEntry> entries;
    uint32_t index = 0;
    for (uint64_t at = 0; at < blob.size; ++index) {
        at = ContainerParser(blob, context, index).parse(at, entries);
        at = skipPadding(blob, at);
    }
    return entries;
}

std::vector<uint8_t> decompressEntry(const FatbinEntry &e, std::string_view context,
                                     uint64_t limit) {
    if (!e.compressed())
        return std::vector<uint8_t>(e.payload.begin(), e.payload.end());
    if (e.compression == FatbinCompression::Unknown) {
        std::string head;
        for (uint64_t i = 0; i < std::min<uint64_t>(4, e.payload.size); ++i) {
            char byte[4];
            std::snprintf(byte, sizeof byte, i ? " %02x" : "%02x", e.payload.data[i]);
            head += byte;
        }
        failDecompress(e, context, "payload is compressed in an unknown format (starts " + head + ")");
    }
    if (e.uncompressedSize > limit)
        failDecompress(e, context, "declared uncompressed size " + dec(e.uncompressedSize) +
                                       " exceeds the limit of " + dec(limit) + " bytes");
    std::vector<uint8_t> out;
    if (e.compression == FatbinCompression::Zstd)
        decompressZstd(e, context, out, e.uncompressedSize);
    else
        decompressLz4(e, context, out, e.uncompressedSize);
    return out;
}

std::string fatbinEntryName(const FatbinEntry &e) {
    std::string prefix;
    switch (e.kind) {
    case kKindElf: prefix = "sm_"; break;
    case kKindMercury: prefix = "mercury sm_"; break;
    case kKindPtx: prefix = "compute_"; break;
    case kKindLtoIr: prefix = "lto_"; break;
    default: prefix = "kind " + dec(e.kind) + " sm_"; break;
    }
    std::string name = prefix + dec(e.sm);
    if (e.suffix)
        name += e.suffix;
    return name;
}

// ---- Member selection ------------------------------------------------------

bool cubinRunsOn(uint32_t sm, char suffix, FatbinTarget target) {
    if (sm == target.sm)
        return true; // nvlink links sm_90a code for sm_90 and the reverse
    if (suffix == 'a')
        return false; // arch-specific code runs on that SM only
    return sm / 10 == target.sm / 10 && sm < target.sm;
}

bool ptxCompilesFor(uint32_t sm, char suffix, FatbinTarget target) {
    switch (suffix) {
    case 'a':
        return sm == target.sm && target.suffix == 'a';
    case 'f':
        return sm / 10 == target.sm / 10 && sm <= target.sm;
    default:
        return sm <= target.sm;
    }
}

namespace {

bool usable(const FatbinEntry &e, FatbinTarget target, const FatbinSelectOptions &options) {
    if (options.ptxOnly && e.kind != kKindPtx)
        return false;
    switch (e.kind) {
    case kKindElf:
    case kKindMercury:
        return options.cubinCompatible ? options.cubinCompatible(e.sm, e.suffix)
                                       : cubinRunsOn(e.sm, e.suffix, target);
    case kKindPtx:
        return ptxCompilesFor(e.sm, e.suffix, target);
    case kKindLtoIr:
        return options.wantLtoIr && ptxCompilesFor(e.sm, e.suffix, target);
    default:
        return false;
    }
}

// Larger is better; compared lexicographically.
auto rank(const FatbinEntry &e) {
    const int ir = e.kind == kKindLtoIr;                  // only present when asked for
    const int suffixRank = e.suffix == 'a' ? 2 : e.suffix == 'f' ? 1 : 0;
    const int kindRank = e.kind == kKindElf ? 2 : e.kind == kKindMercury ? 1 : 0;
    const int plain = !(e.flags & kFlagCompatExtension);
    return std::make_tuple(ir, e.sm, suffixRank, kindRank, plain, e.versionMajor, e.versionMinor);
}

} // namespace

const FatbinEntry *selectEntry(const std::vector<FatbinEntry> &entries, FatbinTarget target,
                               const FatbinSelectOptions &options) {
    const FatbinEntry *best = nullptr;
    for (const FatbinEntry &e : entries)
        if (usable(e, target, options) && (!best || rank(e) > rank(*best)))
            best = &e; // strict: the first of equals stays
    return best;
}

} // namespace culd
