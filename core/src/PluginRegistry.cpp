#include "culd/PluginRegistry.h"

#include "culd/Diagnostics.h"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace culd {

culd_host hostReportingTo(std::string &error, uint32_t linkFlags) {
    culd_host host{};
    host.struct_size = sizeof host;
    host.link_flags = linkFlags;
    host.opaque = &error;
    host.report = [](void *opaque, uint32_t level, const char *msg) {
        if (level >= CULD_LOG_ERROR)
            *static_cast<std::string *>(opaque) = msg;
        else if (level == CULD_LOG_WARNING)
            Diagnostics::get().warning(msg);
    };
    return host;
}

// ---------------------------------------------------------------------------
// ArchName

std::optional<ArchName> ArchName::parse(const std::string &text) {
    static const char *const prefixes[] = {"sm_", "compute_", "lto_"};
    for (const char *prefix : prefixes) {
        size_t n = std::strlen(prefix);
        if (text.compare(0, n, prefix) != 0)
            continue;
        std::string rest = text.substr(n);
        ArchName arch;
        arch.kind = prefix[0] == 's'   ? ArchKind::Real
                    : prefix[0] == 'c' ? ArchKind::Virtual
                                       : ArchKind::Lto;
        if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) {
            arch.suffix = rest.back();
            rest.pop_back();
        }
        if (rest.empty() || rest.size() > 4 ||
            !std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        arch.sm = static_cast<uint32_t>(std::stoul(rest));
        return arch;
    }
    return std::nullopt;
}

std::string ArchName::str() const {
    std::string s = "sm_" + std::to_string(sm);
    if (suffix)
        s += suffix;
    return s;
}

// ---------------------------------------------------------------------------
// Plugin

struct Plugin::Library {
    boost::dll::shared_library lib;
};

Plugin::~Plugin() = default;

namespace {

std::string abiText(uint32_t major, uint32_t minor) {
    return std::to_string(major) + "." + std::to_string(minor);
}

// Reads a record of `size` bytes into a zero-initialised T: a plugin built
// against an older minor has shorter records whose new fields count as zero.
template <class T> T widen(const void *record, size_t size) {
    T out{};
    std::memcpy(&out, record, std::min(size, sizeof(T)));
    return out;
}

} // namespace

std::unique_ptr<Plugin> Plugin::load(const std::string &path) {
    auto fail = [&](const std::string &why) -> std::unique_ptr<Plugin> {
        throw FatalError("plugin '" + path + "': " + why);
    };

    auto library = std::make_unique<Library>();
    try {
        // rtld_local keeps plugins from seeing each other's symbols.
        // RTLD_NODELETE: links on other threads (libculd) load and release
        // the same plugin; it stays mapped rather than being unmapped and
        // mapped again under them, and later links find it loaded.
        library->lib.load(fs::path(path),
                          boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local |
                              static_cast<boost::dll::load_mode::type>(RTLD_NODELETE));
    } catch (const std::exception &e) {
        return fail(std::string("not a loadable shared object (") + e.what() + ")");
    }
    if (!library->lib.has(CULD_PLUGIN_ENTRY_NAME))
        return fail(std::string("missing entry point '") + CULD_PLUGIN_ENTRY_NAME + "'");

    auto entry = library->lib.get<const culd_plugin_descriptor *(uint32_t, uint32_t)>(
        CULD_PLUGIN_ENTRY_NAME);
    const culd_plugin_descriptor *desc = entry(CULD_PLUGIN_ABI_MAJOR, CULD_PLUGIN_ABI_MINOR);
    if (!desc)
        return fail("entry point returned no descriptor");

    std::string host = abiText(CULD_PLUGIN_ABI_MAJOR, CULD_PLUGIN_ABI_MINOR);
    std::string mine = abiText(desc->abi_major, desc->abi_minor);
    if (desc->abi_major != CULD_PLUGIN_ABI_MAJOR)
        return fail("ABI mismatch: plugin ABI " + mine + ", culd ABI " + host +
                    " (major versions differ)");
    if (desc->abi_minor > CULD_PLUGIN_ABI_MINOR)
        return fail("ABI mismatch: plugin ABI " + mine + " is newer than culd ABI " + host);

    std::unique_ptr<Plugin> plugin(new Plugin());
    plugin->library_ = std::move(library);
    plugin->path_ = path;
    plugin->desc_ = desc;
    plugin->validate();
    plugin->indexTables();
    return plugin;
}

