// --gen-host-linker-script: instead of linking, write the host linker script
// fragment that keeps the sections holding device code together.
//   lcs-aug: only the fragment (nvlink's exact text: tabs, and a trailing
//            space after the __nv_relfatbin line);
//   lcs-abs: the default script of `ld --verbose` run with the options the
//            host compiler (--host-ccbin, default gcc) passes to its own link
//            step (-pie, -z ..., -m ...), then the fragment — what nvlink
//            does through a shell pipeline; culd runs the tools directly.
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/Options.h"
#include "culd/OutputFile.h"
#include "culd/Process.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace culd {

namespace {

const char kFragment[] = "SECTIONS\n"
                         "{\n"
                         "\t.nvFatBinSegment : { *(.nvFatBinSegment) }\n"
                         "\t__nv_relfatbin : { *(__nv_relfatbin) } \n"
                         "\t.nv_fatbin : { *(.nv_fatbin) }\n"
                         "}\n";

// The options of the host compiler's own link step that change ld's default
// script: -pie, -shared, -r, "-z X", "-m X" on its collect2 line (none when
// the compiler shows no collect2 line, as clang does).
std::vector<std::string> hostLinkOptions(const std::string &ccbin) {
    std::string all = runProcess({ccbin, "-###", "/dev/null", "-m64"}, true).output;
    std::vector<std::string> options;
    size_t pos = all.find("collect2");
    if (pos == std::string::npos)
        return options;
    size_t lineStart = all.rfind('\n', pos);
    size_t lineEnd = all.find('\n', pos);
    std::string line = all.substr(lineStart == std::string::npos ? 0 : lineStart + 1,
                                  lineEnd == std::string::npos ? std::string::npos
                                                               : lineEnd - lineStart - 1);
    std::vector<std::string> words;
    for (size_t i = 0; i < line.size();) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '"'))
            ++i;
        size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '"')
            ++j;
        if (j > i)
            words.push_back(line.substr(i, j - i));
        i = j;
    }
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string &w = words[i];
        if (w == "-pie" || w == "-r" || w == "-shared")
            options.push_back(w);
        else if ((w == "-z" || w == "-m") && i + 1 < words.size()) {
            options.push_back(w);
            options.push_back(words[++i]);
        }
    }
    return options;
}

std::string defaultScript(const std::string &ccbin) {
    std::vector<std::string> args = {"ld", "--verbose"};
    for (std::string &o : hostLinkOptions(ccbin))
        args.push_back(o);
    std::string verbose = runProcess(args, false).output;
    const std::string rule = "==================================================\n";
    size_t start = verbose.find(rule);
    size_t end = start == std::string::npos ? start : verbose.find(rule, start + rule.size());
    if (end == std::string::npos)
        throw FatalError("'ld --verbose' printed no default linker script");
    start += rule.size();
    return verbose.substr(start, end - start);
}

} // namespace

void writeHostLinkerScript(const Options &opts) {
    const std::string &mode = opts.hostLinkerScript;
    if (mode != "lcs-aug" && mode != "lcs-abs")
        throw FatalError("invalid value '" + mode +
                         "' for option '--gen-host-linker-script' (lcs-abs, lcs-aug)");
    // nvlink refuses inputs here rather than ignore them.
    if (!opts.inputs.empty())
        throw FatalError("Input files are not allowed with -ghls option; use --help for more "
                         "information");
    std::string text =
        (mode == "lcs-abs" ? defaultScript(opts.hostCcbin.empty() ? "gcc" : opts.hostCcbin)
                           : std::string()) +
        kFragment;
    if (opts.outputFile.empty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return;
    }
    writeFileAtomically(opts.outputFile, std::vector<uint8_t>(text.begin(), text.end()));
}

} // namespace culd
