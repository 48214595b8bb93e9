# An installed culd-nvcc builds plain nvcc programs with culd doing every
# device link: a whole-program `-rdc=true` build for two architectures (one
# device link each) and a separate `-dlink` step. The install is moved before
# use, so it must be relocatable and find nothing in the build tree.
# Run with cmake -P; inputs: SOURCE_DIR, BINARY_DIR, NVCC.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(work ${BINARY_DIR}/nvcc-culd-nvcc)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work}/tmp)
# Stripped, so that debug info (source and build paths) is gone: then no
# binary of the prefix may name the build tree.
install_culd(${work}/installed --strip)
file(GLOB_RECURSE binaries ${work}/installed/bin/* ${work}/installed/lib/*.so)
foreach(b IN LISTS binaries)
  file(STRINGS ${b} paths REGEX "/")
  string(FIND "${paths}" "${BINARY_DIR}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${b} names the build tree ${BINARY_DIR}")
  endif()
endforeach()
file(RENAME ${work}/installed ${work}/moved)
set(prefix ${work}/moved)

# The moved culd finds its own plugins and never looks into the build tree.
run_step("culd --list-plugins" ${prefix}/bin/culd --list-plugins)
string(FIND "${step_output}" "${prefix}/lib/culd/plugins" own)
string(FIND "${step_output}" "${BINARY_DIR}/plugins" build_tree)
if(own EQUAL -1 OR NOT build_tree EQUAL -1)
  message(FATAL_ERROR "moved culd: plugin search path not the prefix's own:\n${step_output}")
endif()

get_filename_component(cuda_home ${NVCC} DIRECTORY)
get_filename_component(cuda_home ${cuda_home} DIRECTORY)
set(src ${SOURCE_DIR}/tests/host-corpus/01-cross-file)
set(env ${CMAKE_COMMAND} -E env --unset=CULD --unset=CULD_NVCC_REAL CUDA_HOME=${cuda_home}
  TMPDIR=${work}/tmp)

# 1. One nvcc call compiles and links; the toolkit view is cached.
run_step("culd-nvcc -rdc=true" ${env} CULD_NVCC_CACHE=${work}/cache CULD_LOG=${work}/rdc.log
  ${prefix}/bin/culd-nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
  -rdc=true ${src}/main.cu ${src}/ops.cu -o ${work}/app)
expect_device_links(${work}/rdc.log 2)
expect_linked_by_culd(${work}/app)
file(GLOB views LIST_DIRECTORIES true ${work}/cache/*)
list(LENGTH views nviews)
if(NOT nviews EQUAL 1)
  message(FATAL_ERROR "expected one cached toolkit view, found: ${views}")
endif()

# 2. Separate compilation and -dlink, with a fresh view per call (no cache)
#    that must be removed afterwards.
foreach(f main ops)
  run_step("culd-nvcc -c ${f}.cu" ${env} CULD_NVCC_CACHE=none
    ${prefix}/bin/culd-nvcc -arch=sm_80 -rdc=true -c ${src}/${f}.cu -o ${work}/${f}.o)
endforeach()
run_step("culd-nvcc -dlink" ${env} CULD_NVCC_CACHE=none CULD_LOG=${work}/dlink.log
  ${prefix}/bin/culd-nvcc -arch=sm_80 -dlink ${work}/main.o ${work}/ops.o -o ${work}/dlink.o)
expect_device_links(${work}/dlink.log 1)
expect_linked_by_culd(${work}/dlink.o)
file(GLOB left ${work}/tmp/culd-nvcc.*)
if(left)
  message(FATAL_ERROR "per-call toolkit views left behind: ${left}")
endif()
# 3. Link-time optimisation: nvcc -dlto's device link (-dlto -nvvmpath=...)
#    goes to culd, which finds libnvJitLink from -nvvmpath. Its cubin is
#    ptxas's, with no linker record, so the log is the proof.
foreach(f main ops)
  run_step("culd-nvcc -dlto -c ${f}.cu" ${env} CULD_NVCC_CACHE=${work}/cache
    ${prefix}/bin/culd-nvcc -arch=sm_80 -dlto -rdc=true -c ${src}/${f}.cu -o ${work}/${f}-lto.o)
endforeach()
run_step("culd-nvcc -dlto -dlink" ${env} CULD_NVCC_CACHE=${work}/cache CULD_LOG=${work}/lto.log
  ${prefix}/bin/culd-nvcc -arch=sm_80 -dlto -dlink ${work}/main-lto.o ${work}/ops-lto.o
  -o ${work}/dlink-lto.o)
expect_device_links(${work}/lto.log 1)
file(STRINGS ${work}/lto.log lto_link REGEX " -dlto ")
if(NOT lto_link)
  message(FATAL_ERROR "the device link culd ran was no -dlto link")
endif()
message("culd-nvcc: -rdc=true, -dlink and -dlto builds linked by culd")
