/* SPDX-License-Identifier: MIT */
/*
 * gpu.h: what the GPU suites share: the skip-without-device init, random
 * inputs, guard bands, and cuBLAS as the reference (pedantic FP32).
 */
#ifndef GPUTILE_TEST_GPU_H
#define GPUTILE_TEST_GPU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gputile.h"

/* .init of every GPU test: skips the test, with the reason, without a device. */
void gputest_require_device(void);
/* True on a device of compute capability 9.0 (Hopper, sm_90a): the one
 * the wgmma (tensor-core) kernels are built for. */
bool gputest_has_wgmma(void);
/* What a CUDA error means to the user: for cudaErrorNoDevice and
 * cudaErrorInsufficientDriver the library's words for GPUTILE_ERROR_NO_DEVICE
 * ("no usable CUDA device (or no driver)": with no driver installed at all,
 * CUDA says its "driver version is insufficient"); CUDA's text otherwise. */
const char *gputest_cuda_text(cudaError_t err);

/* GPUTEST_SMALL=1 in the environment (tests/compute-sanitizer.sh sets it):
 * the suites shrink their largest sizes so that they finish under
 * compute-sanitizer, keeping every code path: each dimension above `limit`
 * becomes limit + n % keep (limit a multiple of keep), so more than one
 * tile of every kernel and the same ragged edges and alignments mod keep
 * remain; sample counts likewise. Tests that only make sense at full size
 * skip with that reason. */
/* What libgputile and this process hold, for leak checks that other
 * processes on the GPU cannot disturb (cudaMemGetInfo's free memory is
 * device-wide: it moved by gigabytes when the suites ran side by side).
 * gputest_measure_usage() releases the pinned pool's cached blocks and
 * synchronises first, so what is left is what the program holds:
 *  - pool: the pinned pool's statistics (gputile_pool_get_stats);
 *  - mempool_used: bytes in use from the device's default stream-ordered
 *    pool (cudaMemPoolAttrUsedMemCurrent, this process's own), where the
 *    library's GEMM workspaces and host-GEMM tiles come from
 *    (cudaMallocAsync); have_mempool false on a device without pools;
 *  - process_bytes: this process's device memory as the driver reports it
 *    per process (NVML, nvmlDeviceGetComputeRunningProcesses_v3/_v2/v1 for
 *    getpid(); libnvidia-ml.so.1 opened with dlopen, so nothing links it).
 *    Without NVML, or when NVML does not list this pid (a container's PID
 *    namespace, a driver that hides per-process memory),
 *    have_process_bytes is false, process_note says why, and that part of
 *    the check is skipped with a log line. */
typedef struct gputest_usage {
    gputile_pool_stats pool;
    bool have_mempool;
    unsigned long long mempool_used;
    bool have_process_bytes;
    unsigned long long process_bytes;
    char process_note[192];
} gputest_usage;
gputest_usage gputest_measure_usage(void);
/* Fails the test when the device memory counted in `after` exceeds `before`
 * by more than `slack` bytes (each suite keeps its own tolerance): the
 * default pool's bytes in use, and NVML's count for this process where both
 * measurements have one. Logs what it compared and what it skipped. The
 * pinned pool's statistics are each suite's own check. */
void gputest_assert_no_device_leak(const gputest_usage *before, const gputest_usage *after,
                                   size_t slack);

bool gputest_small(void);
/* GPUTEST_SHARD=i/n in the environment (0 <= i < n): true for the cases
 * whose key % n == i, so that n processes (compute-sanitizer runs) share
 * a suite's parameterised cases; without it, true. */
bool gputest_in_shard(uint64_t key);
/* n, or under GPUTEST_SMALL and n > limit + keep: limit + n % keep. */
size_t gputest_shrink(size_t n, size_t limit, size_t keep);

/* Fails the test (cr_assert) when a CUDA call failed. */
#define GPUTEST_CUDA(call) gputest_cuda_ok((call), #call, __FILE__, __LINE__)
void gputest_cuda_ok(cudaError_t err, const char *what, const char *file, int line);
/* cudaMalloc that waits out a full device: suites run side by side (and
 * other processes) hold memory for a while; up to two minutes of retries
 * on cudaErrorMemoryAllocation before that error is returned. */
cudaError_t gputest_malloc(void **p, size_t bytes);
/* Attempt `attempt` (from 0) failed for want of memory: waits and says go
 * on (GPUTILE_SUCCESS), for up to two minutes of attempts in all. */
