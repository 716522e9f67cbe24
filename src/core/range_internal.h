/* What distance.c borrows from range.c (not public): the range scratch's
 * open list, so a distance map's flood allocates nothing once it is warm. */
#ifndef ASTAR_RANGE_INTERNAL_H
#define ASTAR_RANGE_INTERNAL_H

#include "heap.h"

Heap *astar_range_heap(AstarRange *range);

#endif
