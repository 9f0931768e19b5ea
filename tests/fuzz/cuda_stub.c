/* SPDX-License-Identifier: MIT */
/*
 * cuda_stub.c: the CUDA runtime and the kernel launchers as the fuzz target
 * sees them: a machine without a device. Every CUDA runtime call lib/ makes
 * counts itself in fuzz_cuda_calls and answers cudaErrorNoDevice, so a
 * public call that passes every argument check stops at its first question
 * to the device with GPUTILE_ERROR_NO_DEVICE, the same on a GPU host as on
 * CI, and never touches memory through a fuzzed pointer. The launchers of
 * kernels/ must never be reached (a launch without a device behind it):
 * they abort, which libFuzzer reports as a crash.
 *
 * A new CUDA call in lib/ shows here as an undefined symbol when
 * `make fuzz' links: add it to the list below.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "../../kernels/kernels.h"
#include "../../kernels/histogram.h"
#include "../../kernels/histogram_image.h"
#include "fuzz.h"

unsigned long fuzz_cuda_calls;

#define NO_DEVICE                 \
    do {                          \
        ++fuzz_cuda_calls;        \
        return cudaErrorNoDevice; \
    } while (0)

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d)
{
    (void)v, (void)a, (void)d;
    NO_DEVICE;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned f)
{
    (void)e, (void)f;
    NO_DEVICE;
}
cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    (void)e;
    NO_DEVICE;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    (void)e, (void)s;
    NO_DEVICE;
}
cudaError_t cudaEventQuery(cudaEvent_t e)
{
    (void)e;
    NO_DEVICE;
}
cudaError_t cudaGetDriverEntryPointByVersion(const char *sym, void **fn, unsigned v,
                                             unsigned long long f,
                                             enum cudaDriverEntryPointQueryResult *q)
{
    (void)sym, (void)fn, (void)v, (void)f, (void)q;
    NO_DEVICE;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    (void)e;
    NO_DEVICE;
}
cudaError_t cudaFree(void *p)
{
    (void)p;
    NO_DEVICE;
}
cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    (void)p, (void)s;
    NO_DEVICE;
}
cudaError_t cudaFreeHost(void *p)
{
    (void)p;
    NO_DEVICE;
}
cudaError_t cudaGetDevice(int *d)
{
    (void)d;
    NO_DEVICE;
}
cudaError_t cudaGetDeviceCount(int *n)
{
    (void)n;
    NO_DEVICE;
}
cudaError_t cudaSetDevice(int d)
{
    (void)d;
    NO_DEVICE;
}
cudaError_t cudaGetLastError(void)
{
    return cudaSuccess;
}
cudaError_t cudaPeekAtLastError(void)
{
    return cudaSuccess;
}
const char *cudaGetErrorName(cudaError_t e)
{
    return e == cudaSuccess ? "cudaSuccess" : "cudaErrorNoDevice";
}
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned f)
{
    (void)p, (void)n, (void)f;
    NO_DEVICE;
}
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned f)
{
    (void)d, (void)h, (void)f;
    NO_DEVICE;
}
cudaError_t cudaHostRegister(void *p, size_t n, unsigned f)
{
    (void)p, (void)n, (void)f;
    NO_DEVICE;
}
cudaError_t cudaHostUnregister(void *p)
{
    (void)p;
    NO_DEVICE;
}
cudaError_t cudaMalloc(void **p, size_t n)
{
    (void)p, (void)n;
    NO_DEVICE;
}
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
    (void)p, (void)n, (void)s;
    NO_DEVICE;
}
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int d)
{
    (void)p, (void)d;
    NO_DEVICE;
}
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    (void)free_bytes, (void)total;
    NO_DEVICE;
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, enum cudaMemPoolAttr a, void *v)
{
    (void)p, (void)a, (void)v;
    NO_DEVICE;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t p, enum cudaMemPoolAttr a, void *v)
{
    (void)p, (void)a, (void)v;
    NO_DEVICE;
}
cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                              enum cudaMemcpyKind k, cudaStream_t st)
{
    (void)d, (void)dp, (void)s, (void)sp, (void)w, (void)h, (void)k, (void)st;
    NO_DEVICE;
}
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k,
                            cudaStream_t st)
{
    (void)d, (void)s, (void)n, (void)k, (void)st;
    NO_DEVICE;
}
cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t s)
{
    (void)d, (void)v, (void)n, (void)s;
    NO_DEVICE;
}
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    (void)a, (void)p;
    NO_DEVICE;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned f)
{
    (void)s, (void)f;
    NO_DEVICE;
}
cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    (void)s;
    NO_DEVICE;
}
cudaError_t cudaStreamGetDevice(cudaStream_t s, int *d)
{
    (void)s, (void)d;
    NO_DEVICE;
}
cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id)
{
    (void)s, (void)id;
    NO_DEVICE;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t s, enum cudaStreamCaptureStatus *st)
{
    (void)s;
    *st = cudaStreamCaptureStatusNone;
    NO_DEVICE;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    (void)s;
    NO_DEVICE;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f)
{
    (void)s, (void)e, (void)f;
    NO_DEVICE;
}

/* kernels/: occupancy questions go to the device; launches must not happen. */
cudaError_t gputile__hist_smem_blocks_per_sm(int t, int bits, int two, size_t smem, int o, int *b)
{
    (void)t, (void)bits, (void)two, (void)smem, (void)o, (void)b;
    NO_DEVICE;
}
cudaError_t gputile__hist_cluster_max(int tier, int t, int bits, size_t smem, int o, int *m)
{
    (void)tier, (void)t, (void)bits, (void)smem, (void)o, (void)m;
    NO_DEVICE;
}
cudaError_t gputile__hist_cluster_active(int tier, int t, int bits, size_t smem, int o, int c,
                                         int *n)
{
    (void)tier, (void)t, (void)bits, (void)smem, (void)o, (void)c, (void)n;
    NO_DEVICE;
}
cudaError_t gputile__hist_route_blocks_per_sm(int t, size_t smem, int o, int *b)
{
    (void)t, (void)smem, (void)o, (void)b;
    NO_DEVICE;
}
cudaError_t gputile__hist_route_count_blocks_per_sm(size_t smem, int o, int *b)
{
    (void)smem, (void)o, (void)b;
    NO_DEVICE;
}
size_t gputile__hist_route_smem(void)
{
    return 0;
}
size_t gputile__hist_route_count_smem(int slice_log2)
{
    (void)slice_log2;
    return 0;
}
size_t gputile__hist_route_scratch(uint64_t tiles, int slices)
{
    (void)tiles, (void)slices;
    return 0;
}
cudaError_t gputile__hist_global_blocks_per_sm(int t, int *b)
{
    (void)t, (void)b;
    NO_DEVICE;
}

