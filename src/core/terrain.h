/*
 * Terrain edges, a cache of the grid (grid_layout.h) for jump point search
 * on weighted grids (jps.c, issue 22). Layer 2 (caches on the grid).
 *
 * A walkable cell is an edge cell when a walkable cell among its eight
 * neighbours costs something else. Every other walkable cell (an inner
 * cell) costs what all its walkable neighbours cost, so a run of inner
 * cells, and the cell it ends on, costs one price per step: jump point
 * search stops on edge cells and prunes only at inner ones (jps.c says why
 * that is exact). The edges are kept as bit lines laid out like the grid's
 * row_bits and col_bits, so a straight scan ORs them into its stop bits.
 */
#ifndef ASTAR_TERRAIN_H
#define ASTAR_TERRAIN_H

#include "grid_layout.h"

struct AstarTerrain {
    uint64_t *row, *col;   /* the edge cells as row_bits / col_bits */
    size_t edges;          /* how many edge cells */
};

/* Builds the grid's edges (a square grid with a cost layer), then keeps them
 * current on every setWalkable and setCost, O(1) a change. ASTAR_ENOMEM
 * leaves the grid without them; nothing else needs them. */
AstarError astar_grid_terrain(AstarGrid *grid);

/* Does jump point search run with costs on this grid (jps.c): its costs
 * are not known to be one, and its edges are built? */
static inline int astar_jps_weighted(const AstarGrid *grid)
{
    return grid->terrain
           && (grid->min_stale || grid->min_count != (size_t)grid->width * grid->height);
}

/* Is bordered (x, y) an edge cell? */
static inline int astar_terrain_edge(const struct AstarTerrain *t, const AstarGrid *grid,
                                     size_t x, size_t y)
{
    return astar_bit(t->row + y * grid->row_words, x + ASTAR_BITS_PAD);
}

#endif
