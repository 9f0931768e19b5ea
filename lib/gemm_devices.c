/* SPDX-License-Identifier: MIT */
/*
 * gemm_devices.c: gputile_gemm_devices() (issue 22): GEMM on host matrices
 * with several devices of one host, the cublasXt use case, without NCCL.
 *
 * C is cut into one block per device on a grid of rows x columns of
 * blocks (grid_rows(): the fewest operand elements per device, so 2
 * devices split the longer side of C and 4 take 2 x 2 blocks of a square
 * C), in multiples of GPUTILE__GEMM_DEVICES_UNIT rows and columns balanced
 * with gputile_dist_block(); device i of the list takes block (i / cols,
 * i % cols). Each device moves its rows of op(A) and columns of op(B)
 * over its own link: less than a whole operand for more than two devices. Each device's block is a
 * plain gputile_gemm() on host views, run on a thread of its own with that
 * device current and a stream of its own: the overlapped host pipeline of
 * gemm_host.c, so each device streams its operands over its own link while
 * the others do the same. The blocks of C are disjoint; A and B are only
 * read.
 */
#include <pthread.h>

#include "gemm_launch.h"

/* Rows or columns of C per unit of the split: a multiple of every GEMM
 * tile edge, so no device gets a ragged tile in the middle of C. */
#define GPUTILE__GEMM_DEVICES_UNIT 128

static gputile_matrix sub(gputile_matrix m, size_t row, size_t col, size_t w, size_t h)
{
    gputile_matrix v = {w, h, m.stride, m.elements};
    if (w != 0 && h != 0)
        v.elements = m.elements + row * m.stride + col;
    return v;
}

typedef struct job {
    int device;
    gputile_op ta, tb;
    float alpha, beta;
    gputile_matrix a, b, c; /* this device's views */
    gputile_gemm_options options;
    bool has_options;
    gputile_status status;
    int cuda_error; /* the worker's gputile_last_cuda_error() after a failure */
    pthread_t thread;
    bool started;
} job;

