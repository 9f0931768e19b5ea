#!/bin/sh
# SPDX-License-Identifier: MIT
# deb-install-check.sh [PACKAGE.deb]: installs the built libgputile-dev
# package as a user would and proves it is usable from the installed
# system alone:
#   - `apt-get install ./libgputile-dev_*.deb' installs it;
#   - examples/matmul.c, taken from /usr/share/doc/libgputile-dev/examples,
#     builds with plain `cc ... $(pkg-config --cflags --libs gputile)' and
#     runs (exit 77, "no CUDA device", counts as a pass on a machine
#     without a GPU; any other failure fails);
#   - examples/CMakeLists.txt, from the same directory, builds the example
#     with CMake through find_package(gputile) and no hints (the package's
#     gputileConfig.cmake in /usr/lib/<triplet>/cmake/gputile), and its
#     version file answers as SameMajorVersion (tests/cmake-example.sh);
#     cmake is installed for it when missing;
#   - `man 3 gputile_matmul' (and an alias page, and gputile(7)) render.
#
# It changes the system (root, apt-get): run it on a disposable CI machine,
# not in `make check'. .ci/run runs it after building the package.
# Without an argument it takes the one ./libgputile-dev_*.deb here.
# Output is TAP; the exit status is 0 when every check passed.
set -u
export LC_ALL=C.UTF-8
unset PKG_CONFIG_PATH MANPATH   # the installed system's defaults only

deb=${1:-}
if [ -z "$deb" ]; then
    set -- ./libgputile-dev_*.deb
    if [ $# -ne 1 ] || [ ! -f "$1" ]; then
        echo "deb-install-check: give the .deb to install (found: $*)" >&2; exit 2
    fi
    deb=$1
fi
case $deb in /*|./*) ;; *) deb=./$deb ;; esac   # apt-get takes a path, not a name
if [ "$(id -u)" != 0 ]; then
    echo "deb-install-check: must run as root (it installs $deb)" >&2; exit 2
fi

tmp=$(mktemp -d)
include_cfg=/etc/dpkg/dpkg.cfg.d/zz-libgputile-deb-install-check
trap 'rm -rf "$tmp" "$include_cfg"' EXIT
n=0; failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$tmp/log"; }

# Container images often keep dpkg from unpacking manuals and documentation
# (path-exclude=/usr/share/man/* in /etc/dpkg/dpkg.cfg.d/): then the check
# would prove nothing. Include this package's files for this install, the
# way a user of such an image would have to, and say so.
excluded=$(grep -hsE '^[[:space:]]*path-exclude[[:space:]=]+/usr/share/(man|doc)' \
               /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d/* | tr '\n' ' ')
if [ -n "$excluded" ]; then
    echo "# dpkg on this machine excludes: $excluded"
    echo "# installing with path-include for libgputile's manuals and examples ($include_cfg)"
    cat >"$include_cfg" <<'CFG'
path-include=/usr/share/man/man3/gputile*
path-include=/usr/share/man/man7/gputile*
path-include=/usr/share/doc/libgputile-dev/*
CFG
fi

# ---- install ---------------------------------------------------------------------
# --reinstall and --allow-downgrades: a package left by an earlier run, of
# this version or a later one, is replaced, so what is checked is this .deb.
# man-db provides man(1); it is not a dependency.
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --reinstall --allow-downgrades \
       "$deb" >"$tmp/log" 2>&1 &&
   { command -v man >/dev/null 2>&1 ||
     DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends man-db >>"$tmp/log" 2>&1; }
then ok "apt-get install $deb"; else not_ok "apt-get install $deb"; fi

: >"$tmp/log"
for f in /usr/include/gputile.h /usr/include/gputile_facade.h /usr/include/gputile_version.h \
         /usr/share/doc/libgputile-dev/examples/matmul.c /usr/share/man/man3/gputile_matmul.3.gz \
         /usr/share/man/man7/gputile.7.gz; do
    [ -f "$f" ] || echo "missing: $f" >>"$tmp/log"
done
for f in /libgputile.a /cmake/gputile/gputileConfig.cmake /cmake/gputile/gputileConfigVersion.cmake; do
    dpkg -L libgputile-dev 2>/dev/null | grep -qF "$f" || echo "missing: $f" >>"$tmp/log"
done
[ -f /usr/share/doc/libgputile-dev/examples/CMakeLists.txt ] ||
    echo "missing: /usr/share/doc/libgputile-dev/examples/CMakeLists.txt" >>"$tmp/log"
if [ -s "$tmp/log" ]; then not_ok "the package's files are installed"; else ok "the package's files are installed"; fi

# ---- pkg-config --------------------------------------------------------------------
# the version of the .deb under test (not whatever is installed)
deb_version=$(dpkg-deb -f "$deb" Version 2>/dev/null | sed 's/-[^-]*$//')
pc_version=$(pkg-config --modversion gputile 2>"$tmp/log")
if [ -n "$pc_version" ] && [ "$pc_version" = "$deb_version" ]
then ok "pkg-config finds gputile $pc_version"
else echo "pkg-config: '$pc_version', package: '$deb_version'" >>"$tmp/log"; not_ok "pkg-config finds gputile"; fi

# ---- the example, with plain cc ----------------------------------------------------------
cp /usr/share/doc/libgputile-dev/examples/matmul.c "$tmp/" 2>"$tmp/log"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
if (cd "$tmp" && cc -o matmul matmul.c $(pkg-config --cflags --libs gputile)) >>"$tmp/log" 2>&1
then ok "cc matmul.c \$(pkg-config --cflags --libs gputile)"; built=yes
else not_ok "cc matmul.c \$(pkg-config --cflags --libs gputile)"; built=no; fi
if [ $built = yes ]; then
    "$tmp/matmul" >"$tmp/log" 2>&1; rc=$?
    sed 's/^/# /' "$tmp/log"
    case $rc in
        0) ok "the example computes C = A * B on the GPU" ;;
        77) ok "the example runs # SKIP no usable CUDA device (or no driver) (exit 77)" ;;
        *) echo "exit status $rc" >"$tmp/log"; not_ok "the example runs" ;;
    esac
fi

# ---- the example, with CMake -----------------------------------------------------
# find_package(gputile) with no hints: CMake's default search must find the
# package's files. cmake (not a dependency) is installed when missing.
if { command -v cmake >/dev/null 2>&1 ||
     DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends cmake >"$tmp/log" 2>&1; } &&
   CMAKE=cmake sh "$(dirname "$0")/cmake-example.sh" /usr/share/doc/libgputile-dev/examples \
       "$deb_version" >"$tmp/log" 2>&1
then sed 's/^/# /' "$tmp/log"; ok "find_package(gputile) builds the example with CMake"
else not_ok "find_package(gputile) builds the example with CMake"; fi

# ---- the manual -----------------------------------------------------------------
for page in "3 gputile_matmul" "3 gputile_gemm" "7 gputile"; do
    # shellcheck disable=SC2086 # section and name
    set -- $page
    if MANWIDTH=80 man -P cat "$1" "$2" >"$tmp/page" 2>"$tmp/log" && grep -q "$2" "$tmp/page" &&
       man -w "$1" "$2" 2>>"$tmp/log" | grep -q '^/usr/share/man/'
    then ok "man $1 $2 renders ($(wc -l <"$tmp/page") lines)"
    else head -n 5 "$tmp/page" >>"$tmp/log"; not_ok "man $1 $2 renders"; fi
done

echo "1..$n"
[ $failed = 0 ]