std::unique_ptr<Plugin> Plugin::fromDescriptor(const culd_plugin_descriptor *desc,
                                               const std::string &origin) {
    if (!desc || desc->abi_major != CULD_PLUGIN_ABI_MAJOR)
        throw FatalError("plugin '" + origin + "': no descriptor of this ABI");
    std::unique_ptr<Plugin> plugin(new Plugin());
    plugin->path_ = origin;
    plugin->desc_ = desc;
    plugin->validate();
    plugin->indexTables();
    return plugin;
}

// Checks the descriptor before anything reads through it.
void Plugin::validate() const {
    auto fail = [&](const std::string &why) { throw FatalError("plugin '" + path_ + "': " + why); };
    const culd_plugin_descriptor &d = *desc_;
    // Fields up to the finaliser are ABI 2.0; later ones are read only when
    // the plugin's struct covers them (Target).
    if (d.struct_size < offsetof(culd_plugin_descriptor, mercury_twin))
        fail("descriptor too small (" + std::to_string(d.struct_size) + " bytes)");
    if (!d.name || !*d.name)
        fail("descriptor has no name");
    if (d.num_archs == 0 || !d.archs)
        fail("plugin serves no SM");
    if (d.arch_info_size < offsetof(culd_arch_info, compatible_inputs) + sizeof(void *))
        fail("arch record size " + std::to_string(d.arch_info_size) + " is too small");
    if (d.num_relocs && (!d.relocs || d.reloc_desc_size < sizeof(culd_reloc_desc)))
        fail("relocation table is malformed");
}

void Plugin::indexTables() {
    const culd_plugin_descriptor &d = *desc_;
    const auto *archBytes = static_cast<const unsigned char *>(static_cast<const void *>(d.archs));
    for (uint32_t i = 0; i < d.num_archs; ++i)
        archs_.push_back(widen<culd_arch_info>(archBytes + size_t(i) * d.arch_info_size,
                                               d.arch_info_size));

    const auto *relocBytes = static_cast<const unsigned char *>(static_cast<const void *>(d.relocs));
    relocTable_.reserve(d.num_relocs);
    for (uint32_t i = 0; i < d.num_relocs; ++i) {
        culd_reloc_desc r = widen<culd_reloc_desc>(relocBytes + size_t(i) * d.reloc_desc_size,
                                                   d.reloc_desc_size);
        if (!r.name)
            throw FatalError("plugin '" + path_ + "': relocation type " + std::to_string(r.type) +
                             " has no name");
        if (r.num_actions > CULD_MAX_BIT_ACTIONS)
            throw FatalError("plugin '" + path_ + "': relocation " + r.name + " has " +
                             std::to_string(r.num_actions) + " bit actions (max 3)");
        for (uint32_t a = 0; a < r.num_actions; ++a)
            if (r.actions[a].bit_width == 0 || r.actions[a].bit_width > 128 ||
                r.actions[a].bit_offset + r.actions[a].bit_width > 128)
                throw FatalError("plugin '" + path_ + "': relocation " + r.name +
                                 " has a bit action outside a 128-bit instruction");
        if ((r.flags & CULD_RELOC_F_HOOK) && !d.apply_relocations)
            throw FatalError("plugin '" + path_ + "': relocation " + r.name +
                             " needs the apply_relocations hook, which is missing");
        relocTable_.push_back(r);
    }

    constexpr uint32_t denseSpan = 0x1000;
    lowTypes_.assign(denseSpan, nullptr);
    mercuryTypes_.assign(denseSpan, nullptr);
    for (const culd_reloc_desc &r : relocTable_) {
        if (r.type < denseSpan)
            lowTypes_[r.type] = &r;
        else if (r.type >= 0x10000 && r.type < 0x10000 + denseSpan)
            mercuryTypes_[r.type - 0x10000] = &r;
        else
            otherTypes_[r.type] = &r;
    }
}

const culd_arch_info *Plugin::arch(uint32_t sm) const {
    for (const culd_arch_info &a : archs_)
        if (a.sm == sm)
            return &a;
    return nullptr;
}

std::vector<uint32_t> Plugin::sms() const {
    std::vector<uint32_t> out;
    for (const culd_arch_info &a : archs_)
        out.push_back(a.sm);
    return out;
}

