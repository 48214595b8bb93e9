// Finds, loads and checks architecture plugins (Boost.DLL).
//
// Search order: --plugin-dir DIRs (in order), $CULD_PLUGIN_PATH (':'-separated),
// <exe>/../lib/culd/plugins (install layout), then the build tree. Each
// plugin directory holds `<name>.culd-plugin` manifests naming the library and
// the SMs it serves, so choosing the plugin for an arch opens only that
// library. Libraries without a manifest are probed only when no manifest
// serves the arch, and by listPlugins().
#pragma once

#include <culd/plugin.h>
#include "culd/Options.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace culd {

// An SM plus its suffix, parsed from "sm_90a", "compute_100f", "lto_89".
struct ArchName {
    uint32_t sm = 0;
    char suffix = 0; // 0, 'a' or 'f'
    ArchKind kind = ArchKind::Real;

    static std::optional<ArchName> parse(const std::string &text);
    std::string str() const; // "sm_90a"
};

// The host side of one hook call: an error the plugin reports lands in
// `error` (the last one wins), a warning goes to the diagnostics.
culd_host hostReportingTo(std::string &error, uint32_t linkFlags = 0);

// A loaded, validated plugin. Owns the shared library.
class Plugin {
public:
    ~Plugin();
    Plugin(const Plugin &) = delete;
    Plugin &operator=(const Plugin &) = delete;

    const std::string &path() const { return path_; }
    const culd_plugin_descriptor &descriptor() const { return *desc_; }
    std::string name() const { return desc_->name ? desc_->name : "?"; }

    // The arch record for `sm`, or nullptr if this plugin does not serve it.
    const culd_arch_info *arch(uint32_t sm) const;
    std::vector<uint32_t> sms() const;

    // The descriptor of relocation type `type`, or nullptr (O(1)).
    const culd_reloc_desc *reloc(uint32_t type) const;

    // Name of a relocation type, or "R_UNKNOWN_0x<type>".
    std::string relocName(uint32_t type) const;

    // Loads and validates the library at `path`; throws FatalError naming the
    // file and the reason (not a shared object, no entry point, ABI mismatch).
    static std::unique_ptr<Plugin> load(const std::string &path);

    // A backend linked into the host (tests' mock descriptors): validated
    // and indexed like a loaded one; `desc` and its tables must outlive the
    // Plugin. `origin` stands for the path in messages.
    static std::unique_ptr<Plugin> fromDescriptor(const culd_plugin_descriptor *desc,
                                                  const std::string &origin);

private:
    Plugin() = default;
    struct Library;
    std::unique_ptr<Library> library_;
    std::string path_;
    const culd_plugin_descriptor *desc_ = nullptr;
    // Copies widened to this host's struct sizes (an older plugin's shorter
    // records read as zero-filled).
    std::vector<culd_arch_info> archs_;
    std::vector<culd_reloc_desc> relocTable_;
    // Type -> descriptor. Dense for the two ranges cubins use (R_CUDA from 0,
    // R_MERCURY from 0x10000), a map for anything else.
    std::vector<const culd_reloc_desc *> lowTypes_, mercuryTypes_;
    std::unordered_map<uint32_t, const culd_reloc_desc *> otherTypes_;

    void validate() const;
    void indexTables();
};

// What a search found: manifests (not yet loaded) and loose libraries.
struct PluginCandidate {
    std::string libraryPath;
    std::string manifestPath;          // empty when found without a manifest
    std::string declaredName;
    std::vector<uint32_t> declaredSms; // from the manifest
};

struct PluginListing {
    std::string path;
    std::unique_ptr<Plugin> plugin; // null when loading failed
    std::string error;              // why it failed
};

class PluginRegistry {
public:
    // Builds the search path. `extraDirs` are --plugin-dir values.
    explicit PluginRegistry(std::vector<std::string> extraDirs = {});

    const std::vector<std::string> &searchPath() const { return searchPath_; }

    // Every candidate in the search path, in search order.
    std::vector<PluginCandidate> candidates() const;

    // Loads the plugin serving `sm` (opening no other plugin when manifests
    // answer). Throws FatalError listing the available arches if none does.
    const Plugin &pluginFor(uint32_t sm);

    // Loads every plugin found, for --list-plugins (failures recorded).
    std::vector<PluginListing> listPlugins() const;

private:
    std::vector<std::string> searchPath_;
    std::unordered_map<uint32_t, std::unique_ptr<Plugin>> loaded_;
};

} // namespace culd
