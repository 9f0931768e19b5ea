/*
 * grid.cuh: launch-shape helpers shared by the kernels (internal).
 */
#ifndef GPUTILE_GRID_CUH
#define GPUTILE_GRID_CUH

#include <stdint.h>

/* gridDim.y and gridDim.z stop at 65535: kernels walk rows of tiles in a
 * grid-stride loop, so any number of rows fits. gridDim.x reaches 2^31 - 1,
 * more tiles than any matrix in memory has columns for. */
static inline dim3 gputile__tile_grid(int64_t rows, int64_t cols, int tile_rows, int tile_cols)
{
    int64_t gx = (cols + tile_cols - 1) / tile_cols;
    int64_t gy = (rows + tile_rows - 1) / tile_rows;
    return dim3((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), 1);
}

#endif /* GPUTILE_GRID_CUH */
