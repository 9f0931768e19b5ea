#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gemm_model_fit.py: fits the constants of AUTO's FP32 cost model
(lib/gemm_plan.c, estimate_us) to a calibration sweep, and reports how well
the model picks.

    gputile-bench gemm --sweep-shapes --precision fp32 --runs 6 --csv \\
        --algorithms auto,async128x128,async128x128:4,async128x256,... > cal.csv
    python3 bench/gemm_model_fit.py [--picks] cal.csv [more.csv ...]   (numpy, scipy)

Every forced row (NAME or NAME:SPLIT) is a point (shape, row, split used,
time); the fit minimises the mean squared error of log time (Powell, within
bounds); with --picks it then minimises the mean log regret of the picks
(the picked configuration's time over the best measured one's) plus a
tenth of that error. It prints the constants in lib/gemm_plan.c's order, the geometric
mean of cuBLAS time / time over the sweep when the model picks among the
measured configurations (against the best measured one per shape and the
AUTO row of the sweep), and the shapes it picks worst. The model here and
estimate_us must stay the same formula for forced rows (estimate_us also
weighs, for AUTO only, the tail split of an unsplit choice and packing an
NT product's operand). SMS: the device's SM count (the
H200 and H100 SXM: 132).
"""
import csv
import math
import sys

import numpy as np
from scipy.optimize import minimize

ROWS = {  # name: bm, bn, bk, blocks per SM (kernels/gemm_variants.h)
    'async128x128': (128, 128, 8, 2), 'async128x256': (128, 256, 8, 1),
    'async64x128': (64, 128, 8, 3), 'async128x64': (128, 64, 8, 4),
    'async64x64': (64, 64, 8, 6), 'async128x32': (128, 32, 16, 4),
    'async32x128': (32, 128, 16, 4), 'async64x64w8': (64, 64, 16, 3),
    'async64x32': (64, 32, 8, 8), 'async32x64': (32, 64, 8, 8)}
NAMES = list(ROWS)
SMS = 132
R = 128 * 1.98e3  # FFMA per microsecond per SM
GLOBAL = ['fixed_us', 'gamma', 'bytes_per_us', 'reduce_us', 'launch_us', 'epi_us',
          'unaligned', 'thin_bytes_per_us', 'read_bytes_per_us', 'cluster_us',
          'cluster_bytes_per_us']
START = [0.0, 0.31, 1.04e6, 3.35, 6.55, 3.4e-4, 0.94, 2.17e6, 1.19e6, 1.0,
         8e6]  # near the optimum of restarts
LOW = [0.0, 0.0, 1e5, 0.0, 0.0, 0.0, 0.2, 1e4, 1e6, 0.0, 1e5]
HIGH = [20.0, 1.0, 6e6, 30.0, 20.0, 1e-2, 1.0, 1e8, 6e6, 30.0, 1e8]
NT = 0.93  # FIT_NT, measured apart (4096^3 NT against NN on 128 x 128)
# writing a C whose rows are not 16-byte aligned (n % 4 != 0 in the bench),
# bytes per us at the H200's rate (fp32_candidates' unaligned_c_bytes_per_us,
# set apart from this fit; scale them by memory_scale for another device's data)
UNALIGNED_C = {'async128x128': 1.50e6, 'async128x256': 1.73e6, 'async64x128': 1.67e6,
               'async128x64': 1.46e6, 'async64x64': 1.56e6, 'async128x32': 1.43e6,
               'async32x128': 2.01e6, 'async64x64w8': 1.64e6, 'async64x32': 1.56e6,
               'async32x64': 1.56e6}
MAX_CLUSTER = 8  # splits up to this sum in a cluster (kernels/kernels.h)
NO_CLUSTER = {'async128x64'}  # rows whose splits AUTO never sums in clusters (fp32_candidates)
CLUSTER_WAVES = 1.05  # a full wave of clusters against one of blocks (fitted apart: FIT_CLUSTER_WAVES)
# blocks resident at once in clusters of S = 2..8 (gputile-bench info on the H200)
CLUSTER_WAVE = {
    'async128x128': (264, 237, 248, 235, 234, 224, 240),
    'async128x256': (132, 117, 120, 110, 102, 105, 120),
    'async64x128': (396, 372, 368, 345, 372, 329, 360),
    'async128x64': (528, 489, 496, 470, 474, 483, 496),
    'async64x64': (792, 744, 744, 730, 744, 707, 736),
    'async128x32': (660, 609, 616, 620, 606, 588, 616),
    'async32x128': (660, 609, 616, 620, 606, 588, 616),
    # the H100 (gputile-bench info, 2026-11-27)
    'async64x64w8': (396, 372, 368, 345, 372, 329, 360),
    # the two-warp rows, also the H100's
    'async64x32': (1056, 981, 992, 965, 978, 973, 992),
    'async32x64': (1056, 981, 992, 965, 978, 973, 992)}


def cdiv(a, b):
    return -(-a // b)


def k_per_split(k, s, bk):
    e = cdiv(k, s)
    return e if e % bk == 0 else e + bk - e % bk


def predict(th, shape, name, s):
    m, n, k, op = shape
    bm, bn, bk, per_sm = ROWS[name]
    i = NAMES.index(name)
    eff, epi = th[i], th[len(NAMES) + len(GLOBAL) + i]
    mem = th[2 * len(NAMES) + len(GLOBAL) + i]
    fixed, gamma, bw, reduce_us, launch, epi_us, unaligned, bw_thin, read_bw, cluster_us, \
        cluster_bw = th[len(NAMES):len(NAMES) + len(GLOBAL)]
    ta, tb = op[0] == 'T', op[1] == 'T'
    lda, ldb = (m if ta else k), (k if tb else n)
    if lda % 4 or ldb % 4:  # the library knows only "both aligned or not"
        eff *= unaligned
    if not ta and tb:  # NT: both copies transpose (FIT_NT; forced rows never pack)
        eff *= NT
    t = launch
    mw, nw = m, n
    if m > bm and 0 < m % bm <= 4:
        t += 4.0 * k * n * (m % bm) / bw_thin + launch
        mw -= m % bm
    if n > bn and 0 < n % bn <= 4:
        t += 4.0 * k * mw * (n % bn) / bw_thin + launch
        nw -= n % bn
    kps = k_per_split(k, s, bk)
    se = cdiv(k, kps)
    blocks = cdiv(mw, bm) * cdiv(nw, bn) * se
    slots = CLUSTER_WAVE[name][se - 2] if 1 < se <= MAX_CLUSTER else SMS * per_sm
    block = per_sm * bm * bn * (cdiv(kps, bk) * bk / (R * eff) + epi_us * epi) + fixed
    full, rest = divmod(blocks, slots)
    compute = full * block * (CLUSTER_WAVES if 1 < se <= MAX_CLUSTER else 1.0)
    if rest:
        compute += block * (cdiv(rest, SMS) / per_sm) ** (1 - gamma)
    c_bw = UNALIGNED_C[name] if n % 4 else bw * mem
    t += max(compute, 4.0 * (m * k + k * n) / read_bw + 4.0 * m * n / c_bw)
    if 1 < se <= MAX_CLUSTER:
        t += cluster_us + 4.0 * m * n * se / cluster_bw
    elif se > 1:
        t += reduce_us + 4.0 * m * n * (se + 1) / bw
    return t


def load(path):
    points, auto = [], {}
    for r in csv.DictReader(l for l in open(path) if l.startswith(('gpu,', '"'))):
        shape = (int(r['m']), int(r['n']), int(r['k']), r['ta'] + r['tb'])
        us, cublas_us = float(r['lib_ms']) * 1e3, float(r['cublas_ms']) * 1e3
        if r['requested'] == 'auto':
            auto[shape] = (us, cublas_us)
        else:
            points.append((shape, r['requested'].split(':')[0], int(r['split_k']), us,
                           cublas_us))
    return points, auto


def loss(th, points):
    return sum((math.log(predict(th, sh, nm, s)) - math.log(t)) ** 2
               for sh, nm, s, t, _ in points) / len(points)


def regret(th, by):
    """Mean log of (time of the configuration the model picks / the best
    measured), over the shapes: what a pick costs, which the log-time fit
    does not weigh."""
    r = 0.0
    for sh, cands in by.items():
        p = min(cands, key=lambda x: predict(th, sh, x[0], x[1]))
        r += math.log(p[2] / min(x[2] for x in cands))
    return r / len(by)


def main():
    picks = '--picks' in sys.argv[1:]
    points, auto = [], {}
    for path in (a for a in sys.argv[1:] if a != '--picks'):
        p, a = load(path)
        points += p
        auto.update(a)
    start = np.array([0.8] * len(NAMES) + START + [0.3] * len(NAMES) + [1.0] * len(NAMES))
    bounds = list(zip([0.2] * len(NAMES) + LOW + [0.01] * len(NAMES) + [0.3] * len(NAMES),
                      [1.0] * len(NAMES) + HIGH + [10.0] * len(NAMES) + [3.0] * len(NAMES)))
    th = minimize(loss, start, args=(points,), method='Powell', bounds=bounds).x
    th = minimize(loss, th, args=(points,), method='Powell', bounds=bounds).x
    by = {}  # the configurations AUTO may pick, by shape
    for sh, nm, s, t, c in points:
        if not (nm in NO_CLUSTER and 1 < s <= MAX_CLUSTER):
            by.setdefault(sh, []).append((nm, s, t, c))
    if picks:  # then weigh the picks too, the time fit kept as a regulariser
        th = minimize(lambda x: regret(x, by) + 0.1 * loss(x, points), th, method='Powell',
                      bounds=bounds).x
    print('points %d, rms error of log time %.3f' % (len(points), math.sqrt(loss(th, points))))
    for i, name in enumerate(NAMES):
        print('  %-13s eff %.3f epi_us %.3g bytes_per_us %.3g' % (
            name, th[i], th[len(NAMES) + len(GLOBAL) + i] * th[len(NAMES) + GLOBAL.index('epi_us')],
            th[2 * len(NAMES) + len(GLOBAL) + i] * th[len(NAMES) + GLOBAL.index('bytes_per_us')]))
    for i, name in enumerate(GLOBAL):
        print('  %-17s %.3g' % (name, th[len(NAMES) + i]))
    picked, best, rule, worst = [], [], [], []
    for sh, cands in by.items():
        p = min(cands, key=lambda x: predict(th, sh, x[0], x[1]))
        b = min(cands, key=lambda x: x[2])
        picked.append(math.log(p[3] / p[2]))
        best.append(math.log(b[3] / b[2]))
        if sh in auto:
            rule.append(math.log(auto[sh][1] / auto[sh][0]))
        worst.append((p[3] / p[2], sh, p[:3], b[:3]))
    g = lambda v: math.exp(sum(v) / len(v)) if v else float('nan')
    print('geomean vs cuBLAS: model picks %.3f, best measured %.3f, auto row %.3f'
          % (g(picked), g(best), g(rule)))
    for w in sorted(worst)[:15]:
        print('  %.3f %s picked %s best %s' % w)


if __name__ == '__main__':
    main()
