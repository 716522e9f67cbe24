/*
 * The open list: a binary min-heap of (f, h, cell), ordered by f and, among
 * equal f, by smaller h, so the search runs straight at the goal across open
 * ground instead of widening a front of equally good cells. Stale entries
 * (a cell pushed again with a better cost) are skipped by the caller when
 * popped, which is cheaper than a decrease-key index per cell.
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
    return a->f < b->f || (a->f == b->f && a->h < b->h);
}

/* Grows geometrically; a warm heap never allocates again. */
static inline AstarError heap_reserve(Heap *heap, size_t need)
{
    HeapEntry *items;
    size_t capacity;

    if (need <= heap->capacity)
        return ASTAR_OK;
    capacity = heap->capacity ? heap->capacity : 256;
    while (capacity < need)
        capacity *= 2;
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
        size_t parent = (i - 1) / 2;
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
    HeapEntry top = heap->items[0];
    HeapEntry last = heap->items[--heap->size];
    size_t i = 0, n = heap->size;

    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && heap_before(&heap->items[child + 1], &heap->items[child]))
            child++;
        if (!heap_before(&heap->items[child], &last))
            break;
        heap->items[i] = heap->items[child];
        i = child;
    }
    if (n > 0)
        heap->items[i] = last;
    return top;
}

#endif
