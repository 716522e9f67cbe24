/*
 * The grid's memory layout, shared by grid.c and search.c (not public).
 *
 * Cells are stored row by row with a one-cell wall border on every side, so
 * a neighbour is always cell + offset and never needs a bounds check. Cell
 * (x, y) of the user's grid (0-based) is index (y + 1) * stride + (x + 1).
 */
#ifndef ASTAR_GRID_LAYOUT_H
#define ASTAR_GRID_LAYOUT_H

#include "astar.h"

struct AstarGrid {
    uint32_t width, height;
    uint32_t stride;        /* width + 2 */
    size_t cells;           /* stride * (height + 2), border included */
    uint8_t *open;          /* 1 = walkable; the border is 0 */
    double *cost;           /* entry cost per cell; NULL while every cost is 1 */
    double min_cost;        /* lowest cost of any cell: scales the heuristic */
    size_t min_count;       /* how many cells have min_cost */
    uint64_t version;       /* bumped by every change */
};

static inline size_t astar_index(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    return (size_t)(y + 1) * grid->stride + (x + 1);
}

#endif
