// libculd through its C API (culdLink.h), against the culd command: corpus
// cases linked with culdLinkAddFile and culdLinkAddData give the command's
// bytes and messages; separate handles link at once on separate threads;
// calls out of order give nvJitLink's result codes.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "culd/culdLink.h"
#include "culd/culdLinkExt.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes readBytes(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string readText(const fs::path &path) {
    Bytes b = readBytes(path);
    return std::string(b.begin(), b.end());
}

// A corpus case's nvlink command line: its options (all in -x=y form) and
// its inputs, without "-o nvlink.cubin".
struct Case {
    fs::path dir;
    std::vector<std::string> options;
    std::vector<std::string> inputs; // absolute paths
};

Case readCase(const fs::path &dir) {
    Case c{dir, {}, {}};
    std::istringstream words(readText(dir / "cmd"));
    std::string word;
    words >> word; // nvlink
    while (words >> word) {
        if (word == "-o")
            words >> word;
        else if (word[0] == '-')
            c.options.push_back(word);
        else
            c.inputs.push_back((dir / word).string());
    }
    return c;
}

std::vector<Case> corpusCases() {
    std::vector<Case> cases;
    for (const auto &entry : fs::directory_iterator(CULD_FIXTURES_DIR)) {
        fs::path dir = entry.path() / "sm_80";
        if (fs::exists(dir / "cmd"))
            cases.push_back(readCase(dir));
    }
    std::sort(cases.begin(), cases.end(),
              [](const Case &a, const Case &b) { return a.dir < b.dir; });
    return cases;
}

std::string shellQuote(const std::string &s) {
    std::string q = "'";
    for (char ch : s)
        q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
}

// A scratch directory of this test process, removed when the process ends.
struct ScratchDir {
    fs::path path;
    ScratchDir() {
        std::string tmpl = (fs::temp_directory_path() / "culd-library-test-XXXXXX").string();
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        if (mkdtemp(buf.data()))
            path = buf.data();
    }
    ~ScratchDir() {
        std::error_code ec;
        if (!path.empty())
            fs::remove_all(path, ec);
    }
};

fs::path scratch() {
    static ScratchDir dir;
    REQUIRE(!dir.path.empty());
    return dir.path;
}

// What the culd command makes of a case.
struct CommandResult {
    int status = 0;
    Bytes cubin;
    std::string stderrText;
};

CommandResult runCommand(const Case &c) {
    fs::path out = scratch() / "cli.cubin", err = scratch() / "cli.stderr";
    fs::remove(out);
    std::string cmd = shellQuote(CULD_COMMAND);
    for (const std::string &o : c.options)
        cmd += " " + shellQuote(o);
    for (const std::string &i : c.inputs)
        cmd += " " + shellQuote(i);
    cmd += " -o " + shellQuote(out.string()) + " 2>" + shellQuote(err.string()) + " >/dev/null";
    int raw = std::system(cmd.c_str());
    CommandResult r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    if (fs::exists(out))
        r.cubin = readBytes(out);
    r.stderrText = readText(err);
    return r;
}

// What libculd makes of a case.
struct LibraryResult {
    culdLinkResult result = CULDLINK_SUCCESS;
    Bytes cubin;
    std::string errorLog, infoLog;
    std::string failure; // the first culdLink call that did not succeed
};

enum class Feed { Files, Data };

