# The libFuzzer targets of tests/fuzz, built by clang++ as an external project (the main build's
# host compiler is g++, which has no libFuzzer), and one short ctest run of each. On by default
# when a clang++ that links -fsanitize=fuzzer,address,undefined is found (Debian: clang and
# libclang-rt-dev); UPSWEEP_FUZZ_SECONDS sets each run's length.
find_program(UPSWEEP_FUZZ_CXX NAMES clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15 clang++-14
             DOC "clang++ for the libFuzzer targets")
set(upsweep_fuzz_supported OFF)
if(UPSWEEP_FUZZ_CXX)
  set(probe_dir ${CMAKE_CURRENT_BINARY_DIR}/fuzz-probe)
  file(WRITE ${probe_dir}/probe.cpp
       "#include <cstddef>\n#include <cstdint>\n"
       "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${UPSWEEP_FUZZ_CXX} -fsanitize=fuzzer,address,undefined probe.cpp -o probe
                  WORKING_DIRECTORY ${probe_dir} RESULT_VARIABLE probe_status OUTPUT_QUIET ERROR_QUIET)
  if(probe_status EQUAL 0)
    set(upsweep_fuzz_supported ON)
  endif()
endif()

option(UPSWEEP_BUILD_FUZZERS "Build the libFuzzer targets (clang++) and run each briefly under ctest"
       ${upsweep_fuzz_supported})
set(UPSWEEP_FUZZ_SECONDS 20 CACHE STRING "Seconds each fuzzer runs under ctest")

if(NOT UPSWEEP_BUILD_FUZZERS)
  message(STATUS "Upsweep: fuzzers off (no clang++ that links -fsanitize=fuzzer)")
  return()
endif()
if(NOT upsweep_fuzz_supported)
  message(FATAL_ERROR "UPSWEEP_BUILD_FUZZERS is ON but '${UPSWEEP_FUZZ_CXX}' cannot link -fsanitize=fuzzer "
                      "(Debian: apt-get install clang libclang-rt-dev)")
endif()
message(STATUS "Upsweep: fuzzers built by ${UPSWEEP_FUZZ_CXX}, ${UPSWEEP_FUZZ_SECONDS} s each under ctest")

include(ExternalProject)
set(fuzz_source ${PROJECT_SOURCE_DIR}/tests/fuzz)
set(fuzz_binary ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
ExternalProject_Add(upsweep_fuzzers
  SOURCE_DIR ${fuzz_source}
  BINARY_DIR ${fuzz_binary}
  CMAKE_ARGS -DCMAKE_CXX_COMPILER=${UPSWEEP_FUZZ_CXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo
  CMAKE_GENERATOR ${CMAKE_GENERATOR}
  BUILD_ALWAYS ON  # the sources live outside this build's view: let the inner build decide
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${fuzz_binary}/fuzz_text ${fuzz_binary}/fuzz_csv ${fuzz_binary}/fuzz_npy ${fuzz_binary}/fuzz_where)

foreach(target text csv npy where)
  add_test(NAME fuzz.${target}
    COMMAND ${fuzz_source}/run_fuzzer.sh ${fuzz_binary}/fuzz_${target} ${fuzz_source}/corpus/${target}
            ${fuzz_binary}/run-${target} ${UPSWEEP_FUZZ_SECONDS})
  set_tests_properties(fuzz.${target} PROPERTIES LABELS fuzz TIMEOUT 600)
endforeach()
