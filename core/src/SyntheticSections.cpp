// Metadata the linker writes itself: .nv.info (module and per function),
// .nv.callgraph, .nv.prototype, .nv.compat, .nv.rel.action and the two
// notes. Sections whose bytes hold symbol indices get a `build` callback
// that runs once the writer has numbered the symbols.
//
// nvlink's record order (checked against its output): the module .nv.info is
// the reverse of all inputs' records concatenated, followed by a computed
// MIN_STACK_SIZE per kernel; each .nv.info.<f> is the reverse of its input.
#include "culd/Context.h"
#include "culd/Hex.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvInfo.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace culd {

using namespace elf;

namespace {

void putU32(std::vector<uint8_t> &out, size_t at, uint32_t v) {
    std::memcpy(out.data() + at, &v, 4);
}

// Output index of a symbol (a section symbol stands for its section).
uint32_t outputIndex(const Symbol *s) {
    if (s->isSectionSymbol)
        return s->section && s->section->out && s->section->out->sectionSymbol
                   ? s->section->out->sectionSymbol->outIndex
                   : 0;
    return s->outIndex;
}

// An .nv.info record after merge; symbol words are patched when written.
struct MergedRecord {
    uint8_t format = 0, code = 0;
    uint16_t value = 0;
    std::vector<uint8_t> payload;
    std::vector<std::pair<uint32_t, Symbol *>> symbolWords; // byte offset, symbol

    void appendTo(std::vector<uint8_t> &out) const {
        std::vector<uint8_t> bytes = payload;
        for (auto &[at, sym] : symbolWords)
            putU32(bytes, at, outputIndex(sym));
        if (format == EIFMT_SVAL)
            appendSvalRecord(out, code, bytes.data(), static_cast<uint16_t>(bytes.size()));
        else
            appendValueRecord(out, format, code, value);
    }
};

MergedRecord mergeRecord(ObjectFile &file, const NvInfoRecord &r, bool *symbolMissing) {
    MergedRecord m;
    m.format = r.format;
    m.code = r.code;
    m.value = r.value;
    m.payload.assign(r.payload.begin(), r.payload.end());
    for (uint32_t at : symbolWordOffsets(r)) {
        uint32_t idx;
        std::memcpy(&idx, m.payload.data() + at, 4);
        if (idx == 0)
            continue; // "no symbol" (KPARAM_INFO's first word is an ordinal 0)
        Symbol *s = idx < file.symbols.size() ? file.symbols[idx] : nullptr;
        if (!s) {
            *symbolMissing = true;
            continue;
        }
        m.symbolWords.push_back({at, s});
    }
    return m;
}

bool isDeadSymbol(const Symbol *s) {
    if (s->isSectionSymbol)
        return !s->section || !s->section->isLive();
    return isRemovedFromOutput(*s);
}

// Which set an .nv.info section is built for: the SASS one, or the
// Mercury shadow set (sm_100+), whose .nv.merc.nv.info* twins nvlink builds
// from the Mercury inputs by the same rules.
enum class InfoSet { Sass, Mercury };

// Whether `s` is an input info section of `kind` in `set`.
bool isInfoInput(const InputSection *s, SectionKind kind, InfoSet set) {
    if (!s)
        return false;
    if (set == InfoSet::Sass)
        return s->kind == kind;
    return s->kind == SectionKind::Mercury && s->twin && s->twin->kind == kind;
}

class MetadataBuilder {
public:
    explicit MetadataBuilder(Context &ctx) : ctx_(ctx) {}

    void run() {
        collectFunctions();
        computeStacks();
        makeNotes();
        makeModuleInfo(InfoSet::Sass);
        if (ctx_.target.writesCompat())
            makeCompat();
        makeFunctionInfos(InfoSet::Sass);
        makeModuleInfo(InfoSet::Mercury);
        makeFunctionInfos(InfoSet::Mercury);
        makeCallgraph();
        makePrototype();
        if (ctx_.target.writesRelAction() && !ctx_.opts.relocatable)
            makeRelAction();
    }

private:
    // Live functions in output order.
    void collectFunctions() {
        for (OutputSection *o : ctx_.outputs)
            if (o->kind == SectionKind::Text && o->owner)
                functions_.push_back(o->owner);
    }

    // Register counts raised to the maximum over callees, and the deepest
    // frame-size sum along any call path, for every kernel (analyzed once
    // for the whole graph by analyzeCallGraph).
    void computeStacks() {
        for (Symbol *f : functions_) {
            if (!f->isEntry() || !f->func)
                continue;
            FunctionInfo &info = *f->func;
            bool recursive = info.reachesRecursion;
            // nvlink writes "unknown" (all ones) when recursion makes the
            // stack unbounded.
            uint64_t stack = recursive ? 0xFFFFFFFF : info.deepestStack;
            entryStack_[f] = stack;
            entryRegs_[f] = info.reachRegs;
            entryRecursive_[f] = recursive;
            info.stackSize = stack;
            info.propagatedRegs = std::max(info.reachRegs, info.regCount);
            // (warnUnboundedStacks has said so, before the call graph dump.)
        }
    }

