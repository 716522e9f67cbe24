/*
 * Connected-component labels: the private hooks grid.c and search.c call
 * (the public functions are in astar.h).
 */
#ifndef ASTAR_COMPONENTS_H
#define ASTAR_COMPONENTS_H

#include "grid_layout.h"

struct AstarComponents;

/* Keep the labels right after cell i changed (grid.c, only when labelled). */
void astar_components_opened(AstarGrid *grid, size_t i);
void astar_components_closed(AstarGrid *grid, size_t i);

void astar_components_free(struct AstarComponents *components);
size_t astar_components_memory(const struct AstarComponents *components);

/* 0 when the labels prove that no path leads from cell start to the walkable
 * cell goal in this diagonal mode; 1 when one may (or nothing is known). */
int astar_components_maybe_reachable(const AstarGrid *grid, size_t start, size_t goal,
                                     AstarDiagonal diagonal);

#endif
