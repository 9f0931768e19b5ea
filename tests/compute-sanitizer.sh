#!/bin/sh
# SPDX-License-Identifier: MIT
# compute-sanitizer.sh PROGRAM...: runs each GPU test program under NVIDIA's
# compute-sanitizer with each tool in turn, and fails on any error.
#
#   make check-compute-sanitizer        (all GPU suites, all four tools)
#   CS_TOOLS="memcheck initcheck" make check-compute-sanitizer
#
# Tools, in this order (CS_TOOLS picks some):
#   memcheck   out-of-bounds and misaligned accesses, hardware exceptions,
#              CUDA API errors, and (--leak-check full) device memory
#              still allocated when the program exits;
#   racecheck  shared-memory hazards between threads;
#   synccheck  invalid barriers (__syncthreads in divergent code, cluster
#              barriers);
#   initcheck  reads of device global memory never written.
#
# Criterion runs every test in a child process: compute-sanitizer follows
# them with --target-processes all (and --require-cuda-init=no: the parent
# makes no CUDA call of its own), one log per process (%p). --jobs=1 runs
# one test at a time. GPUTEST_SMALL=1 makes the suites shrink their largest
# sizes (tests/support/gpu.h says how) so that all four tools finish in
# minutes; every algorithm, split, edge and tier still runs.
#
# Prints, for each tool and program, the errors from compute-sanitizer's
# "ERROR SUMMARY" lines (summed over the processes) and the time taken, then
# a total per tool. Exits 1 when any error was reported or any program
# failed or ran no test (no device), 77 when there is no compute-sanitizer.
#
# Environment: COMPUTE_SANITIZER (the binary; default: on PATH, else in
# /usr/local/cuda/bin or /usr/local/cuda/compute-sanitizer), CS_TOOLS,
# CS_LOGDIR (where logs go; default cs-logs in the current directory),
# CS_ARGS (more compute-sanitizer options), CRITERION_ARGS (more Criterion
# options, e.g. --filter='gemm/*').
set -u
cs=${COMPUTE_SANITIZER:-}
if [ -z "$cs" ]; then
    for c in compute-sanitizer /usr/local/cuda/bin/compute-sanitizer \
             /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
        if command -v "$c" >/dev/null 2>&1; then cs=$(command -v "$c"); break; fi
    done
fi
if [ -z "$cs" ]; then
    echo "compute-sanitizer.sh: compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2
    exit 77
fi
if [ $# = 0 ]; then
    echo "usage: compute-sanitizer.sh PROGRAM..." >&2
    exit 2
fi
tools=${CS_TOOLS:-memcheck racecheck synccheck initcheck}
logdir=${CS_LOGDIR:-cs-logs}
rm -rf "$logdir" && mkdir -p "$logdir" || exit 1
GPUTEST_SMALL=1; export GPUTEST_SMALL
unset CRITERION_OUTPUTS # plain Criterion output on stdout

echo "compute-sanitizer.sh: $("$cs" --version | tail -n 1); tools: $tools"
status=0
all_start=$(date +%s)
for tool in $tools; do
    case $tool in
        # The suites provoke CUDA API errors on purpose (allocations too
        # large, frees of bad pointers): memcheck reports memory errors of
        # kernels and leaks, not the API errors the tests expect.
        memcheck) opts="--leak-check full --report-api-errors no" ;;
        racecheck) opts="--racecheck-report all" ;;
        *) opts="" ;;
    esac
    tool_errors=0
    tool_start=$(date +%s)
    for prog in "$@"; do
        name=$(basename "$prog")
        start=$(date +%s)
        # shellcheck disable=SC2086 # opts, CS_ARGS and CRITERION_ARGS are word lists
        "$cs" --tool "$tool" $opts --target-processes all --require-cuda-init=no \
            --error-exitcode 99 --print-limit 100 \
            --log-file "$logdir/$tool-$name-%p.log" ${CS_ARGS:-} \
            "$prog" -j1 ${CRITERION_ARGS:-} >"$logdir/$tool-$name.out" 2>&1
        rc=$?
        # racecheck ends with "RACECHECK SUMMARY: N hazards displayed (E
        # errors, W warnings)", the other tools with "ERROR SUMMARY: E errors".
        errors=$(cat "$logdir/$tool-$name"-*.log 2>/dev/null |
                 sed -n -e 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' \
                        -e 's/.*RACECHECK SUMMARY: .*(\([0-9][0-9]*\) error.*/\1/p' |
                 awk '{ n += $1 } END { print n + 0 }')
        processes=$(cat "$logdir/$tool-$name"-*.log 2>/dev/null | grep -c -e 'ERROR SUMMARY' -e 'RACECHECK SUMMARY')
        tests=$(grep -E '^\[====\] Synthesis' "$logdir/$tool-$name.out" | tail -n 1)
        printf '%-10s %-24s %4s errors in %3s processes  %4ss  rc=%s  %s\n' "$tool" "$name" \
            "$errors" "$processes" "$(( $(date +%s) - start ))" "$rc" "${tests#\[====\] }"
        case $tests in
            *"Tested: 0 "*) echo "    no test ran (no device? every test skipped): failing"; status=1 ;;
        esac
        if [ "$errors" != 0 ]; then
            grep -h -m 20 -E '^========= (Invalid|Race|Barrier|Uninitialized|Leaked|Program hit|Error|Malloc|Warp|Hazard|.*[Hh]azard)' \
                "$logdir/$tool-$name"-*.log | sed 's/^/    /' | sort | uniq -c | sort -rn | head -n 20
        fi
        if [ "$rc" != 0 ]; then
            echo "    $name exited $rc under $tool: the end of $logdir/$tool-$name.out:"
            tail -n 15 "$logdir/$tool-$name.out" | sed 's/^/    /'
            status=1
        fi
        if [ "$processes" = 0 ]; then
            echo "    no ERROR SUMMARY in $logdir/$tool-$name-*.log: did compute-sanitizer run?"
            status=1
        fi
        tool_errors=$((tool_errors + errors))
    done
    echo "== $tool: $tool_errors errors ($(( $(date +%s) - tool_start ))s)"
    [ "$tool_errors" = 0 ] || status=1
done
echo "compute-sanitizer.sh: $( [ $status = 0 ] && echo 'no errors' || echo FAILED ) in $(( $(date +%s) - all_start ))s; logs in $logdir/"
exit $status