    OutputSection *makeSynthetic(const char *name, uint32_t type, SectionKind kind,
                                 uint64_t align) {
        OutputSection *s = ctx_.makeOutput(name, type, 0);
        s->kind = kind;
        s->addralign = align;
        return s;
    }

    void makeNotes() {
        OutputSection *tk = makeSynthetic(".note.nv.tkinfo", SHT_NOTE, SectionKind::Note, 4);
        tk->flags = 0x02000000;
        tk->synthetic = toolkitNote();
        OutputSection *cu = makeSynthetic(".note.nv.cuinfo", SHT_NOTE, SectionKind::Note, 4);
        cu->flags = 0x01000040;
        cu->linkSection = tk;
        cu->synthetic = cudaInfoNote();
        cuinfo_ = cu;
        ctx_.cuinfo = cu;
    }

    static void appendNoteHeader(std::vector<uint8_t> &out, uint32_t descSize, uint32_t type) {
        uint32_t words[3] = {12, descSize, type};
        out.insert(out.end(), reinterpret_cast<uint8_t *>(words),
                   reinterpret_cast<uint8_t *>(words) + 12);
        static const char owner[12] = "NVIDIA Corp";
        out.insert(out.end(), owner, owner + 12);
    }

    // culd's own tool record, then every input's records unchanged.
    std::vector<uint8_t> toolkitNote() const {
        std::string pool;
        pool.push_back('\0');
        auto add = [&](const std::string &s) {
            uint32_t at = static_cast<uint32_t>(pool.size());
            pool += s;
            pool.push_back('\0');
            return at;
        };
        uint32_t tool = add(ctx_.opts.toolName);
        uint32_t version = add("culd, the open CUDA device linker, version " CULD_VERSION);
        uint32_t branch = add("culd");
        uint32_t options = add("-arch " + ctx_.opts.archText + " ");
        while (pool.size() % 4)
            pool.push_back('\0');
        uint32_t desc[6] = {2, 0, tool, version, branch, options};
        std::vector<uint8_t> out;
        appendNoteHeader(out, static_cast<uint32_t>(24 + pool.size()), 2000);
        out.insert(out.end(), reinterpret_cast<uint8_t *>(desc),
                   reinterpret_cast<uint8_t *>(desc) + 24);
        out.insert(out.end(), pool.begin(), pool.end());
        // The inputs' tool records follow, except in a relocatable link.
        if (!ctx_.opts.relocatable)
            for (auto &file : ctx_.files)
                if (const ElfSection *n = file->elf().findSection(".note.nv.tkinfo"))
                    out.insert(out.end(), n->data.begin(), n->data.end());
        return out;
    }

    // The first input's note, as nvlink copies it (an sm_80 cubin linked
    // for sm_86 keeps SM 80 here); a fresh one when no input has it.
    std::vector<uint8_t> cudaInfoNote() const {
        for (auto &file : ctx_.files)
            if (const ElfSection *n = file->elf().findSection(".note.nv.cuinfo"); n && n->data.size)
                return std::vector<uint8_t>(n->data.begin(), n->data.end());
        std::vector<uint8_t> out;
        appendNoteHeader(out, 8, 1000);
        uint16_t version = 2, sm = static_cast<uint16_t>(ctx_.target.sm());
        uint32_t cudaVersion = kToolkitVersion;
        out.insert(out.end(), reinterpret_cast<uint8_t *>(&version),
                   reinterpret_cast<uint8_t *>(&version) + 2);
        out.insert(out.end(), reinterpret_cast<uint8_t *>(&sm),
                   reinterpret_cast<uint8_t *>(&sm) + 2);
        out.insert(out.end(), reinterpret_cast<uint8_t *>(&cudaVersion),
                   reinterpret_cast<uint8_t *>(&cudaVersion) + 4);
        return out;
    }

    // Records of the global .nv.info of every input, reversed, with dead and
    // losing definitions dropped, then MIN_STACK_SIZE per kernel.
    void makeModuleInfo(InfoSet set) {
        std::vector<MergedRecord> records;
        const InputSection *first = nullptr;
        for (auto &file : ctx_.files)
            for (InputSection *s : file->sections) {
                if (!isInfoInput(s, SectionKind::NvInfo, set))
                    continue;
                first = first ? first : s;
                for (const NvInfoRecord &r : parseNvInfo(s->bytes(), {file->name(), s->name()}))
                    if (admitEiattr(*file, *s, r))
                        if (std::optional<MergedRecord> m = keepModuleRecord(*file, r))
                            records.push_back(std::move(*m));
            }
        // A Mercury twin only where the inputs brought Mercury records.
        if (set == InfoSet::Mercury && !first)
            return;
        std::reverse(records.begin(), records.end());
        for (Symbol *f : functions_) {
            // Stack sizes are the final link's to compute.
            if (!f->isEntry() || ctx_.opts.relocatable)
                continue;
            if (!multiEntryLink() && !f->rootKernel)
                continue;
            MergedRecord m;
            m.format = EIFMT_SVAL;
            m.code = EIATTR_MIN_STACK_SIZE;
            m.payload.assign(8, 0);
            putU32(m.payload, 4, static_cast<uint32_t>(entryStack_[f]));
            m.symbolWords.push_back({0, f});
            records.push_back(std::move(m));
        }
        if (records.empty())
            return; // nvlink writes no empty .nv.info
        OutputSection *info;
        if (set == InfoSet::Sass) {
            info = makeSynthetic(".nv.info", SHT_CUDA_INFO, SectionKind::NvInfo, 4);
            info->linkToSymtab = true;
            infoOutputs_[nullptr] = info;
        } else {
            info = makeMercuryInfo(*first, infoOutputs_[nullptr]);
        }
        info->build = [records = std::move(records)](OutputSection &self) {
            self.synthetic.clear();
            for (const MergedRecord &r : records)
                r.appendTo(self.synthetic);
        };
    }