const culd_reloc_desc *Plugin::reloc(uint32_t type) const {
    if (type < lowTypes_.size())
        return lowTypes_[type];
    if (type >= 0x10000 && type - 0x10000 < mercuryTypes_.size())
        return mercuryTypes_[type - 0x10000];
    auto it = otherTypes_.find(type);
    return it == otherTypes_.end() ? nullptr : it->second;
}

std::string Plugin::relocName(uint32_t type) const {
    if (const culd_reloc_desc *r = reloc(type))
        return r->name;
    std::ostringstream os;
    os << "R_UNKNOWN_0x" << std::hex << type;
    return os.str();
}

// ---------------------------------------------------------------------------
// Discovery

namespace {

constexpr const char *manifestSuffix = ".culd-plugin";

struct Manifest {
    std::string name, library;
    std::vector<uint32_t> sms;
};

// Parses `key = value` lines; '#' starts a comment. Unknown keys are ignored
// so that later versions can add some.
std::optional<Manifest> readManifest(const fs::path &path) {
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    Manifest m;
    std::string line;
    while (std::getline(in, line)) {
        if (auto hash = line.find('#'); hash != std::string::npos)
            line.erase(hash);
        auto eq = line.find('=');
        if (eq == std::string::npos)
            continue;
        auto trim = [](std::string s) {
            const char *ws = " \t\r";
            s.erase(0, s.find_first_not_of(ws));
            s.erase(s.find_last_not_of(ws) + 1);
            return s;
        };
        std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        if (key == "name")
            m.name = value;
        else if (key == "library")
            m.library = value;
        else if (key == "sms") {
            std::istringstream words(value);
            std::string w;
            while (words >> w)
                if (!w.empty() && std::all_of(w.begin(), w.end(), ::isdigit))
                    m.sms.push_back(static_cast<uint32_t>(std::stoul(w)));
        }
    }
    if (m.library.empty())
        return std::nullopt;
    return m;
}

void appendPathList(std::vector<std::string> &out, const char *list) {
    if (!list)
        return;
    std::string s(list);
    size_t start = 0;
    while (start <= s.size()) {
        size_t colon = s.find(':', start);
        std::string dir = s.substr(start, colon == std::string::npos ? std::string::npos
                                                                    : colon - start);
        if (!dir.empty())
            out.push_back(dir);
        if (colon == std::string::npos)
            break;
        start = colon + 1;
    }
}

// The build tree's plugin dir, for an executable of the build tree itself
// (tests, a developer's build/tools/culd/culd): the nearest directory above
// it holding CMakeCache.txt is the build tree's root.  Found at run time, not
// compiled in, so an installed binary holds no path into the build tree; and
// only asked for when the installed plugin dir beside the executable is
// missing, so an installed culd (also a copied or moved prefix) never looks
// into a build tree.
std::optional<fs::path> buildTreePluginDir(fs::path dir) {
    std::error_code ec;
    dir = fs::weakly_canonical(dir, ec);
    if (ec)
        return std::nullopt;
    for (;;) {
        if (fs::is_regular_file(dir / "CMakeCache.txt", ec))
            return dir / CULD_BUILD_PLUGIN_SUBDIR;
        if (!dir.has_relative_path())
            return std::nullopt;
        dir = dir.parent_path();
    }
}

} // namespace

PluginRegistry::PluginRegistry(std::vector<std::string> extraDirs) {
    searchPath_ = std::move(extraDirs);
    appendPathList(searchPath_, std::getenv("CULD_PLUGIN_PATH"));
    // Installed layout: <prefix>/bin/culd finds <prefix>/lib/culd/plugins
    // through /proc/self/exe, wherever the prefix was copied to.
    std::error_code ec;
    fs::path exeDir = boost::dll::program_location(ec).parent_path();
    if (ec)
        exeDir.clear();
    // Inside libculd (<prefix>/lib/libculd.so) the plugins are found beside
    // the library, whatever program loaded it.
    fs::path moduleDir = boost::dll::this_line_location(ec).parent_path();
    if (ec || moduleDir == exeDir)
        moduleDir.clear();
    bool installedFound = false;
    for (const fs::path &base : {exeDir, moduleDir}) {
        if (base.empty())
            continue;
        fs::path installed = (base / ".." / CULD_PLUGIN_INSTALL_DIR).lexically_normal();
        searchPath_.push_back(installed.string());
        installedFound = installedFound || fs::is_directory(installed, ec);
    }
    if (installedFound)
        return;
    for (const fs::path &base : {exeDir, moduleDir})
        if (!base.empty())
            if (std::optional<fs::path> buildTree = buildTreePluginDir(base))
                if (std::find(searchPath_.begin(), searchPath_.end(), buildTree->string()) ==
                    searchPath_.end())
                    searchPath_.push_back(buildTree->string());
}

