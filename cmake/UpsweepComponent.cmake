# An Upsweep component: target upsweep_<name>, alias Upsweep::<name>, exported as Upsweep::<name>.
# It carries the template headers of the calling folder's include/ (nvcc users: any type,
# operator, device lambda) and the compiled API built from the given sources (explicit instances
# for the standard types; g++ users). Static by default; with BUILD_SHARED_LIBS a shared library
# with SOVERSION 0.<minor> (0.x: every minor release may break the ABI) that exports only the
# functions marked UPSWEEP_API. No separable compilation: plain g++ projects link it as is.
function(upsweep_add_component name)
  set(target upsweep_${name})
  add_library(${target} ${ARGN})
  add_library(Upsweep::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${name}
    OUTPUT_NAME upsweep_${name}
    POSITION_INDEPENDENT_CODE ON
    CUDA_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  target_compile_features(${target} PUBLIC cxx_std_17 cuda_std_17)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # A definition that matches no declaration in the public header would be a hidden symbol that
  # consumers cannot link: make that a compile-time warning.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wmissing-declarations>)
  upsweep_set_warnings(${target})
  if(NOT name STREQUAL "scan")
    target_link_libraries(${target} PUBLIC upsweep_scan)
  endif()
  install(TARGETS ${target} EXPORT UpsweepTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