    // Every input attribute passes the plugin's gating policy before it is
    // merged (kept, kept with a warning, dropped, or refused).
    bool admitEiattr(const ObjectFile &file, const InputSection &s, const NvInfoRecord &r) const {
        return ctx_.target.admitEiattr(r.code, file.name(), s.name());
    }

    std::optional<MergedRecord> keepModuleRecord(ObjectFile &file, const NvInfoRecord &r) {
        if (r.code == EIATTR_MAX_STACK_SIZE && !ctx_.opts.relocatable)
            return std::nullopt;
        if (r.code == EIATTR_MIN_STACK_SIZE && !ctx_.opts.relocatable)
            return std::nullopt; // recomputed
        bool missing = false;
        MergedRecord m = mergeRecord(file, r, &missing);
        if (missing)
            return std::nullopt;
        for (auto &[at, sym] : m.symbolWords) {
            if (isDeadSymbol(sym))
                return std::nullopt;
            // Facts of a definition that lost resolution belong to nobody.
            bool perDefinition = r.code == EIATTR_FRAME_SIZE || r.code == EIATTR_REGCOUNT ||
                                 r.code == EIATTR_MAX_STACK_SIZE ||
                                 r.code == EIATTR_SAM_REGION_STACK_SIZE;
            if (perDefinition && !sym->isLocal && sym->file != &file)
                return std::nullopt;
        }
        if (r.code == EIATTR_REGCOUNT && !m.symbolWords.empty() && !ctx_.opts.relocatable) {
            Symbol *f = m.symbolWords.front().second;
            if (auto it = entryRegs_.find(f); it != entryRegs_.end() && m.payload.size() >= 8) {
                uint32_t own;
                std::memcpy(&own, m.payload.data() + 4, 4);
                putU32(m.payload, 4, std::max(own, it->second));
            }
        }
        return m;
    }

    void makeCompat() {
        // Merge in first-seen order; values by the rules of each code.
        std::vector<std::pair<uint8_t, NvInfoRecord>> merged;
        std::unordered_map<uint8_t, size_t> at;
        std::vector<std::vector<uint8_t>> payloads;
        for (auto &file : ctx_.files)
            for (InputSection *s : file->sections) {
                if (!s || s->kind != SectionKind::Compat)
                    continue;
                for (const NvInfoRecord &r : parseNvInfo(s->bytes(), {file->name(), s->name()})) {
                    if (!ctx_.target.admitCompat(r.code, file->name(), s->name()))
                        continue;
                    if (r.code == EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE)
                        fastpathMasks_.push_back({file.get(), r.wordCount() ? r.word(0) : 0});
                    auto it = at.find(r.code);
                    if (it == at.end()) {
                        at[r.code] = merged.size();
                        merged.push_back({r.code, r});
                        continue;
                    }
                    mergeCompatValue(merged[it->second].second, r);
                }
            }
        // CUDA_ACCELERATOR_TARGET comes first and follows the -arch suffix;
        // nvlink writes it even when no input has a .nv.compat.
        std::vector<uint8_t> bytes;
        appendValueRecord(bytes, EIFMT_BVAL, EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET,
                          ctx_.opts.archSuffix == 'a' ? 1 : 0);
        for (auto &[code, r] : merged) {
            if (code == EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET)
                continue;
            // What the code kept allows (FastpathMask.cpp). A zero mask is
            // dropped from a SASS-only output but kept where the output
            // carries the Mercury set a finaliser reads it with (sm_100+,
            // also 0x9 & 0 for an sm_100f input linked for sm_103 with an
            // sm_103 one).
            if (code == EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE) {
                uint32_t mask = linkedFastpathMask(ctx_, fastpathMasks_).value_or(0);
                if (r.wordCount() == 0 || (mask == 0 && !ctx_.target.isMercury()))
                    continue;
                std::vector<uint32_t> words{mask};
                for (size_t i = 1; i < r.wordCount(); ++i)
                    words.push_back(r.word(i));
                appendSvalRecord(bytes, code, words);
                continue;
            }
            appendRecord(bytes, r);
        }
        OutputSection *compat = makeSynthetic(".nv.compat", SHT_CUDA_COMPAT, SectionKind::Compat, 4);
        compat->synthetic = std::move(bytes);
    }