// Data inputs are declared cubins unless `type` says otherwise; files are
// told apart by content unless it does.
LibraryResult linkWithLibrary(const Case &c, Feed feed,
                              culdLinkInputType type = CULDLINK_INPUT_NONE) {
    if (type == CULDLINK_INPUT_NONE)
        type = feed == Feed::Files ? CULDLINK_INPUT_ANY : CULDLINK_INPUT_CUBIN;
    LibraryResult r;
    // No Catch assertions here: the two-thread test calls this off the main
    // thread. A call that fails is recorded.
    auto expect = [&r](const char *call, culdLinkResult got) {
        if (got != CULDLINK_SUCCESS && r.failure.empty())
            r.failure = std::string(call) + " returned " + std::to_string(int(got));
        return got == CULDLINK_SUCCESS;
    };
    std::vector<const char *> options;
    for (const std::string &o : c.options)
        options.push_back(o.c_str());
    culdLinkHandle h = nullptr;
    if (!expect("culdLinkCreate", culdLinkCreate(&h, uint32_t(options.size()), options.data())))
        return r;
    for (const std::string &input : c.inputs) {
        if (feed == Feed::Files) {
            expect("culdLinkAddFile", culdLinkAddFile(h, type, input.c_str()));
        } else {
            Bytes data = readBytes(input);
            expect("culdLinkAddData",
                   culdLinkAddData(h, type, data.data(), data.size(), input.c_str()));
        }
    }
    r.result = culdLinkComplete(h);
    size_t size = 0;
    if (r.result == CULDLINK_SUCCESS && expect("culdLinkGetLinkedCubinSize",
                                               culdLinkGetLinkedCubinSize(h, &size))) {
        r.cubin.resize(size);
        expect("culdLinkGetLinkedCubin", culdLinkGetLinkedCubin(h, r.cubin.data()));
    }
    std::vector<char> log;
    if (expect("culdLinkGetErrorLogSize", culdLinkGetErrorLogSize(h, &size))) {
        log.resize(size);
        if (expect("culdLinkGetErrorLog", culdLinkGetErrorLog(h, log.data())))
            r.errorLog = log.data();
    }
    if (expect("culdLinkGetInfoLogSize", culdLinkGetInfoLogSize(h, &size))) {
        log.resize(size);
        if (expect("culdLinkGetInfoLog", culdLinkGetInfoLog(h, log.data())))
            r.infoLog = log.data();
    }
    expect("culdLinkDestroy", culdLinkDestroy(&h));
    if (h && r.failure.empty())
        r.failure = "culdLinkDestroy left the handle set";
    return r;
}

const Case &caseNamed(const std::vector<Case> &cases, const std::string &name) {
    for (const Case &c : cases)
        if (c.dir.parent_path().filename() == name)
            return c;
    FAIL("no corpus case " << name);
    return cases.front();
}

} // namespace

TEST_CASE("library: corpus cases give the culd command's bytes", "[library]") {
    std::vector<Case> cases = corpusCases();
    REQUIRE(cases.size() > 10);
    for (const Case &c : cases) {
        INFO("case " << c.dir.string());
        CommandResult command = runCommand(c);
        CHECK(command.cubin.empty() == (command.status != 0));
        for (Feed feed : {Feed::Files, Feed::Data}) {
            INFO((feed == Feed::Files ? "culdLinkAddFile" : "culdLinkAddData"));
            LibraryResult lib = linkWithLibrary(c, feed);
            CHECK(lib.failure == "");
            CHECK((lib.result == CULDLINK_SUCCESS) == (command.status == 0));
            CHECK(lib.cubin == command.cubin);
            // The command's stderr holds both logs (infos and the call-graph
            // dump come after any error a link that succeeds can have).
            CHECK(lib.errorLog + lib.infoLog == command.stderrText);
        }
    }
}

TEST_CASE("library: host objects, fatbins, archives and PTX give the command's bytes",
          "[library]") {
    // A PTX kernel, compiled with ptxas by both (or refused by both where
    // there is no ptxas).
    fs::path ptx = scratch() / "k.ptx";
    std::ofstream(ptx) << ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k()\n{\n\tret;\n}\n";
    struct Input {
        const char *arch;
        culdLinkInputType type;
        fs::path path;
    };
    const fs::path inputs = fs::path(CULD_FIXTURES_DIR).parent_path() / "inputs";
    const Input cases[] = {
        {"-arch=sm_90", CULDLINK_INPUT_OBJECT, inputs / "host-sm90.o"},
        {"-arch=sm_90", CULDLINK_INPUT_FATBIN, inputs / "zstd-sm90.fatbin"},
        {"-arch=sm_86", CULDLINK_INPUT_FATBIN, inputs / "mix-sm80-ptx86.fatbin"},
        {"-arch=sm_90", CULDLINK_INPUT_LIBRARY, inputs / "libnvcc.a"},
        {"-arch=sm_90", CULDLINK_INPUT_OBJECT, inputs / "host-lto.o"}, // LTO: refused
        {"-arch=sm_80", CULDLINK_INPUT_PTX, ptx},
    };
    for (const Input &input : cases) {
        INFO("input " << input.path.string() << " " << input.arch);
        Case c{input.path.parent_path(), {input.arch}, {input.path.string()}};
        CommandResult command = runCommand(c);
        for (Feed feed : {Feed::Files, Feed::Data}) {
            LibraryResult lib = linkWithLibrary(c, feed, input.type);
            CHECK(lib.failure == "");
            CHECK((lib.result == CULDLINK_SUCCESS) == (command.status == 0));
            CHECK(lib.cubin == command.cubin);
            CHECK(lib.errorLog + lib.infoLog == command.stderrText);
        }
    }
}

