#!/bin/sh
# SPDX-License-Identifier: MIT
# sass_stats.sh [-v] [-f REGEX] FILE...: the schedule of each kernel's main loop,
# read from its SASS (no GPU needed; issue 17, "Kernels (FP32, FFMA)").
# FILE: an object, cubin or executable nvcc built (disassembled with
# cuobjdump --dump-sass, which needs nvdisasm beside it), or a saved listing
# named *.sass. -f keeps the kernels whose demangled name matches REGEX;
# -v lists each LDS.128 with its lead.
#
# The main loop is the backward branch whose range holds the most FFMAs.
# Per kernel, one line:
#   insts  instructions in the loop     ffma  FFMAs      lds  LDS (of them .128)
#   ldgsts cp.async copies (LDGSTS)     ldg/sts  register-staged loads, stores
#   bar    barriers   bra  branches (the back edge included)
#   i64    64-bit integer steps (opcodes with .X or WIDE: carries, wide multiplies)
#   stall  the loop's stall cycles from the control words (one warp's issue
#          cycles per trip, before any wait on a scoreboard)
#   lead   how far each LDS.128 is issued ahead of the first instruction that
#          reads what it loaded (instructions, min/median/max; wrapping
#          around the back edge), and the least FFMAs in between
#   gap    FFMAs between consecutive LDS (min/max): how evenly they spread
#   bank   FFMAs whose three source registers share a bank (register number
#          mod 2, Volta and later) with none read from the operand reuse
#          cache, which the previous instruction fills where it marks the
#          same operand slot's register .reuse; bank/flag: the same count
#          taking only this FFMA's own .reuse marks as reuse
# Example: nvcc -cubin -arch=sm_90 ... kernels/gemm_async.cu -o x.cubin &&
#          bench/sass_stats.sh -f 'gemm_async_kernel' x.cubin
set -eu
filter=.
verbose=0
if [ "${1:-}" = -v ]; then
    verbose=1
    shift
fi
if [ "${1:-}" = -f ]; then
    [ $# -ge 3 ] || { echo "usage: sass_stats.sh [-f REGEX] FILE..." >&2; exit 2; }
    filter=$2
    shift 2
fi
[ $# -ge 1 ] || { echo "usage: sass_stats.sh [-f REGEX] FILE..." >&2; exit 2; }
demangle=cat
command -v c++filt >/dev/null && demangle=c++filt
for f in "$@"; do
    case $f in
    *.sass) cat "$f" ;;
    *) cuobjdump --dump-sass "$f" ;;
    esac
