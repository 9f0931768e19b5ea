#!/bin/sh
# SPDX-License-Identifier: MIT
# abi.sh: the public ABI has not changed since the committed baseline
# abi/gputile.abi. abi/gputile_abi.c (a pointer to every public function,
# a member of every public type, the macros' values) is built with -g into
# a shared object; libabigail's abidw reads its DWARF and abidiff compares
# it with the baseline: struct sizes and layouts, enum values, function
# signatures. Any difference fails. TAP output; skipped without abidw
# (Debian: abigail-tools; ./bootstrap installs it).
#
#   tests/abi.sh --write FILE   writes the ABI of the headers to FILE
#                               (what `make abi-baseline' runs)
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
src=$top_srcdir/abi/gputile_abi.c
baseline=$top_srcdir/abi/gputile.abi

# -fno-sanitize=all: a sanitizer build's CC adds nothing to the ABI.
build() {
    ${CC:-cc} -std=gnu11 -g -O0 -fPIC -shared -fno-sanitize=all \
        -I"$top_srcdir/include" -I"$top_builddir/include" \
        -o "$tmp/gputile_abi.so" "$src" >"$tmp/log" 2>&1 &&
    abidw --no-corpus-path --no-comp-dir-path --no-show-locs \
        --out-file "$1" "$tmp/gputile_abi.so" >>"$tmp/log" 2>&1
}

if [ "${1:-}" = --write ]; then
    build "$2" || { cat "$tmp/log" >&2; exit 1; }
    exit 0
fi

echo "1..2"
# Every function the headers declare is in the table (as tests/man.sh finds them).
functions=$(sed -e 's|/\*.*||' "$top_srcdir/include/gputile.h" "$top_srcdir/include/gputile_facade.h" |
            grep -E '^[a-z]' | grep -oE '\bgputile_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u)
missing=""
for f in $functions; do
    grep -q "FN($f);" "$src" || missing="$missing $f"
done
if [ -z "$missing" ]; then
    echo "ok 1 - abi/gputile_abi.c lists every public function"
else
    echo "not ok 1 - abi/gputile_abi.c does not list:$missing"
fi

if ! command -v abidw >/dev/null 2>&1 || ! command -v abidiff >/dev/null 2>&1; then
    echo "ok 2 - ABI unchanged since abi/gputile.abi # SKIP abidw/abidiff not found (Debian: abigail-tools)"
    exit 0
fi
if ! build "$tmp/now.abi"; then
    echo "not ok 2 - ABI unchanged since abi/gputile.abi: cannot build or read abi/gputile_abi.c"
    sed 's/^/# /' "$tmp/log"
    exit 0
fi
if abidiff --harmless "$baseline" "$tmp/now.abi" >"$tmp/diff" 2>&1; then
    echo "ok 2 - ABI unchanged since abi/gputile.abi (version $(cat "$top_srcdir/abi/gputile.abi.version"))"
else
    echo "not ok 2 - the public ABI differs from abi/gputile.abi:"
    sed 's/^/# /' "$tmp/diff"
    echo "# Released struct layouts, enum values and signatures never change (ABI.md)."
    echo "# If this change is deliberate (new functions or types in a new release):"
    echo "# bump the version in configure.ac, then run \`make abi-baseline' and commit"
    echo "# abi/gputile.abi and abi/gputile.abi.version with the bump."
fi