TEST_CASE("library: -lto links LTO IR as the command does, and returns the PTX", "[library]") {
    // tests/lto/fixtures (scripts/regen-lto-fixtures.sh). Where libnvJitLink
    // or ptxas is missing, library and command fail alike.
    const fs::path fixture =
        fs::path(CULD_FIXTURES_DIR).parent_path() / "lto" / "fixtures" / "sm_80";
    Case c{fixture, {"-arch=sm_80", "-lto"}, {}};
    for (const char *f : {"a.ltoir", "b.ltoir", "c.ltoir"})
        c.inputs.push_back((fixture / f).string());
    CommandResult command = runCommand(c);
    if (command.status == 0)
        CHECK(command.cubin == readBytes(fixture / "nvlink-ltoir.cubin"));
    for (Feed feed : {Feed::Files, Feed::Data}) {
        LibraryResult lib = linkWithLibrary(c, feed, CULDLINK_INPUT_LTOIR);
        CHECK(lib.failure == "");
        CHECK((lib.result == CULDLINK_SUCCESS) == (command.status == 0));
        CHECK(lib.cubin == command.cubin);
        CHECK(lib.errorLog + lib.infoLog == command.stderrText);
    }

    const char *options[] = {"-arch=sm_80", "-lto"};
    culdLinkHandle h = nullptr;
    REQUIRE(culdLinkCreate(&h, 2, options) == CULDLINK_SUCCESS);
    for (const char *f : {"a.o", "b.o", "c.o"})
        REQUIRE(culdLinkAddFile(h, CULDLINK_INPUT_OBJECT, (fixture / f).c_str()) ==
                CULDLINK_SUCCESS);
    Bytes cubin = readBytes(fixture / "a.o");
    CHECK(culdLinkAddData(h, CULDLINK_INPUT_LTOIR, cubin.data(), cubin.size(), "a.o") ==
          CULDLINK_ERROR_INCORRECT_INPUT_TYPE);
    size_t size = 0;
    CHECK(culdLinkGetLinkedPtxSize(h, &size) == CULDLINK_ERROR_INTERNAL); // not linked yet
    // LTO IR from host objects without libcudadevrt: nvlink compiles it,
    // then refuses ("expected libcudadevrt object"); so does the handle.
    CHECK(culdLinkComplete(h) == CULDLINK_ERROR_INTERNAL);
    if (command.status == 0) { // nvJitLink and ptxas are there
        REQUIRE(culdLinkGetErrorLogSize(h, &size) == CULDLINK_SUCCESS);
        std::vector<char> log(size);
        REQUIRE(culdLinkGetErrorLog(h, log.data()) == CULDLINK_SUCCESS);
        CHECK(std::string(log.data()).find("culd error : expected libcudadevrt object\n") !=
              std::string::npos);
    }
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);

    // -emit-ptx stops at the PTX (the command writes it to -o): no cubin.
    const char *emitPtx[] = {"-arch=sm_80", "-lto", "-emit-ptx"};
    REQUIRE(culdLinkCreate(&h, 3, emitPtx) == CULDLINK_SUCCESS);
    for (const char *f : {"a.o", "b.o", "c.o"})
        REQUIRE(culdLinkAddFile(h, CULDLINK_INPUT_OBJECT, (fixture / f).c_str()) ==
                CULDLINK_SUCCESS);
    if (culdLinkComplete(h) == CULDLINK_SUCCESS) {
        REQUIRE(culdLinkGetLinkedPtxSize(h, &size) == CULDLINK_SUCCESS);
        std::vector<char> ptx(size);
        REQUIRE(culdLinkGetLinkedPtx(h, ptx.data()) == CULDLINK_SUCCESS);
        CHECK(std::string(ptx.data()) == readText(fixture / "nvlink.ptx"));
        CHECK(ptx.size() == readText(fixture / "nvlink.ptx").size() + 1);
        REQUIRE(culdLinkGetLinkedCubinSize(h, &size) == CULDLINK_SUCCESS);
        CHECK(size == 0);
    }
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);
}

