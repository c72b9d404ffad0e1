# ctest script: install the build tree into a scratch prefix, then configure, build and run the
# example consumers against that prefix alone, as another project would (CMake package and
# pkg-config). Without a GPU the examples say they skip and exit 0, so the run still proves that
# they load (shared libraries found, symbols resolved).
foreach(var UPSWEEP_BUILD_DIR UPSWEEP_SOURCE_DIR SCRATCH_DIR CUDA_ARCHITECTURES GENERATOR CXX_COMPILER)
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
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install "${UPSWEEP_BUILD_DIR}" --prefix "${prefix}")

# A relocatable package names no build or source path.
file(GLOB_RECURSE package_files "${prefix}/*.cmake" "${prefix}/*.pc")
foreach(f IN LISTS package_files)
  file(READ "${f}" text)
  foreach(path "${UPSWEEP_BUILD_DIR}" "${UPSWEEP_SOURCE_DIR}")
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names ${path}: the package is not relocatable")
    endif()
  endforeach()
endforeach()

# A shared install: versioned libraries whose dynamic symbols are the compiled API and the
# exception type, not kernels' host stubs, upsweep::detail, CCCL or the template layer's instances
# (hidden visibility, UPSWEEP_API). libstdc++'s own inline instances (std::) keep the default
# visibility its headers give them; they are weak and harmless.
file(GLOB shared_libs "${prefix}/lib*/libupsweep_*.so")
foreach(lib IN LISTS shared_libs)
  get_filename_component(name "${lib}" NAME)
  file(GLOB versioned "${lib}.*")
  if(NOT versioned)
    message(FATAL_ERROR "${name} has no versioned file (SOVERSION)")
  endif()
  find_program(READELF readelf REQUIRED)
  run(${READELF} -d "${lib}")
  if(run_output MATCHES "R(UN)?PATH[^\n]*${UPSWEEP_BUILD_DIR}")
    message(FATAL_ERROR "${name} keeps a run path into the build tree")
  endif()
  find_program(NM nm REQUIRED)
  run(${NM} -D -C --defined-only "${lib}")
  string(REGEX REPLACE "\n$" "" symbols "${run_output}")
  string(REPLACE "\n" ";" symbols "${symbols}")
  set(foreign "")
  foreach(line IN LISTS symbols)
    if(NOT line MATCHES "^[0-9a-f]+ [A-Za-z] (.*)$")  # "<address> <type> <name>"
      continue()
    endif()
    set(symbol "${CMAKE_MATCH_1}")
    if(symbol MATCHES "upsweep::detail|__device_stub|cub::|cuda::|thrust::" OR
       NOT symbol MATCHES "upsweep::|^std::|^__gnu_cxx::|^(_init|_fini|_edata|_end|__bss_start)$")
      list(APPEND foreign "${symbol}")
    endif()
  endforeach()
  list(LENGTH symbols total)
  if(foreign)
    list(JOIN foreign "\n  " foreign)
    message(FATAL_ERROR "${name} exports symbols outside the API:\n  ${foreign}")
  endif()
  message(STATUS "${name}: ${total} exported symbols, none outside the API")
endforeach()

set(examples consumer_cxx/sort_and_compact consumer_cuda/struct_sort)
if(WITH_NCCL)  # the package has Upsweep::sort_nccl, found again from the consumer's side
  list(APPEND examples consumer_nccl/dist_sort)
endif()
foreach(example_exe IN LISTS examples)
  get_filename_component(example "${example_exe}" DIRECTORY)
  set(build "${SCRATCH_DIR}/${example}")
  run(${CMAKE_COMMAND} -S "${UPSWEEP_SOURCE_DIR}/examples/${example}" -B "${build}" -G "${GENERATOR}"
      "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES}"
      "-DUPSWEEP_NCCL_ROOT=${NCCL_PREFIX}")
  run(${CMAKE_COMMAND} --build "${build}")
  message(STATUS "${example}: configured and built against ${prefix}")
  run("${SCRATCH_DIR}/${example_exe}")
  message(STATUS "${example_exe}: ${run_output}")
endforeach()

# pkg-config: the plain C++ example with one g++ command line.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  file(GLOB pc_file "${prefix}/lib*/pkgconfig/upsweep.pc")
  get_filename_component(pc_dir "${pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  run(${PKG_CONFIG} --cflags --libs upsweep)
  string(STRIP "${run_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(exe "${SCRATCH_DIR}/pkg-config/sort_and_compact")
  file(MAKE_DIRECTORY "${SCRATCH_DIR}/pkg-config")
  get_filename_component(lib_dir "${pc_dir}" DIRECTORY)
  run(${CXX_COMPILER} -std=c++17 "${UPSWEEP_SOURCE_DIR}/examples/consumer_cxx/main.cpp" ${flags}
      "-Wl,-rpath,${lib_dir}" -o "${exe}")
  run("${exe}")
  message(STATUS "pkg-config build of consumer_cxx: ${run_output}")
else()
  message(STATUS "pkg-config not found: upsweep.pc not checked")
endif()
