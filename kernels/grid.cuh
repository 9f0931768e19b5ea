/* SPDX-License-Identifier: MIT */
/*
 * grid.cuh: launch helpers shared by the kernels (internal).
 */
#ifndef GPUTILE_GRID_CUH
#define GPUTILE_GRID_CUH

#include <stdint.h>

#include <utility>

#include <cuda_runtime.h>

/* kernel<<<grid, block, smem, stream>>>(args...), returning that launch's
 * own status. A triple-chevron launch returns nothing: its status is read
 * back with cudaGetLastError(), which also returns (and clears) an error
 * that the caller's own CUDA calls left pending, so a valid launch would be
 * reported as failing with the caller's error and the caller would lose it.
 * cudaLaunchKernelEx returns the launch's status and leaves a pending error
 * where it is. The arguments convert to the kernel's parameter types as in
 * a call. */
template <typename... Params, typename... Args>
static inline cudaError_t gputile__launch(void (*kernel)(Params...), dim3 grid, dim3 block,
                                          size_t smem, cudaStream_t stream, Args &&...args)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

/* gridDim.y and gridDim.z stop at 65535: kernels walk rows of tiles in a
 * grid-stride loop, so any number of rows fits. gridDim.x reaches 2^31 - 1,
 * more tiles than any matrix in memory has columns for. */
static inline dim3 gputile__tile_grid(int64_t rows, int64_t cols, int tile_rows, int tile_cols)
{
    int64_t gx = (cols + tile_cols - 1) / tile_cols;
    int64_t gy = (rows + tile_rows - 1) / tile_rows;
    return dim3((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), 1);
}

/* Blocks of `threads` for a grid-stride loop over n elements, one per
 * thread: enough to cover n, at most max_blocks (the loop takes the rest;
 * at least 1 so that a launch is valid for n = 0). */
static inline unsigned gputile__stride_blocks(int64_t n, int threads, int64_t max_blocks)
{
    const int64_t b = (n + threads - 1) / threads;
    return (unsigned)(b < 1 ? 1 : b < max_blocks ? b : max_blocks);
}

/* The tile (row, column of tiles) of block number `tile` when the blocks
 * walk C in groups of 8 rows of tiles, column by column inside a group:
 * consecutive blocks share B panels and a few A panels, which keeps the
 * working set in L2. */
static __device__ __forceinline__ void gputile__grouped_tile(int64_t tile, int64_t tiles_m,
                                                             int64_t tiles_n, int64_t *tile_m,
                                                             int64_t *tile_n)
{
    const int64_t group = tile / (8 * tiles_n), first_m = group * 8;
    const int64_t rows_in_group = tiles_m - first_m < 8 ? tiles_m - first_m : 8;
    *tile_m = first_m + (tile % (8 * tiles_n)) % rows_in_group;
    *tile_n = (tile % (8 * tiles_n)) / rows_in_group;
}

#endif /* GPUTILE_GRID_CUH */
