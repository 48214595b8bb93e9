// What an input file is, decided by its content (nvlink decides by extension
// first and then insists the content agrees; culd looks at the bytes and uses
// the extension only where the content cannot tell, e.g. PTX vs other text).
#pragma once

#include "culd/ElfFile.h"

#include <string_view>

namespace culd {

enum class InputKind {
    Cubin,        // ELF, e_machine EM_CUDA (190), any e_type (the caller checks ET_REL)
    HostObject,   // other ELF, ET_REL: may embed fatbins
    Fatbin,       // 0xBA55ED50 container
    Archive,      // "!<arch>\n"
    ThinArchive,  // "!<thin>\n"
    Ptx,          // PTX assembly text
    LtoIr,        // NVVM IR (0x1EE55A01 wrapper, LLVM bitcode)
    SharedObject, // other ELF, ET_DYN: ignored, as by nvlink
    Unknown,      // anything else: ignored (nvlink: "ignore input")
};

const char *inputKindName(InputKind kind);

// `path` is used only to break ties (".ptx", ".nvvm", ".ltoir").
InputKind detectInputKind(ByteView bytes, std::string_view path);

} // namespace culd
