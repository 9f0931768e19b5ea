/* SPDX-License-Identifier: MIT */
/*
 * gpu.c: see gpu.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>
#include <cublas_v2.h>

#include "gpu.h"
#include "gputile.h"

/* The pinned pool keeps freed blocks until gputile_pool_release(), by
 * design; a test process gives them back before it exits, so that leak
 * checkers (compute-sanitizer --leak-check) see no pinned memory left.
 * Registered after CUDA is initialised, so it runs before the CUDA
 * runtime's own exit handlers. */
static void release_pool(void)
{
    (void)gputile_pool_release();
}

const char *gputest_cuda_text(cudaError_t err)
{
    /* lib/status.c maps both to GPUTILE_ERROR_NO_DEVICE */
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
        return gputile_strerror(GPUTILE_ERROR_NO_DEVICE);
    return cudaGetErrorString(err);
}

void gputest_require_device(void)
{
    static bool registered;
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || (err == cudaSuccess && n == 0))
        cr_skip_test("%s", gputile_strerror(GPUTILE_ERROR_NO_DEVICE));
    if (err != cudaSuccess)
        cr_skip_test("no usable CUDA device: cudaGetDeviceCount: %s", cudaGetErrorString(err));
    if (!registered && atexit(release_pool) == 0)
        registered = true;
}

gputest_usage gputest_measure_usage(void)
{
    gputest_usage u = {0, GPUTILE_POOL_STATS_INIT};
    size_t total;
    gputile_status s = gputile_pool_release();
    cr_assert_eq(s, GPUTILE_SUCCESS, "gputile_pool_release: %s", gputile_status_name(s));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaMemGetInfo(&u.free_bytes, &total));
    s = gputile_pool_get_stats(&u.pool);
    cr_assert_eq(s, GPUTILE_SUCCESS, "gputile_pool_get_stats: %s", gputile_status_name(s));
    return u;
}

bool gputest_small(void)
{
    const char *env = getenv("GPUTEST_SMALL");
    return env != NULL && *env != '\0' && strcmp(env, "0") != 0;
}

bool gputest_in_shard(uint64_t key)
{
    const char *env = getenv("GPUTEST_SHARD");
    unsigned long i, n;
    if (env == NULL || sscanf(env, "%lu/%lu", &i, &n) != 2 || n == 0)
        return true;
    /* mix the key so that neighbouring keys land in different shards */
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return key % n == i;
}

size_t gputest_shrink(size_t n, size_t limit, size_t keep)
{
    if (!gputest_small() || n <= limit + keep)
        return n;
    return limit + n % keep;
}

void gputest_cuda_ok(cudaError_t err, const char *what, const char *file, int line)
{
    cr_assert(err == cudaSuccess, "%s:%d: %s: %s", file, line, what, gputest_cuda_text(err));
}

static uint64_t state;

static void seed(void)
{
    const char *env = getenv("GPUTEST_SEED");
    uint64_t s = 0;
    if (env != NULL) {
        s = strtoull(env, NULL, 0);
    } else {
        FILE *f = fopen("/dev/urandom", "rb");
        if (f == NULL || fread(&s, sizeof s, 1, f) != 1)
            s = (uint64_t)time(NULL);
        if (f != NULL)
            fclose(f);
    }
    if (s == 0)
        s = 1;
    state = s;
    cr_log_info("random seed GPUTEST_SEED=0x%llx", (unsigned long long)s);
}

uint64_t gputest_rand(void)
{
    if (state == 0)
        seed();
    /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

float gputest_uniform(float lo, float hi)
{
    return lo + (hi - lo) * (float)((gputest_rand() >> 40) * (1.0 / 16777216.0));
}

float gputest_small_int(int lo, int hi)
{
    return (float)(lo + (int)(gputest_rand() % (uint64_t)(hi - lo + 1)));
}

float gputest_poison(void)
{
    uint32_t bits = GPUTEST_POISON_BITS;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

bool gputest_is_poison(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits == GPUTEST_POISON_BITS;
}

static void cublas_gemm(cublasMath_t math, gputile_op ta, gputile_op tb, float alpha,
                        gputile_matrix a, gputile_matrix b, float beta, gputile_matrix c)
{
    cublasHandle_t h;
    int m = (int)c.height, n = (int)c.width;
    int k = (int)(ta == GPUTILE_OP_T ? a.height : a.width);
    cr_assert(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    cr_assert(cublasSetMathMode(h, math) == CUBLAS_STATUS_SUCCESS);
    cublasStatus_t st = cublasSgemm(h, tb == GPUTILE_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N,
                                    ta == GPUTILE_OP_T ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k, &alpha,
                                    b.elements, (int)b.stride, a.elements, (int)a.stride, &beta,
                                    c.elements, (int)c.stride);
    cr_assert(st == CUBLAS_STATUS_SUCCESS, "cublasSgemm: status %d", (int)st);
    GPUTEST_CUDA(cudaDeviceSynchronize());
    cublasDestroy(h);
}

void gputest_cublas_gemm(gputile_op ta, gputile_op tb, float alpha, gputile_matrix a,
                         gputile_matrix b, float beta, gputile_matrix c)
{
    cublas_gemm(CUBLAS_PEDANTIC_MATH, ta, tb, alpha, a, b, beta, c);
}

void gputest_cublas_gemm_tf32(gputile_op ta, gputile_op tb, float alpha, gputile_matrix a,
                              gputile_matrix b, float beta, gputile_matrix c)
{
    cublas_gemm(CUBLAS_TF32_TENSOR_OP_MATH, ta, tb, alpha, a, b, beta, c);
}
