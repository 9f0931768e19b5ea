#!/bin/sh
# SPDX-License-Identifier: MIT
# roofline.sh CSV SVG: draws `gputile-bench gemm --csv` output as a roofline
# (gnuplot; Debian: gnuplot-nox): the FFMA and read-bandwidth ceilings the
# run measured, and each algorithm's TFLOP/s at its shape's arithmetic
# intensity (2mnk FLOP over the 4(mk + kn + mn) bytes a GEMM must move).
set -eu
[ $# -eq 2 ] || { echo "usage: roofline.sh GEMM.csv OUT.svg" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "roofline.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 1; }
csv=$1; svg=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
peak=$(sed -n 's/^# ffma_tflops=\([0-9.]*\) .*/\1/p' "$csv")
bw=$(sed -n 's/^# .*read_gbs=\([0-9.]*\).*/\1/p' "$csv")
gpu=$(awk -F, 'NR > 2 { gsub(/"/, "", $1); print $1; exit }' "$csv")
# one data file per algorithm (split-K rows under their algorithm's name)
awk -F, -v dir="$tmp" '!/^#/ && $2 ~ /^[0-9]+$/ {
    m = $2; n = $3; k = $4; name = $5
    ai = 2 * m * n * k / (4 * (m * k + k * n + m * n))
    print ai, $8, m "x" n "x" k > (dir "/" name ".dat")
}' "$csv"
plots=""
for f in "$tmp"/*.dat; do
    name=$(basename "$f" .dat)
    plots="$plots, '$f' using 1:2 with points pointsize 1.2 title '$name'"
done
gnuplot <<GP
set terminal svg size 900,560 font "sans,12"
set output "$svg"
set title "libgputile GEMM on $gpu: roofline (ceilings measured in the same run)"
set logscale xy
set xlabel "arithmetic intensity (FLOP per byte of compulsory DRAM traffic)"
set ylabel "TFLOP/s (FP32)"
set xrange [10:3000]
set yrange [1:100]
set key left top
set grid
roof(x) = (x * $bw / 1000.0 < $peak) ? x * $bw / 1000.0 : $peak
plot roof(x) with lines lw 2 lc rgb "black" title sprintf("ceilings: FFMA %.1f TFLOP/s, read %.0f GB/s", $peak, $bw) $plots
GP
echo "roofline.sh: wrote $svg"
