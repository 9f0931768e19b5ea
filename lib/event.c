/* SPDX-License-Identifier: MIT */
/*
 * event.c: whether an event has completed, asked without touching the
 * runtime's last error. cudaEventQuery() reports an event still pending
 * as cudaErrorNotReady, which the runtime keeps as the thread's last
 * error; clearing it after every query (as the copies' slot searches did)
 * also erased an error the caller's own launch had left pending. The
 * driver's cuEventQuery() answers the same question and leaves the
 * runtime's state alone; the runtime is asked only where the driver
 * function cannot be found or for the code of a failure (which the caller
 * reports), and then a not-ready answer is cleared only when nothing was
 * pending before.
 */
#include <cuda.h>

#include "internal.h"
#include "../kernels/driver_entry.h"

typedef CUresult (*event_query_fn)(CUevent);

cudaError_t gputile__event_query(cudaEvent_t e)
{
    static void *slot;
    void *f;
    if (gputile__driver_entry("cuEventQuery", &slot, &f) == cudaSuccess) {
        const CUresult r = ((event_query_fn)f)((CUevent)e);
        if (r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY)
            return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorNotReady;
        /* a failure: the runtime's code for it (the caller reports it) */
    }
    const cudaError_t pending = cudaPeekAtLastError();
    const cudaError_t err = cudaEventQuery(e);
    if (err == cudaErrorNotReady && pending == cudaSuccess)
        (void)cudaGetLastError();
    return err;
}

bool gputile__event_done(cudaEvent_t e)
{
    return gputile__event_query(e) == cudaSuccess;
}
