/*
 * Large units (issue 14): per-size layers of the positions where a k x k
 * unit fits, a cache kept by the grid (clearance.c), and the cells a step of
 * such a unit newly covers. Not public; see AstarOptions.size and
 * astar_grid_size_layer. Layer 2 (caches on the grid).
 */
#ifndef ASTAR_CLEARANCE_H
#define ASTAR_CLEARANCE_H

#include "astar.h"

/* One size in use: fit is a grid of the same size whose walkable bits (open
 * bytes, bit lines, stop lines) say where the unit's top-left cell may be. */
struct AstarLayer {
    uint32_t size;
    AstarGrid *fit;
    struct AstarLayer *next;
};

/* The layer of size (built if missing); the size used (clamped to one past
 * the shorter side: no position fits either way) in *used. */
AstarError astar_grid_layer(AstarGrid *grid, uint32_t size, AstarGrid **layer, uint32_t *used);

/* The cells a unit of size k newly covers when it steps by (dx, dy) (each
 * -1, 0 or 1, not both 0) onto position q: those of q that q - (dx, dy) does
 * not cover, k of them, 2k - 1 for a diagonal step. What a step costs and
 * what it must check, so every loop of a large unit (A*, ranges, distance
 * maps) walks them with this, in the row-by-row order the rules are asked
 * in: in row j of q all k cells when j is the new row (dy != 0), else the
 * one cell of the new column (dx != 0). Two runs, the upper first: the new
 * row, and the new column less that row. Cells are bordered indices of a
 * grid of row length stride.
 *
 *     AstarNewCells it;
 *     size_t cell;
 *     astar_new_cells(&it, q, dx, dy, k, stride);
 *     while (astar_new_cell(&it, &cell))
 *         ...
 */
typedef struct {
    size_t cell, step, left;             /* the run being walked */
    size_t then_cell, then_step, then_left;   /* the run after it */
} AstarNewCells;

static inline void astar_new_cells(AstarNewCells *it, size_t q, int dx, int dy, size_t k,
                                   size_t stride)
{
    size_t row = q + (dy > 0 ? (k - 1) * stride : 0), row_left = dy ? k : 0;
    size_t col = q + (dx > 0 ? k - 1 : 0) + (dy < 0 ? stride : 0);
    size_t col_left = dx ? k - (dy != 0) : 0;

    if (dy > 0) {                        /* the column above the bottom row first */
        it->cell = col;
        it->step = stride;
        it->left = col_left;
        it->then_cell = row;
        it->then_step = 1;
        it->then_left = row_left;
    } else {                             /* the top row (if any), then the column */
        it->cell = row;
        it->step = 1;
        it->left = row_left;
        it->then_cell = col;
        it->then_step = stride;
        it->then_left = col_left;
    }
}

/* The next cell in *cell: 0 when there is none left. */
static inline int astar_new_cell(AstarNewCells *it, size_t *cell)
{
    if (!it->left) {
        if (!it->then_left)
            return 0;
        it->cell = it->then_cell;
        it->step = it->then_step;
        it->left = it->then_left;
        it->then_left = 0;
    }
    *cell = it->cell;
    it->cell += it->step;
    it->left--;
    return 1;
}

#endif
