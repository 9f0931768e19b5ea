#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx.sh: every source file that git tracks names its license in its first
# comment lines, `SPDX-License-Identifier: MIT' (COPYING holds the text).
# Nothing is exempt. Source files are:
#   *.c *.h *.cu *.cuh *.in *.sh *.am *.ac *.m4, man pages (man/man*/*.[1-9]),
#   CMake files (CMakeLists.txt, *.cmake), and every script (a file whose
#   first line starts with #!, such as bootstrap, .ci/run, debian/rules).
# The identifier must be on a comment line among the file's first 5 lines.
# TAP output, one line per top-level directory (the files at the top count
# as "."), naming the files that lack it. Outside a git checkout (a release
# tarball) the list of tracked files is unknown: skipped; the check ran on
# the commit the tarball was made from.
#
# The header is one line in the file's own comment syntax, first in the file:
#   C, C++, CUDA (.c .h .cu .cuh, and .h.in)  /* SPDX-License-Identifier: MIT */
#   shell, make, autoconf, m4, CMake, .pc.in   # SPDX-License-Identifier: MIT
#   man pages                                  .\" SPDX-License-Identifier: MIT
# with two exceptions: in a script it comes after the #! line, and in a man
# alias page after the .so line (dh_installman and mandb read line 1 for it).
#
#   tests/spdx.sh                  the check (make check runs it)
#   tests/spdx.sh --list           lists the tracked source files that lack it
#   tests/spdx.sh --add FILE...    adds it to each FILE that lacks it, as above
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
id='SPDX-License-Identifier: MIT'

# has_id FILE: the identifier is on a comment line among the first 5 lines.
has_id() {
    head -n 5 "$1" | grep -qE "^(/\\*|//| \\*|#|dnl|\\.\\\\\"|'\\\\\")[[:space:]]*$id([[:space:]]|\\*/|\$)"
}

# is_source FILE: a source file by the rules above (FILE relative to top_srcdir).
is_source() {
    case $1 in
        *.c | *.h | *.cu | *.cuh | *.in | *.sh | *.am | *.ac | *.m4) return 0 ;;
        man/man*/*.[1-9]) return 0 ;;
        CMakeLists.txt | */CMakeLists.txt | *.cmake) return 0 ;;
    esac
    [ -f "$top_srcdir/$1" ] && head -c 2 "$top_srcdir/$1" | LC_ALL=C grep -q '^#!'  # a script
}

# header FILE: the header line for FILE's comment syntax.
header() {
    case $1 in
        *.c | *.h | *.cu | *.cuh | *.c.in | *.h.in) echo "/* $id */" ;;
        *.[1-9]) echo ".\\\" $id" ;;
        *) echo "# $id" ;;
    esac
}

# add FILE: inserts the header (after a #! or an alias page's .so line).
add() {
    has_id "$1" && return 0
    first=$(head -n 1 "$1")
    tmp_file=$1.spdx-tmp
    case $first in
        '#!'* | .so\ *)
            { echo "$first"; header "$1"; tail -n +2 "$1"; } >"$tmp_file" ;;
        *)
            { header "$1"; cat "$1"; } >"$tmp_file" ;;
    esac
    # keep the file's mode (scripts stay executable)
    cat "$tmp_file" >"$1" && rm -f "$tmp_file"
}

if [ "${1:-}" = --add ]; then
    shift
    status=0
    for f in "$@"; do
        if [ ! -f "$f" ]; then echo "spdx.sh: $f: no such file" >&2; status=1; continue; fi
        add "$f" || status=1
    done
    exit $status
fi

tracked() {
    git -C "$top_srcdir" ls-files 2>/dev/null
}
missing() { # the tracked source files without the identifier
    tracked | while IFS= read -r f; do
        is_source "$f" || continue
        has_id "$top_srcdir/$f" || echo "$f"
    done
}

if [ "${1:-}" = --list ]; then
    missing
    exit 0
fi

if [ ! -e "$top_srcdir/.git" ] || ! command -v git >/dev/null 2>&1 || [ -z "$(tracked)" ]; then
    echo "1..1"
    echo "ok 1 - every tracked source file has $id # SKIP not a git checkout"
    exit 0
fi
dirs=$(tracked | while IFS= read -r f; do
           is_source "$f" || continue
           case $f in */*) echo "${f%%/*}" ;; *) echo . ;; esac
       done | sort -u)
lacking=$(missing)
n=0
for d in $dirs; do
    n=$((n + 1))
    if [ "$d" = . ]; then
        bad=$(echo "$lacking" | grep -v / || true); where="at the top"
    else
        bad=$(echo "$lacking" | awk -v d="$d/" 'index($0, d) == 1'); where="under $d/"
    fi
    if [ -z "$bad" ]; then
        echo "ok $n - every tracked source file $where has $id"
    else
        echo "not ok $n - tracked source files $where without $id in their first comment lines:"
        echo "$bad" | sed 's/^/#   /'
        echo "# add it with: tests/spdx.sh --add FILE... (tests/spdx.sh --list names them all)"
    fi
done
echo "1..$n"
