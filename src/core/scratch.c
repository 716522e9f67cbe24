/*
 * The open lists' storage of the Dijkstra queries (scratch.h): growing a
 * bucket list, freeing and measuring the whole. Layer 4 (scratch): range.c
 * and distance.c both use it, so neither calls the other for it.
 */
#include <stdlib.h>

#include "scratch.h"

AstarError astar_cell_list_push(AstarCellList *list, uint32_t cell)
{
    if (list->size == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 1024;
        uint32_t *cells = (uint32_t *)realloc(list->cell, capacity * sizeof *cells);
        if (!cells)
            return ASTAR_ENOMEM;
        list->cell = cells;
        list->capacity = capacity;
    }
    list->cell[list->size++] = cell;
    return ASTAR_OK;
}

void astar_open_scratch_free(AstarOpenScratch *open)
{
    int i;
    heap_free(&open->heap);
    for (i = 0; i < ASTAR_MAX_BUCKETS; i++)
        free(open->bucket[i].cell);
}

size_t astar_open_scratch_bytes(const AstarOpenScratch *open)
{
    size_t bytes = heap_bytes(&open->heap);
    int i;
    for (i = 0; i < ASTAR_MAX_BUCKETS; i++)
        bytes += open->bucket[i].capacity * sizeof(uint32_t);
    return bytes;
}
