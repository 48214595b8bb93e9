// .debug_frame entries (DWARF call frame information), as far as the linker
// needs them: where each CIE and FDE starts and ends, and where an FDE keeps
// its CIE pointer and its function's address.
#pragma once

#include "culd/ElfFile.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace culd {

struct FrameEntry {
    uint64_t begin = 0, end = 0; // [begin, end) in the section
    bool isCie = false;
    uint8_t offsetWidth = 8;     // 8: 64-bit DWARF, 4: 32-bit
    // FDE only: the CIE pointer field and the initial location field.
    uint64_t ciePointerField = 0;
    uint64_t locationField = 0;
};

// Splits a .debug_frame section into its entries, in order. A zero length
// (a terminator) is an entry of its own. Throws FatalError naming `where`
// when an entry runs past the end.
std::vector<FrameEntry> parseFrameEntries(ByteView bytes, const std::string &where);

// One instruction of a call-frame program (DWARF 4 §6.4.2): its bytes
// [begin, end) and, for a location advance, the delta in code-alignment
// units and the operand's width (0: the delta is in the opcode).
struct FrameInstruction {
    uint64_t begin = 0, end = 0;
    bool advance = false;
    unsigned width = 0;
    uint64_t delta = 0;
};

// Splits the call-frame program [begin, end) of a frame section into its
// instructions: the opcodes ptxas emits and the other standard ones whose
// operands are LEB128s or blocks. Throws FatalError naming `where` on one
// that runs past `end` or an opcode culd does not know.
std::vector<FrameInstruction> parseFrameProgram(ByteView bytes, uint64_t begin, uint64_t end,
                                                const std::string &where);

// A CIE's code alignment factor: after its id, version and (empty)
// augmentation; DWARF 4 puts address and segment sizes first. Throws
// FatalError naming `where` for a CIE of another form.
uint64_t cieCodeAlignment(ByteView bytes, const FrameEntry &cie, const std::string &where);

class ObjectFile;
// The functions a section's relocations name, by the offset they patch (a
// frame entry's initial location, a line sequence's DW_LNE_set_address):
// what each description of a function-by-function debug section describes.
std::unordered_map<uint64_t, uint32_t> functionsByRelocatedOffset(const ObjectFile &file,
                                                                  const ElfSection &relocs);

} // namespace culd
