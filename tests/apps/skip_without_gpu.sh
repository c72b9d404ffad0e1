#!/bin/sh
# skip_without_gpu.sh COMMAND...: exits 77 (ctest's SKIP_RETURN_CODE) when no GPU is visible.
if ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU (nvidia-smi -L failed): skipped"; exit 77; fi
exec "$@"
