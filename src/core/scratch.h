/*
 * The open lists' storage of the Dijkstra queries (not public): a heap and
 * the bucket lists dijkstra.h's open lists run on, kept warm across queries
 * by an AstarRange (range.c) and lent to distance maps (distance.c), so a
 * flood allocates nothing once warm. Layer 4 (scratch).
 */
#ifndef ASTAR_SCRATCH_H
#define ASTAR_SCRATCH_H

#include "heap.h"

/* A growable list of cells: one bucket of distance.c's bucket queue. */
typedef struct {
    uint32_t *cell;
    size_t size, capacity;
} AstarCellList;

#define ASTAR_MAX_BUCKETS 64

typedef struct {
    Heap heap;
    AstarCellList bucket[ASTAR_MAX_BUCKETS];   /* emptied by each user */
} AstarOpenScratch;

/* Appends cell to list; ASTAR_ENOMEM when it cannot grow. */
AstarError astar_cell_list_push(AstarCellList *list, uint32_t cell);
void astar_open_scratch_free(AstarOpenScratch *open);
/* Bytes held: the heap's and the buckets' arrays. */
size_t astar_open_scratch_bytes(const AstarOpenScratch *open);

#endif