static void launched(const char *what)
{
    fprintf(stderr, "fuzz: %s launched without a device behind it\n", what);
    abort();
}
#define LAUNCHER(id, ...)                                                                        \
    cudaError_t gputile__gemm_run_##id(const gputile__gemm_args *a, const gputile__gemm_plan *p, \
                                       cudaStream_t s)                                           \
    {                                                                                            \
        (void)a, (void)p, (void)s;                                                               \
        launched("gputile__gemm_run_" #id);                                                      \
        return cudaErrorNoDevice;                                                                \
    }
GPUTILE__GEMM_VARIANTS(LAUNCHER)
#undef LAUNCHER
cudaError_t gputile__gemm_splitk_reduce(const gputile__gemm_args *a, int splits, const float *w,
                                        int blocks, cudaStream_t s)
{
    (void)a, (void)splits, (void)w, (void)blocks, (void)s;
    launched("gputile__gemm_splitk_reduce");
    return cudaErrorNoDevice;
}
cudaError_t gputile__gemm_thin_edges(const gputile__gemm_args *a, int64_t m, int64_t n,
                                     cudaStream_t s)
{
    (void)a, (void)m, (void)n, (void)s;
    launched("gputile__gemm_thin_edges");
    return cudaErrorNoDevice;
}
cudaError_t gputile__gemm_regblock_blocks_per_sm(int v, int ta, int tb, int va, int vb, int *b)
{
    (void)v, (void)ta, (void)tb, (void)va, (void)vb, (void)b;
    NO_DEVICE;
}
cudaError_t gputile__gemm_batched_blocks_per_sm(int v, int ta, int tb, int va, int vb, int *b)
{
    (void)v, (void)ta, (void)tb, (void)va, (void)vb, (void)b;
    NO_DEVICE;
}
cudaError_t gputile__gemm_batched_scale(const gputile__gemm_args *a, cudaStream_t s)
{
    (void)a, (void)s;
    launched("gputile__gemm_batched_scale");
    return cudaErrorNoDevice;
}
cudaError_t gputile__gemm_views_expand(const uint32_t *offs, const float *a, const float *b,
                                       float *c, int64_t lda, int64_t ldb, int64_t ldc,
                                       int64_t count, struct gputile__gemm_view *views,
                                       cudaStream_t s)
{
    (void)offs, (void)a, (void)b, (void)c, (void)lda, (void)ldb, (void)ldc, (void)count;
    (void)views, (void)s;
    launched("gputile__gemm_views_expand");
    return cudaErrorNoDevice;
}
cudaError_t gputile__gemm_async_blocks_per_sm(int v, int ta, int tb, int va, int vb, int *b)
{
    (void)v, (void)ta, (void)tb, (void)va, (void)vb, (void)b;
    NO_DEVICE;
}
cudaError_t gputile__gemm_async_max_clusters(int v, int cluster, int *clusters)
{
    (void)v, (void)cluster, (void)clusters;
    NO_DEVICE;
}
cudaError_t gputile__gemm_async_clusters(int *yes)
{
    (void)yes;
    NO_DEVICE;
}
cudaError_t gputile__gemm_wgmma_loadable(int *ok)
{
    (void)ok;
    NO_DEVICE;
}
cudaError_t gputile__matrix_scale(int64_t m, int64_t n, float beta, float *c, int64_t ldc,
                                  cudaStream_t s)
{
    (void)m, (void)n, (void)beta, (void)c, (void)ldc, (void)s;
    launched("gputile__matrix_scale");
    return cudaErrorNoDevice;
}
cudaError_t gputile__histogram(const gputile__hist_args *a, const gputile__hist_launch *l,
                               cudaStream_t s)
{
    (void)a, (void)l, (void)s;
    launched("gputile__histogram");
    return cudaErrorNoDevice;
}
/* The image histograms (kernels/histogram_image.cu): the plan asks the
 * device first, so the layout query is never reached either. */
size_t gputile__himg_smem_words(const gputile__himg_args *a, int tier, int counting,
                                int copies_log2)
{
    (void)a, (void)tier, (void)counting, (void)copies_log2;
    launched("gputile__himg_smem_words (the plan without a device)");
    return 0;
}
cudaError_t gputile__himg_blocks_per_sm(const gputile__himg_args *a, int counting, size_t smem,
                                        int smem_optin, int *blocks)
{
    (void)a, (void)counting, (void)smem, (void)smem_optin, (void)blocks;
    NO_DEVICE;
}
cudaError_t gputile__himg_run(const gputile__himg_args *a, const gputile__himg_launch *l,
                              cudaStream_t s)
{
    (void)a, (void)l, (void)s;
    launched("gputile__himg_run");
    return cudaErrorNoDevice;
}