    void mergeCompatValue(NvInfoRecord &into, const NvInfoRecord &r) {
        switch (r.code) {
        case EICOMPAT_ATTR_ISA_CLASS:
        case EICOMPAT_ATTR_INST_TCGEN05_MMA:
            into.value = std::max(into.value, r.value);
            break;
        case EICOMPAT_ATTR_INST_TENSORMAP_V1:
            into.value = static_cast<uint16_t>(into.value | r.value);
            break;
        case EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION:
            if (into.value != r.value)
                into.value = 1;
            break;
        default:
            break;
        }
    }

    // nvlink writes a function's records in the reverse of their input
    // order, except those the plugin names as tail codes (sm_100+:
    // CBANK_PARAM_SIZE, PARAM_CBANK, SW_WAR): they are taken out here and
    // go last, in input order, after the recomputed records too.
    std::vector<MergedRecord> reverseInfoRecords(std::vector<MergedRecord> &records) const {
        auto tailStart = std::stable_partition(
            records.begin(), records.end(),
            [&](const MergedRecord &r) { return !ctx_.target.isInfoTailCode(r.code); });
        std::vector<MergedRecord> tail(std::make_move_iterator(tailStart),
                                       std::make_move_iterator(records.end()));
        records.erase(tailStart, records.end());
        std::reverse(records.begin(), records.end());
        return tail;
    }

    // The Mercury twin of an .nv.info section, named and typed as its input.
    OutputSection *makeMercuryInfo(const InputSection &in, OutputSection *sass) {
        OutputSection *out = ctx_.makeOutput(std::string(in.name()), in.header->type,
                                             in.header->flags);
        out->kind = SectionKind::Mercury;
        out->mercuryKind = in.mercuryKind;
        out->addralign = 4;
        out->linkToMercurySymtab = true;
        out->twin = sass;
        if (sass)
            sass->shadow = out;
        return out;
    }

    // One .nv.info.<f> per live function: its input records reversed.
    void makeFunctionInfos(InfoSet set) {
        for (auto &file : ctx_.files)
            for (InputSection *s : file->sections) {
                if (!isInfoInput(s, SectionKind::NvInfoFunc, set) || !s->isLive() || !s->text ||
                    !s->text->out)
                    continue;
                std::vector<MergedRecord> records;
                bool entry = s->owner && s->owner->isEntry();
                bool externsInPlace = false;
                for (const NvInfoRecord &r : parseNvInfo(s->bytes(), {file->name(), s->name()})) {
                    if (!admitEiattr(*file, *s, r))
                        continue;
                    std::optional<MergedRecord> m = keepFunctionRecord(*file, r);
                    if (m && r.code == EIATTR_EXTERNS) {
                        m = entry ? kernelExterns(*m, s->owner) : stillUndefined(*m);
                        externsInPlace = entry && m.has_value();
                    }
                    if (m && set == InfoSet::Sass && s->text->isRewrittenCode())
                        moveCodeOffsets(*file, *s, *m);
                    if (m)
                        records.push_back(std::move(*m));
                }
                std::vector<MergedRecord> tail = reverseInfoRecords(records);
                // Recomputed records go at the end, as nvlink appends them
                // (a relocatable link leaves them to the final link): an
                // unknown CRS stack before the barrier count (a kernel
                // calling a recursive function and one using `bar.sync 5`).
                size_t beforeBarriers = records.size();
                if (!ctx_.opts.relocatable) {
                    appendCrsStack(records, s->owner);
                    beforeBarriers = records.size();
                    propagateBarriers(records, s->owner);
                }
                if (entry && !externsInPlace && !ctx_.opts.relocatable)
                    if (std::optional<MergedRecord> m =
                            externsRecord(kernelDependencies(s->owner))) {
                        auto at = records.end();
                        if (records.size() > beforeBarriers && externsFirstInCallee(s->owner))
                            at = records.begin() + static_cast<std::ptrdiff_t>(beforeBarriers);
                        records.insert(at, std::move(*m));
                    }
                records.insert(records.end(), std::make_move_iterator(tail.begin()),
                               std::make_move_iterator(tail.end()));
                OutputSection *out;
                if (set == InfoSet::Sass) {
                    out = ctx_.makeOutput(std::string(s->name()), SHT_CUDA_INFO, SHF_INFO_LINK);
                    out->kind = SectionKind::NvInfoFunc;
                    out->addralign = 4;
                    out->linkToSymtab = true;
                    out->infoSection = s->text->out;
                    infoOutputs_[s] = out;
                } else {
                    // Its sh_info names the function's capsule.
                    out = makeMercuryInfo(*s, infoOutputs_[s->twin]);
                    out->infoSection = s->text->out->shadow;
                }
                out->owner = s->owner;
                out->build = [records = std::move(records)](OutputSection &self) {
                    self.synthetic.clear();
                    for (const MergedRecord &r : records)
                        r.appendTo(self.synthetic);
                };
            }
    }

