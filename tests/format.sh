#!/bin/sh
# SPDX-License-Identifier: MIT
# format.sh: every C, C++ and CUDA source of the tree is formatted as
# .clang-format says (`make format` fixes it). TAP output; skipped where
# clang-format is not installed or is not the major version the tree was
# formatted with (another version formats some constructs differently).
set -u
echo "1..1"
want=14
have=$(clang-format --version 2>/dev/null | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ -z "$have" ]; then
    echo "ok 1 # SKIP clang-format is not installed"; exit 0
fi
if [ "$have" != "$want" ]; then
    echo "ok 1 # SKIP clang-format $have here; the tree follows clang-format $want"; exit 0
fi
cd "$top_srcdir" || exit 1
bad=
for f in $(find include lib kernels tests bench examples -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' | sort); do
    clang-format "$f" | cmp -s - "$f" || bad="$bad $f"
done
if [ -z "$bad" ]; then
    echo "ok 1 - every source file is formatted as .clang-format says"
else
    echo "not ok 1 - not formatted (run make format):"
    for f in $bad; do echo "# $f"; done
fi
