/* Hex boards inside the search (hex.c), for search.c and astar_loop.c. Not public. */
#ifndef ASTAR_HEX_INTERNAL_H
#define ASTAR_HEX_INTERNAL_H

#include "astar_hex.h"
#include "search_internal.h"

/* Hex A*: every query on a hex grid (astar_kernel.h's loop, plain or
 * general variant). Same contract as astar_run_astar. */
AstarStatus astar_run_hex(AstarSearch *s, size_t max_expansions, AstarError *error);
/* Is bordered (x, y) within hex distance `near` of goal i (0-based goal)? */
int astar_hex_in_region(const AstarSearch *s, size_t i, long x, long y);
/* Hex distance from bordered cell to the nearest goal region (partial results). */
double astar_hex_closeness(const AstarSearch *s, uint32_t cell);

#endif
