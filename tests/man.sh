#!/bin/sh
# SPDX-License-Identifier: MIT
# man.sh: the manual in man/ cannot drift from the API. TAP output.
#
#  - every page lints clean: `mandoc -T lint -W warning` and
#    `man --warnings -l` print nothing (skipped when the tool is missing);
#  - every function declared in include/gputile.h and gputile_facade.h has a
#    page man/man3/<function>.3 (or an alias page) whose NAME line names it,
#    and every name in a NAME line is a declared function;
#  - an alias page is one line, `.so man3/<target>.3`, followed by comment
#    lines only (its SPDX line, tests/spdx.sh), naming a page that is not
#    itself an alias and whose NAME line names the alias;
#  - every other page has the Linux sections in order, and lexgrog(1) (the
#    parser behind whatis) reads its NAME line;
#  - every page is listed in dist_man3_MANS/dist_man7_MANS (so it is
#    installed and in the tarball);
#  - every man3 page's EXAMPLES program compiles with -Werror and links
#    against the libgputile.a of this build (pages marked `.\" EXAMPLES need
#    NCCL' only in a --with-nccl build, with NCCL_CPPFLAGS and NCCL_LIBS).
#
# The EXAMPLES convention: the program is the FIRST .EX/.EE block after
# `.SH EXAMPLES` (later blocks, such as sample output, are not compiled).
# Inside it, code is written as roff needs it and un-escaped here:
#   \e -> \    \- -> -    \& -> (nothing)    \(aq -> '    \(dq -> "
#   \(ha -> ^  \(ti -> ~  \(rs -> \
# Any other escape, or a line that starts with `.` or `'` (a roff request;
# write `\&.` for C code that starts with a dot), fails the test.
#
# mandoc's one warning about alias pages, ".so is fragile, better use
# ln(1)", is expected: alias pages are .so lines by design (man-db and
# Debian policy handle them); any other output still fails.
# shellcheck disable=SC2154 # top_srcdir, top_builddir come from the test environment
set -u
mandir="$top_srcdir/man"
headers="$top_srcdir/include/gputile.h $top_srcdir/include/gputile_facade.h"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$tmp/log"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { # check DESCRIPTION: ok when $tmp/log is empty
    if [ -s "$tmp/log" ]; then not_ok "$1"; else ok "$1"; fi
}

