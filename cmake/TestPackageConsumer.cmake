# ctest script: install the build tree into a scratch prefix, then configure and build the
# example consumers against that prefix alone, as another project would.
foreach(var UPSWEEP_BUILD_DIR UPSWEEP_SOURCE_DIR SCRATCH_DIR CUDA_ARCHITECTURES GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${SCRATCH_DIR}")
set(prefix "${SCRATCH_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${UPSWEEP_BUILD_DIR}" --prefix "${prefix}")
# A relocatable package names no build or source path.
file(GLOB_RECURSE cmake_files "${prefix}/*.cmake")
foreach(f IN LISTS cmake_files)
  file(READ "${f}" text)
  foreach(path "${UPSWEEP_BUILD_DIR}" "${UPSWEEP_SOURCE_DIR}")
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names ${path}: the package is not relocatable")
    endif()
  endforeach()
endforeach()

foreach(example consumer_cxx consumer_cuda)
  set(build "${SCRATCH_DIR}/${example}")
  run(${CMAKE_COMMAND} -S "${UPSWEEP_SOURCE_DIR}/examples/${example}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}")
  run(${CMAKE_COMMAND} --build "${build}")
  message(STATUS "${example}: configured and built against ${prefix}")
endforeach()
