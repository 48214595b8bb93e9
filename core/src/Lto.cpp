// Link-time optimisation (-lto, -dlto) of a link whose every input carries
// LTO IR for the target.
//
// nvlink hands the LTO IR to libnvvm through a hidden entry point, then
// compiles the PTX with its built-in ptxas. culd gets the same PTX from
// libnvJitLink's documented API (`-arch=sm_XX -lto -ptx`), loaded at run
// time, and compiles it with the external ptxas (`-arch sm_XX -m 64`, whole
// program): the cubin is byte-identical to nvlink's (docs/nvlink-findings.md,
// "Link-time optimisation").
//
// Not modelled, and refused: partial LTO (LTO IR mixed with cubins, PTX or
// objects without LTO IR, or LTO code calling libcudadevrt; nvlink compiles
// the LTO part as device-c code and links it with the rest, which
// nvJitLink's whole-program PTX cannot reproduce) and the options of culd's
// own passes, which an LTO link does not run.
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvJitLink.h"
#include "culd/OutputFile.h"
#include "culd/Ptxas.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace culd {

namespace {

// Options that culd's passes honour but an LTO link (whose cubin ptxas
// writes) would silently drop: refused, never ignored.
void refuseOptionsLtoIgnores(const Options &opts) {
    const std::pair<bool, const char *> options[] = {
        {opts.relocatable, "-r"},
        {opts.debug, "-g"},
        {opts.preserveRelocs, "--preserve-relocs"},
        {!opts.kernelsUsed.empty(), "--kernels-used"},
        {!opts.variablesUsed.empty(), "--variables-used"},
        {opts.useHostInfo, "--use-host-info"},
        {opts.ignoreHostInfo, "--ignore-host-info"},
        {opts.keepSystemLibraries, "--keep-system-libraries"},
        {opts.dumpCallgraph || opts.dumpCallgraphNoDemangle, "--dump-callgraph"},
        {!opts.dotFile.empty(), "--dot-file"},
        {!opts.mapFile.empty() || opts.printMap, "-Map/--print-map"},
        {!opts.whyLive.empty(), "--why-live"},
        {!opts.traceSymbols.empty(), "--trace-symbol"},
        {opts.verbose, "-v"},
    };
    for (const auto &[given, name] : options)
        if (given)
            throw FatalError(std::string("option '") + name +
                             "' is not supported with link-time optimisation (-lto) yet");
}

// nvJitLink's spelling of nvlink's LTO options. nvlink gives libnvvm
// -maxreg, -split-compile and the -Xnvvm options; nvJitLink passes its own
// equivalents on to libnvvm. For sm_90a nvJitLink is asked for sm_90a (it
// refuses lto_90a inputs for sm_90); retargetPtxAsNvlink() then gives the
// PTX the target nvlink's has.
std::vector<std::string> jitLinkOptions(const Options &opts) {
    std::vector<std::string> out{"-arch=" + opts.archText, "-lto", "-ptx"};
    if (opts.maxRegCount)
        out.push_back("-maxrregcount=" + std::to_string(opts.maxRegCount));
    if (opts.splitCompile)
        out.push_back("-split-compile=" + std::to_string(opts.splitCompile));
    if (opts.splitCompileExtended)
        out.push_back("-split-compile-extended=" + std::to_string(opts.splitCompileExtended));
    for (const std::string &o : opts.xnvvm)
        out.push_back("-Xnvvm=" + o);
    return out;
}

// What nvlink's built-in ptxas gets besides `-arch sm_XX -m 64`: the
// register limit and split compilation (both recorded in
// .note.nv.tkinfo), then -Xptxas.
std::vector<std::string> ptxasOptions(const Options &opts) {
    std::vector<std::string> out;
    if (opts.maxRegCount)
        out.insert(out.end(), {"-maxrregcount", std::to_string(opts.maxRegCount)});
    if (opts.splitCompile)
        out.insert(out.end(), {"-split-compile", std::to_string(opts.splitCompile)});
    out.insert(out.end(), opts.xptxas.begin(), opts.xptxas.end());
    return out;
}

// -time: nvlink's rows for the two LTO steps, e.g.
//   lto.nvvm , cicc ,  , lto.ptx , sm_80 , nvlink , 12.6860 , ms
class TimedStep {
public:
    TimedStep(const Options &opts, const char *input, const char *phase, const char *output)
        : opts_(opts), input_(input), phase_(phase), output_(output),
          start_(std::chrono::steady_clock::now()) {}

    void done() const {
        if (opts_.timeFile.empty())
            return;
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start_)
                              .count();
        char metric[32];
        std::snprintf(metric, sizeof metric, "%.4f", ms);
        const std::string row = std::string(input_) + " , " + phase_ + " ,  , " + output_ +
                                " , " + opts_.archText + " , nvlink , " + metric + " , ms\n";
        if (opts_.timeFile == "-") {
            std::cout << row << std::flush;
            return;
        }
        std::ofstream out(opts_.timeFile, std::ios::app | std::ios::binary);
        if (!(out << row) || !out.flush())
            throw FatalError("Cannot write file '" + opts_.timeFile + "'");
    }

private:
    const Options &opts_;
    const char *input_, *phase_, *output_;
    std::chrono::steady_clock::time_point start_;
};

// Compiles the whole program's PTX. A function it calls that no LTO input
// defines (libcudadevrt's device runtime, for one; ptxas resolves its own
// built-ins such as vprintf and malloc) needs non-LTO code: nvlink then
// compiles the PTX as relocatable code and links it with that code, a
// partial LTO that culd does not model.