gputile_status gputest_wait_for_memory(int attempt);
/* s = call, run again while it returns `oom` (another suite's or process's
 * memory comes back), with `redo` before each run after the first:
 * restoring what a run that failed part way may have written, such as C.
 * Other processes' memory also shows at a kernel's first launch: CUDA
 * loads a module lazily, into device memory. */
#define GPUTEST_RETRY_WHILE(s, oom, redo, call)                             \
    for (int a_ = 0;; ++a_) {                                               \
        if (a_ > 0)                                                         \
            redo;                                                           \
        (s) = (call);                                                       \
        if ((s) != (oom) || gputest_wait_for_memory(a_) != GPUTILE_SUCCESS) \
            break;                                                          \
    }
#define GPUTEST_RETRY_OOM(s, redo, call) \
    GPUTEST_RETRY_WHILE(s, GPUTILE_ERROR_OUT_OF_MEMORY, redo, call)
/* OK(call) for a call that allocates, retried as GPUTEST_RETRY_OOM says
 * with `redo` before each retry; OK_ALLOC for a call that writes nothing
 * when it fails. */
#define OK_ALLOC_REDO(redo, call)                                                        \
    do {                                                                                 \
        gputile_status s_;                                                               \
        GPUTEST_RETRY_OOM(s_, redo, (call));                                             \
        cr_assert_eq(s_, GPUTILE_SUCCESS, "%s: %s (%s)", #call, gputile_status_name(s_), \
                     gputile_last_cuda_error_name());                                    \
    } while (0)
#define OK_ALLOC(call) OK_ALLOC_REDO((void)0, call)
/* GPUTEST_CUDA(call) for a call that may run again after
 * cudaErrorMemoryAllocation: an allocation, a module's load, a kernel that
 * only writes its outputs (never one that updates memory in place: a
 * launch that reported the error may still have run). */
#define GPUTEST_CUDA_RETRY(call)                                             \
    do {                                                                     \
        cudaError_t e_;                                                      \
        GPUTEST_RETRY_WHILE(e_, cudaErrorMemoryAllocation, (void)0, (call)); \
        gputest_cuda_ok(e_, #call, __FILE__, __LINE__);                      \
    } while (0)

/* A stream held by a host function that spins until gputest_release(),
 * or until a watchdog lets it go after `seconds` (a call that waits for
 * the stream then fails its test instead of hanging it). Keep the hold
 * until the stream has been synchronised: its host function reads it. */
typedef struct gputest_hold {
    int go, fired;
    bool over;
    int seconds;
    pthread_mutex_t lock;
    pthread_cond_t done;
    pthread_t dog;
} gputest_hold;
void gputest_hold_stream(gputest_hold *h, cudaStream_t s, int seconds);
/* Whether the watchdog has let the stream go. */
bool gputest_hold_fired(gputest_hold *h);
/* Lets the stream go and ends the watchdog; false when the watchdog had
 * let the stream go before. */
bool gputest_release(gputest_hold *h);

/* A per-process random stream, seeded from /dev/urandom (logged, so a failing
 * run can be repeated with GPUTEST_SEED=...). */
uint64_t gputest_rand(void);
/* Bytes for the copy suites (test_pinned, test_copies): n random bytes
 * from gputest_rand(); the first index where a and b differ, or n; how
 * many of n bytes are not v. */
void gputest_fill_random_bytes(unsigned char *p, size_t n);
size_t gputest_first_diff(const unsigned char *a, const unsigned char *b, size_t n);
size_t gputest_count_not(const unsigned char *p, size_t n, unsigned char v);
/* Uniform in [lo, hi). */
float gputest_uniform(float lo, float hi);
/* Integer in [lo, hi], as a float. */
float gputest_small_int(int lo, int hi);

/* The bit pattern written around and into outputs before a call: a quiet NaN
 * that no arithmetic produces. */
#define GPUTEST_POISON_BITS 0x7fc0dead
float gputest_poison(void);
bool gputest_is_poison(float x);

/* C = alpha * op(A) * op(B) + beta * C with cuBLAS, pedantic FP32 (no TF32),
 * row-major device matrices, through the column-major identity
 * C^T = op(B)^T op(A)^T. Requires m, n >= 1. */
void gputest_cublas_gemm(gputile_op ta, gputile_op tb, float alpha, gputile_matrix a,
                         gputile_matrix b, float beta, gputile_matrix c);
/* The same with CUBLAS_TF32_TENSOR_OP_MATH: TF32 tensor cores. */
void gputest_cublas_gemm_tf32(gputile_op ta, gputile_op tb, float alpha, gputile_matrix a,
                              gputile_matrix b, float beta, gputile_matrix c);

#endif
