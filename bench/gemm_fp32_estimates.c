/* SPDX-License-Identifier: MIT */
/*
 * gemm_fp32_estimates.c: AUTO's FP32 model estimate (lib/gemm_plan.c,
 * fp32_search) of each shape on stdin ("m n k ta tb", ta and tb N or T,
 * the operands packed as gputile-bench gemm --sweep-shapes stores them),
 * on an H200 as the driver describes it; prints "m n k ta tb us row
 * splits". For bench/gemm_tc_fit.py; not built by make:
 *
 *   gcc -std=gnu11 -I. -Iinclude -Ilib -Ikernels -I/usr/local/cuda/include \
 *       -DGPUTILE_BUILDING -o est bench/gemm_fp32_estimates.c \
 *       -Wl,--allow-multiple-definition libgputile.a -L/usr/local/cuda/lib64 \
 *       -lcudart -lstdc++ -lm -lpthread -ldl
 */
#include <stdio.h>

#include "../lib/gemm_plan.c"

int main(void)
{
    static const gputile__device h200 = {.ordinal = -1,
                                         .sms = 132,
                                         .major = 9,
                                         .minor = 0,
                                         .clusters = 1,
                                         .mem_clock_khz = 3201000,
                                         .mem_bus_bits = 6016};
    long m, n, k;
    char ta, tb;
    while (scanf("%ld %ld %ld %c %c", &m, &n, &k, &ta, &tb) == 5) {
        const bool aligned = (ta == 'T' ? m : k) % 4 == 0 && (tb == 'T' ? k : n) % 4 == 0;
        const unsigned form = gputile__gemm_form(aligned, n % 4 == 0, ta == 'T', tb == 'T');
        const struct fp32_pick p = fp32_search(&h200, form, 0, m, n, k);
        printf("%ld %ld %ld %c %c %.3f %s %d\n", m, n, k, ta, tb, p.us, rows[p.variant].name,
               p.splits);
    }
    return 0;
}