std::vector<uint8_t> compileLinkedPtx(const Options &opts, const std::string &ptx,
                                      const std::string &ptxas) {
    try {
        return compileWholeProgramPtx(ptx, "lto.ptx", opts.archText, ptxas, ptxasOptions(opts));
    } catch (const FatalError &e) {
        static const std::string kUnresolved = "Unresolved extern function '";
        const std::string message = e.what();
        const size_t at = message.find(kUnresolved);
        if (at == std::string::npos)
            throw;
        const size_t start = at + kUnresolved.size();
        throw FatalError("link-time optimisation: the LTO code calls '" +
                         message.substr(start, message.find('\'', start) - start) +
                         "', which no LTO input defines (libcudadevrt's device runtime, say): "
                         "partial link-time optimisation (LTO IR mixed with non-LTO inputs) is "
                         "not supported yet");
    }
}

// As the writer does: -o writes the file, libculd keeps the bytes of a
// cubin too (the PTX of -emit-ptx it has already, ltoPtxBuffer).
enum class Result { Cubin, Ptx };

void writeResult(const Options &opts, std::vector<uint8_t> bytes, Result result) {
    const char *what = result == Result::Cubin ? "linked cubin" : "linked PTX";
    if (bytes.size() > opts.limits.maxOutputBytes)
        throw FatalError(std::string("the ") + what + " is " + std::to_string(bytes.size()) +
                         " bytes, past the limit of " +
                         std::to_string(opts.limits.maxOutputBytes) + " (--max-output-size)");
    if (!opts.outputFile.empty())
        writeFileAtomically(opts.outputFile, bytes);
    if (opts.outputBuffer && result == Result::Cubin)
        *opts.outputBuffer = std::move(bytes);
}

} // namespace

// nvlink 13.0 has libnvvm write PTX for the family's base target
// (`.target sm_90` for -arch=sm_90a; only its ptxas gets sm_90a): the PTX of
// -emit-ptx says so, and arch-specific instructions (setmaxnreg) fail in its
// ptxas ("not supported on .target 'sm_90'"). nvJitLink's PTX for sm_90a
// differs from it in that directive only (measured), so culd writes nvlink's.
void retargetPtxAsNvlink(std::string &ptx, const Options &opts) {
    if (!opts.archSuffix)
        return;
    const std::string suffixed = ".target " + opts.archText;
    const size_t at = ptx.find(suffixed);
    const size_t end = at + suffixed.size();
    if (at == std::string::npos || (end < ptx.size() && ptx[end] != '\n' && ptx[end] != ','))
        return;
    ptx.erase(end - 1, 1); // "sm_90a" -> "sm_90"
}

bool isLtoLink(Context &ctx) {
    if (!ctx.opts.lto)
        return false;
    if (ctx.ltoInputs.empty()) {
        // An ordinary link follows, as in nvlink.
        Diagnostics::get().warning("Ignoring -dlto option because no LTO objects found");
        return false;
    }
    if (!ctx.files.empty())
        throw FatalError("'" + ctx.files.front()->name() + "' has no LTO IR for " +
                         ctx.opts.archText + " but '" + ctx.ltoInputs.front().name +
                         "' has: partial link-time optimisation (LTO IR mixed with non-LTO "
                         "inputs) is not supported yet");
    refuseOptionsLtoIgnores(ctx.opts);
    return true;
}

void linkTimeOptimize(Context &ctx) {
    const Options &opts = ctx.opts;
    // Step 1: nvJitLink links the LTO IR and optimises the whole program
    // into PTX (nvlink: libnvvm, "cicc" in -time).
    TimedStep nvvm(opts, "lto.nvvm", "cicc", "lto.ptx");
    const std::string ptxas = findPtxas(opts.ptxasPath);
    if (ptxas.empty() && !opts.emitPtx)
        throw FatalError("link-time optimisation needs ptxas to compile the linked PTX, and none "
                         "was found (use --ptxas-path, CUDA_HOME, or PATH)");
    NvJitLink jitLink(nvJitLinkCandidates(opts.nvvmPath, ptxas), jitLinkOptions(opts));
    for (const Context::LtoInput &input : ctx.ltoInputs)
        jitLink.add(input.type, input.bytes, input.name);
    jitLink.complete();
    std::string ptx = jitLink.linkedPtx();
    retargetPtxAsNvlink(ptx, opts);
    nvvm.done();
    if (opts.ltoPtxBuffer)
        *opts.ltoPtxBuffer = ptx;

    // nvlink lists LTO modules in --register-link-binaries last first.
    std::reverse(ctx.hostModules.begin(), ctx.hostModules.end());

    // -emit-ptx: the PTX is the output, nothing is compiled.
    if (opts.emitPtx)
        return writeResult(opts, std::vector<uint8_t>(ptx.begin(), ptx.end()), Result::Ptx);

    // Step 2: ptxas compiles the whole program; its cubin is the output
    // (nothing is left to link: libcudadevrt is not needed).
    TimedStep compile(opts, "lto.ptx", "ptxas", "lto.cubin");
    std::vector<uint8_t> cubin = compileLinkedPtx(opts, ptx, ptxas);
    compile.done();
    // nvlink then insists on libcudadevrt when LTO IR came in host objects
    // (nvcc always passes it), not for fatbins, .ltoir files or -emit-ptx.
    auto inObject = [](const Context::LtoInput &input) {
        return input.type == JitLinkInput::Object;
    };
    if (!ctx.deviceRuntimeRead &&
        std::any_of(ctx.ltoInputs.begin(), ctx.ltoInputs.end(), inObject))
        throw FatalError("expected libcudadevrt object");
    writeResult(opts, std::move(cubin), Result::Cubin);
}

} // namespace culd
