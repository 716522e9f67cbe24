/*
 * Connected-component labels, a cache of the grid (grid_layout.h): what
 * search.c asks of them (the public functions are in astar.h).
 * Layer 2 (caches on the grid).
 */
#ifndef ASTAR_COMPONENTS_H
#define ASTAR_COMPONENTS_H

#include "grid_layout.h"

struct AstarComponents;

/* Counts work that fresh labels could have saved (astar_grid_note_no_path,
 * astar_search_prepare_step) and rebuilds stale labels once it reaches about
 * cells / 16 expansions, about what a rebuild costs (6 ns a cell against 100
 * to 200 ns an A* expansion), so that rebuilding never costs much more than
 * it saves. */
void astar_components_note_waste(AstarGrid *grid, size_t work);
/* The work of `expanded` expansions of algorithm ran, in A* expansions. */
size_t astar_components_work(const AstarGrid *grid, AstarAlgorithm ran, size_t expanded);

/* 0 when the labels prove that no path leads from cell start to the walkable
 * cell goal in this diagonal mode; 1 when one may (or nothing is known). */
int astar_components_maybe_reachable(const AstarGrid *grid, size_t start, size_t goal,
                                     AstarDiagonal diagonal);

#endif
