#!/bin/sh
# SPDX-License-Identifier: MIT
# example.sh: examples/matmul (built against the library in the tree) runs
# and gets the right product; skipped where there is no GPU. TAP output.
set -u
echo "1..1"
out=$("$top_builddir/examples/matmul" 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
case $rc in
    0) echo "ok 1 - examples/matmul computes C = A * B on the GPU" ;;
    77) echo "ok 1 - examples/matmul # SKIP no usable CUDA device (or no driver)" ;;
    *) echo "not ok 1 - examples/matmul exited $rc" ;;
esac
