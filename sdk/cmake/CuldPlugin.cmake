# culd_add_plugin(<name> SMS <sm>... SOURCES <src>... [OUTPUT_DIR <dir>]
#                 [INSTALL_DIR <dir>])
#
# Builds a culd architecture plugin: a shared object with hidden default
# visibility that exports only `culd_plugin_entry`, plus a manifest
# `<name>.culd-plugin` beside it. The manifest lets the host pick the plugin
# for `-arch=sm_XX` without opening any other plugin; the host checks it
# against the descriptor once the library is loaded.
include_guard(GLOBAL)
include(CheckLinkerFlag)

# Hidden visibility alone is not enough: template code from libstdc++ headers
# (std::string internals ...) carries default visibility and would be
# exported as weak symbols. A version script keeps the export list exact.
function(_culd_plugin_export_only_entry target)
  set(script "${CMAKE_BINARY_DIR}/culd-plugin-exports.map")
  if(NOT EXISTS "${script}")
    file(WRITE "${script}" "{\n  global: culd_plugin_entry;\n  local: *;\n};\n")
  endif()
  check_linker_flag(CXX "-Wl,--version-script=${script}" CULD_HAVE_VERSION_SCRIPT)
  if(CULD_HAVE_VERSION_SCRIPT)
    target_link_options(${target} PRIVATE "-Wl,--version-script=${script}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${script}")
  endif()
endfunction()

function(culd_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR;INSTALL_DIR" "SMS;SOURCES" ${ARGN})
  if(NOT ARG_SMS OR NOT ARG_SOURCES)
    message(FATAL_ERROR "culd_add_plugin(${name}): SMS and SOURCES are required")
  endif()
  set(target culd-plugin-${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE culd::sdk)
  # Inside the culd tree, plugins get the project's warning flags (-Werror).
  if(TARGET culd_warnings)
    target_link_libraries(${target} PRIVATE culd_warnings)
  endif()
  _culd_plugin_export_only_entry(${target})
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    PREFIX "lib"
    OUTPUT_NAME "culd-plugin-${name}")
  if(ARG_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIR}")
    set(manifest_dir "${ARG_OUTPUT_DIR}")
  else()
    set(manifest_dir "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  string(REPLACE ";" " " sm_text "${ARG_SMS}")
  set(manifest "${manifest_dir}/${name}.culd-plugin")
  file(GENERATE OUTPUT "${manifest}" CONTENT
"# culd plugin manifest
name = ${name}
library = $<TARGET_FILE_NAME:${target}>
sms = ${sm_text}
")
  if(ARG_INSTALL_DIR)
    install(TARGETS ${target} LIBRARY DESTINATION "${ARG_INSTALL_DIR}")
    install(FILES "${manifest}" DESTINATION "${ARG_INSTALL_DIR}")
  endif()
endfunction()
