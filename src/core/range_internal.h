/* What distance.c borrows from range.c (not public): the range scratch's
 * open list and bucket lists, so a distance map's flood allocates nothing
 * once it is warm. */
#ifndef ASTAR_RANGE_INTERNAL_H
#define ASTAR_RANGE_INTERNAL_H

#include "heap.h"

Heap *astar_range_heap(AstarRange *range);

/* A growable list of cells: one bucket of distance.c's bucket queue. */
typedef struct {
    uint32_t *cell;
    size_t size, capacity;
} AstarCellList;

#define ASTAR_MAX_BUCKETS 64
/* The range scratch's ASTAR_MAX_BUCKETS lists (emptied by the caller). */
AstarCellList *astar_range_buckets(AstarRange *range);
/* Appends cell to list; ASTAR_ENOMEM when it cannot grow. */
AstarError astar_cell_list_push(AstarCellList *list, uint32_t cell);

#endif
