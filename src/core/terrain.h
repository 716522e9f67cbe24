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

#include <math.h>

#include "grid_layout.h"

struct AstarTerrain {
    uint64_t *row, *col;   /* the edge cells as row_bits / col_bits */
    /* Where an 8-direction straight scan with costs stops, laid out as the
     * grid's row_stops and col_stops: a wall, or a cell with a forced
     * neighbour by its prices (terrain_forced_side, terrain_forced_ahead). */
    uint64_t *row_stops[2], *col_stops[2];
    size_t edges;          /* how many edge cells */
    size_t open;           /* how many walkable cells */
};

/* Jump point search with costs in 8 directions (NO_OBSTACLES). A move
 * into cell v costs v's cost, times sqrt(2) diagonally; the corner rule
 * needs both cells beside a diagonal walkable. Jump point search prunes a
 * neighbour n of x, reached from its parent p, when a path from p to n that
 * avoids x costs no more than p -> x -> n. These are those comparisons,
 * from the prices of the cells they name (a wall: no move).
 *
 * Straight move p -> x (offset step), side the offset of one side:
 * - x + side, entered straight from x (c(x) + c(s)), against p -> x + side,
 *   one diagonal (sqrt2 c(s), allowed when p + side is walkable): forced
 *   when p + side is a wall or sqrt2 c(s) > c(x) + c(s);
 * - x + step + side, diagonally from x (c(x) + sqrt2 c(a)), against p ->
 *   x + side -> x + step + side (sqrt2 c(s) + c(a)): forced when that move
 *   is allowed and p + side is a wall or sqrt2 c(s) + c(a) > c(x) + sqrt2
 *   c(a).
 * Diagonal move p -> x (offset h + v): x - h and x - v are walkable (the
 * corner rule of the move). x - h + v, diagonally from x (sqrt2 c(x) +
 * sqrt2 c(n)), against p -> x - h -> x - h + v (c(x - h) + c(n)): forced
 * when that move is allowed and c(x - h) + c(n) > sqrt2 (c(x) + c(n)); and
 * the same with h and v swapped. Every other neighbour of x (behind it)
 * has a strictly cheaper path from p that avoids x, whatever the prices.
 *
 * Why that is exact. A pruned step with a strictly cheaper way round lies
 * on no cheapest path, so only ties need care, and with positive prices
 * the comparisons above tie only when the cells they name cost the same
 * (sqrt 2 is irrational): the x + step + side case on a locally uniform
 * patch, where it ties as in jump point search on a uniform grid. There
 * the usual argument holds: of equally cheap paths keep the one that goes
 * diagonally first; swapping "straight then diagonal" for "diagonal then
 * straight" keeps its cost (the cells involved cost the same) and moves the
 * turn back along the straight run until it reaches a cell where the swap
 * is not free, which is a cell with a forced neighbour: a jump point. So
 * straight and diagonal jumps may cross cells of any price, adding each
 * cell's price, and stop only where a forced neighbour appears (or at the
 * goal, or where a diagonal's straight scans find a jump point). */
#define TERRAIN_SQRT2 1.41421356237309504880   /* as search_internal.h's SQRT2 */

/* The price of entering bordered cell i: its cost, INFINITY for a wall. */
static inline double terrain_price(const AstarGrid *grid, long i)
{
    return grid->open[i] ? grid->cost[i] : INFINITY;
}

static inline int terrain_forced_side(const AstarGrid *grid, long x, long step, long side)
{
    double s = terrain_price(grid, x + side);
    return s != INFINITY
           && (!grid->open[x - step + side] || TERRAIN_SQRT2 * s > grid->cost[x] + s);
}

static inline int terrain_forced_ahead(const AstarGrid *grid, long x, long step, long side)
{
    double s = terrain_price(grid, x + side), a = terrain_price(grid, x + step + side);
    return s != INFINITY && a != INFINITY && grid->open[x + step]
           && (!grid->open[x - step + side]
               || TERRAIN_SQRT2 * s + a > grid->cost[x] + TERRAIN_SQRT2 * a);
}

/* Diagonal move into x with parts h and v: is x - h + v forced? */
static inline int terrain_forced_turn(const AstarGrid *grid, long x, long h, long v)
{
    double n = terrain_price(grid, x - h + v);
    return n != INFINITY && grid->open[x + v]
           && grid->cost[x - h] + n > TERRAIN_SQRT2 * (grid->cost[x] + n);
}

/* Must a straight scan with costs moving by step stop on walkable x? */
static inline int terrain_straight_stop(const AstarGrid *grid, long x, long step, long side)
{
    return terrain_forced_side(grid, x, step, side) || terrain_forced_side(grid, x, step, -side)
           || terrain_forced_ahead(grid, x, step, side) || terrain_forced_ahead(grid, x, step, -side);
}

/* astar_grid_terrain (astar.h) builds it. */

/* Does jump point search with costs pay on this grid, in 4 directions
 * (four) or 8? Its jumps stop where terrain changes: in 8 directions where
 * the prices force a neighbour, in 4 on every edge cell. Where terrain
 * changes often that only adds scans to A*'s work. Measured on AR0011SR
 * with patches of cost 2-4 (make bench-jpsw, SHARE=), against A*, by the
 * share of the walkable cells that are edge cells: 8 directions 1.9% 13x,
 * 15.1% 2.1x, 22.6% 1.3x, 29.8% 1.0x; 4 directions 0.8% 3.2x, 1.9% 1.9x,
 * 5.3% 0.9x. So up to 1 in 4 of them (1 in 25). */
static inline int terrain_pays(const struct AstarTerrain *t, int four)
{
    return t->edges * (four ? 25u : 4u) <= t->open;
}

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
