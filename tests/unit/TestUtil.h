// Small helpers shared by the unit tests: fixture discovery, whole-file
// reads and self-removing temporary directories.
#pragma once

#include "culd/ElfFile.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace culd::test {

namespace fs = std::filesystem;

inline fs::path fixturesDir() { return fs::path(CULD_FIXTURES_DIR); }

// Every *.cubin under the fixtures directory, recursively, in a stable order.
inline std::vector<std::string> fixtureCubins() {
    std::vector<std::string> files;
    std::error_code ec;
    if (!fs::is_directory(fixturesDir(), ec))
        return files;
    for (auto it = fs::recursive_directory_iterator(fixturesDir(), ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".cubin")
            files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    return files;
}

// The path relative to the fixtures directory, for messages.
inline std::string fixtureName(const std::string &path) {
    return fs::path(path).lexically_relative(fixturesDir()).string();
}

inline std::vector<uint8_t> readFile(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void writeFile(const fs::path &path, const std::vector<uint8_t> &bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        for (;;) {
            path_ = fs::temp_directory_path() / ("culd-test-" + std::to_string(rd()));
            if (fs::create_directory(path_))
                break;
        }
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    const fs::path &path() const { return path_; }
    fs::path operator/(const std::string &name) const { return path_ / name; }

private:
    fs::path path_;
};

// A committed test input under tests/inputs (must exist and not be empty).
inline std::vector<uint8_t> input(const std::string &name) {
    std::vector<uint8_t> bytes = readFile(fs::path(CULD_SOURCE_DIR) / "tests" / "inputs" / name);
    REQUIRE_FALSE(bytes.empty());
    return bytes;
}

inline ByteView view(const std::vector<uint8_t> &bytes) {
    return ByteView{bytes.data(), bytes.size()};
}

inline std::string text(ByteView v) {
    return std::string(reinterpret_cast<const char *>(v.data), v.size);
}

// What the culd driver did with some inputs: its exit status, its stderr
// and the output it left (empty: none).
struct DriverRun {
    int rc = 0;
    std::string err;
    std::vector<uint8_t> out;
};

// Runs the culd driver in a fresh directory holding `inputs` (file name,
// bytes), with `args` (the input names among them) and `-o out.cubin`.
inline DriverRun runCuld(const std::vector<std::pair<std::string, std::vector<uint8_t>>> &inputs,
                         const std::string &args) {
    TempDir dir;
    for (const auto &[name, bytes] : inputs)
        writeFile(dir / name, bytes);
    std::string culd = std::string(CULD_BINARY_DIR) + "/tools/culd/culd";
    std::string cmd = "cd '" + dir.path().string() + "' && '" + culd + "' " + args +
                      " -o out.cubin 2> err.txt";
    DriverRun run;
    run.rc = std::system(cmd.c_str());
    std::vector<uint8_t> err = readFile(dir / "err.txt");
    run.err.assign(err.begin(), err.end());
    if (fs::exists(dir / "out.cubin"))
        run.out = readFile(dir / "out.cubin");
    return run;
}

} // namespace culd::test