    // What `f` depends on from outside, in nvlink's order: the undefined
    // functions it can reach, and the kernels the EXTERNS records of reached
    // functions name (kernels launched from the device, libcudadevrt's
    // internal memset/memcpy kernels). Callees are taken last-called first
    // and each callee's own list is prepended element by element (so every
    // level reverses the one below); launched kernels of a function come
    // before its callees'. Checked against nvlink for a kernel calling
    // malloc/free through one helper and through two, and for device-side
    // launches. Memoised; a function on the current path contributes nothing
    // (recursion).
    const std::vector<Symbol *> &reachableUndefined(Symbol *f) {
        auto [it, inserted] = externsMemo_.try_emplace(f);
        if (!inserted)
            return it->second;
        std::vector<Symbol *> list;
        auto add = [&list](Symbol *e) {
            if (std::find(list.begin(), list.end(), e) == list.end())
                list.insert(list.begin(), e);
        };
        if (!f->defined) {
            list.push_back(f);
        } else if (f->func) {
            // What its indirect calls reach counts as its last callees
            // (nvlink appends those edges to the call list), so their names
            // come after the others (a kernel that news an object and
            // deletes it through its virtual destructor: {malloc, free}).
            // Functions it only takes the address of add nothing.
            const std::vector<Symbol *> &indirect = f->func->indirectCallees;
            for (auto c = indirect.rbegin(); c != indirect.rend(); ++c)
                for (Symbol *e : reachableUndefined(*c))
                    add(e);
            const std::vector<Symbol *> &callees = f->func->callees;
            for (auto c = callees.rbegin(); c != callees.rend(); ++c)
                for (Symbol *e : reachableUndefined(*c))
                    add(e);
            const std::vector<Symbol *> &kernels = f->func->externKernels;
            for (auto k = kernels.rbegin(); k != kernels.rend(); ++k)
                if (!isDeadSymbol(*k))
                    add(*k);
        }
        std::vector<Symbol *> &slot = externsMemo_[f];
        slot = std::move(list);
        return slot;
    }

    // A function whose code the target rewrote (CodeRewrite.cpp): its
    // instruction offsets go where the instructions went. A record that
    // names a removed instruction, or whose layout culd does not know (it
    // might hold offsets), is refused.
    static void moveCodeOffsets(const ObjectFile &file, const InputSection &info,
                                MergedRecord &m) {
        const EiattrInfo *attr = eiattrInfo(m.code);
        auto refuse = [&](const std::string &why) {
            return FatalError(file.name() + ": section '" + std::string(info.name()) + "': " +
                              eiattrName(m.code) + " " + why +
                              ", in a function whose code the target rewrote");
        };
        if (!attr || attr->payload == EiPayload::Opaque)
            throw refuse("has a layout culd does not know");
        if (attr->payload != EiPayload::Offsets && attr->payload != EiPayload::OffsetPairs)
            return;
        size_t stride = attr->payload == EiPayload::OffsetPairs ? 8 : 4;
        if (m.payload.size() % stride != 0)
            throw refuse("is not a whole number of records");
        for (size_t at = 0; at + 4 <= m.payload.size(); at += stride) {
            uint32_t offset;
            std::memcpy(&offset, m.payload.data() + at, 4);
            std::optional<uint64_t> moved = info.text->linkedOffset(offset);
            if (!moved)
                throw refuse("names the removed instruction at " + hex(offset));
            putU32(m.payload, at, static_cast<uint32_t>(*moved));
        }
    }

    std::optional<MergedRecord> keepFunctionRecord(ObjectFile &file, const NvInfoRecord &r) {
        bool missing = false;
        MergedRecord m = mergeRecord(file, r, &missing);
        if (missing)
            return std::nullopt;
        return m;
    }

    static std::optional<MergedRecord> externsRecord(const std::vector<Symbol *> &symbols) {
        if (symbols.empty())
            return std::nullopt;
        MergedRecord m;
        m.format = EIFMT_SVAL;
        m.code = EIATTR_EXTERNS;
        m.payload.assign(symbols.size() * 4, 0);
        for (size_t i = 0; i < symbols.size(); ++i)
            m.symbolWords.push_back({static_cast<uint32_t>(i * 4), symbols[i]});
        return m;
    }

    // A device function's EXTERNS keeps the names that are still undefined,
    // and the kernels it launches.
    static std::optional<MergedRecord> stillUndefined(const MergedRecord &m) {
        std::vector<Symbol *> still;
        for (auto &[at, sym] : m.symbolWords)
            if (!sym->defined || sym->isEntry())
                still.push_back(sym);
        return externsRecord(still);
    }

    // What a kernel's EXTERNS lists: what it depends on (reachableUndefined),
    // except for the lone root kernel of a single-entry link, which lists
    // every undefined function left in the output (loneRootDependencies).
    const std::vector<Symbol *> &kernelDependencies(Symbol *kernel) {
        if (isLoneRoot(kernel))
            return loneRootDependencies(kernel);
        return reachableUndefined(kernel);
    }

