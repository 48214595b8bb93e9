#include "culd/Link.h"

#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/ElfFile.h"
#include "culd/InputChecks.h"
#include "culd/InputKind.h"
#include "culd/MappedFile.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace culd {

namespace {

// Runs one pass, timing it for -v.
template <class Pass> void run(const char *name, Context &ctx, Pass pass) {
    auto start = std::chrono::steady_clock::now();
    pass(ctx);
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    spdlog::debug("pass {}: {} us", name, us);
}

// nvlink overwrites an input named by -o without a word; the input would be
// lost, so refuse before anything is read or written.
void checkOutputIsNoInput(const Options &opts) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (opts.outputFile.empty() || !fs::exists(opts.outputFile, ec))
        return;
    for (size_t i = 0; i < opts.inputs.size(); ++i) {
        const std::string &input = opts.inputs[i];
        if (i < opts.inputBuffers.size() && opts.inputBuffers[i].data)
            continue;
        if (fs::equivalent(opts.outputFile, input, ec))
            throw FatalError("output file '" + opts.outputFile + "' is also an input ('" + input +
                             "'); refusing to overwrite it");
    }
}

// As lld does, a map file that cannot be written stops the link before
// anything is read, rather than after the cubin is written.
void checkMapFileWritable(const Options &opts) {
    if (opts.mapFile.empty() || opts.mapFile == "-")
        return;
    std::ofstream probe(opts.mapFile, std::ios::binary | std::ios::app);
    if (!probe)
        throw FatalError("cannot open map file '" + opts.mapFile + "'");
}

} // namespace

OutputSection *Context::makeOutput(std::string name, uint32_t type, uint64_t flags) {
    OutputSection &s = outputArena.emplace_back();
    s.name = std::move(name);
    s.type = type;
    s.flags = flags;
    outputs.push_back(&s);
    return &s;
}

bool Context::anyInputElfAbiV7() const {
    return std::any_of(files.begin(), files.end(),
                       [](const auto &f) { return f->elf().header().abiVersion < 8; });
}

// What nvlink checks of its inputs when it links nothing (a compute_XX
// target): each can be opened, and a cubin is not newer than the toolkit.
static void checkInputFiles(const Options &opts) {
    for (size_t i = 0; i < opts.inputs.size(); ++i) {
        const std::string &path = opts.inputs[i];
        std::unique_ptr<MappedFile> map;
        ByteView bytes;
        if (i < opts.inputBuffers.size() && opts.inputBuffers[i].data) {
            bytes = ByteView{opts.inputBuffers[i].data, opts.inputBuffers[i].size};
        } else {
            map = MappedFile::open(path);
            bytes = map->bytes();
        }
        if (detectInputKind(bytes, path) == InputKind::Cubin)
            checkCudaVersions(path, ElfFile::parse(path, bytes), 0);
    }
}

// Links culd does not carry the Mercury shadow set of sm_100+ inputs
// through (.nv.capmerc.text.<f>, .nv.merc.*) while nvlink does: a plugin
// that does not pair Mercury sections with their SASS twins. Called once
// every check nvlink makes has passed, so a link nvlink refuses is refused
// in nvlink's words first.
static void refuseUnlinkedMercurySet(Context &ctx) {
    const char *why = !ctx.target.linksMercurySet() ? "by a plugin that does not pair them"
                                                    : nullptr;
    if (!why)
        return;
    for (const auto &file : ctx.files)
        for (const InputSection *s : file->sections)
            if (s && s->kind == SectionKind::Mercury)
                throw FatalError(file->name() + ": section '" + std::string(s->name()) +
                                 "': linking the Mercury shadow set (.nv.capmerc.text.<f>, "
                                 ".nv.merc.*) of " + ctx.target.name() + " code " + why +
                                 " is not supported yet; nvlink carries it into the output, "
                                 "which culd would write without it");
}

uint32_t linkFlags(const Context &ctx) {
    uint32_t flags = ctx.opts.debug ? CULD_LINK_F_DEBUG : 0;
    for (const auto &file : ctx.files) {
        bool debugInfo = false, keptCode = false;
        for (const ElfSection &s : file->elf().sections())
            debugInfo |= s.name == ".debug_info";
        for (const InputSection *s : file->sections)
            keptCode |= s && s->isLive() && s->kind == SectionKind::Text;
        if (debugInfo)
            flags |= CULD_LINK_F_DEBUG_INPUTS;
        else if (keptCode)
            flags |= CULD_LINK_F_RELEASE_CODE;
    }
    return flags;
}