static void *work(void *arg)
{
    job *j = arg;
    cudaStream_t stream = NULL;
    gputile_status s = gputile__cuda_status(cudaSetDevice(j->device));
    if (s == GPUTILE_SUCCESS)
        s = gputile__cuda_status(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (s == GPUTILE_SUCCESS)
        s = gputile_gemm(j->ta, j->tb, j->alpha, j->a, j->b, j->beta, j->c, stream,
                         j->has_options ? &j->options : NULL);
    if (stream != NULL) {
        gputile_status r = gputile__cuda_status(cudaStreamDestroy(stream));
        if (s == GPUTILE_SUCCESS)
            s = r;
    }
    j->status = s;
    j->cuda_error = s == GPUTILE_SUCCESS ? 0 : gputile_last_cuda_error();
    return NULL;
}

/* Host memory (pageable or pinned), or empty. */
static gputile_status check_host(gputile_matrix m)
{
    gputile__pointer_kind kind;
    if (gputile__is_empty(m))
        return GPUTILE_SUCCESS;
    cudaError_t err = gputile__pointer_kind_of(m.elements, 0, &kind);
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    return kind == GPUTILE__POINTER_HOST_PAGEABLE || kind == GPUTILE__POINTER_HOST_PINNED
               ? GPUTILE_SUCCESS
               : GPUTILE_ERROR_INVALID_VALUE;
}

/* The checks, in the man page's order: those that need no device first. */
static gputile_status check(const int *devices, int ndevices, gputile_op ta, gputile_op tb,
                            gputile_matrix a, gputile_matrix b, gputile_matrix c,
                            const gputile_gemm_options *options)
{
    gputile_status s;
    int count = 0;
    if (devices == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (ndevices <= 0 || ndevices > GPUTILE__MAX_DEVICES)
        return GPUTILE_ERROR_INVALID_VALUE;
    for (int i = 0; i < ndevices; ++i) {
        if (devices[i] < 0 || devices[i] >= GPUTILE__MAX_DEVICES)
            return GPUTILE_ERROR_INVALID_VALUE;
        for (int j = 0; j < i; ++j)
            if (devices[j] == devices[i])
                return GPUTILE_ERROR_INVALID_VALUE;
    }
    if ((s = gputile__gemm_read_options(options, &(int){0}, &(int){0}, &(int){0})) !=
            GPUTILE_SUCCESS ||
        (s = gputile__gemm_check(ta, tb, a, b, c)) != GPUTILE_SUCCESS)
        return s;
    if (gputile__is_empty(c))
        return GPUTILE_SUCCESS;
    if ((s = gputile__cuda_status(cudaGetDeviceCount(&count))) != GPUTILE_SUCCESS)
        return s;
    for (int i = 0; i < ndevices; ++i)
        if (devices[i] >= count)
            return GPUTILE_ERROR_INVALID_VALUE;
    if ((s = check_host(a)) != GPUTILE_SUCCESS || (s = check_host(b)) != GPUTILE_SUCCESS ||
        (s = check_host(c)) != GPUTILE_SUCCESS)
        return s;
    return GPUTILE_SUCCESS;
}

/* Part i of `parts' of [0, extent): [*first, *first + *count), balanced in
 * whole units. */
static void block_of(size_t extent, int parts, int i, size_t *first, size_t *count)
{
    const size_t unit = GPUTILE__GEMM_DEVICES_UNIT, units = (extent + unit - 1) / unit;
    size_t u0 = 0, uc = 0;
    if (gputile_dist_block(units, parts, i, &u0, &uc) != GPUTILE_SUCCESS)
        u0 = uc = 0; /* not reached: 0 <= i < parts */
    *first = u0 * unit < extent ? u0 * unit : extent;
    const size_t end = (u0 + uc) * unit < extent ? (u0 + uc) * unit : extent;
    *count = end - *first;
}

/* The grid of blocks: rows x cols = ndevices, chosen so that each device
 * moves the fewest operand elements, (m / rows) k of op(A) plus
 * k (n / cols) of op(B) (C's share, m n / ndevices, is the same for every
 * grid); on a tie, more rows when C is at least as tall as wide. Four
 * devices on a square C take 2 x 2 blocks: 1/2 + 1/2 of an operand each
 * where 4 x 1 moves 1/4 + 1. */
static int grid_rows(size_t m, size_t n, size_t k, int ndevices)
{
    int best = m >= n ? ndevices : 1;
    double best_cost = -1;
    for (int r = 1; r <= ndevices; ++r) {
        if (ndevices % r != 0)
            continue;
        const int c = ndevices / r;
        const double cost = (double)m / r * (double)k + (double)k * (double)n / c;
        if (best_cost < 0 || cost < best_cost * (1 - 1e-9) ||
            (cost <= best_cost * (1 + 1e-9) && (m >= n ? r > best : r < best))) {
            best = r;
            best_cost = cost;
        }
    }
    return best;
}

gputile_status gputile_gemm_devices(const int *devices, int ndevices, gputile_op trans_a,
                                    gputile_op trans_b, float alpha, gputile_matrix a,
                                    gputile_matrix b, float beta, gputile_matrix c,
                                    gputile_gemm_options *options)
{
    gputile_status s = check(devices, ndevices, trans_a, trans_b, a, b, c, options);
    if (s != GPUTILE_SUCCESS)
        return s;
    if (gputile__is_empty(c)) /* a no-op: gputile_gemm() reports its plan */
        return gputile_gemm(trans_a, trans_b, alpha, a, b, beta, c, NULL, options);

    job jobs[GPUTILE__MAX_DEVICES];
    for (int i = 0; i < ndevices; ++i)
        jobs[i].started = false;
    const size_t k = trans_a == GPUTILE_OP_T ? a.height : a.width;
    const int rows = grid_rows(c.height, c.width, k, ndevices), cols = ndevices / rows;
    for (int i = 0; i < ndevices; ++i) {
        job *j = &jobs[i];
        size_t r0, rn, c0, cn;
        block_of(c.height, rows, i / cols, &r0, &rn);
        block_of(c.width, cols, i % cols, &c0, &cn);
        *j = (job){.device = devices[i],
                   .ta = trans_a,
                   .tb = trans_b,
                   .alpha = alpha,
                   .beta = beta,
                   .has_options = options != NULL};
        if (options != NULL) {
            j->options = *options;
            j->options.size = sizeof j->options;
        }
        /* op(A)'s rows r0.., op(B)'s columns c0.. */
        j->a = trans_a == GPUTILE_OP_T ? sub(a, 0, r0, rn, a.height) : sub(a, r0, 0, a.width, rn);
        j->b = trans_b == GPUTILE_OP_T ? sub(b, c0, 0, b.width, cn) : sub(b, 0, c0, cn, b.height);
        j->c = sub(c, r0, c0, cn, rn);
        const size_t xn = rn < cn ? rn : cn;
        if (xn == 0) /* fewer units than devices: this one has nothing to do */
            continue;
        j->started = pthread_create(&j->thread, NULL, work, j) == 0;
        if (!j->started) {
            s = GPUTILE_ERROR_OUT_OF_MEMORY; /* no thread: the blocks queued so far finish */
            break;
        }
    }
    int cuda_error = 0;
    const job *first = NULL;
    for (int i = 0; i < ndevices; ++i) {
        job *j = &jobs[i];
        if (!j->started)
            continue;
        (void)pthread_join(j->thread, NULL);
        if (j->status != GPUTILE_SUCCESS && s == GPUTILE_SUCCESS) {
            s = j->status;
            cuda_error = j->cuda_error;
        }
        if (first == NULL)
            first = j;
    }
    /* The failing worker's CUDA error becomes this thread's last one. */
    if (cuda_error != 0)
        (void)gputile__cuda_status((cudaError_t)cuda_error);
    if (s == GPUTILE_SUCCESS && options != NULL && first != NULL) {
        options->algorithm_used = first->options.algorithm_used;
        options->split_k_used = first->options.split_k_used;
    }
    return s;
}
