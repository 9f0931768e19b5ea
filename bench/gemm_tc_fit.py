#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gemm_tc_fit.py: fits the constants of the tensor-core rows' time model
(lib/gemm_plan.c, tensor_us and its struct tensor_fit rows) to a sweep of
AUTO in the TF32 precisions, measured before AUTO could pick FP32 there
(every row of the sweep ran a wgmma kernel), and reports how AUTO would
do with the FP32 rows where their model is faster.

    gputile-bench gemm --sweep-shapes --precision tf32,3xtf32 --csv > tc.csv
    gputile-bench gemm --sweep-shapes --precision fp32 --csv > fp32.csv
    python3 bench/gemm_tc_fit.py tc.csv [fp32.csv ESTIMATES]   (numpy, scipy)

The fit is non-negative least squares on relative error. Features follow
tensor_us: the fixed part, a pre-pass (and its floats, from the form as
tma_packs would pack them), waves of tiles (tiles x splits over SMS), the
waves' multiply-adds, the split's reduction and C's write. With fp32.csv
and ESTIMATES (lines "m n k ta tb us ...": the FP32 model's estimate of
each shape, from bench/gemm_fp32_estimates.c), it
prints the geometric mean over the sweep of cuBLAS time / time when the
faster model's choice runs, against the best of the two measured. SMS:
the device's SM count (the H200 and H100 SXM: 132).
"""
import csv
import math
import sys

import numpy as np
from scipy.optimize import nnls

SMS = 132
NAMES = {
    "tf32": ["fixed", "prepass", "prepass_mb", "wave(128x256)", "flop(128x256)",
             "flop(128x128)", "split", "reduce_mb", "c_mb(128x256)", "c_mb(128x128)"],
    "3xtf32": ["fixed", "prepass", "prepass_mb", "wave", "flop", "split", "reduce_mb", "c_mb"],
}


def load(path):
    rows = list(csv.reader(line for line in open(path) if not line.startswith("#")))
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def cdiv(a, b):
    return -(-a // b)


def k_per_split(k, s, step):
    each = cdiv(k, s)
    r = each % step
    return each if r == 0 else each + step - r


def shape(r):
    m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
    ta, tb = r["ta"] == "T", r["tb"] == "T"
    lda, ldb = (m if ta else k), (k if tb else n)
    return m, n, k, ta, tb, lda % 4 == 0 and ldb % 4 == 0


def features(prec, m, n, k, ta, tb, aligned):
    """tensor_or_default_variant, split_rule and tensor_us's terms."""
    tn = ta and not tb
    if prec == "3xtf32" or (aligned and not tn and cdiv(m, 128) * cdiv(n, 128) <= SMS):
        bm, bn, in_place = 128, 128, True
    else:
        bm, bn, in_place = 128, 256, False
    tiles = cdiv(m, bm) * cdiv(n, bn)
    s = 1 if tiles >= SMS else max(1, min(SMS // tiles, k // 256, 64))
    kps = k_per_split(k, s, 32)
    s = cdiv(k, kps)
    if not aligned:
        floats = (m + n) * k
    else:
        floats = 0 if in_place and not tn else min(m, n) * k
    waves = cdiv(tiles * s, SMS)
    flop = waves * bm * bn * kps * 2e-6
    red = 4e-6 * (s + 1) * m * n if s > 1 else 0.0
    cb = 4e-6 * m * n
    common = [1.0, 1.0 if floats else 0.0, 8e-6 * floats]
    if prec == "3xtf32":
        return common + [waves, flop, 1.0 if s > 1 else 0.0, red, cb]
    w = not in_place
    return common + [waves if w else 0, flop if w else 0, 0 if w else flop,
                     1.0 if s > 1 else 0.0, red, cb if w else 0, 0 if w else cb]


def main():
    tc = load(sys.argv[1])
    coef = {}
    for prec in ("tf32", "3xtf32"):
        rows = [r for r in tc if r["precision"] == prec]
        x = np.array([features(prec, *shape(r)) for r in rows])
        y = np.array([float(r["lib_ms"]) * 1000 for r in rows])
        c, _ = nnls(x / y[:, None], np.ones(len(y)))
        err = np.log(x @ c / y)
        print("%s: log-time rms %.3f, worst %.2f" % (prec, np.sqrt(np.mean(err ** 2)),
                                                     np.max(np.abs(err))))
        print("  " + ", ".join("%s %.4g" % nv for nv in zip(NAMES[prec], c)))
        coef[prec] = c
    if len(sys.argv) < 4:
        return
    fp32 = {r["i"]: r for r in load(sys.argv[2]) if r["precision"] == "fp32"}
    est = {}
    for line in open(sys.argv[3]):
        p = line.split()
        est[tuple(p[:5])] = float(p[5])
    for prec in ("tf32", "3xtf32"):
        picked, best, n_fp32 = [], [], 0
        for r in (r for r in tc if r["precision"] == prec):
            f = fp32[r["i"]]
            t_tc = float(np.dot(features(prec, *shape(r)), coef[prec]))
            use_fp32 = est[(r["m"], r["n"], r["k"], r["ta"], r["tb"])] < t_tc
            n_fp32 += use_fp32
            t = float(f["lib_ms"]) if use_fp32 else float(r["lib_ms"])
            picked.append(math.log(float(r["cublas_ms"]) / t))
            best.append(math.log(float(r["cublas_ms"]) /
                                 min(float(f["lib_ms"]), float(r["lib_ms"]))))
        print("%s: FP32 on %d of %d shapes; geomean %.3f of cuBLAS (best of the two: %.3f)" %
              (prec, n_fp32, len(picked), math.exp(sum(picked) / len(picked)),
               math.exp(sum(best) / len(best))))


if __name__ == "__main__":
    main()
