#!/bin/sh
# SPDX-License-Identifier: MIT
# hostile-coverage.sh: tests/test_hostile.c's table has at least one row for
# every function declared in include/gputile.h and every status-returning
# function of include/gputile_facade.h, and a valid call for each. TAP output.
# shellcheck disable=SC2154 # top_srcdir comes from the test environment
set -u
test_c="$top_srcdir/tests/test_hostile.c"
echo "1..3"
# Declarations start in column 0 (as tests/man.sh reads them); comments stripped.
public=$(sed -e 's|/\*.*||' "$top_srcdir/include/gputile.h" | grep -E '^[a-z]' |
         grep -oE '\bgputile_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u)
facade=$(grep -oE '^static inline gputile_status gputile_[a-z0-9_]+ *\(' \
         "$top_srcdir/include/gputile_facade.h" | sed 's/.* //; s/(//' | sort -u)
rows=$(grep -oE '\bROW2?\(gputile_[a-z0-9_]+' "$test_c" | sed 's/^ROW2*(//' | sort -u)
valid=$(grep -oE '\{"gputile_[a-z0-9_]+", v_' "$test_c" | sed 's/{"//; s/",.*//' | sort -u)
if [ -z "$public" ] || [ -z "$rows" ]; then
    echo "not ok 1 - could not read the functions or the rows"; exit 0
fi
n=0
for list in rows valid; do
    n=$((n + 1))
    eval have=\$$list
    missing=""
    for f in $public $facade; do
        echo "$have" | grep -qx "$f" || missing="$missing $f"
    done
    if [ -z "$missing" ]; then
        echo "ok $n - every public function has a $list entry in test_hostile.c"
    else
        echo "not ok $n - public functions with no $list entry in test_hostile.c:$missing"
    fi
done
extra=""
for f in $rows; do
    echo "$public $facade" | tr ' ' '\n' | grep -qx "$f" || extra="$extra $f"
done
if [ -z "$extra" ]; then
    echo "ok 3 - every row calls a public function"
else
    echo "not ok 3 - rows name functions that are not public:$extra"
fi
