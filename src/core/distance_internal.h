/*
 * What distance_repair.c borrows from distance.c (not public): the flood of
 * a map over the open list's cells, and the map's board. Layer 6 (queries).
 */
#ifndef ASTAR_DISTANCE_INTERNAL_H
#define ASTAR_DISTANCE_INTERNAL_H

#include "dijkstra.h"

#define ST_CLOSED 16u   /* step[]: settled by the current flood; a repair's mark */
#define ST_SOURCE 128u  /* step[]: a source of the last run (a cell it looked at: the
                           encoding of a map with grid_costs) */

/* The flood of m on grid (no rules, no moves) from the cells queued on open
 * (a heap) with their values, up to max_cost, over the cells' known entry
 * costs. With track, m->box holds the rectangle of what it may write before
 * and after (distance.c, grow_box); settled (may be NULL) gets every cell
 * the flood settles, in order. */
AstarError astar_distance_flood(AstarDistanceMap *m, const AstarGrid *grid, const OpenList *open,
                                double max_cost, int track, AstarCellList *settled);
/* Values start cell i (ASTAR_STEP_START) of a map of one-cell units
 * without rules: its best move into the map, as a run does. */
void astar_distance_start(AstarDistanceMap *m, size_t i, double max_cost);
/* A map built a slice at a time (distance_slice.c): the cleared map of
 * grid with the sources queued on heap (the run's start, as
 * astar_distance_run_moves does it without moves; *aborted: the rule
 * stopped, the map empty); then the flood for at most `cells` settled
 * cells: 1 when it is complete (start cells included), 0 when more is to
 * come, the rule stopped it (*aborted) or *e is set. */
AstarError astar_distance_slice_seed(AstarDistanceMap *m, const AstarGrid *grid, Heap *heap,
                                     const AstarDistanceSource *sources, size_t n,
                                     double max_cost, AstarCellRule rule, void *user,
                                     int *aborted);
int astar_distance_slice_flood(AstarDistanceMap *m, const AstarGrid *grid, Heap *heap,
                               double max_cost, AstarCellRule rule, void *user, size_t cells,
                               int *aborted, AstarError *e);
/* Swaps the values of a and b (the arrays and what a next run keeps). */
void astar_distance_swap(AstarDistanceMap *a, AstarDistanceMap *b);
/* The board m's moves are on. */
BoardKind astar_distance_kind(const AstarDistanceMap *m);

#endif
