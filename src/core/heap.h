/*
 * The open list: a 4-ary min-heap of (f, h, cell) ordered by f alone. A
 * single double comparison compiles to branch-free code, which matters more
 * than anything else in the search loop; among equal f the search prefers
 * cells found from the node being expanded (search_internal.h's ties stack),
 * which runs it straight at the goal as a smaller-h tie-break would. h is
 * kept in the entry for callers that want it. Four children per node halve
 * the depth of a binary heap. Stale entries (a cell pushed again with a
 * better cost) are skipped by the caller when popped, which is cheaper than
 * a decrease-key index per cell.
 */
#ifndef ASTAR_HEAP_H
#define ASTAR_HEAP_H

#include <stdlib.h>

#include "astar.h"

typedef struct {
    double f;
    float h;
    uint32_t cell;
} HeapEntry;

typedef struct {
    HeapEntry *items;
    size_t size, capacity;
} Heap;

static inline int heap_before(const HeapEntry *a, const HeapEntry *b)
{
    return a->f < b->f;   /* ties: see above */
}

/* Grows geometrically (by half, to keep memory per cell low); a warm heap
 * never allocates again. */
static inline AstarError heap_reserve(Heap *heap, size_t need)
{
    HeapEntry *items;
    size_t capacity;

    if (need <= heap->capacity)
        return ASTAR_OK;
    capacity = heap->capacity ? heap->capacity : 256;
    while (capacity < need)
        capacity += capacity / 2;
    items = realloc(heap->items, capacity * sizeof *items);
    if (!items)
        return ASTAR_ENOMEM;
    heap->items = items;
    heap->capacity = capacity;
    return ASTAR_OK;
}

static inline AstarError heap_push(Heap *heap, double f, float h, uint32_t cell)
{
    HeapEntry entry;
    size_t i;

    if (heap->size == heap->capacity && heap_reserve(heap, heap->size + 1) != ASTAR_OK)
        return ASTAR_ENOMEM;
    entry.f = f;
    entry.h = h;
    entry.cell = cell;
    i = heap->size++;
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!heap_before(&entry, &heap->items[parent]))
            break;
        heap->items[i] = heap->items[parent];
        i = parent;
    }
    heap->items[i] = entry;
    return ASTAR_OK;
}

/* Removes and returns the first entry; the heap must not be empty. */
static inline HeapEntry heap_pop(Heap *heap)
{
    HeapEntry *items = heap->items;
    HeapEntry top = items[0];
    HeapEntry last = items[--heap->size];
    size_t i = 0, n = heap->size;

    for (;;) {
        size_t first = 4 * i + 1, best = first, k, end;
        if (first >= n)
            break;
        end = first + 4 < n ? first + 4 : n;
        for (k = first + 1; k < end; k++)
            if (heap_before(&items[k], &items[best]))
                best = k;
        if (!heap_before(&items[best], &last))
            break;
        items[i] = items[best];
        i = best;
    }
    if (n > 0)
        items[i] = last;
    return top;
}

#endif
