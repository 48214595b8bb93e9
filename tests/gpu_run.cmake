# Links runnable corpus cases with culd, runs both culd's and nvlink's cubin
# on the GPU through culd-run, and requires identical results. Exits with 77
# (reported as skipped) where there is no GPU: the test command probes first
# (see tests/CMakeLists.txt).

# case;arch;kernel;culd-run arguments
set(cases
  "01-single-kernel|sm_90|_Z5saxpyifPKfPf|i32=256 f32=2.5 buf:f32:256:iota buf:f32:256:1 --grid 2 --block 128"
  "02-cross-file-call|sm_90|_Z5applyPfPKfi|buf:f32:256:0 buf:f32:256:iota i32=256 --grid 2 --block 128")
set(work ${BINARY_DIR}/gpu-run)
file(MAKE_DIRECTORY ${work})
foreach(entry IN LISTS cases)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 case)
  list(GET fields 1 arch)
  list(GET fields 2 kernel)
  list(GET fields 3 argtext)
  separate_arguments(args UNIX_COMMAND "${argtext}")
  set(dir ${SOURCE_DIR}/tests/fixtures/${case}/${arch})
  file(READ ${dir}/cmd cmd)
  string(STRIP "${cmd}" cmd)
  string(REPLACE "-o nvlink.cubin" "-o ${work}/${case}.cubin" cmd "${cmd}")
  separate_arguments(cmdlist UNIX_COMMAND "${cmd}")
  list(REMOVE_AT cmdlist 0)
  execute_process(COMMAND ${CULD} ${cmdlist} WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${case}: culd failed: ${err}")
  endif()
  execute_process(COMMAND ${CULD_RUN} ${work}/${case}.cubin ${kernel} ${args}
    RESULT_VARIABLE rc1 OUTPUT_VARIABLE culd_out ERROR_VARIABLE e1)
  execute_process(COMMAND ${CULD_RUN} ${dir}/nvlink.cubin ${kernel} ${args}
    RESULT_VARIABLE rc2 OUTPUT_VARIABLE nvlink_out ERROR_VARIABLE e2)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "${case}: run failed: culd ${rc1} ${e1}; nvlink ${rc2} ${e2}")
  endif()
  if(NOT culd_out STREQUAL nvlink_out)
    message(FATAL_ERROR "${case}: results differ\nculd:   ${culd_out}\nnvlink: ${nvlink_out}")
  endif()
  message("${case}/${arch}: culd's and nvlink's cubins compute the same ${culd_out}")
endforeach()
