/* SPDX-License-Identifier: MIT */
/*
 * dist.h: what the multi-GPU calls share (internal; issue 22): the
 * per-thread last NCCL error, and, in a --with-nccl build
 * (GPUTILE_WITH_NCCL), the communicator's facts checked against the
 * current device.
 */
#ifndef GPUTILE_DIST_H
#define GPUTILE_DIST_H

#include "internal.h"

/* Records `result` (an ncclResult_t) as this thread's last NCCL error and
 * returns GPUTILE_ERROR_NCCL; ncclSuccess (0) is GPUTILE_SUCCESS and
 * records nothing. */
gputile_status gputile__nccl_status(int result);

#ifdef GPUTILE_WITH_NCCL
/* nccl.h declares `ncclGroupStart()' and others without (void). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <nccl.h>
#pragma GCC diagnostic pop

/* The communicator's rank and size, once its device is known to be the
 * current one (GPUTILE_ERROR_WRONG_DEVICE otherwise). */
typedef struct gputile__comm {
    ncclComm_t comm;
    int rank, ranks;
} gputile__comm;

/* Reads comm's rank, size and device (NCCL calls: their failure is
 * GPUTILE_ERROR_NCCL) and checks the device against the current one. */
gputile_status gputile__comm_open(void *comm, gputile__comm *out);
#endif

#endif /* GPUTILE_DIST_H */
