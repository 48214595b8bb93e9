// A read-only view of a whole file's bytes.
//
// Input files are mapped rather than read so that section contents can be
// handed around as ByteViews (see ElfFile.h) without ever being copied. Bytes
// that exist only in memory (e.g. a decompressed fatbin member) are wrapped
// in the same interface so the rest of the linker need not care where an
// input came from.
#pragma once

#include "culd/ElfFile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace culd {

class MappedFile {
public:
    // Maps `path` read-only. An empty file yields a zero-size view (mmap
    // rejects zero-length mappings). Throws FatalError("<path>: cannot
    // open: <reason>") and similar on failure.
    static std::unique_ptr<MappedFile> open(const std::string &path);

    // Takes ownership of bytes produced in memory; `name` is used in
    // diagnostics like a path would be.
    static std::unique_ptr<MappedFile> fromMemory(std::string name, std::vector<uint8_t> bytes);

    // Bytes owned by something that outlives the result (an archive member
    // inside its archive's mapping): nothing is copied.
    static std::unique_ptr<MappedFile> view(std::string name, ByteView bytes);

    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const std::string &path() const { return path_; }
    ByteView bytes() const { return view_; }

private:
    explicit MappedFile(std::string path) : path_(std::move(path)) {}

    std::string path_;
    ByteView view_;
    void *mapping_ = nullptr;      // non-null when view_ comes from mmap
    std::vector<uint8_t> owned_;   // backing store for fromMemory()
};

} // namespace culd
