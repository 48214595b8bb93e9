# Host-mode corpus tests `host.<case>.<arch>`: nvcc -rdc=true device links
# replayed with culd (see run_case.cmake, docs/host-fixtures.md). Tests named
# in known-gaps.txt must fail cleanly, as for the cubin corpus
# (tests/corpus/case_verdict.cmake).
get_filename_component(CULD_HOST_FIXTURES ${CMAKE_CURRENT_LIST_DIR}/../host-fixtures ABSOLUTE)
function(culd_add_host_corpus_tests)
  if(NOT TARGET culd OR NOT TARGET culd-diff)
    return()
  endif()
  culd_corpus_known_gaps(gaps ${CMAKE_CURRENT_LIST_DIR}/../host-corpus/known-gaps.txt)
  file(GLOB cmds CONFIGURE_DEPENDS ${CULD_HOST_FIXTURES}/*/*/cmd)
  foreach(cmd IN LISTS cmds)
    get_filename_component(fixture ${cmd} DIRECTORY)
    get_filename_component(arch ${fixture} NAME)
    get_filename_component(case_dir ${fixture} DIRECTORY)
    get_filename_component(case ${case_dir} NAME)
    # Every arch of the fixture must have its plugin in this build.
    string(REPLACE "+" ";" archs "${arch}")
    set(skip FALSE)
    foreach(a IN LISTS archs)
      string(REGEX REPLACE "^sm_([0-9]+).*" "\\1" sm "${a}")
      culd_plugin_for_sm("${sm}" plugin)
      if(NOT plugin IN_LIST CULD_PLUGINS)
        set(skip TRUE)
      endif()
    endforeach()
    if(skip)
      continue()
    endif()
    set(name host.${case}.${arch})
    set(known_gap OFF)
    if(name IN_LIST gaps)
      set(known_gap ON)
    endif()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND}
      -DCULD=$<TARGET_FILE:culd> -DCULD_DIFF=$<TARGET_FILE:culd-diff>
      -DFIXTURE=${fixture} -DOUT=${CMAKE_BINARY_DIR}/host-corpus-out/${case}/${arch}
      -DLIB=${CULD_HOST_FIXTURES}/lib -DKNOWN_GAP=${known_gap}
      -P ${CMAKE_CURRENT_LIST_DIR}/../host-corpus/run_case.cmake)
    set_tests_properties(${name} PROPERTIES LABELS host-corpus)
    if(known_gap)
      set_tests_properties(${name} PROPERTIES LABELS "host-corpus;known-gap")
    endif()
  endforeach()
endfunction()
culd_add_host_corpus_tests()
