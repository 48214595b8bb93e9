// The encoding of a capsule (.nv.capmerc.text.<f>) as far as the linker
// needs it: which record holds a given instruction, and where nvlink writes
// a constant-bank offset into it. See Capsule.cpp for the layout and
// docs/nvlink-findings.md for how it was measured.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace culd::mercury {

// Where a capsule keeps the field of the SASS twin's instruction at byte
// offset `twinOffset` that a relocation of `relocType` (R_MERCURY_ABS16 or
// ABS32) resolved by the linker patches there: `field` is the capsule's
// byte offset of the constant-bank offset nvlink writes, or empty when the
// instruction has no record of its own (its twin carries the value).
// Returns false with `error` set when the capsule does not parse, a prefix
// counts the instruction, or its record is not a constant-bank operand of
// the relocation's width with an empty field.
bool resolvedField(const uint8_t *capsule, size_t size, uint32_t relocType, uint64_t twinOffset,
                   std::optional<uint64_t> &field, std::string &error);

// The capsule of a function whose SASS lost instructions (Fences.cpp):
// `removed` flags the SASS twin's instructions that are gone, `newPadding`
// the NOPs after its code now. Each removed instruction must be one of the
// SASS-only instructions a prefix counts. Returns false with `error` set
// when the capsule does not parse or does not account for them.
bool shrinkCapsule(const uint8_t *capsule, size_t size, const std::vector<bool> &removed,
                   size_t newPadding, std::vector<uint8_t> &out, std::string &error);

} // namespace culd::mercury
