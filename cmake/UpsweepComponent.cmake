# A header-only Upsweep component built on the core layer: target upsweep_<name>, alias
# Upsweep::<name>, headers from the calling folder's include/, installed into the package.
function(upsweep_add_header_component name)
  add_library(upsweep_${name} INTERFACE)
  add_library(Upsweep::${name} ALIAS upsweep_${name})
  set_target_properties(upsweep_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(upsweep_${name} INTERFACE
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(upsweep_${name} INTERFACE upsweep_scan)
  install(TARGETS upsweep_${name} EXPORT UpsweepTargets)
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
