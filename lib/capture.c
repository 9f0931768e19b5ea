/* SPDX-License-Identifier: MIT */
/*
 * capture.c: whether a call's stream is being captured into a CUDA graph.
 *
 * A captured call runs when the graph runs: later, and perhaps many times.
 * Calls that go through host memory of the library's own (pageable copies
 * staged through pinned buffers, host-matrix GEMM, the descriptors of a
 * batch of views, the keys of range histograms) would leave the graph
 * reading buffers the library has since reused, and calls that wait for
 * the device are not allowed in a capture at all. They ask here first and
 * return GPUTILE_ERROR_UNSUPPORTED, queueing nothing, so that the capture
 * stays valid (gputile(7), CUDA graphs).
 */
#include "internal.h"

gputile_status gputile__capturing(cudaStream_t stream, bool *yes)
{
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    const cudaError_t err = cudaStreamIsCapturing(stream, &status);
    *yes = err == cudaSuccess && status != cudaStreamCaptureStatusNone;
    return gputile__cuda_status(err);
}

gputile_status gputile__refuse_capture(cudaStream_t stream)
{
    bool yes;
    const gputile_status s = gputile__capturing(stream, &yes);
    return s != GPUTILE_SUCCESS ? s : yes ? GPUTILE_ERROR_UNSUPPORTED : GPUTILE_SUCCESS;
}
