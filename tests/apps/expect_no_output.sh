#!/bin/sh
# expect_no_output.sh RC TOOL ARGS...: runs TOOL ARGS -o DIR/out.bin and passes when it exits RC and
# leaves nothing in DIR (no output, no temporary file): a failed run writes nothing half.
rc_wanted=$1
shift
dir=$(mktemp -d) || exit 1
"$@" -o "$dir/out.bin"
rc=$?
left=$(ls -A "$dir")
rm -rf "$dir"
if [ "$rc" != "$rc_wanted" ]; then echo "expect_no_output.sh: exit $rc, expected $rc_wanted"; exit 1; fi
if [ -n "$left" ]; then echo "expect_no_output.sh: left behind: $left"; exit 1; fi
echo "expect_no_output.sh: exit $rc, nothing left"
