#!/bin/sh
# skip_below_gpus.sh N COMMAND...: exits 77 (ctest's SKIP_RETURN_CODE) unless N GPUs are visible:
# nvidia-smi's count, or CUDA_VISIBLE_DEVICES's entries where it is set.
need=$1
shift
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  have=$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
fi
if [ "$have" -lt "$need" ]; then echo "$have GPUs visible, $need needed: skipped"; exit 77; fi
exec "$@"
