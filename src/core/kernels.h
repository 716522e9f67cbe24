/*
 * The kernels' entry points, for search.c (not public): one run function
 * per loop, and the hex and large-unit helpers a query's set-up and checks
 * call. Layer 5 (kernels).
 */
#ifndef ASTAR_KERNELS_H
#define ASTAR_KERNELS_H

#include "astar_hex.h"
#include "search_internal.h"

/* Expand up to max_expansions nodes (0: no limit). On running out of open
 * nodes they return ASTAR_NO_PATH without setting the final status; on
 * ENOMEM, or when a rule stopped the query, they set *error. */
/* Square boards (astar_loop.c): hands hex grids to astar_run_hex. */
AstarStatus astar_run_astar(AstarSearch *s, size_t max_expansions, AstarError *error);
/* Jump point search (jps.c). */
AstarStatus astar_run_jps(AstarSearch *s, size_t max_expansions, AstarError *error);
/* Hex A* (hex.c): every query on a hex grid, plain or general variant. */
AstarStatus astar_run_hex(AstarSearch *s, size_t max_expansions, AstarError *error);
/* A large unit's query with costs or a rule (large.c). */
AstarStatus astar_run_large(AstarSearch *s, size_t max_expansions, AstarError *error);
/* Any-angle search (theta.c): a query with s->theta. */
AstarStatus astar_run_theta(AstarSearch *s, size_t max_expansions, AstarError *error);

/* Is bordered (x, y) within hex distance `near` of goal i (0-based goal)? (hex.c) */
int astar_hex_in_region(const AstarSearch *s, size_t i, long x, long y);

/* Large units (large.c). The goal position's value: its top-left cell's
 * entry cost (negative when the path may not end there: a covered cell may
 * not be ended on), INFINITY when a
 * covered cell is impassable, NAN when the rule stopped the query. */
double astar_large_goal(AstarSearch *s);
/* The query's walls (cells) close every position covering one. */
AstarError astar_large_reserve_walls(AstarSearch *s);
void astar_large_walls_on(AstarSearch *s);
int astar_large_wall_listed(const AstarSearch *s, uint32_t position);

#endif