done | $demangle | awk -v filter="$filter" -v verbose=$verbose '
function hexval(s,    i, c, v) {
    v = 0
    s = tolower(s)
    sub(/^0x/, "", s)
    for (i = 1; i <= length(s); ++i) {
        c = index("0123456789abcdef", substr(s, i, 1)) - 1
        if (c < 0) break
        v = v * 16 + c
    }
    return v
}
# the register number of an operand ("R12.reuse", "-|R3|"); -1 if none
function regnum(t) {
    gsub(/[-|!~ ]/, "", t)
    if (t !~ /^R[0-9]+/) return -1
    sub(/^R/, "", t)
    sub(/[^0-9].*$/, "", t)
    return t + 0
}
function shortname(s) {
    gsub(/\(anonymous namespace\)::/, "", s)
    sub(/\(.*$/, "", s)
    gsub(/ /, "", s)
    return s
}
function flush(    i, j, k, best, bs, be, nf, s, e, L, q, cnt, ffma, lds, lds128, ldgsts, ldg, sts,
               bar, bra, i64, stall, nlead, leads, minlf, nlds, first_lds, prev, gap, gmin, gmax,
               conf, conff, d, w, r, hit, u, x, a, nreg, allreg, par, same, cached, flagged, ops,
               tmp, med) {
    if (n == 0 || shortname(name) !~ filter) { n = 0; return }
    best = -1
    for (i = 1; i <= n; ++i) {
        if (op[i] != "BRA" || args[i] !~ /^0x/) continue
        t = hexval(args[i])
        if (t >= addr[i]) continue
        for (s = i; s >= 1 && addr[s] > t; --s) ;
        if (s < 1 || addr[s] != t) continue
        nf = 0
        for (j = s; j <= i; ++j) nf += op[j] == "FFMA"
        if (nf > best) { best = nf; bs = s; be = i }
    }
    if (best <= 0) { printf "%-60s no loop with FFMAs\n", shortname(name); n = 0; return }
    s = bs; e = be; L = e - s + 1
    ffma = lds = lds128 = ldgsts = ldg = sts = bar = bra = i64 = stall = 0
    conf = conff = 0; nlead = 0; minlf = -1; nlds = 0; gmin = -1; gmax = -1
    for (j = s; j <= e; ++j) {
        stall += ctl_stall[j]
        if (dead[j]) continue
        if (op[j] == "FFMA") ++ffma
        if (op[j] ~ /^LDS/) { ++lds; if (full[j] ~ /\.128/) ++lds128 }
        if (op[j] ~ /^LDGSTS/) ++ldgsts
        if (op[j] ~ /^LDG/ && op[j] !~ /^LDGSTS/ && op[j] !~ /^LDGDEPBAR/) ++ldg
        if (op[j] ~ /^STS/) ++sts
        if (op[j] ~ /^BAR/) ++bar
        if (op[j] ~ /^BRA/) ++bra
        if (full[j] ~ /\.X( |$)/ || full[j] ~ /\.X\./ || full[j] ~ /WIDE/) ++i64
    }
    # LDS: distance to the first reader of its destination, gaps between them
    first_lds = -1; prev = -1
    for (j = s; j <= e; ++j) {
        if (op[j] !~ /^LDS/ || dead[j]) continue
        cnt = split(args[j], ops, ",")
        d = regnum(ops[1]); w = full[j] ~ /\.128/ ? 4 : full[j] ~ /\.64/ ? 2 : 1
        if (prev >= 0) {
            gap = 0
            for (k = prev + 1; k < j; ++k) gap += op[k] == "FFMA"
            if (gmin < 0 || gap < gmin) gmin = gap
            if (gap > gmax) gmax = gap
        } else first_lds = j
        prev = j
        if (w != 4 || d < 0) continue
        hit = -1; x = 0
        for (q = 1; q < L && hit < 0; ++q) {
            k = s + (j - s + q) % L
            cnt = split(args[k], ops, ",")
            a = (op[k] ~ /^(ST|RED|ATOM|LDGSTS|BAR|BRA)/) ? 1 : 2
            for (u = a; u <= cnt; ++u) {
                r = regnum(ops[u])
                if (r >= d && r < d + w) { hit = q; break }
            }
            if (hit < 0 && op[k] == "FFMA") ++x
        }
        if (hit > 0) {
            if (verbose)
                printf "  LDS.128 at 0x%04x: read %d instructions (%d FFMAs) later\n", addr[j], hit, x
            leads[++nlead] = hit
            if (minlf < 0 || x < minlf) minlf = x
        }
    }
    if (first_lds >= 0 && prev > first_lds) { # the gap across the back edge
        gap = 0
        for (k = prev + 1; k <= e; ++k) gap += op[k] == "FFMA"
        for (k = s; k < first_lds; ++k) gap += op[k] == "FFMA"
        if (gmin < 0 || gap < gmin) gmin = gap
        if (gap > gmax) gmax = gap
    }
    # FFMA register-bank conflicts
    for (j = s; j <= e; ++j) {
        if (op[j] != "FFMA") continue
        cnt = split(args[j], ops, ",")
        if (cnt < 4) continue
        allreg = 1; same = 1; cached = 0; flagged = 0; par = -1
        for (u = 2; u <= 4; ++u) {
            r = regnum(ops[u])
            if (r < 0) { allreg = 0; break }
            if (par < 0) par = r % 2
            else if (r % 2 != par) same = 0
            if (ops[u] ~ /\.reuse/) flagged = 1
            if (j > s && prevreuse(j - 1, u, r)) cached = 1
        }
        if (!allreg || !same) continue
        if (!cached) ++conf
        if (!flagged) ++conff
    }
    # median lead
    for (i = 2; i <= nlead; ++i) { tmp = leads[i]; for (k = i - 1; k >= 1 && leads[k] > tmp; --k) leads[k + 1] = leads[k]; leads[k + 1] = tmp }
    med = nlead > 0 ? leads[int((nlead + 1) / 2)] : 0
    printf "%-58s %5d %5d %4d(%3d) %6d %3d/%-3d %3d %3d %4d %6d  %4s/%4s/%4s %4s  %3s/%-3s %4d/%d\n",
        shortname(name), L, ffma, lds, lds128, ldgsts, ldg, sts, bar, bra, i64, stall,
        (nlead ? leads[1] : "-"), (nlead ? med : "-"), (nlead ? leads[nlead] : "-"),
        (minlf >= 0 ? minlf : "-"), (gmin >= 0 ? gmin : "-"), (gmax >= 0 ? gmax : "-"), conf, conff
    n = 0
}
# did instruction i mark operand slot u (2..4) as register r for reuse?
function prevreuse(i, u, r,    cnt, o) {
    if (op[i] != "FFMA" && op[i] != "FMUL" && op[i] != "FADD" && op[i] !~ /^IMAD/) return 0
    cnt = split(args[i], o, ",")
    return u <= cnt && o[u] ~ /\.reuse/ && regnum(o[u]) == r
}
BEGIN {
    printf "%-58s %5s %5s %9s %6s %7s %3s %3s %4s %6s  %14s %4s  %7s %s\n", "kernel (main loop)",
        "insts", "ffma", "lds(.128)", "ldgsts", "ldg/sts", "bar", "bra", "i64", "stall",
        "lead min/med/max", "ffma", "gap", "bank/flag"
}
/Function : / { flush(); name = $0; sub(/.*Function : /, "", name); next }
/^[ \t]*\/\*[0-9a-f]+\*\// {
    line = $0
    a0 = line; sub(/^[ \t]*\/\*/, "", a0); sub(/\*\/.*/, "", a0)
    body = line; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", body); sub(/[ \t]*;.*$/, "", body)
    never = body ~ /^@!PT[ \t]/ # never executed: a placeholder ptxas inserts
    sub(/^@!?U?P[T0-9]+[ \t]+/, "", body)
    ++n; addr[n] = hexval(a0); dead[n] = never
    o = body; sub(/[ \t].*$/, "", o); full[n] = o
    opn = o; sub(/\..*$/, "", opn); op[n] = opn
    rest = body; sub(/^[^ \t]+[ \t]*/, "", rest); gsub(/[ \t]/, "", rest); args[n] = rest
    ctl_stall[n] = 0; want_hi = 1
    next
}
want_hi && /^[ \t]*\/\* 0x[0-9a-f]+ \*\/[ \t]*$/ {
    h = $0; sub(/^[ \t]*\/\* 0x/, "", h); sub(/ \*\/.*$/, "", h)
    # bits 41..44 of the high word: the stall count
    ctl_stall[n] = int(hexval(substr(h, 1, 6)) / 2) % 16
    want_hi = 0
    next
}
END { flush() }
'
