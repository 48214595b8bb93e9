# Corpus tests: one CTest test `corpus.<case>.<arch>` per fixture directory
# tests/fixtures/<case>/<arch>/ that has a `cmd` file. Each runs culd with
# nvlink's command line and compares the result with nvlink's (see
# run_case.cmake and docs/culd-diff.md). Included from tests/CMakeLists.txt.
#
# Tests named in known-gaps.txt are expected to fail, cleanly: culd and
# culd-diff exit normally and the result differs from nvlink's. A crash, a
# signal or a culd-diff error fails the test, and so does a gap that gets
# fixed, so the list can only shrink (case_verdict.cmake).

set(CULD_CORPUS_DIR ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(CULD_FIXTURE_ROOT ${CMAKE_CURRENT_LIST_DIR}/../fixtures ABSOLUTE)

# "key = value" from a case.conf, or `default`.
function(culd_corpus_conf_get conf key default out)
  set(value ${default})
  if(EXISTS ${conf})
    file(STRINGS ${conf} lines REGEX "^[ \t]*${key}[ \t]*=")
    if(lines)
      list(GET lines 0 line)
      string(REGEX REPLACE "^[^=]*=[ \t]*" "" value "${line}")
      string(STRIP "${value}" value)
    endif()
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# Names listed in a known-gaps file ('#' starts a comment); the cubin
# corpus's own list when no file is given.
function(culd_corpus_known_gaps out)
  set(gaps "")
  set(file ${CULD_CORPUS_DIR}/known-gaps.txt)
  if(ARGC GREATER 1)
    set(file ${ARGV1})
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  if(EXISTS ${file})
    file(STRINGS ${file} lines)
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "#.*" "" line "${line}")
      string(STRIP "${line}" line)
      if(line)
        list(APPEND gaps ${line})
      endif()
    endforeach()
  endif()
  set(${out} ${gaps} PARENT_SCOPE)
endfunction()

function(culd_add_corpus_tests)
  if(NOT TARGET culd OR NOT TARGET culd-diff)
    message(STATUS "corpus tests: culd or culd-diff not built, skipped")
    return()
  endif()
  file(GLOB cmd_files CONFIGURE_DEPENDS ${CULD_FIXTURE_ROOT}/*/*/cmd)
  # Re-run CMake when a case's expectation or the gap list changes.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${CULD_CORPUS_DIR}/known-gaps.txt)
  culd_corpus_known_gaps(gaps)
  set(registered "")
  set(disagreeing "")
  foreach(cmd IN LISTS cmd_files)
    get_filename_component(fixture ${cmd} DIRECTORY)
    get_filename_component(arch ${fixture} NAME)
    get_filename_component(case_dir ${fixture} DIRECTORY)
    get_filename_component(case ${case_dir} NAME)
    # Only arches whose plugin this build has.
    string(REGEX REPLACE "^sm_([0-9]+).*" "\\1" sm "${arch}")
    culd_plugin_for_sm("${sm}" plugin)
    if(NOT plugin IN_LIST CULD_PLUGINS)
      continue()
    endif()
    set(conf ${CULD_CORPUS_DIR}/${case}/case.conf)
    # Cases that need a CUDA tool at link time (PTX inputs need ptxas) run
    # only where it exists.
    culd_corpus_conf_get(${conf} needs "" needs)
    if(needs STREQUAL "ptxas")
      find_program(CULD_PTXAS ptxas PATHS ENV CUDA_HOME PATH_SUFFIXES bin NO_CACHE)
      if(NOT CULD_PTXAS AND NOT EXISTS /usr/local/cuda/bin/ptxas)
        continue()
      endif()
    endif()
    if(EXISTS ${conf})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${conf})
    endif()
    # What nvlink did with this command is the reference; case.conf says what
    # the case was written for. They differ when an older toolchain rejects a
    # case (e.g. CUDA 11.8 nvlink on `-r` with an undefined callee).
    culd_corpus_conf_get(${conf} expect ok expect)
    if(EXISTS ${fixture}/nvlink.rc)
      file(STRINGS ${fixture}/nvlink.rc nvlink_rc LIMIT_COUNT 1)
      set(nvlink_expect ok)
      if(NOT nvlink_rc EQUAL 0)
        set(nvlink_expect error)
      endif()
      if(NOT nvlink_expect STREQUAL expect)
        list(APPEND disagreeing "${case}/${arch} (case.conf: ${expect}, nvlink: ${nvlink_expect})")
        set(expect ${nvlink_expect})
      endif()
    endif()
    # A link nvlink makes by regenerating code (a cross-target fast path
    # that does not apply) that culd, by design, refuses: the case names
    # the refusal it must give (culd_refuses = <part of the message>).
    culd_corpus_conf_get(${conf} culd_refuses "" culd_refuses)
    set(name corpus.${case}.${arch})
    set(known_gap OFF)
    if(name IN_LIST gaps)
      set(known_gap ON)
    endif()
    add_test(NAME ${name}
      COMMAND ${CMAKE_COMMAND}
        -DCULD=$<TARGET_FILE:culd>
        -DCULD_DIFF=$<TARGET_FILE:culd-diff>
        -DFIXTURE_DIR=${fixture}
        -DOUT_DIR=${CMAKE_BINARY_DIR}/corpus-out/${case}/${arch}
        -DEXPECT=${expect}
        -DCULD_REFUSES=${culd_refuses}
        -DKNOWN_GAP=${known_gap}
        -P ${CULD_CORPUS_DIR}/run_case.cmake
      WORKING_DIRECTORY ${fixture})
    set_tests_properties(${name} PROPERTIES LABELS corpus TIMEOUT 120)
    if(known_gap)
      set_tests_properties(${name} PROPERTIES LABELS "corpus;known-gap")
    endif()
    list(APPEND registered ${name})
  endforeach()
  if(disagreeing)
    list(JOIN disagreeing "\n  " text)
    message(STATUS "corpus tests follow nvlink's exit status where it disagrees with case.conf:\n  ${text}")
  endif()
  foreach(gap IN LISTS gaps)
    if(NOT gap IN_LIST registered)
      message(WARNING "tests/corpus/known-gaps.txt: '${gap}' names no corpus test")
    endif()
  endforeach()
endfunction()

culd_add_corpus_tests()