TEST_CASE("library: an undefined reference fails the link with nvlink's message", "[library]") {
    std::vector<Case> cases = corpusCases();
    Case c = caseNamed(cases, "02-cross-file-call");
    c.inputs.erase(c.inputs.begin()); // lib.cubin: main.cubin's callees are gone
    REQUIRE(fs::path(c.inputs.front()).filename() == "main.cubin");
    LibraryResult lib = linkWithLibrary(c, Feed::Data);
    CHECK(lib.failure == "");
    CHECK(lib.result == CULDLINK_ERROR_INTERNAL);
    CHECK(lib.cubin.empty());
    CHECK(lib.errorLog.find("culd error : Undefined reference to '_Z5scalefi' in '" +
                            c.inputs.front() + "'") != std::string::npos);
    CommandResult command = runCommand(c);
    CHECK(command.status == 255);
    CHECK(lib.errorLog == command.stderrText);
}

TEST_CASE("library: two handles on two threads give the sequential bytes", "[library]") {
    std::vector<Case> cases = corpusCases();
    const Case &a = caseNamed(cases, "03-call-chain-3files");
    const Case &b = caseNamed(cases, "07-printf");
    LibraryResult expectA = linkWithLibrary(a, Feed::Data);
    LibraryResult expectB = linkWithLibrary(b, Feed::Files);
    REQUIRE(expectA.failure == "");
    REQUIRE(expectB.failure == "");
    REQUIRE(expectA.result == CULDLINK_SUCCESS);
    REQUIRE(expectB.result == CULDLINK_SUCCESS);
    REQUIRE(expectA.cubin != expectB.cubin);
    // Catch2's assertions are not thread-safe: the threads only collect.
    constexpr int kRounds = 32;
    std::vector<LibraryResult> gotA(kRounds), gotB(kRounds);
    std::thread ta([&] {
        for (LibraryResult &r : gotA)
            r = linkWithLibrary(a, Feed::Data);
    });
    std::thread tb([&] {
        for (LibraryResult &r : gotB)
            r = linkWithLibrary(b, Feed::Files);
    });
    ta.join();
    tb.join();
    for (int i = 0; i < kRounds; ++i) {
        CHECK(gotA[i].failure == "");
        CHECK(gotB[i].failure == "");
        CHECK(gotA[i].cubin == expectA.cubin);
        CHECK(gotB[i].cubin == expectB.cubin);
        CHECK(gotA[i].errorLog == expectA.errorLog);
        CHECK(gotB[i].errorLog == expectB.errorLog);
    }
}

TEST_CASE("library: calls out of order give nvJitLink's result codes", "[library]") {
    const char *arch[] = {"-arch=sm_80"};
    size_t size = 0;
    char buffer[16];
    culdLinkHandle none = nullptr;
    CHECK(culdLinkAddFile(none, CULDLINK_INPUT_ANY, "x.cubin") == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkComplete(none) == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkGetLinkedCubinSize(none, &size) == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkGetErrorLogSize(none, &size) == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkDestroy(&none) == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkDestroy(nullptr) == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkCreate(nullptr, 1, arch) == CULDLINK_ERROR_NULL_INPUT);

    std::vector<Case> cases = corpusCases();
    const Case &c = caseNamed(cases, "01-single-kernel");
    Bytes cubin = readBytes(c.inputs.front());

    culdLinkHandle h = nullptr;
    REQUIRE(culdLinkCreate(&h, 1, arch) == CULDLINK_SUCCESS);
    CHECK(culdLinkGetLinkedCubinSize(h, &size) == CULDLINK_ERROR_INTERNAL);
    CHECK(culdLinkGetLinkedCubin(h, buffer) == CULDLINK_ERROR_INTERNAL);
    CHECK(culdLinkAddData(h, CULDLINK_INPUT_CUBIN, nullptr, 0, "x") ==
          CULDLINK_ERROR_INVALID_INPUT);
    CHECK(culdLinkAddFile(h, CULDLINK_INPUT_ANY, "/nonexistent/x.cubin") ==
          CULDLINK_ERROR_INVALID_INPUT);
    CHECK(culdLinkAddData(h, CULDLINK_INPUT_PTX, cubin.data(), cubin.size(), "k.cubin") ==
          CULDLINK_ERROR_INCORRECT_INPUT_TYPE);
    CHECK(culdLinkAddData(h, CULDLINK_INPUT_LTOIR, cubin.data(), cubin.size(), "k.ltoir") ==
          CULDLINK_ERROR_LTO_NOT_ENABLED);
    CHECK(culdLinkAddData(h, CULDLINK_INPUT_INDEX, cubin.data(), cubin.size(), "k.idx") ==
          CULDLINK_ERROR_UNRECOGNIZED_INPUT);
    REQUIRE(culdLinkAddData(h, CULDLINK_INPUT_ANY, cubin.data(), cubin.size(), nullptr) ==
            CULDLINK_SUCCESS);
    // The refused inputs are logged but do not fail the link.
    REQUIRE(culdLinkComplete(h) == CULDLINK_SUCCESS);
    CHECK(culdLinkComplete(h) == CULDLINK_ERROR_INTERNAL);
    CHECK(culdLinkAddData(h, CULDLINK_INPUT_ANY, cubin.data(), cubin.size(), "again") ==
          CULDLINK_ERROR_INTERNAL);
    CHECK(culdLinkGetLinkedCubinSize(h, &size) == CULDLINK_SUCCESS);
    CHECK(size > 0);
    CHECK(culdLinkGetLinkedPtxSize(h, &size) == CULDLINK_ERROR_LTO_NOT_ENABLED);
    REQUIRE(culdLinkGetErrorLogSize(h, &size) == CULDLINK_SUCCESS);
    std::vector<char> log(size);
    REQUIRE(culdLinkGetErrorLog(h, log.data()) == CULDLINK_SUCCESS);
    std::string errors = log.data();
    CHECK(errors.size() + 1 == size);
    CHECK(errors.find("/nonexistent/x.cubin: cannot open") != std::string::npos);
    CHECK(errors.find("k.cubin: does not match input type CULDLINK_INPUT_PTX") != std::string::npos);
    CHECK(errors.find("LTO IR input requires -lto") != std::string::npos);
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);
}

