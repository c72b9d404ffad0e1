#!/bin/sh
# skip_with_gpu.sh COMMAND...: exits 77 (ctest's SKIP_RETURN_CODE) when a GPU is visible: for the
# tests of what the tools say when there is none.
if nvidia-smi -L >/dev/null 2>&1; then echo "a GPU is present (nvidia-smi -L): skipped"; exit 77; fi
exec "$@"