    // Where a kernel's EXTERNS goes. In a link with more than one root
    // kernel (Context::rootKernels) nvlink rewrites the input record in
    // place. The lone root kernel of a single-entry link keeps its record in
    // place only when what the record still names (undefined functions,
    // kernels) is already the whole new list; any name to add (a callee's
    // malloc, a destructor's free) drops the record, and a new one is
    // appended after the others (cases 07, 62, 08, 71; host case 22). Any
    // other kernel keeps its record in place while it still names
    // something. Which file defines what, the input order, or whether the
    // kernel's file has a symbol of the new list make no difference
    // (cases 61, 62, 07, 08, 70, 71).
    std::optional<MergedRecord> kernelExterns(const MergedRecord &input, Symbol *kernel) {
        // -r leaves the list to the final link: a kernel keeps the names of
        // its input record that are still undefined, as a device function
        // does, and gains none it reaches (a callee's free; corpus 133).
        if (ctx_.opts.relocatable)
            return stillUndefined(input);
        if (multiEntryLink())
            return externsRecord(reachableUndefined(kernel));
        std::optional<MergedRecord> still = stillUndefined(input);
        if (!still)
            return std::nullopt;
        if (isLoneRoot(kernel)) {
            const std::vector<Symbol *> &deps = loneRootDependencies(kernel);
            if (!sameSymbols(*still, deps))
                return std::nullopt;
            return externsRecord(deps);
        }
        return externsRecord(reachableUndefined(kernel));
    }

    bool isLoneRoot(const Symbol *kernel) const {
        return !multiEntryLink() && !ctx_.opts.relocatable && kernel->rootKernel;
    }

    // nvlink gives the one root kernel of a single-entry link every undefined
    // function of the output, reachable from it or not: a function only a
    // vtable or a global function-pointer table names (a virtual deleting
    // destructor's free, when the kernel deleting through it was removed)
    // counts too, though it adds no call-graph edge (registers and stack do
    // not follow it). The names the kernel reaches come first, in
    // reachableUndefined's order, then the others last-seen first (nvlink
    // lists them by descending symbol index; host case 20).
    const std::vector<Symbol *> &loneRootDependencies(Symbol *kernel) {
        if (loneRootMemo_)
            return *loneRootMemo_;
        std::vector<Symbol *> list = reachableUndefined(kernel);
        std::unordered_set<Symbol *> listed(list.begin(), list.end());
        const std::vector<Symbol *> &globals = ctx_.symtab.globals();
        for (auto it = globals.rbegin(); it != globals.rend(); ++it) {
            Symbol *s = *it;
            if (!s->defined && s->isFunction() && ctx_.referencedFromLiveCode.count(s) &&
                listed.insert(s).second)
                list.push_back(s);
        }
        loneRootMemo_ = std::move(list);
        return *loneRootMemo_;
    }

    static bool sameSymbols(const MergedRecord &record, const std::vector<Symbol *> &symbols) {
        std::unordered_set<Symbol *> named;
        for (auto &[at, sym] : record.symbolWords)
            named.insert(sym);
        return named == std::unordered_set<Symbol *>(symbols.begin(), symbols.end());
    }

    // nvlink treats a link with fewer than two root kernels (kernels kept for
    // themselves, not only because a removed launcher takes their address)
    // as a single-entry link: its root kernel's EXTERNS is computed anew
    // (kernelExterns), and only root kernels get a MIN_STACK_SIZE.
    bool multiEntryLink() const { return ctx_.rootKernels >= 2; }

    // A kernel gaining both a barrier count and an EXTERNS list through a
    // function that has both records gets them in that function's input
    // order: ptxas writes the barrier count first, as culd appends them; an
    // -r output's copy has EXTERNS first, and nvlink's final link puts the
    // kernel's EXTERNS first then (generated seed 101567, two-step,
    // sm_75-sm_120; its direct links keep the barrier count first).
    bool externsFirstInCallee(Symbol *kernel) {
        bool first = false;
        ctx_.walker.walk(kernel, [&](Symbol *f) {
            if (f != kernel && f->func && !f->func->externKernels.empty() &&
                f->func->hasNumBarriers && f->func->externsBeforeBarriers)
                first = true;
            return true;
        });
        return first;
    }

    // A kernel uses as many named barriers as the most any function it
    // reaches uses: raised in place, or appended when it had none.
    void propagateBarriers(std::vector<MergedRecord> &records, Symbol *owner) {
        if (!owner || !owner->isEntry() || !owner->func)
            return;
        uint32_t most = owner->func->reachBarriers;
        for (MergedRecord &r : records)
            if (r.code == EIATTR_NUM_BARRIERS) {
                r.value = static_cast<uint16_t>(std::max<uint32_t>(r.value, most));
                return;
            }
        if (most == 0)
            return;
        MergedRecord m;
        m.format = EIFMT_BVAL;
        m.code = EIATTR_NUM_BARRIERS;
        m.value = static_cast<uint16_t>(most);
        records.push_back(std::move(m));
    }

