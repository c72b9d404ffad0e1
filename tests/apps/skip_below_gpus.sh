#!/bin/sh
# skip_below_gpus.sh N COMMAND...: exits 77 (ctest's SKIP_RETURN_CODE) unless N GPUs are visible.
need=$1
shift
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$have" -lt "$need" ]; then echo "$have GPUs visible (nvidia-smi -L), $need needed: skipped"; exit 77; fi
exec "$@"
