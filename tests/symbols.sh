#!/bin/sh
# SPDX-License-Identifier: MIT
# symbols.sh: libgputile.a exports nothing outside gputile_ / GPUTILE_
# (internals are gputile__; kernels are static __global__). TAP output.
set -u
lib=$top_builddir/libgputile.a
echo "1..2"
bad=$($NM -g --defined-only "$lib" | awk 'NF == 3 && $2 ~ /[A-Z]/ {print $3}' | grep -vE '^(gputile_|GPUTILE_)' | sort -u)
if [ -z "$bad" ]; then
    echo "ok 1 - every global symbol of libgputile.a starts with gputile_"
else
    echo "not ok 1 - global symbols outside the gputile_ prefix:"
    echo "$bad" | sed 's/^/# /'
fi
public=$(grep -hoE '\bgputile_[a-z0-9_]+\(' "$top_srcdir/include/gputile.h" | tr -d '(' | sort -u)
missing=""
for f in $public; do
    $NM -g --defined-only "$lib" | awk '{print $3}' | grep -qx "$f" || missing="$missing $f"
done
if [ -z "$missing" ]; then
    echo "ok 2 - every function declared in gputile.h is defined in libgputile.a"
else
    echo "not ok 2 - declared but not defined:$missing"
fi
