# Installs culd, builds sdk/examples/out-of-tree-plugin against the installed
# SDK, and checks that the installed culd finds the example plugin through
# --plugin-dir. Run with cmake -P; inputs: CULD, SOURCE_DIR, BINARY_DIR.
foreach(var CULD SOURCE_DIR BINARY_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "out_of_tree_plugin: ${var} is not set")
  endif()
endforeach()

set(work ${BINARY_DIR}/oot)
set(prefix ${work}/prefix)
set(build ${work}/build)
file(REMOVE_RECURSE ${work})

# Runs a command; any failure ends the test with its output.
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "out_of_tree_plugin: ${what} failed (${rc})\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix})

# Use Ninja when the main build could (it is a CMake prerequisite there).
find_program(NINJA ninja)
set(generator)
if(NINJA)
  set(generator -G Ninja)
endif()
run_step("configure example" ${CMAKE_COMMAND} ${generator}
  -S ${SOURCE_DIR}/sdk/examples/out-of-tree-plugin -B ${build}
  -DCMAKE_PREFIX_PATH=${prefix})
run_step("build example" ${CMAKE_COMMAND} --build ${build})

set(plugin ${build}/plugins/libculd-plugin-example.so)
if(NOT EXISTS ${plugin} OR NOT EXISTS ${build}/plugins/example.culd-plugin)
  message(FATAL_ERROR "out_of_tree_plugin: ${plugin} or its manifest was not built")
endif()

if(NOT EXISTS ${prefix}/bin/culd)
  message(FATAL_ERROR "out_of_tree_plugin: the install did not provide bin/culd")
endif()
run_step("culd --list-plugins" ${prefix}/bin/culd --plugin-dir ${build}/plugins --list-plugins)
foreach(expected "example" "${plugin}" "998")
  string(FIND "${step_output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR
      "out_of_tree_plugin: '${expected}' missing from --list-plugins output:\n${step_output}")
  endif()
endforeach()
