// String helpers of culd/Strings.h whose results name output sections.
#include "culd/Strings.h"

#include <catch2/catch.hpp>

using culd::renamedLike;

TEST_CASE("renamedLike: a kernel's bank names its Mercury twin and relocations",
          "[strings]") {
    // The twin's output took the kernel's name: so does the shadow.
    CHECK(renamedLike(".nv.merc.nv.constant.optimizer._Z3sw1ii", ".nv.constant2._Z3sw1ii",
                      ".nv.constant2._Z2k2Pi") == ".nv.merc.nv.constant.optimizer._Z2k2Pi");
    // A relocation section follows the section it patches.
    CHECK(renamedLike(".nv.merc.rela.nv.constant.optimizer._Z3sw1ii",
                      ".nv.merc.nv.constant.optimizer._Z3sw1ii",
                      ".nv.merc.nv.constant.optimizer._Z2k2Pi") ==
          ".nv.merc.rela.nv.constant.optimizer._Z2k2Pi");
    // Not renamed: unchanged.
    CHECK(renamedLike(".nv.merc.rela.text.f", ".nv.capmerc.text.f", ".nv.capmerc.text.f") ==
          ".nv.merc.rela.text.f");
    CHECK(renamedLike(".nv.merc.debug_frame", ".debug_frame", ".debug_frame") ==
          ".nv.merc.debug_frame");
    // No shared tail, or a target that does not keep the rest: unchanged.
    CHECK(renamedLike("abc", "xyz", "xyq") == "abc");
    CHECK(renamedLike(".a.f", ".b.f", ".c.g") == ".a.f");
}
