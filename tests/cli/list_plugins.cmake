# culd --list-plugins shows each plugin with its path, ABI and SMs, and why
# each broken candidate failed.
execute_process(COMMAND ${CULD} --list-plugins
  --plugin-dir ${MOCK_PLUGIN_DIR}/good --plugin-dir ${MOCK_PLUGIN_DIR}/bad-major
  --plugin-dir ${MOCK_PLUGIN_DIR}/no-entry --plugin-dir ${MOCK_PLUGIN_DIR}/not-elf
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "culd --list-plugins failed (${rc}): ${err}")
endif()
# The minor version the tree is at (the bad-major mock is built with it).
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../../sdk/include/culd/plugin.h minor_line
  REGEX "#define CULD_PLUGIN_ABI_MINOR")
string(REGEX REPLACE ".*MINOR ([0-9]+)u.*" "\\1" minor "${minor_line}")
foreach(expected
    "mock  ${MOCK_PLUGIN_DIR}/good/libculd-plugin-mock.so"
    "SMs: sm_999[a]"
    "ABI mismatch: plugin ABI 3.${minor}, culd ABI 2.${minor} (major versions differ)"
    "missing entry point 'culd_plugin_entry'"
    "libculd-plugin-garbage.so': not a loadable shared object")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing '${expected}' in:\n${out}")
  endif()
endforeach()
# Every built plugin is listed with its SMs.
string(REPLACE "," ";" PLUGINS "${PLUGINS}")
foreach(p IN LISTS PLUGINS)
  string(FIND "${out}" "libculd-plugin-${p}.so" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "plugin ${p} not listed:\n${out}")
  endif()
endforeach()
