// Fatbin containers: the 0xBA55ED50 blobs that nvcc embeds in host objects
// (section __nv_relfatbin) and that `fatbinary --create` writes to files.
//
// A blob is one or more containers back to back (zero-padded to 8 between
// them); a container is a 16-byte header followed by entries, each a header
// of at least 64 bytes and a payload (cubin, PTX, LTO IR), possibly
// compressed with ZSTD or LZ4. See docs/inputs.md for the layout as found in
// real files.
//
// parseFatbin() validates every offset and size and returns views into the
// caller's bytes; nothing is copied or decompressed until decompressEntry()
// is asked to, and that never allocates more than the entry declares.
#pragma once

#include "culd/ElfFile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

namespace fatbin {
constexpr uint32_t kMagic = 0xBA55ED50;
constexpr uint64_t kContainerHeaderSize = 16;
constexpr uint64_t kEntryHeaderMinSize = 64;

// Entry kinds (u16 at offset 0 of an entry header).
constexpr uint16_t kKindPtx = 1;
constexpr uint16_t kKindElf = 2;
constexpr uint16_t kKindLtoIr = 8;
constexpr uint16_t kKindMercury = 16;

// Entry flags (u64 at offset 40).
constexpr uint64_t kFlag64Bit = 0x1;
constexpr uint64_t kFlagDebug = 0x2;
constexpr uint64_t kFlagLz4 = 0x2000;        // payload is an LZ4 block (--compress-mode=speed)
constexpr uint64_t kFlagCompressed = 0x8000; // payload is compressed (ZSTD for PTX/ELF)
constexpr uint64_t kFlagLtoIr = 0x10000;
constexpr uint64_t kFlagArchSpecific = 0x100000;   // sm_XXa
constexpr uint64_t kFlagFamilySpecific = 0x200000; // sm_XXf
constexpr uint64_t kFlagCompatExtension = 0x1000000; // sm_100+ ELF carrying a .nv.compat copy

// Decompressed payloads larger than this are refused unless the caller
// passes its own limit.
constexpr uint64_t kDefaultDecompressLimit = uint64_t(1) << 30;
} // namespace fatbin

enum class FatbinCompression {
    None,
    Zstd,
    Lz4,
    Unknown, // flagged compressed but in no format we know (LTO IR entries)
};

struct FatbinEntry {
    uint16_t kind = 0;        // fatbin::kKind*; other values are kept as found
    uint32_t sm = 0;          // 90, 100, ...
    char suffix = 0;          // 0, 'a' or 'f' (from the flags)
    uint64_t flags = 0;
    uint16_t versionMajor = 0; // u16 at +26: 1 for ELF, PTX ISA major for PTX
    uint16_t versionMinor = 0; // u16 at +24: 8 for ELF, PTX ISA minor for PTX
    uint32_t headerSize = 0;
    // The stored payload: exactly the compressed bytes when compressed,
    // otherwise the whole payload (which may end in zero padding).
    ByteView payload;
    FatbinCompression compression = FatbinCompression::None;
    uint64_t uncompressedSize = 0; // declared; equals payload.size when not compressed
    std::string_view options;      // option string of the extension block ("--compile-only  ")
    ByteView extension;            // the whole extension data (options, NUL, sm_100+ compat copy)
    std::string_view objectName;   // source name of -G entries ("b.cu"), else empty
    uint64_t offset = 0;           // of the entry header, from the start of the blob
    uint32_t container = 0;        // index of the container holding it

    bool compressed() const { return compression != FatbinCompression::None; }
    bool isElf() const { return kind == fatbin::kKindElf; }
    bool isPtx() const { return kind == fatbin::kKindPtx; }
    bool isLtoIr() const { return kind == fatbin::kKindLtoIr; }
    bool isMercury() const { return kind == fatbin::kKindMercury; }
};

// Every entry of every container in `blob`, in file order. `context` starts
// each error message ("a.o: section '__nv_relfatbin'"). Throws FatalError.
std::vector<FatbinEntry> parseFatbin(ByteView blob, std::string_view context);

// The entry's payload, decompressed. Allocates exactly the declared
// uncompressed size (refused when above `limit`), and fails when the data
// decompresses to more or fewer bytes than declared. Uncompressed entries are
// copied; callers that can should use `entry.payload` directly instead.
std::vector<uint8_t> decompressEntry(const FatbinEntry &entry, std::string_view context,
                                     uint64_t limit = fatbin::kDefaultDecompressLimit);

// "sm_90a", "compute_86" style name of an entry, for messages.
std::string fatbinEntryName(const FatbinEntry &entry);

struct FatbinTarget {
    uint32_t sm = 0;
    char suffix = 0; // 0, 'a' or 'f'
};

struct FatbinSelectOptions {
    // Consider LTO IR entries (nvlink -lto); they are then preferred over
    // everything else. Without it they are ignored.
    bool wantLtoIr = false;
    // Overrides the built-in cubin (SASS) compatibility rule, e.g. with the
    // list of compatible input SMs an arch plugin reports.
    std::function<bool(uint32_t sm, char suffix)> cubinCompatible;
    // Consider PTX entries only: the code culd compiles where nvlink would
    // regenerate a cubin made for another SM (see InputReader.cpp).
    bool ptxOnly = false;
};

// Whether a cubin built for (sm, suffix) can be linked for `target` under
// the built-in rule: same SM with any suffix, or an earlier SM of the same
// major family unless the cubin is arch-specific ('a').
bool cubinRunsOn(uint32_t sm, char suffix, FatbinTarget target);

// Whether PTX (or LTO IR) for (sm, suffix) can be compiled for `target`.
bool ptxCompilesFor(uint32_t sm, char suffix, FatbinTarget target);

// nvlink's member choice for `target` (see docs/inputs.md, "Member
// selection"); nullptr when no entry is usable. A PTX (or LTO IR) result
// means the caller must compile it first.
const FatbinEntry *selectEntry(const std::vector<FatbinEntry> &entries, FatbinTarget target,
                               const FatbinSelectOptions &options = {});

} // namespace culd
