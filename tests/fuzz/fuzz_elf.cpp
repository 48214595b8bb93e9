// Cubin reader: ElfFile::parse and every accessor the link uses after it.
#include "FuzzUtil.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace culd;
    return fuzz::refuseOrAccept([&] {
        ElfFile elf = ElfFile::parse("fuzz.cubin", fuzz::view(data, size));
        for (const ElfSection &s : elf.sections()) {
            if (s.isRelocation())
                (void)elf.relocations(s);
            if (s.isSymbolTable())
                (void)elf.symbolsOf(s);
        }
    });
}
