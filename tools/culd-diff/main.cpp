// culd-diff A B: says whether two cubins are byte-identical, equivalent
// (same meaning) or different, and if different, where.
//
// Exit status: 0 IDENTICAL or EQUIVALENT, 1 DIFFERENT, 2 error.
#include "culd/CubinDiff.h"
#include "culd/CubinInfo.h"
#include "culd/Diagnostics.h"
#include "culd/ElfFile.h"
#include "culd/MappedFile.h"
#include "culd/PluginRegistry.h"

#include <boost/program_options.hpp>

#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace {

constexpr int kExitDifferent = 1;
constexpr int kExitError = 2;

struct CommandLine {
    std::string fileA, fileB;
    size_t maxDiffs = 20;
    bool verbose = false;
    culd::CubinDiffOptions diff;
};

void printUsage(std::ostream &out, const po::options_description &visible) {
    out << "usage: culd-diff [options] A.cubin B.cubin\n"
           "Compares two cubins by meaning; prints IDENTICAL, EQUIVALENT or DIFFERENT.\n"
        << visible;
}

// Returns nullopt when the program should exit with `exitCode`.
std::optional<CommandLine> parseCommandLine(int argc, char **argv, int &exitCode) {
    CommandLine cl;
    std::vector<std::string> files;
    po::options_description visible("options");
    // clang-format off
    visible.add_options()
        ("help,h", "print this help")
        ("verbose,v", po::bool_switch(&cl.verbose), "list every difference")
        ("max-diffs", po::value(&cl.maxDiffs)->default_value(20),
         "differences to print without -v")
        ("ignore-section", po::value(&cl.diff.ignoredSections)->composing(),
         "skip the section(s) of this name (repeatable)")
        ("strict-order", po::bool_switch(&cl.diff.strictOrder),
         "also report layout-only differences: section and symbol order, raw segment sizes")
        ("code-order", po::bool_switch(&cl.diff.codeOrder),
         "also report a different order of .text.<f>, .nv.shared.<k> and .nv.capmerc.text.<f>");
    // clang-format on
    po::options_description all;
    all.add(visible).add_options()("file", po::value(&files));
    po::positional_options_description positional;
    positional.add("file", -1);

    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
        printUsage(std::cout, visible);
        exitCode = 0;
        return std::nullopt;
    }
    if (files.size() != 2) {
        std::cerr << "culd-diff error : expected two files, got " << files.size() << "\n";
        printUsage(std::cerr, visible);
        exitCode = kExitError;
        return std::nullopt;
    }
    cl.fileA = files[0];
    cl.fileB = files[1];
    return cl;
}

// Relocation type names come from the plugin serving the file's SM. The
// plugin is loaded only when a relocation difference is printed; without
// one, types are shown as numbers.
class RelocationNamer {
public:
    explicit RelocationNamer(uint32_t sm) : sm_(sm) {}

    std::string operator()(uint32_t type) {
        if (!tried_) {
            tried_ = true;
            try {
                plugin_ = &registry_.pluginFor(sm_);
            } catch (const std::exception &) {
                plugin_ = nullptr;
            }
        }
        std::string number = "type " + std::to_string(type);
        return plugin_ ? plugin_->relocName(type) + " (" + number + ")" : number;
    }

private:
    uint32_t sm_;
    bool tried_ = false;
    culd::PluginRegistry registry_;
    const culd::Plugin *plugin_ = nullptr;
};

int run(const CommandLine &cl) {
    auto mapA = culd::MappedFile::open(cl.fileA);
    auto mapB = culd::MappedFile::open(cl.fileB);
    culd::ElfFile a = culd::ElfFile::parse(cl.fileA, mapA->bytes());
    culd::ElfFile b = culd::ElfFile::parse(cl.fileB, mapB->bytes());

    culd::CubinDiffOptions options = cl.diff;
    const culd::ElfHeader &h = a.header();
    auto namer = std::make_shared<RelocationNamer>(
        culd::decodeElfFlags(h.osabi, h.abiVersion, h.flags).sm);
    options.relocationName = [namer](uint32_t type) { return (*namer)(type); };

    culd::CubinDiffResult result = culd::diffCubins(a, b, options);
    culd::printDiffReport(std::cout, result, cl.verbose ? SIZE_MAX : cl.maxDiffs);
    return result.same() ? 0 : kExitDifferent;
}

} // namespace

int main(int argc, char **argv) {
    try {
        int exitCode = 0;
        std::optional<CommandLine> cl = parseCommandLine(argc, argv, exitCode);
        return cl ? run(*cl) : exitCode;
    } catch (const std::exception &e) {
        std::cerr << "culd-diff error : " << e.what() << "\n";
        return kExitError;
    }
}