TEST_CASE("library: option errors are reported on the handle", "[library]") {
    culdLinkHandle h = nullptr;
    const char *bogus[] = {"-arch=sm_80", "--no-such-option"};
    CHECK(culdLinkCreate(&h, 2, bogus) == CULDLINK_ERROR_UNRECOGNIZED_OPTION);
    REQUIRE(h != nullptr);
    size_t size = 0;
    REQUIRE(culdLinkGetErrorLogSize(h, &size) == CULDLINK_SUCCESS);
    CHECK(size > 1);
    CHECK(culdLinkComplete(h) == CULDLINK_ERROR_UNRECOGNIZED_OPTION);
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);

    CHECK(culdLinkCreate(&h, 0, nullptr) == CULDLINK_ERROR_NULL_INPUT);
    const char *debugOnly[] = {"-g"};
    CHECK(culdLinkCreate(&h, 1, debugOnly) == CULDLINK_ERROR_MISSING_ARCH);
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);

    const char *help[] = {"-arch=sm_80", "--help"};
    CHECK(culdLinkCreate(&h, 2, help) == CULDLINK_ERROR_INCOMPATIBLE_OPTIONS);
    int status = 0;
    CHECK(culdLinkGetExitStatus(h, &status) == CULDLINK_SUCCESS);
    CHECK(status == 1);
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);

    unsigned major = 99, minor = 99;
    CHECK(culdLinkVersion(&major, &minor) == CULDLINK_SUCCESS);
    CHECK(major == 0);
    CHECK(culdLinkVersion(nullptr, &minor) == CULDLINK_ERROR_NULL_INPUT);
}

