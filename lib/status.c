/* SPDX-License-Identifier: MIT */
/*
 * status.c: status texts and names from GPUTILE_STATUS_MAP, the per-thread
 * CUDA error behind the last failure, and the runtime version.
 */
#include "internal.h"

static _Thread_local cudaError_t last_cuda_error = cudaSuccess;

const char *gputile_strerror(int status)
{
    switch (status) {
#define GPUTILE__STATUS_TEXT(name, value, text) \
    case value:                                 \
        return text;
        GPUTILE_STATUS_MAP(GPUTILE__STATUS_TEXT)
#undef GPUTILE__STATUS_TEXT
    default:
        return "unknown status";
    }
}

const char *gputile_status_name(int status)
{
    switch (status) {
#define GPUTILE__STATUS_NAME(name, value, text) \
    case value:                                 \
        return "GPUTILE_" #name;
        GPUTILE_STATUS_MAP(GPUTILE__STATUS_NAME)
#undef GPUTILE__STATUS_NAME
    default:
        return "GPUTILE_UNKNOWN";
    }
}

gputile_status gputile__cuda_status(cudaError_t err)
{
    if (err == cudaSuccess)
        return GPUTILE_SUCCESS;
    last_cuda_error = err;
    /* The runtime also keeps err as this thread's pending error, which the
     * next cudaGetLastError() returns: the library's own launches check it,
     * so a failed call (a bad free, a bad stream) would fail the caller's
     * next valid call. Clear it; a sticky error stays: every later CUDA call
     * returns it anyway. */
    (void)cudaGetLastError();
    switch (err) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
    case cudaErrorStubLibrary:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
        return GPUTILE_ERROR_NO_DEVICE;
    case cudaErrorMemoryAllocation:
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
        return GPUTILE_ERROR_UNSUPPORTED;
    default:
        return GPUTILE_ERROR_CUDA;
    }
}

int gputile_last_cuda_error(void)
{
    return (int)last_cuda_error;
}

const char *gputile_last_cuda_error_name(void)
{
    return cudaGetErrorName(last_cuda_error);
}

unsigned gputile_version(void)
{
    return GPUTILE_VERSION_HEX;
}

const char *gputile_version_string(void)
{
    return GPUTILE_VERSION_STRING;
}
