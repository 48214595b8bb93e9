// Diagnostics::format: nvlink's text first, culd's details appended on the
// same line; JSON lines with every field present and strings escaped.
#include "culd/Diagnostics.h"
#include "culd/SymbolDiagnostics.h"

#include <catch2/catch.hpp>

#include <string>

using namespace culd;

namespace {

Diagnostic undefinedMissing() {
    Diagnostic d;
    d.message = "Undefined reference to '_Z7missingi' in 'libx.a:m.o'";
    d.symbol = "missing(int)";
    d.mangled = "_Z7missingi";
    d.file = "libx.a";
    d.member = "m.o";
    d.chain = {"kernel k(int *)", "helper(int)"};
    return d;
}

} // namespace

TEST_CASE("text diagnostics keep nvlink's line as a prefix", "[diagnostics]") {
    DiagnosticOptions text;
    CHECK(Diagnostics::format(undefinedMissing(), text) ==
          "culd error : Undefined reference to '_Z7missingi' in 'libx.a:m.o' [demangled: "
          "missing(int); live through: kernel k(int *) \u2192 helper(int) \u2192 missing(int)]\n");
    Diagnostic plain;
    plain.severity = Severity::Warning;
    plain.message = "something";
    CHECK(Diagnostics::format(plain, text) == "culd warning : something\n");
    text.reportArch = "sm_80";
    CHECK(Diagnostics::format(plain, text) == "culd warning : something (target: sm_80)\n");
}

TEST_CASE("JSON diagnostics are one escaped object per line", "[diagnostics]") {
    DiagnosticOptions json;
    json.format = DiagnosticsFormat::Json;
    CHECK(Diagnostics::format(undefinedMissing(), json) ==
          "{\"severity\":\"error\",\"message\":\"Undefined reference to '_Z7missingi' in "
          "'libx.a:m.o'\",\"symbol\":\"missing(int)\",\"mangled\":\"_Z7missingi\",\"file\":"
          "\"libx.a\",\"member\":\"m.o\",\"chain\":[\"kernel k(int *)\",\"helper(int)\"],"
          "\"hint\":\"\"}\n");
    Diagnostic odd;
    odd.severity = Severity::Info;
    odd.message = std::string("a \"b\" \\ c\nd\te\x01");
    CHECK(Diagnostics::format(odd, json) ==
          "{\"severity\":\"info\",\"message\":\"a \\\"b\\\" \\\\ c\\nd\\te\\u0001\",\"symbol\":"
          "\"\",\"mangled\":\"\",\"file\":\"\",\"member\":\"\",\"chain\":[],\"hint\":\"\"}\n");
}

TEST_CASE("hints are given only for what libcudadevrt defines", "[diagnostics]") {
    const std::string devrt = "defined by the device runtime library: link with -lcudadevrt";
    CHECK(undefinedSymbolHint("__cudaCDP2GetParameterBufferV2") == devrt);
    CHECK(undefinedSymbolHint("cudaGetParameterBuffer") == devrt);
    CHECK(undefinedSymbolHint("cudaMemcpyAsync_ptsz") == devrt);
    CHECK(undefinedSymbolHint("cudaCGSynchronizeGrid") == devrt);
    CHECK(undefinedSymbolHint("cudaLaunchKernel").empty()); // host-only API
    CHECK(undefinedSymbolHint("_Z7missingi").empty());
    CHECK(undefinedSymbolHint("_ptsz").empty());
}