// The extensions the culd command links through (culdLinkExt.h).
namespace {

struct Message {
    culdLinkMessageKind kind;
    std::string text;
};

void collectMessage(void *messages, culdLinkMessageKind kind, const char *text) {
    static_cast<std::vector<Message> *>(messages)->push_back({kind, text});
}

// A case linked through the extensions, as the culd command links it.
struct ExtensionResult {
    culdLinkResult result = CULDLINK_SUCCESS;
    int status = -1;
    std::vector<Message> messages;
    std::string errorLog;
    Bytes cubin;
};

ExtensionResult linkLikeTheCommand(const Case &c, const std::vector<std::string> &inputs,
                                   const std::string &outputFile) {
    ExtensionResult r;
    std::vector<std::string> words = c.options;
    if (!outputFile.empty())
        words.push_back("-o=" + outputFile);
    std::vector<const char *> options;
    for (const std::string &o : words)
        options.push_back(o.c_str());
    culdLinkHandle h = nullptr;
    REQUIRE(culdLinkCreate(&h, uint32_t(options.size()), options.data()) == CULDLINK_SUCCESS);
    int status = 0;
    CHECK(culdLinkGetExitStatus(h, &status) == CULDLINK_ERROR_INTERNAL); // not linked yet
    REQUIRE(culdLinkSetMessageCallback(h, collectMessage, &r.messages) == CULDLINK_SUCCESS);
    for (const std::string &input : inputs)
        REQUIRE(culdLinkAddInputPath(h, input.c_str()) == CULDLINK_SUCCESS);
    r.result = culdLinkComplete(h);
    REQUIRE(culdLinkGetExitStatus(h, &r.status) == CULDLINK_SUCCESS);
    size_t size = 0;
    REQUIRE(culdLinkGetErrorLogSize(h, &size) == CULDLINK_SUCCESS);
    std::vector<char> log(size);
    REQUIRE(culdLinkGetErrorLog(h, log.data()) == CULDLINK_SUCCESS);
    r.errorLog = log.data();
    if (r.result == CULDLINK_SUCCESS) {
        REQUIRE(culdLinkGetLinkedCubinSize(h, &size) == CULDLINK_SUCCESS);
        r.cubin.resize(size);
        REQUIRE(culdLinkGetLinkedCubin(h, r.cubin.data()) == CULDLINK_SUCCESS);
    }
    REQUIRE(culdLinkDestroy(&h) == CULDLINK_SUCCESS);
    return r;
}

fs::path fixtureCase(const char *name) { return fs::path(CULD_FIXTURES_DIR) / name / "sm_80"; }

} // namespace

TEST_CASE("library extensions: -o writes the command's bytes, the handle keeps them",
          "[library]") {
    Case c = readCase(fixtureCase("02-cross-file-call"));
    fs::path out = scratch() / "ext.cubin";
    fs::remove(out);
    ExtensionResult r = linkLikeTheCommand(c, c.inputs, out.string());
    REQUIRE(r.result == CULDLINK_SUCCESS);
    CHECK(r.status == 0);
    CHECK(r.messages.empty());
    Bytes written = readBytes(out);
    CHECK(written == r.cubin);
    CHECK(written == runCommand(c).cubin);
}

TEST_CASE("library extensions: messages reach the callback in order, not the logs",
          "[library]") {
    Case c = readCase(fixtureCase("39-err-undef-func"));
    CommandResult command = runCommand(c);
    ExtensionResult r = linkLikeTheCommand(c, c.inputs, "");
    CHECK(r.result == CULDLINK_ERROR_INTERNAL);
    CHECK(r.status == command.status);
    CHECK(r.status == 255);
    CHECK(r.errorLog.empty());
    std::string text;
    for (const Message &m : r.messages) {
        CHECK(m.kind == CULDLINK_MESSAGE_ERROR);
        text += m.text;
    }
    CHECK(text == command.stderrText);
}

TEST_CASE("library extensions: an input path is opened when the link runs", "[library]") {
    Case c = readCase(fixtureCase("02-cross-file-call"));
    std::vector<std::string> inputs = c.inputs;
    std::string missing = (scratch() / "no-such-input.cubin").string();
    inputs.insert(inputs.begin(), missing);
    // culdLinkAddFile opens at once; culdLinkAddInputPath leaves it to
    // Complete, which reports it as the command does (exit status 1).
    culdLinkHandle h = nullptr;
    const char *arch[] = {"-arch=sm_80"};
    REQUIRE(culdLinkCreate(&h, 1, arch) == CULDLINK_SUCCESS);
    CHECK(culdLinkAddFile(h, CULDLINK_INPUT_ANY, missing.c_str()) ==
          CULDLINK_ERROR_INVALID_INPUT);
    CHECK(culdLinkAddInputPath(h, missing.c_str()) == CULDLINK_SUCCESS);
    CHECK(culdLinkAddInputPath(h, nullptr) == CULDLINK_ERROR_NULL_INPUT);
    CHECK(culdLinkDestroy(&h) == CULDLINK_SUCCESS);

    ExtensionResult r = linkLikeTheCommand(c, inputs, "");
    CHECK(r.result == CULDLINK_ERROR_INTERNAL);
    CHECK(r.status == 1);
    REQUIRE(r.messages.size() == 1);
    CHECK(r.messages[0].text == "culd error : " + missing + ": cannot open: No such file or directory\n");
}
