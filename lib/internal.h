/* SPDX-License-Identifier: MIT */
/*
 * internal.h: what lib/'s files share (never installed).
 */
#ifndef GPUTILE_INTERNAL_H
#define GPUTILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gputile.h"

/* Records `err` as this thread's last CUDA error and returns the status that
 * stands for it (cudaSuccess -> GPUTILE_SUCCESS). */
gputile_status gputile__cuda_status(cudaError_t err);

/* Every row of a float matrix at p, ld floats apart, starts 16-byte
 * aligned: kernels may read and write it with 16-byte vectors. */
static inline bool gputile__rows_aligned16(const void *p, int64_t ld)
{
    return (uintptr_t)p % 16 == 0 && ld % 4 == 0;
}

/* ---- device.c: what planners need to know of a device, cached ---- */
/* Devices the per-device caches hold; gputile__device_current() fails with
 * NO_DEVICE (cudaErrorInvalidDevice) for a higher ordinal. */
#define GPUTILE__MAX_DEVICES 64

typedef struct gputile__device {
    int ordinal;
    int sms;           /* multiprocessors */
    int major, minor;  /* compute capability */
    int smem_optin;    /* shared memory per block, opt-in, bytes */
    int smem_per_sm;   /* shared memory per multiprocessor, bytes */
    int smem_reserved; /* shared memory the system reserves per block, bytes */
    int clusters;      /* launches thread-block clusters */
    int can_map_host;  /* maps page-locked host memory */
    int host_register; /* cudaHostRegister works */
    int mem_clock_khz; /* peak memory clock (0: not reported) */
    int mem_bus_bits;  /* global memory bus width */
    size_t total_mem;  /* global memory, bytes (cudaMemGetInfo) */
} gputile__device;

/* The current device's facts, asked once per device and process (NO_DEVICE
 * without a driver or device; no CUDA error is left pending). */
gputile_status gputile__device_current(const gputile__device **out);
/* The same, returning the CUDA error without recording it as the thread's
 * last one (for questions whose failure the caller ignores). */
cudaError_t gputile__device_lookup(const gputile__device **out);
/* Makes the device of `stream` current for the length of a call whose
 * events and pinned buffers must belong to that device (an event is
 * recorded only on a stream of its own device; a copy may be queued on a
 * stream of any device). *previous: what gputile__device_leave() restores,
 * -1 when nothing was changed. */
gputile_status gputile__device_enter(cudaStream_t stream, int *previous);
void gputile__device_leave(int previous);

/* ---- workspace.c: device scratch of the planned launches ---- */
/* Stream-ordered device memory (the device's default pool, which keeps
 * freed blocks for reuse): usable by work queued on `stream` after the
 * call, returned in the stream's order. bytes > 0; device: the current
 * device's ordinal (its pool). */
cudaError_t gputile__workspace_acquire(void **p, size_t bytes, int device, cudaStream_t stream);
cudaError_t gputile__workspace_release(void *p, cudaStream_t stream);

/* gputile_pool_release(): the batched views' pinned staging slots not in
 * use give their blocks back to the pool (lib/gemm_batched_views.c), once
 * their last copy has finished. */
void gputile__gemm_views_release_idle(void);

/* ---- matrix.c ---- */
/* True when the matrix holds no element. */
static inline bool gputile__is_empty(gputile_matrix m)
{
    return m.width == 0 || m.height == 0;
}

/* Checks one matrix on its own: stride >= width, elements non-NULL and
 * 4-byte aligned unless the matrix is empty, and its extent in bytes fits in
 * size_t. */
gputile_status gputile__check_matrix(gputile_matrix m);

/* True when some element of x and some element of y share memory (exact for
 * views with the same stride; by address ranges otherwise). */
bool gputile__overlap(gputile_matrix x, gputile_matrix y);

/* True when the byte ranges [a, a + abytes) and [b, b + bbytes) share a
 * byte; an empty range (or a NULL one) shares none. The callers' ranges fit
 * in the address space (checked before), so the sums do not wrap. */
static inline bool gputile__bytes_overlap(const void *a, size_t abytes, const void *b,
                                          size_t bbytes)
{
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a != NULL && b != NULL && abytes != 0 && bbytes != 0 && a0 < b0 + bbytes &&
           b0 < a0 + abytes;
}

