# Writes OUT (a header defining UPSWEEP_COMMIT, the source tree's `git describe --always --dirty`,
# or "unknown" without git) only when its text changes, so a build recompiles what includes it
# only after a commit or an edit. Run as `cmake -DSOURCE_DIR=... -DOUT=... -P UpsweepCommit.cmake`.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=7
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
set(text "#define UPSWEEP_COMMIT \"${commit}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
