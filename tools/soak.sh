#!/usr/bin/env bash
# tools/soak.sh [upsweep-soak options]: runs the soak (random configurations of every primitive
# against the CPU reference and CUB; default one minute) from the first build tree that has it:
# $UPSWEEP_BUILD_DIR, build/gpu, build/ci, build. Options: --seconds N --seed S --max-n N --only I.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
for dir in ${UPSWEEP_BUILD_DIR:-} "$root/build/gpu" "$root/build/ci" "$root/build"; do
  if [ -x "$dir/tools/soak/upsweep-soak" ]; then exec "$dir/tools/soak/upsweep-soak" "$@"; fi
done
echo "soak.sh: no upsweep-soak built (cmake --build <build dir> --target upsweep-soak)" >&2
exit 1