pages=$(cd "$mandir" && ls man3/*.3 man7/*.7)
is_alias() { head -n 1 "$mandir/$1" | grep -q '^\.so'; }
# The names in a page's NAME line: `a, b, c \- text` -> "a b c".
names_of() {
    awk '/^\.SH/ { in_name = ($0 ~ /^\.SH +"?NAME"?[ \t]*$/); next }
         in_name && !/^\./ { sub(/ \\- .*/, ""); gsub(/,/, " "); print; exit }' "$mandir/$1"
}
# The public functions: identifiers followed by `(` on top-level lines of
# the headers (declarations start in column 0; comments are stripped).
# shellcheck disable=SC2086 # two paths
functions=$(sed -e 's|/\*.*||' $headers | grep -E '^[a-z]' |
            grep -oE '\bgputile_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u)
declared() { echo "$functions" | grep -qx "$1"; }

# ---- lint --------------------------------------------------------------------
for p in $pages; do
    if [ -z "${MANDOC:-}" ]; then skip "mandoc -T lint -W warning $p" "mandoc not found"; continue; fi
    target=$(sed -n 's/^\.so //p' "$mandir/$p")
    (cd "$mandir" && "$MANDOC" -T lint -W warning "$p") 2>&1 |
        grep -vxF "mandoc: $p:1:2: WARNING: .so is fragile, better use ln(1): so $target" >"$tmp/log"
    check "mandoc -T lint -W warning $p"
done
man_db=no
if [ -n "${MAN:-}" ] && "$MAN" --help 2>&1 | grep -q -- '--warnings'; then man_db=yes; fi
for p in $pages; do
    if [ $man_db = no ]; then skip "man --warnings -l $p" "man-db's man not found"; continue; fi
    # stderr (the warnings) to the log, the formatted page away
    # shellcheck disable=SC2069
    (cd "$mandir" && MANWIDTH=80 "$MAN" --warnings -l "$p" 2>&1 >/dev/null) >"$tmp/log"
    check "man --warnings -l $p"
done

# ---- every page is installed and distributed ----------------------------------
# MAN_PAGES is dist_man3_MANS and dist_man7_MANS from Makefile.am.
if [ -z "${MAN_PAGES+set}" ]; then
    skip "every page is in dist_man3_MANS or dist_man7_MANS" "MAN_PAGES not set (run by make check)"
else
    listed=$(for m in $MAN_PAGES; do echo "${m#man/}"; done | sort)
    : >"$tmp/log"
    for p in $pages; do
        echo "$listed" | grep -qxF "$p" ||
            echo "man/$p is in neither dist_man3_MANS nor dist_man7_MANS (Makefile.am)" >>"$tmp/log"
    done
    for p in $listed; do
        [ -f "$mandir/$p" ] || echo "Makefile.am lists man/$p, which does not exist" >>"$tmp/log"
    done
    check "every page is in dist_man3_MANS or dist_man7_MANS"
fi

# ---- every public function has a page, and every page a function ---------
if [ -z "$functions" ]; then
    echo "no function found in $headers" >"$tmp/log"; not_ok "the headers declare functions"
fi
for f in $functions; do
    p=man3/$f.3
    if [ ! -f "$mandir/$p" ]; then
        echo "no $p: write the page, or an alias page \`.so man3/<page>.3'" >"$tmp/log"
    else
        is_alias "$p" && p=$(sed -n 's/^\.so //p' "$mandir/$p")
        if [ ! -f "$mandir/$p" ]; then echo "$p does not exist" >"$tmp/log"
        elif names_of "$p" | tr ' ' '\n' | grep -qx "$f"; then : >"$tmp/log"
        else echo "the NAME line of $p does not name $f" >"$tmp/log"; fi
    fi
    check "$f() has a page"
done
for p in $pages; do
    is_alias "$p" && continue
    case $p in man7/*) continue ;; esac
    : >"$tmp/log"
    names=$(names_of "$p")
    [ -n "$names" ] || echo "no NAME line" >>"$tmp/log"
    for f in $names; do
        declared "$f" || echo "$f is in the NAME line but declared in no public header" >>"$tmp/log"
    done
    check "$p documents only declared functions"
done

# ---- alias pages -------------------------------------------------------------
for p in $pages; do
    is_alias "$p" || continue
    : >"$tmp/log"
    name=$(basename "$p" .3)
    if ! head -n 1 "$mandir/$p" | grep -qxE '\.so man3/[a-z0-9_]+\.3' ||
       tail -n +2 "$mandir/$p" | grep -qv '^\.\\"'; then
        echo "an alias page is one line, .so man3/<page>.3, then comment lines only; found:" >"$tmp/log"
        cat "$mandir/$p" >>"$tmp/log"
    else
        target=$(sed -n 's/^\.so //p' "$mandir/$p")
        if [ ! -f "$mandir/$target" ]; then echo "$target does not exist" >"$tmp/log"
        elif is_alias "$target"; then echo "$target is itself an alias" >"$tmp/log"
        elif ! names_of "$target" | tr ' ' '\n' | grep -qx "$name"; then
            echo "the NAME line of $target does not name $name" >"$tmp/log"
        fi
    fi
    check "$p is an alias page"
done

# ---- sections, NAME lines ----------------------------------------------------
# The Linux man-pages order; a page may leave sections out, not reorder them.
order="NAME|LIBRARY|SYNOPSIS|CONFIGURATION|DESCRIPTION|OPTIONS|EXIT STATUS|RETURN VALUE|ERRORS|ENVIRONMENT|FILES|ATTRIBUTES|VERSIONS|STANDARDS|HISTORY|NOTES|CAVEATS|BUGS|EXAMPLES|AUTHORS|REPORTING BUGS|COPYRIGHT|SEE ALSO"
for p in $pages; do
    is_alias "$p" && continue
    case $p in
        man3/*) required="NAME|LIBRARY|SYNOPSIS|DESCRIPTION|RETURN VALUE|ERRORS|EXAMPLES|SEE ALSO" ;;
        *) required="NAME|DESCRIPTION|SEE ALSO" ;;
    esac
    sed -n 's/^\.SH  *//p' "$mandir/$p" | tr -d '"' |
        awk -v order="$order" -v required="$required" '
            BEGIN { n = split(order, o, "|"); for (i = 1; i <= n; ++i) rank[o[i]] = i
                    split(required, r, "|"); last = 0 }
            { if (!($0 in rank)) { print "unknown section " $0; next }
              if (rank[$0] <= last) print "section " $0 " is out of order"
              last = rank[$0]; seen[$0] = 1 }
            END { for (i in r) if (!(r[i] in seen)) print "missing section " r[i] }' >"$tmp/log"
    case $p in man3/*)
        for f in $(names_of "$p"); do
            awk '/^\.SH/ { in_s = ($0 ~ /^\.SH +"?SYNOPSIS"?[ \t]*$/); next } in_s' "$mandir/$p" |
                grep -q "[ *]$f(" || echo "$f is not in the SYNOPSIS" >>"$tmp/log"
        done ;;
    esac
    check "$p has the sections in order"
done
lexgrog=$(command -v lexgrog 2>/dev/null || true)
for p in $pages; do
    is_alias "$p" && continue
    if [ -z "$lexgrog" ]; then skip "lexgrog $p" "lexgrog (man-db) not found"; continue; fi
    : >"$tmp/log"
    names=$(names_of "$p")
    if ! "$lexgrog" "$mandir/$p" >"$tmp/lex" 2>&1; then
        cat "$tmp/lex" >"$tmp/log"
    else
        for f in $names; do
            grep -qF "\"$f - " "$tmp/lex" || { echo "lexgrog did not find $f:"; cat "$tmp/lex"; } >>"$tmp/log"
        done
    fi
    check "lexgrog $p (whatis reads the NAME line)"
done

# ---- EXAMPLES programs compile and link ----------------------------------------
extract() { # extract PAGE > program.c; messages on stderr, exit 1 on a bad block
    awk '
        function unescape(s,   out, i, rest) {
            out = ""
            while ((i = index(s, "\\")) > 0) {
                out = out substr(s, 1, i - 1); rest = substr(s, i + 1)
                if (rest ~ /^e/) { out = out "\\"; s = substr(rest, 2) }
                else if (rest ~ /^-/) { out = out "-"; s = substr(rest, 2) }
                else if (rest ~ /^&/) { s = substr(rest, 2) }
                else if (rest ~ /^\(aq/) { out = out "\047"; s = substr(rest, 4) }
                else if (rest ~ /^\(dq/) { out = out "\""; s = substr(rest, 4) }
                else if (rest ~ /^\(ha/) { out = out "^"; s = substr(rest, 4) }
                else if (rest ~ /^\(ti/) { out = out "~"; s = substr(rest, 4) }
                else if (rest ~ /^\(rs/) { out = out "\\"; s = substr(rest, 4) }
                else { printf "line %d: escape \\%s is not allowed in a program\n", NR, substr(rest, 1, 3) > "/dev/stderr"
                       bad = 1; s = rest }
            }
            return out s
        }
        /^\.SH/ { in_ex = ($0 ~ /^\.SH +"?EXAMPLES"?[ \t]*$/); next }
        in_ex && !done && /^\.EX/ { code = 1; found = 1; next }
        code && /^\.EE/ { code = 0; done = 1; next }
        code && /^[.\047]/ { printf "line %d: roff request in a program: %s\n", NR, $0 > "/dev/stderr"; bad = 1; next }
        code { print unescape($0) }
        END { if (!found) { print "no .EX block in EXAMPLES" > "/dev/stderr"; bad = 1 }
              if (code) { print "EXAMPLES: .EX without .EE" > "/dev/stderr"; bad = 1 }
              exit bad }' "$1"
}
lib="$top_builddir/libgputile.a"
for p in $pages; do
    is_alias "$p" && continue
    case $p in man3/*) ;; *) continue ;; esac
    name=$(basename "$p" .3)
    # A page whose program needs NCCL (a comment line `.\" EXAMPLES need
    # NCCL') is compiled only in a --with-nccl build (NCCL_LIBS set).
    if grep -q '^\.\\" EXAMPLES need NCCL' "$mandir/$p" && [ -z "${NCCL_LIBS:-}" ]; then
        skip "$p: EXAMPLES program compiles and links (-Werror)" "built without NCCL"; continue
    fi
    if ! extract "$mandir/$p" >"$tmp/$name.c" 2>"$tmp/log"; then
        not_ok "$p: EXAMPLES program extracted"; continue
    fi
    # shellcheck disable=SC2086
    if $CC -std=c11 -pedantic -Wall -Wextra -Werror \
           -I"$top_srcdir/include" -I"$top_builddir/include" ${CUDA_CPPFLAGS:-} \
           ${NCCL_CPPFLAGS:-} -o "$tmp/$name" "$tmp/$name.c" "$lib" ${NCCL_LIBS:-} ${CUDA_LDFLAGS:-} \
           -lcudart_static -ldl -lrt -lpthread -lstdc++ -lm >"$tmp/log" 2>&1
    then ok "$p: EXAMPLES program compiles and links (-Werror)"
    else
        echo "the program, as extracted:" >>"$tmp/log"; cat -n "$tmp/$name.c" >>"$tmp/log"
        not_ok "$p: EXAMPLES program compiles and links (-Werror)"
    fi
done
echo "1..$n"
exit 0
