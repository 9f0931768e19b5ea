#!/bin/sh
# SPDX-License-Identifier: MIT
# cmake-example.sh EXAMPLES_DIR VERSION [CMAKE_ARG...]: a CMake user's view of
# an installed libgputile. In a temporary directory:
#   - EXAMPLES_DIR (examples/CMakeLists.txt and matmul.c) configures with
#     find_package(gputile), builds with CMake and runs matmul (exit 77, no
#     CUDA device, counts as a pass);
#   - gputileConfigVersion.cmake (SameMajorVersion): find_package(gputile V)
#     succeeds for V = VERSION and for its major.minor, fails for the next
#     major version and for the next minor one.
# CMAKE_ARGs go to every configure step (make installcheck passes
# -Dgputile_DIR=...; tests/deb-install-check.sh passes none: the package's
# files must be found by CMake's default search). Run by `make installcheck'
# and tests/deb-install-check.sh. Exit status: 0 when all passed, 77 when
# there is no cmake (CMAKE names another binary), 1 otherwise.
set -u
examples=$1 version=$2
shift 2
cmake=${CMAKE:-cmake}
if ! command -v "$cmake" >/dev/null 2>&1; then
    echo "cmake-example: $cmake not found: the CMake package is not checked"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

echo "cmake-example: $cmake -S $examples -B <tmp> $*"
if "$cmake" -S "$examples" -B "$tmp/build" "$@" >"$tmp/log" 2>&1 &&
   "$cmake" --build "$tmp/build" >>"$tmp/log" 2>&1; then
    grep 'libgputile .* in ' "$tmp/log" | sed 's/^-- */cmake-example: /'
    "$tmp/build/matmul"; rc=$?
    case $rc in
        0) echo "cmake-example: matmul built with CMake computes C = A * B" ;;
        77) echo "cmake-example: matmul built with CMake; no CUDA device here to run it (exit 77)" ;;
        *) echo "cmake-example: matmul built with CMake exited $rc"; failed=1 ;;
    esac
else
    sed 's/^/    /' "$tmp/log"
    echo "cmake-example: the examples did not build with CMake"
    failed=1
fi

# The version file, through find_package itself.
mkdir "$tmp/version"
cat >"$tmp/version/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(gputile_version_check LANGUAGES C)
find_package(gputile ${WANT} REQUIRED)
CMAKE
major=${version%%.*}
rest=${version#*.}
minor=${rest%%.*}
for want in "$version:yes" "$major.$minor:yes" "$((major + 1)):no" "$major.$((minor + 1)):no"; do
    v=${want%:*} expect=${want#*:}
    rm -rf "$tmp/vbuild"
    if "$cmake" -S "$tmp/version" -B "$tmp/vbuild" -DWANT="$v" "$@" >"$tmp/log" 2>&1; then got=yes; else got=no; fi
    if [ "$got" = "$expect" ]; then
        echo "cmake-example: find_package(gputile $v): $( [ "$got" = yes ] && echo found || echo refused), as it should be"
    else
        sed 's/^/    /' "$tmp/log"
        echo "cmake-example: find_package(gputile $v) against $version: expected $( [ "$expect" = yes ] && echo found || echo refused)"
        failed=1
    fi
done
exit $failed
