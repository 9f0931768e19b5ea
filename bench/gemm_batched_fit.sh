#!/bin/sh
# SPDX-License-Identifier: MIT
# gemm_batched_fit.sh [BUILD_DIR]: builds bench/gemm_batched_fit.c, the
# offline fitting harness for the batched-GEMM planner's constants in
# lib/gemm_plan.c (see the comment at the top of the .c for what it does
# and how to run it). make does not build it.
#
# In BUILD_DIR (default: a new temporary directory under ${TMPDIR:-/tmp},
# printed) it writes plan_fit.c, lib/gemm_plan.c with persistent_candidates[],
# fp32_candidates[] and BATCH_ASYNC_SCALE made writable (each substitution
# checked: a gemm_plan.c that no longer matches fails here, not in the fit),
# and compiles gemm_batched_fit there, which includes it, against the built
# library: libgputile.a from the current directory if it has one (a build
# directory), else from the source tree; LIBGPUTILE=PATH names another.
# CUDA_PREFIX (default /usr/local/cuda) is where cudart is; CC (default gcc)
# the compiler. Runs from anywhere (the source tree is found from this
# script's path) and writes nothing into the source tree (a BUILD_DIR in it
# is refused). Its output on stdout is one line, the built program's path.
set -eu
me=gemm_batched_fit.sh
die() {
    echo "$me: $*" >&2
    exit 1
}
[ $# -le 1 ] || { echo "usage: $me [BUILD_DIR]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$top/lib/gemm_plan.c" ] || [ ! -f "$top/bench/gemm_batched_fit.c" ]; then
    die "cannot find the source tree from $0"
fi
# "plan_fit.c" next to the .c would be included instead of the generated one
[ ! -e "$top/bench/plan_fit.c" ] ||
    die "$top/bench/plan_fit.c would shadow the generated copy: remove it"

outside_tree() { # DIR (absolute)
    case $1/ in
        "$top"/*) die "$1 is in the source tree: name a directory outside it" ;;
    esac
}
if [ $# -eq 1 ]; then
    case $1 in /*) build=$1 ;; *) build=$(pwd)/$1 ;; esac
    outside_tree "$build" # before mkdir creates it
    mkdir -p "$build"
    build=$(cd "$build" && pwd)
else
    build=$(mktemp -d "${TMPDIR:-/tmp}/gemm_batched_fit.XXXXXX")
    echo "$me: building in $build" >&2
fi
outside_tree "$build"

if [ -n "${LIBGPUTILE:-}" ]; then
    lib=$LIBGPUTILE
elif [ -f libgputile.a ]; then
    lib=$(pwd)/libgputile.a
else
    lib=$top/libgputile.a
fi
[ -f "$lib" ] || die "no $lib: build the library first (make), or set LIBGPUTILE"
case $lib in /*) ;; *) lib=$(pwd)/$lib ;; esac
# a build directory's generated headers (gputile_version.h) before the tree's
set --
libdir=$(dirname "$lib")
if [ "$libdir" != "$top" ] && [ -f "$libdir/include/gputile_version.h" ]; then
    set -- "-I$libdir/include"
fi
cuda=${CUDA_PREFIX:-/usr/local/cuda}

sed -e 's/^static const struct persistent_candidate {/static struct persistent_candidate {/' \
    -e 's/^static const struct fp32_candidate {/static struct fp32_candidate {/' \
    -e 's/^#define BATCH_ASYNC_SCALE \([0-9.eE+-]*\)[[:space:]]*$/static double BATCH_ASYNC_SCALE = \1;/' \
    "$top/lib/gemm_plan.c" >"$build/plan_fit.c"
fail=0
check() { # PATTERN COUNT: PATTERN is on COUNT lines of plan_fit.c
    n=$(grep -c -- "$1" "$build/plan_fit.c" || true)
    if [ "$n" != "$2" ]; then
        echo "$me: '$1' on $n lines of $build/plan_fit.c, expected $2" >&2
        fail=1
    fi
}
check '^static struct persistent_candidate {$' 1
check '^static struct fp32_candidate {$' 1
check '^static double BATCH_ASYNC_SCALE = [0-9.eE+-]*;$' 1
check 'static const struct persistent_candidate' 0
check 'static const struct fp32_candidate' 0
check '#define BATCH_ASYNC_SCALE' 0
[ "$fail" = 0 ] ||
    die "lib/gemm_plan.c no longer matches the substitutions above: update this script"

# --allow-multiple-definition: plan_fit.c defines what libgputile.a's
# gemm_plan.o does; the program's own (writable) definitions come first.
"${CC:-gcc}" -O2 -std=gnu11 -Wall -Wextra \
    -I"$build" "$@" -I"$top/include" -I"$top/lib" -I"$top/kernels" -I"$cuda/include" \
    -DGPUTILE_BUILDING "$top/bench/gemm_batched_fit.c" -o "$build/gemm_batched_fit" \
    -Wl,--allow-multiple-definition "$lib" \
    -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcudart -lstdc++ -lm -lpthread -ldl
echo "$build/gemm_batched_fit"