    // A kernel whose call graph recurses gets an unknown (all ones) CRS
    // stack size.
    void appendCrsStack(std::vector<MergedRecord> &records, Symbol *owner) {
        auto it = entryRecursive_.find(owner);
        if (it == entryRecursive_.end() || !it->second)
            return;
        for (MergedRecord &r : records)
            if (r.code == EIATTR_CRS_STACK_SIZE && r.payload.size() >= 4) {
                putU32(r.payload, 0, 0xFFFFFFFF);
                return;
            }
        MergedRecord m;
        m.format = EIFMT_SVAL;
        m.code = EIATTR_CRS_STACK_SIZE;
        m.payload.assign(4, 0xFF);
        records.push_back(std::move(m));
    }

    static Symbol *recordOwner(const CallGraph::SymbolWord &w) { return w.symbol; }
    static Symbol *recordOwner(const CallGraph::Edge &e) { return e.from; }

    // A group's records of live functions, by function in order of first
    // appearance; records of a weak definition that lost are left out.
    template <class Record>
    std::vector<std::pair<Symbol *, std::vector<const Record *>>>
    perFunction(const std::vector<Record> &records) const {
        std::vector<std::pair<Symbol *, std::vector<const Record *>>> groups;
        std::unordered_map<Symbol *, size_t> slot;
        for (const Record &r : records) {
            Symbol *owner = recordOwner(r);
            if (isDeadSymbol(owner) || (r.file && owner->defined && owner->file != r.file))
                continue;
            auto [it, isNew] = slot.try_emplace(owner, groups.size());
            if (isNew)
                groups.push_back({owner, {}});
            groups[it->second].second.push_back(&r);
        }
        return groups;
    }

    // Direct calls per live caller (callees most recent first, as nvlink's
    // list prepending leaves them), then address-taken functions (each
    // once), indirect call sites and function references.
    void makeCallgraph() {
        struct Pair {
            Symbol *a;
            Symbol *b;
            uint32_t word;
            std::string_view prototype;
        };
        std::vector<Pair> pairs;
        auto marker = [&](uint32_t m) { pairs.push_back({nullptr, nullptr, m, {}}); };
        marker(0xFFFFFFFF);
        for (Symbol *f : functions_) {
            if (!f->func)
                continue;
            for (auto it = f->func->callees.rbegin(); it != f->func->callees.rend(); ++it)
                if (!isDeadSymbol(*it))
                    pairs.push_back({f, *it, 0, {}});
        }
        const CallGraph &cg = ctx_.callGraph;
        marker(0xFFFFFFFE);
        std::unordered_set<Symbol *> seen;
        for (const auto &t : cg.addressTaken)
            if (!isDeadSymbol(t.symbol) && seen.insert(t.symbol).second)
                pairs.push_back({t.symbol, nullptr, 0, t.prototype});
        // Indirect call sites and function references: per function, in
        // the order functions first appear, its records last-read first (as
        // nvlink's list prepending leaves them). Every call site counts, so
        // a function calling through one prototype twice has two records;
        // a reference is listed once. A weak definition that lost keeps none.
        marker(0xFFFFFFFD);
        for (const auto &[caller, records] : perFunction(cg.indirectCalls))
            for (auto it = records.rbegin(); it != records.rend(); ++it)
                pairs.push_back({caller, nullptr, 0, (*it)->prototype});
        marker(0xFFFFFFFC);
        std::set<std::pair<Symbol *, Symbol *>> seenEdges;
        for (const auto &[from, records] : perFunction(cg.references))
            for (auto it = records.rbegin(); it != records.rend(); ++it)
                if (!isDeadSymbol((*it)->to) && seenEdges.insert({from, (*it)->to}).second)
                    pairs.push_back({from, (*it)->to, 0, {}});

        OutputSection *out = makeSynthetic(".nv.callgraph", SHT_CUDA_CALLGRAPH,
                                           SectionKind::Callgraph, 4);
        out->entsize = 8;
        out->linkToSymtab = true;
        StringTable &strtab = ctx_.strtab;
        out->build = [pairs = std::move(pairs), &strtab](OutputSection &self) {
            self.synthetic.clear();
            for (const Pair &p : pairs) {
                uint32_t w[2];
                w[0] = p.a ? outputIndex(p.a) : 0;
                w[1] = p.b ? outputIndex(p.b) : (p.a ? strtab.add(p.prototype) : p.word);
                self.synthetic.insert(self.synthetic.end(), reinterpret_cast<uint8_t *>(w),
                                      reinterpret_cast<uint8_t *>(w) + 8);
            }
        };
    }

