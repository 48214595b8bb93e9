// Relocations: which ones the linker applies, which it keeps for the
// driver, and the bit-field patching engine that applies them.
#pragma once

#include <culd/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace culd {

struct Symbol;
struct InputSection;
struct OutputSection;
struct ElfSection;
class Plugin;

// A relocation the linker resolves: patched into the output buffer once the
// section's bytes are in place.
struct RelocApply {
    uint64_t offset = 0;            // in the output section
    const culd_reloc_desc *desc = nullptr;
    uint64_t symbolValue = 0;       // S
    uint64_t symbolSize = 0;
    int64_t addend = 0;             // A (RELA); REL reads it from the field
    bool addendInField = false;     // REL input
    uint32_t targetKind = 0;        // culd_target_kind
    uint32_t cbank = 0;
};

// A relocation left for the driver, written to .rel/.rela<section>.
struct RelocKeep {
    OutputSection *target = nullptr; // the patched section
    uint64_t offset = 0;
    uint32_t type = 0;
    Symbol *symbol = nullptr;        // null: the section symbol of `symbolSection`
    OutputSection *symbolSection = nullptr;
    int64_t addend = 0;
    bool rela = true;                // RELA vs REL section
    bool resolved = false;           // applied, recorded for --preserve-relocs
    // A Mercury relocation: the input section it came from, whose name,
    // type and flags its output section takes.
    const ElfSection *mercuryRela = nullptr;
    // The section it patches, named after its output's like the relocation
    // section (a device function's jump tables in a kernel's bank).
    const InputSection *mercuryPatched = nullptr;
};

// Value of one bit action (before it is masked to the field width).
uint64_t actionValue(const culd_bit_action &action, uint64_t symbolPlusAddend, uint64_t place,
                     uint32_t cbank);

// The span of bytes the actions of `desc` touch from the relocation's offset.
uint64_t bytesTouched(const culd_reloc_desc &desc);

// Reads / writes `width` bits at bit `offset` of little-endian words at `p`.
uint64_t extractBits(const uint8_t *p, uint32_t offset, uint32_t width);
void insertBits(uint8_t *p, uint32_t offset, uint32_t width, uint64_t value);

// Applies the core's bit actions of every relocation in `relocs` to one
// section's bytes; relocations whose descriptor asks for the plugin hook are
// handed to the plugin in one call, with the section's name, type and flags.
// Throws FatalError naming `sectionName`.
void applyRelocations(const Plugin &plugin, uint32_t sm, const std::string &sectionName,
                      uint32_t sectionType, uint64_t sectionFlags, uint8_t *data, uint64_t size,
                      const std::vector<RelocApply> &relocs);

} // namespace culd
