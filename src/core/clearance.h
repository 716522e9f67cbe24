/*
 * Large units (issue 14): per-size layers of the positions where a k x k
 * unit fits, kept by the grid, and the search loop for units with costs or
 * rules. Not public; see AstarOptions.size and astar_grid_size_layer.
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

void astar_layers_free(struct AstarLayer *layers);
size_t astar_layers_memory(const struct AstarLayer *layers);
/* After cell (x, y) of grid became walkable or not (grid.c). */
void astar_layers_walkable(AstarGrid *grid, uint32_t x, uint32_t y, int walkable);
/* After any other change: the layers take the grid's version. */
void astar_layers_sync(AstarGrid *grid);
/* The layer of size (built if missing); the size used (clamped to one past
 * the shorter side: no position fits either way) in *used. */
AstarError astar_grid_layer(AstarGrid *grid, uint32_t size, AstarGrid **layer, uint32_t *used);
/* Recomputes every stop line of a grid from its bit lines (grid.c). */
void astar_grid_restop(AstarGrid *grid);

struct AstarSearch;
/* The loop of a large unit's query with costs or a rule (A*). */
AstarStatus astar_run_large(struct AstarSearch *s, size_t max_expansions, AstarError *error);
/* The goal position's value: its top-left cell's entry cost (negative when
 * the path may not end there), INFINITY when a covered cell is impassable,
 * NAN when the rule stopped the query. */
double astar_large_goal(struct AstarSearch *s);
/* The query's walls (cells) close every position covering one. */
AstarError astar_large_reserve_walls(struct AstarSearch *s);
void astar_large_walls_on(struct AstarSearch *s);
int astar_large_wall_listed(const struct AstarSearch *s, uint32_t position);

#endif
