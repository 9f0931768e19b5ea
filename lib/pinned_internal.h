/* SPDX-License-Identifier: MIT */
/*
 * pinned_internal.h: what the pinned-memory files of lib/ share (internal).
 * The layers have their own headers, each including only what lies below
 * it: pinned_table.h (the table of pinned ranges and the pinned flags),
 * copy_threads.h (the host copy engine), staged_copy.h (the staging rings
 * that move pageable memory through pinned buffers), copy_policy.h (which
 * method a pageable copy takes, the bounce buffers). This header gathers
 * them for the files above (pinned.c, pinned_pool.c, gemm_host.h).
 */
#ifndef GPUTILE_PINNED_INTERNAL_H
#define GPUTILE_PINNED_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "pinned_table.h"
#include "copy_threads.h"
#include "staged_copy.h"
#include "copy_policy.h"

#endif /* GPUTILE_PINNED_INTERNAL_H */
