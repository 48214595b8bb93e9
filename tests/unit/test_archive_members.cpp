// nvlink links only the host objects of an archive, told by content
// (measured with nvlink 13.0, docs/nvlink-findings.md, Archives): a cubin
// member defining the function another input calls leaves the call
// undefined; a host object member is linked whatever its name says.

#include "LinkUtil.h"

#include "culd/Diagnostics.h"

#include <catch2/catch.hpp>

using namespace culd;
using namespace culd::test;

TEST_CASE("archives: a cubin member adds nothing, as in nvlink", "[archive]") {
    TempDir dir;
    const std::string lib = (dir / "liblib.a").string();
    writeFile(lib, makeArchive({{"lib.cubin", readFile(crossFileLib())}}));
    ReportedLink r = linkReporting(
        {"-arch=sm_80", crossFileMain().string(), lib, "-o", (dir / "out.cubin").string()});
    // nvlink: "Undefined reference to '_Z5scalefi' in 'main.cubin'", exit 255.
    CHECK(r.lines.find("culd info : ignoring archive member '" + lib +
                       ":lib.cubin' (cubin content): nvlink links only the host objects of an "
                       "archive\n") == 0);
    CHECK(r.lines.find("culd error : Undefined reference to '_Z5scalefi' in '" +
                       crossFileMain().string() + "'") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out.cubin"));
}

TEST_CASE("archives: a host object member links whatever its name", "[archive]") {
    const fs::path fixture = fixturesDir().parent_path() / "host-fixtures" / "01-cross-file" / "sm_80";
    TempDir dir;
    // Named .cubin inside the archive: the name is not checked for members
    // (on the command line nvlink refuses a .cubin that is no cubin).
    const std::string lib = (dir / "libops.a").string();
    writeFile(lib, makeArchive({{"ops.cubin", readFile(fixture / "ops.o")}}));
    const std::string viaArchive = (dir / "archive.cubin").string();
    const std::string direct = (dir / "direct.cubin").string();
    ReportedLink r = linkReporting({"-arch=sm_80", (fixture / "main.o").string(), lib, "-o", viaArchive});
    CHECK(r.result == "ok");
    CHECK(r.lines.empty());
    CHECK(linkInProcess({"-arch=sm_80", (fixture / "main.o").string(), (fixture / "ops.o").string(),
                         "-o", direct}) == "ok");
    CHECK(readFile(viaArchive) == readFile(direct));
}
