// A well-formed plugin library that lacks `culd_plugin_entry` (it exports a
// near miss instead), for the loader's "no entry point" diagnostic.
#include <culd/plugin.h>

extern "C" CULD_PLUGIN_EXPORT int culd_plugin_entry_v0() { return 0; }
