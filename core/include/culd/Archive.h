// `ar` archives as nvlink reads them: GNU/SysV format (`!<arch>\n`) and thin
// archives (`!<thin>\n`). nvlink processes every member (whole-archive), so
// this only lists members; it resolves no symbols.
#pragma once

#include "culd/ElfFile.h"

#include <string>
#include <string_view>
#include <vector>

namespace culd {

struct ArchiveMember {
    std::string name;     // member name, long names resolved, without the trailing '/'
    ByteView data;        // the member's bytes; empty for thin archives
    std::string thinPath; // thin archives: path of the member file, relative
                          // paths made relative to the archive's directory
    uint64_t headerOffset = 0; // of the member header in the archive
    // Thin archives: the member is one of the archive at thinPath (GNU's
    // "/<name>:<offset>"), not a file of its own.
    bool inNestedArchive = false;
};

bool isArchive(ByteView bytes);     // "!<arch>\n"
bool isThinArchive(ByteView bytes); // "!<thin>\n"

// The members in file order, skipping the symbol tables (`/`, `/SYM64/`)
// and the long-name table (`//`). `archiveName` is the archive's path as
// given; it starts error messages and anchors thin members. Throws
// FatalError ("libx.a: member 'b.o': size 1234 runs past the end of the
// archive").
std::vector<ArchiveMember> readArchive(ByteView bytes, std::string_view archiveName);

} // namespace culd