    void makePrototype() {
        // Only direct call targets keep a prototype (nvlink drops those of
        // functions reached only through pointers); a debug link, which
        // removes no code, keeps every input's, and so does -r (a device
        // function nothing calls keeps its prototype: corpus 131, every
        // arch). A function whose address any unit takes has none, called
        // or not, in every kind of link, as ptxas gives it none in its own
        // unit (corpus 154; the CUDA simpleSeparateCompilation sample's -r).
        std::unordered_set<Symbol *> called;
        for (Symbol *f : functions_)
            if (f->func)
                called.insert(f->func->callees.begin(), f->func->callees.end());
        std::unordered_set<Symbol *> addressTaken;
        for (const auto &t : ctx_.callGraph.addressTaken)
            addressTaken.insert(t.symbol);
        std::vector<std::pair<Symbol *, std::string_view>> protos;
        std::unordered_set<Symbol *> seen;
        for (const auto &p : ctx_.callGraph.prototypes)
            if (!isDeadSymbol(p.symbol) && !addressTaken.count(p.symbol) &&
                (ctx_.opts.debug || ctx_.opts.relocatable || called.count(p.symbol)) &&
                seen.insert(p.symbol).second)
                protos.push_back({p.symbol, p.prototype});
        if (protos.empty())
            return; // nvlink drops empty sections
        OutputSection *out = makeSynthetic(".nv.prototype", SHT_CUDA_PROTOTYPE,
                                           SectionKind::Prototype, 4);
        out->entsize = 8;
        out->linkToSymtab = true;
        StringTable &strtab = ctx_.strtab;
        out->build = [protos = std::move(protos), &strtab](OutputSection &self) {
            self.synthetic.clear();
            for (auto &[sym, text] : protos) {
                uint32_t w[2] = {outputIndex(sym), strtab.add(text)};
                self.synthetic.insert(self.synthetic.end(), reinterpret_cast<uint8_t *>(w),
                                      reinterpret_cast<uint8_t *>(w) + 8);
            }
        };
    }

    // Tells a driver how to apply relocation types it may not know: record 0
    // names the first type described, then one 8-byte record per type up to
    // the newest R_CUDA type of the plugin's table. CUDA 13 describes only
    // the newest (115, R_CUDA_CONST_FIELD22_37). Each record:
    //   u8 kind (0 address, 1 global address, 2 function descriptor,
    //   3 header index), u8 shift of the value, then for up to two bit
    //   actions u8 source bit, u8 width, u8 destination bit.
    void makeRelAction() {
        uint32_t newest = 0;
        for (uint32_t type = 1; type < 0x1000; ++type)
            if (const culd_reloc_desc *d = ctx_.target.reloc(type);
                d && d->resolver != CULD_RESOLVE_NONE)
                newest = type;
        if (!newest)
            return;
        std::vector<uint8_t> bytes(8, 0);
        putU32(bytes, 0, newest);
        appendRelActionRecord(bytes, *ctx_.target.reloc(newest));
        OutputSection *out =
            makeSynthetic(".nv.rel.action", SHT_CUDA_RELOCINFO, SectionKind::RelAction, 8);
        out->entsize = 8;
        out->synthetic = std::move(bytes);
    }

    static void appendRelActionRecord(std::vector<uint8_t> &out, const culd_reloc_desc &d) {
        auto kindGroup = [](uint16_t k) -> uint8_t {
            if (k == CULD_VK_GADDR || (k >= CULD_VK_GADDR8_0 && k < CULD_VK_GADDR8_0 + 8))
                return 1;
            if ((k >= CULD_VK_FDESC && k <= CULD_VK_FDESCA) ||
                (k >= CULD_VK_FDESC8_0 && k < CULD_VK_FDESC8_0 + 8))
                return 2;
            if (k == CULD_VK_HEADER)
                return 3;
            return 0;
        };
        uint8_t record[8] = {};
        record[0] = d.num_actions ? kindGroup(d.actions[0].kind) : 0;
        record[1] = d.num_actions && d.actions[0].kind == CULD_VK_SHIFT2 ? 2 : 0;
        for (uint32_t i = 0; i < 2 && i < d.num_actions; ++i) {
            const culd_bit_action &a = d.actions[i];
            record[2 + 3 * i] = static_cast<uint8_t>(a.kind == CULD_VK_CBANK ? 0 : a.shift);
            record[3 + 3 * i] = static_cast<uint8_t>(a.bit_width);
            record[4 + 3 * i] = static_cast<uint8_t>(a.bit_offset);
        }
        out.insert(out.end(), record, record + 8);
    }

    Context &ctx_;
    // Each input's CAN_FASTPATH_FINALIZE mask, in input order.
    FastpathMasks fastpathMasks_;
    // The SASS .nv.info outputs by input section (null: the module's), for
    // their Mercury twins.
    std::unordered_map<const InputSection *, OutputSection *> infoOutputs_;
    std::vector<Symbol *> functions_;
    std::unordered_map<Symbol *, uint64_t> entryStack_;
    std::unordered_map<Symbol *, uint32_t> entryRegs_;
    std::unordered_map<Symbol *, bool> entryRecursive_;
    std::unordered_map<Symbol *, std::vector<Symbol *>> externsMemo_;
    std::optional<std::vector<Symbol *>> loneRootMemo_; // one root kernel per link

    OutputSection *cuinfo_ = nullptr;
};

} // namespace

void synthesizeMetadata(Context &ctx) { MetadataBuilder(ctx).run(); }

} // namespace culd
