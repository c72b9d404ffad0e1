# MPI for upsweep-sort --distributed (included by CMakeLists.txt): sets MPI_CXX_FOUND and
# upsweep_tool_mpi, what the tool links. Debian's Open MPI that `tools/install-deps.sh --mpi`
# unpacks into .deps/openmpi when it is there (asked for, so it wins over a system MPI that may
# lack its headers), named to FindMPI directly; else the system's through FindMPI (mpicxx). From
# .deps the libraries libmpi needs (Open MPI's runtime, hwloc, libevent) are linked too, kept with
# --no-as-needed: a run path serves the tool's own dependencies, not libmpi's.
set(deps_mpi ${PROJECT_SOURCE_DIR}/.deps/openmpi/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
set(upsweep_tool_mpi MPI::MPI_CXX)
if(EXISTS ${deps_mpi}/openmpi/include/mpi.h)
  set(MPI_SKIP_COMPILER_WRAPPER ON)
  set(MPI_CXX_HEADER_DIR ${deps_mpi}/openmpi/include CACHE PATH "mpi.h's directory")
  set(MPI_CXX_LIB_NAMES mpi open-rte open-pal hwloc event_core event_pthreads CACHE STRING "libmpi and what it needs")
  foreach(lib mpi:libmpi.so.40 open-rte:libopen-rte.so.40 open-pal:libopen-pal.so.40 hwloc:libhwloc.so.15
              event_core:libevent_core-2.1.so.7 event_pthreads:libevent_pthreads-2.1.so.7)
    string(REPLACE ":" ";" name_and_file ${lib})
    list(GET name_and_file 0 name)
    list(GET name_and_file 1 file)
    set(MPI_${name}_LIBRARY ${deps_mpi}/${file} CACHE FILEPATH "")
  endforeach()
  set(upsweep_tool_mpi -Wl,--no-as-needed MPI::MPI_CXX)
endif()
set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "the C API only: no C++ bindings library")
find_package(MPI COMPONENTS CXX QUIET)
