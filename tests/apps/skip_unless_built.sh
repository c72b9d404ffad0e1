#!/bin/sh
# skip_unless_built.sh TOOL PHRASE COMMAND...: exits 77 (ctest's SKIP_RETURN_CODE) unless
# `TOOL --version` says PHRASE ("--gpus: with NCCL", "--distributed: without"): what the binary
# was built with decides, not the configure that registered the test (prebuilt binaries).
tool=$1 phrase=$2
shift 2
version=$("$tool" --version 2>&1) || { echo "$tool --version failed: $version"; exit 1; }
case "$version" in
  *"$phrase"*) exec "$@" ;;
  *) echo "$version: not '$phrase': skipped"; exit 77 ;;
esac