namespace {

// One run of the passes over a fresh Context.
void linkOnce(const Options &opts, const Target &target,
              const std::map<std::string, std::string> &ptxInsteadOfCubin) {
    Context ctx(opts, target);
    ctx.ptxInsteadOfCubin = ptxInsteadOfCubin;
    // nvlink says so too: on the targets whose plugin flags it (sm_90 and
    // later) its --preserve-relocs covers only part of what was resolved
    // (see Relocations.cpp).
    if (opts.preserveRelocs && target.preserveRelocsIsPartial())
        Diagnostics::get().warning("Option '--preserve-relocs' is not fully implemented for gpu "
                                   "architecture '" + opts.archText +
                                   "' and may not work as expected");

    run("read", ctx, readInputs);
    if (isLtoLink(ctx)) {
        run("lto", ctx, linkTimeOptimize);
        if (!opts.registerLinkBinaries.empty())
            writeRegistrationFile(ctx);
        return;
    }
    run("resolve", ctx, resolveSymbols);
    run("callgraph", ctx, buildCallGraph);
    run("mark-live", ctx, markLive);
    // Before anything is printed to stdout: it may start the link again.
    run("cross-target", ctx, chooseCrossTargetCode);
    if (!opts.traceSymbols.empty())
        run("trace-symbol", ctx, traceSymbols);
    if (!opts.whyLive.empty())
        run("why-live", ctx, printWhyLive);
    run("undefined", ctx, reportUndefined);
    run("analyze", ctx, analyzeCallGraph);
    run("stack-warnings", ctx, warnUnboundedStacks);
    // nvlink prints the call graph once dead code is removed: after its
    // undefined-symbol errors (a link failing on them still prints it) and
    // before its register propagation, whose errors and "propagated" lines
    // follow it (checkRegisterLimits), also in a link that has failed. A
    // relocatable link builds no call graph and prints nothing.
    if ((opts.dumpCallgraph || opts.dumpCallgraphNoDemangle) && !opts.relocatable)
        dumpCallGraph(ctx);
    run("register-limits", ctx, checkRegisterLimits);
    if (Diagnostics::get().errorCount())
        throw ErrorsReported();
    // Before anything is placed: code the target changes (sm_100+ kernels
    // lose their fence placeholders) moves what addresses it.
    run("rewrite-code", ctx, rewriteCode);
    run("debug-frame", ctx, linkFramesByEntry);
    run("debug-line", ctx, linkLineTablesBySequence);
    run("debug-registers", ctx, clearRepeatedRegisterRanges);
    run("lost-copy-banks", ctx, keepLostCopyBanks);
    run("merge", ctx, createOutputSections);
    run("debug-line-strings", ctx, moveLineTableStrings);
    run("function-banks", ctx, placeFunctionBanks);
    run("layout", ctx, layoutMemory);
    // The Mercury twins of what was placed go where their twins went.
    run("mercury-sections", ctx, createMercurySections);
    run("relocate", ctx, processRelocations);
    run("finalize", ctx, synthesizeMetadata);
    // Errors reported along the way (a warning under -Werror, say) stop the
    // link before anything is written; they have been printed already.
    if (Diagnostics::get().errorCount())
        throw ErrorsReported();
    run("mercury-set", ctx, refuseUnlinkedMercurySet);
    run("write", ctx, writeOutput);
    if (!opts.registerLinkBinaries.empty())
        writeRegistrationFile(ctx);
    if (!opts.dotFile.empty())
        writeDotFile(ctx);
    if (opts.verbose)
        reportResources(ctx);
    if (opts.printMap || !opts.mapFile.empty())
        writeMapFile(ctx);
}

} // namespace

void runLink(const Options &opts, const Plugin &plugin) {
    // Built once, before any pass: every per-arch question of the passes
    // goes to it (and through it to the plugin), never to the C structs.
    Target target(plugin, opts.sm);
    // Virtual targets without LTO (nvlink 13.0): lto_XX is refused; for
    // compute_XX nvlink opens its inputs, checks them as files and writes
    // nothing, exit 0, with or without -o.
    if (opts.archKind == ArchKind::Lto)
        throw FatalError("Link target of '" + opts.archText +
                         "' is virtual target that is not JIT-able; use 'sm_' target instead");
    if (opts.archKind == ArchKind::Virtual) {
        checkInputFiles(opts);
        return;
    }
    if (opts.outputFile.empty() && !opts.outputBuffer)
        throw FatalError("no output file given (use -o FILE)");
    checkOutputIsNoInput(opts);
    checkMapFileWritable(opts);
    // A second run reads the PTX of the inputs the first asked for
    // (CrossTarget.cpp); each run asks only for inputs not yet given, so
    // there are at most as many runs as inputs.
    std::map<std::string, std::string> ptxInsteadOfCubin;
    for (;;) {
        try {
            return linkOnce(opts, target, ptxInsteadOfCubin);
        } catch (const RelinkFromPtx &relink) {
            size_t before = ptxInsteadOfCubin.size();
            ptxInsteadOfCubin.insert(relink.inputs.begin(), relink.inputs.end());
            if (ptxInsteadOfCubin.size() == before)
                throw FatalError("internal error: the link asked again for the PTX it reads");
            // What the first run printed is not printed again.
            Diagnostics::get().startOver();
        }
    }
}

} // namespace culd