std::vector<PluginCandidate> PluginRegistry::candidates() const {
    std::vector<PluginCandidate> out;
    std::set<std::string> seenLibraries;
    for (const std::string &dir : searchPath_) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec))
            continue;
        // Sorted for a deterministic order within a directory.
        std::vector<fs::path> entries;
        for (const auto &e : fs::directory_iterator(dir, ec))
            entries.push_back(e.path());
        std::sort(entries.begin(), entries.end());

        std::set<std::string> described;
        for (const fs::path &p : entries) {
            if (p.extension() != manifestSuffix)
                continue;
            std::optional<Manifest> m = readManifest(p);
            if (!m)
                continue;
            fs::path lib = fs::path(m->library).is_absolute() ? fs::path(m->library)
                                                              : p.parent_path() / m->library;
            std::string libPath = lib.lexically_normal().string();
            described.insert(libPath);
            if (!seenLibraries.insert(fs::weakly_canonical(lib, ec).string()).second)
                continue;
            out.push_back({libPath, p.string(), m->name, m->sms});
        }
        for (const fs::path &p : entries) {
            if (p.extension() != ".so" || described.count(p.lexically_normal().string()))
                continue;
            if (!seenLibraries.insert(fs::weakly_canonical(p, ec).string()).second)
                continue;
            out.push_back({p.lexically_normal().string(), "", "", {}});
        }
    }
    return out;
}

const Plugin &PluginRegistry::pluginFor(uint32_t sm) {
    if (auto it = loaded_.find(sm); it != loaded_.end())
        return *it->second;

    std::vector<PluginCandidate> all = candidates();
    auto adopt = [&](std::unique_ptr<Plugin> plugin) -> const Plugin & {
        return *(loaded_[sm] = std::move(plugin));
    };

    for (const PluginCandidate &c : all) {
        if (std::find(c.declaredSms.begin(), c.declaredSms.end(), sm) == c.declaredSms.end())
            continue;
        std::unique_ptr<Plugin> plugin = Plugin::load(c.libraryPath);
        if (!plugin->arch(sm))
            throw FatalError("plugin '" + c.libraryPath + "': its manifest '" + c.manifestPath +
                             "' lists sm_" + std::to_string(sm) + " but the library does not serve it");
        return adopt(std::move(plugin));
    }
    // Libraries without a manifest are opened only now, as a last resort.
    for (const PluginCandidate &c : all) {
        if (!c.manifestPath.empty())
            continue;
        try {
            std::unique_ptr<Plugin> plugin = Plugin::load(c.libraryPath);
            if (plugin->arch(sm))
                return adopt(std::move(plugin));
        } catch (const FatalError &) {
            // Not a usable plugin: --list-plugins explains why.
        }
    }

    std::set<uint32_t> available;
    for (const PluginCandidate &c : all)
        available.insert(c.declaredSms.begin(), c.declaredSms.end());
    std::string list;
    for (uint32_t s : available)
        list += (list.empty() ? "" : ", ") + std::string("sm_") + std::to_string(s);
    throw FatalError("no plugin serves sm_" + std::to_string(sm) + "; available: " +
                     (list.empty() ? std::string("none (no plugins found; use --plugin-dir or "
                                                 "CULD_PLUGIN_PATH)")
                                   : list));
}

std::vector<PluginListing> PluginRegistry::listPlugins() const {
    std::vector<PluginListing> out;
    for (const PluginCandidate &c : candidates()) {
        PluginListing entry;
        entry.path = c.libraryPath;
        try {
            entry.plugin = Plugin::load(c.libraryPath);
        } catch (const FatalError &e) {
            entry.error = e.what();
        }
        out.push_back(std::move(entry));
    }
    return out;
}

} // namespace culd
