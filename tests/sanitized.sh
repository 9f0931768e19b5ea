#!/bin/sh
# SPDX-License-Identifier: MIT
# sanitized.sh PROGRAM [ARG...]: runs a test program of a --enable-sanitizers
# build (make check's LOG_COMPILER there) and fails it when any sanitizer
# reported anything in any of its processes.
#
# Criterion runs each test in a child process, ignores a child's exit
# status once the test has reported its result, and with its TAP output
# on (CRITERION_OUTPUTS) drops the children's stderr: a leak that
# LeakSanitizer finds when a child exits, or a UBSan report, would go
# unseen. So every process writes its reports to a file (log_path), and
# this script copies them to the test's log and fails the program when
# there is any. The TAP on stdout is untouched.
set -u
dir=$(mktemp -d) || exit 99
ASAN_OPTIONS="${ASAN_OPTIONS:-}:log_path=$dir/asan"
UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:log_path=$dir/ubsan"
LSAN_OPTIONS="${LSAN_OPTIONS:-}:log_path=$dir/lsan"
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
"$@"
rc=$?
for f in "$dir"/*; do
    [ -f "$f" ] || continue
    echo "# sanitized.sh: output of the sanitizers in process ${f##*.}:"
    sed 's/^/# /' "$f"
done
if cat "$dir"/* 2>/dev/null | grep -q -E 'ERROR: (Address|Leak)Sanitizer|runtime error:'; then
    echo "Bail out! $1: sanitizer reports (above)"
    [ "$rc" = 0 ] && rc=1
fi
rm -rf "$dir"
exit $rc
