#!/usr/bin/env bash
# The main job in one command: installs what is missing, builds upsweep-sort for sm_90 and runs
# it without arguments (100M uniform uint32 keys generated, sorted on the GPU, checked against
# CUB, and the report printed). Extra arguments go to upsweep-sort.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/install-deps.sh
cmake --preset gpu >/dev/null
cmake --build --preset gpu --target upsweep-sort
exec build/gpu/apps/upsweep-sort/upsweep-sort "$@"
