// culd-dump: prints cubins readelf-style, with CUDA meaning, as stable text
// for golden tests and for comparing culd's output with nvlink's.
#include "Dumper.h"

#include "culd/CubinInfo.h"
#include "culd/Diagnostics.h"
#include "culd/ElfFile.h"
#include "culd/MappedFile.h"
#include "culd/PluginRegistry.h"

#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>
#include <optional>

namespace po = boost::program_options;
using namespace culd;

namespace {

struct DumpOptions {
    DumpParts parts;
    std::vector<std::string> pluginDirs;
    std::vector<std::string> files;
};

void reportError(const std::string &message) {
    std::fprintf(stderr, "culd-dump error : %s\n", message.c_str());
}

po::options_description describeOptions() {
    po::options_description desc("Usage: culd-dump [options] FILE...\nOptions");
    desc.add_options()
        ("help", "print this help")
        ("file-header,h", "ELF header with decoded e_flags")
        ("program-headers,l", "program headers")
        ("section-headers,S", "section headers")
        ("symbols,s", "symbol tables (.symtab, .nv.merc.symtab)")
        ("relocs,r", "relocation sections")
        ("nv-info", ".nv.info*, .nv.compat, .nv.callgraph, .nv.prototype, .nv.rel.action")
        ("notes", ".note.nv.cuinfo / .note.nv.tkinfo")
        ("all,a", "everything (the default)")
        ("plugin-dir", po::value<std::vector<std::string>>(), "also search DIR for plugins")
        ("input", po::value<std::vector<std::string>>(), "input file");
    return desc;
}

// Returns nullopt after printing help.
std::optional<DumpOptions> parseOptions(int argc, char **argv) {
    po::options_description desc = describeOptions();
    po::positional_options_description positional;
    positional.add("input", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(desc).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
        std::cout << desc << '\n';
        return std::nullopt;
    }
    DumpOptions o;
    DumpParts &p = o.parts;
    p.header = vm.count("file-header");
    p.programHeaders = vm.count("program-headers");
    p.sections = vm.count("section-headers");
    p.symbols = vm.count("symbols");
    p.relocations = vm.count("relocs");
    p.nvInfo = vm.count("nv-info");
    p.notes = vm.count("notes");
    bool any = p.header || p.programHeaders || p.sections || p.symbols || p.relocations ||
               p.nvInfo || p.notes;
    if (vm.count("all") || !any)
        p = DumpParts{true, true, true, true, true, true, true};
    if (vm.count("plugin-dir"))
        o.pluginDirs = vm["plugin-dir"].as<std::vector<std::string>>();
    if (vm.count("input"))
        o.files = vm["input"].as<std::vector<std::string>>();
    if (o.files.empty())
        throw FatalError("no input files");
    return o;
}

// The plugin naming this file's relocation types, or null with `note` set.
const Plugin *findPlugin(PluginRegistry &registry, const ElfFile &elf, std::string &note) {
    const ElfHeader &h = elf.header();
    CudaElfFlags flags = decodeElfFlags(h.osabi, h.abiVersion, h.flags);
    try {
        return &registry.pluginFor(flags.sm);
    } catch (const std::exception &) {
        note = "no plugin serves sm_" + std::to_string(flags.sm) +
               "; relocation types are shown as numbers";
        return nullptr;
    }
}

bool needsPlugin(const DumpParts &parts) { return parts.relocations || parts.nvInfo; }

// Dumps one file to stdout; returns false (after reporting) when it is corrupt.
bool dumpFile(const std::string &path, const DumpOptions &options, PluginRegistry &registry) {
    std::string out;
    bool ok = true;
    try {
        std::unique_ptr<MappedFile> file = MappedFile::open(path);
        ElfFile elf = ElfFile::parse(path, file->bytes());
        std::string note;
        const Plugin *plugin = needsPlugin(options.parts) ? findPlugin(registry, elf, note) : nullptr;
        Dumper(elf, plugin, note, out).dump(options.parts);
    } catch (const FatalError &e) {
        ok = false;
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
        reportError(e.what());
        return ok;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return ok;
}

} // namespace

int main(int argc, char **argv) {
    std::optional<DumpOptions> options;
    try {
        options = parseOptions(argc, argv);
    } catch (const std::exception &e) {
        reportError(e.what());
        return 1;
    }
    if (!options)
        return 0;
    PluginRegistry registry(options->pluginDirs);
    bool allOk = true;
    for (size_t i = 0; i < options->files.size(); ++i) {
        if (i)
            std::fputs("\n", stdout);
        allOk &= dumpFile(options->files[i], *options, registry);
    }
    return allOk ? 0 : 1;
}
