#!/bin/sh
# expect.sh RC REGEX COMMAND...: runs COMMAND, passes when it exits with RC and its output
# (stdout and stderr together) matches the extended regular expression REGEX.
expected_rc=$1 pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$expected_rc" ]; then echo "expect.sh: exit code $rc, expected $expected_rc"; exit 1; fi
printf '%s\n' "$out" | grep -qE -- "$pattern" || { echo "expect.sh: output does not match: $pattern"; exit 1; }
echo "expect.sh: ok"
