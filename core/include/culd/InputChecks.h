// Refusal of input constructs culd does not model (see InputChecks.cpp).
#pragma once

#include "culd/ElfFile.h"

#include <string_view>
#include <vector>

namespace culd {

// Unknown sh_type or sh_flags bits: FatalError naming file, section, value.
void checkSectionHeader(std::string_view file, const ElfSection &section);

// Every .nv.info / .nv.info.<f> record: a known EIATTR code in its known
// format, with the payload size culd reads. FatalError otherwise.
void checkNvInfoSection(std::string_view file, const ElfSection &section);

// Every .nv.compat record: a known EICOMPAT code in its known format.
void checkCompatSection(std::string_view file, const ElfSection &section);

// Every symbol: a binding and a type culd models.
void checkSymbols(std::string_view file, const ElfSection &symtab,
                  const std::vector<ElfSymbol> &symbols);

// Inputs newer than the toolkit culd reproduces (.note.nv.cuinfo above
// 130) are refused, as nvlink refuses them; with --cuda-api-version
// (`linkLineVersion`, 0 when not given) so is an EIATTR_CUDA_API_VERSION
// above it. FatalError in nvlink's words.
void checkCudaVersions(std::string_view file, const ElfFile &elf, uint32_t linkLineVersion);

} // namespace culd