/* Where a matrix's memory lives, as far as kernels are concerned. */
typedef enum gputile__memory {
    GPUTILE__MEMORY_HOST,  /* ordinary or pinned host memory: staged through the device */
    GPUTILE__MEMORY_DEVICE /* device or managed memory of the current device */
} gputile__memory;

/* Classifies m's memory (gputile__pointer_kind_of() on its first element).
 * Fails with GPUTILE_ERROR_NO_DEVICE when there is no driver or device,
 * GPUTILE_ERROR_WRONG_DEVICE for another device's memory. */
gputile_status gputile__memory_of(gputile_matrix m, gputile__memory *where);

/* ---- pointer.c: the one pointer classifier ---- */
typedef enum gputile__pointer_kind {
    GPUTILE__POINTER_HOST_PAGEABLE, /* ordinary host memory (the driver does not know it) */
    GPUTILE__POINTER_HOST_PINNED,   /* page-locked host memory: the copy engines reach it */
    GPUTILE__POINTER_DEVICE,        /* device memory of the current device */
    GPUTILE__POINTER_DEVICE_OTHER,  /* device memory of another device */
    GPUTILE__POINTER_MANAGED        /* managed memory */
} gputile__pointer_kind;

/* Classifies the memory at p, as the CUDA driver reports it (from p's first
 * byte). With bytes > 0, a range [p, p + bytes) that libgputile pinned
 * itself (the pin table) is HOST_PINNED without asking the driver, and one
 * that starts in pages it pinned but runs outside the bytes pinned for
 * their owner (a neighbour in a registration's page, past an allocation's
 * end) is HOST_PAGEABLE: the driver would take it all for pinned; bytes =
 * 0 always asks. A failure leaves no CUDA error pending and records
 * nothing: the caller maps it to a status (gputile__cuda_status()) or
 * ignores it. */
cudaError_t gputile__pointer_kind_of(const void *p, size_t bytes, gputile__pointer_kind *kind);
/* The driver's one question, for callers that only need host and device
 * told apart (a small copy): *device is true for device memory of any
 * device and for managed memory. No pin table, no cudaGetDevice; the
 * driver's cuPointerGetAttributes where it has one (~45 ns for device
 * memory, ~140 for pageable, against cudaPointerGetAttributes' ~100 and
 * ~175-225 on an H200), else the runtime's. A failure leaves no CUDA error
 * pending. */
cudaError_t gputile__pointer_is_device(const void *p, bool *device);

/* cudaEventQuery(e) without leaving cudaErrorNotReady as the runtime's
 * last error (event.c): cudaSuccess once e has completed,
 * cudaErrorNotReady while it is pending, else the failure. */
cudaError_t gputile__event_query(cudaEvent_t e);

/* True when e has completed; false while it is pending, or on an error
 * (which a later cudaEventSynchronize() reports). Leaves the runtime's
 * last error as it was (event.c). */
bool gputile__event_done(cudaEvent_t e);

/* ---- capture.c ---- */
/* *yes: `stream` is being captured into a CUDA graph (or its capture was
 * invalidated). A failed question is reported, *yes false. */
gputile_status gputile__capturing(cudaStream_t stream, bool *yes);
/* GPUTILE_ERROR_UNSUPPORTED when `stream` is being captured: for the calls
 * a graph cannot replay (capture.c says which), before they queue anything. */
gputile_status gputile__refuse_capture(cudaStream_t stream);

/* ---- memory.c ---- */
/* A 2D range of bytes: height rows of width bytes, pitch bytes apart. */
typedef struct gputile__rect {
    char *ptr;
    size_t pitch;
    size_t width;
    size_t height;
} gputile__rect;

/* A matrix's elements as a range of bytes. */
static inline gputile__rect gputile__matrix_rect(gputile_matrix m)
{
    return (gputile__rect){(char *)m.elements, m.stride * sizeof(float), m.width * sizeof(float),
                           m.height};
}

/* The library's one 2D copy: src to dst (same width and height) on stream,
 * direction from the addresses (cudaMemcpyDefault), asynchronous as
 * cudaMemcpy2DAsync is. Rows too far apart for the 2D copy's pitch limit go
 * one cudaMemcpyAsync per row. */
cudaError_t gputile__memcpy2d_async(gputile__rect dst, gputile__rect src, cudaStream_t stream);

#endif /* GPUTILE_INTERNAL_H */
