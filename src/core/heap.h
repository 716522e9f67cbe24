/*
 * The open list: a 4-ary min-heap of (f, cell) ordered by f alone; among
 * equal f the search prefers cells found from the node being expanded
 * (search_internal.h's ties stack), which runs it straight at the goal as a
 * smaller-h tie-break would. Layer 4 (scratch).
 *
 * Popping is most of an A* search's time, so the layout serves it:
 * - keys and cells are separate arrays, the key array aligned so that the
 *   keys of a node's four children share half a 64-byte cache line;
 * - the slots just past the last entry always hold f = +inf, so every node
 *   has four children to compare and the smallest is picked without a branch
 *   (an unpredictable branch per level cost more than the comparisons: this
 *   took A* from about 125 to about 82 ns per expansion on AR0011SR);
 * - keys are compared as integers (see HeapKey), a shorter dependency chain
 *   per level than floating-point comparisons (82 to about 65 ns).
 * A cell pushed again with a better cost leaves its old entry behind, skipped
 * when popped. A decrease-key index would save those pops (40% of A*'s on
 * AR0011SR, about 10% of its time) but costs 2 bytes per cell, which the
 * 16-byte budget per cell does not have.
 * Among equal children the lowest index wins, as a plain loop would pick it;
 * the pure-Lua fallback's heap makes the same choices.
 */
#ifndef ASTAR_HEAP_H
#define ASTAR_HEAP_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

typedef struct {
    double f;
    uint32_t cell;
} HeapEntry;

/* Keys are f's bits, mapped so that unsigned integers order as the doubles
 * do (sign bit flipped for positives, every bit for negatives): integer
 * comparisons are quicker than floating-point ones in the pop's chain. */
typedef uint64_t HeapKey;

#define HEAP_SIGN UINT64_C(0x8000000000000000)
#define HEAP_INF UINT64_C(0xFFF0000000000000)   /* the key of +inf */

static inline HeapKey heap_key(double f)
{
    uint64_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits ^ (((uint64_t)0 - (bits >> 63)) | HEAP_SIGN);
}

static inline double heap_f(HeapKey k)
{
    double f;
    k ^= (k >> 63) ? HEAP_SIGN : ~(uint64_t)0;
    memcpy(&f, &k, sizeof f);
    return f;
}

typedef struct {
    HeapKey *key;       /* inside block, aligned as described above */
    uint32_t *cell;     /* after the keys, in the same block */
    void *block;
    size_t size, capacity;
} Heap;

#define HEAP_ARITY 4
#define HEAP_PAD HEAP_ARITY   /* +inf slots kept past the last entry */
#define HEAP_LINE 64

/* Grows geometrically (by half, to keep memory per cell low); a warm heap
 * never allocates again. Capacity counts the padding slots. */
static inline AstarError heap_reserve(Heap *heap, size_t need)
{
    size_t capacity, i;
    void *block;
    HeapKey *key;
    uint32_t *cell;
    uintptr_t p;

    need += HEAP_PAD + 1;
    if (need <= heap->capacity)
        return ASTAR_OK;
    capacity = heap->capacity ? heap->capacity : 256;
    while (capacity < need)
        capacity += capacity / 2;
    if (capacity > ((size_t)-1 - 2 * HEAP_LINE) / (sizeof *key + sizeof *cell))
        return ASTAR_ENOMEM;
    block = malloc(capacity * (sizeof *key + sizeof *cell) + 2 * HEAP_LINE);
    if (!block)
        return ASTAR_ENOMEM;
    p = ((uintptr_t)block + sizeof *key + HEAP_LINE - 1) & ~(uintptr_t)(HEAP_LINE - 1);
    key = (HeapKey *)(p - sizeof *key);
    cell = (uint32_t *)(key + capacity);
    if (heap->capacity) {
        memcpy(key, heap->key, heap->capacity * sizeof *key);
        memcpy(cell, heap->cell, heap->capacity * sizeof *cell);
    }
    for (i = heap->capacity; i < capacity; i++) {
        key[i] = HEAP_INF;
        cell[i] = 0;
    }
    free(heap->block);
    heap->block = block;
    heap->key = key;
    heap->cell = cell;
    heap->capacity = capacity;
    return ASTAR_OK;
}

static inline void heap_clear(Heap *heap)
{
    size_t i;
    heap->size = 0;
    for (i = 0; i < HEAP_PAD && i < heap->capacity; i++)
        heap->key[i] = HEAP_INF;
}

static inline void heap_free(Heap *heap)
{
    free(heap->block);
    heap->block = NULL;
    heap->key = NULL;
    heap->cell = NULL;
    heap->size = heap->capacity = 0;
}

/* Bytes the heap holds. */
static inline size_t heap_bytes(const Heap *heap)
{
    return heap->capacity
               ? heap->capacity * (sizeof *heap->key + sizeof *heap->cell) + 2 * HEAP_LINE
               : 0;
}

static inline AstarError heap_push(Heap *heap, double fv, uint32_t cell)
{
    HeapKey f = heap_key(fv), *key;
    uint32_t *cells;
    size_t i;

    if (heap->size + HEAP_PAD + 1 > heap->capacity
        && heap_reserve(heap, heap->size + 1) != ASTAR_OK)
        return ASTAR_ENOMEM;
    key = heap->key;
    cells = heap->cell;
    i = heap->size++;
    key[i + HEAP_PAD] = HEAP_INF;
    while (i > 0) {
        size_t parent = (i - 1) / HEAP_ARITY;
        if (!(f < key[parent]))
            break;
        key[i] = key[parent];
        cells[i] = cells[parent];
        i = parent;
    }
    key[i] = f;
    cells[i] = cell;
    return ASTAR_OK;
}

/* i or j, whichever key is smaller; i (the lower index) on a tie. No branch. */
static inline size_t heap_smaller(const HeapKey *k, size_t i, size_t j)
{
    size_t take_j = (size_t)0 - (size_t)(k[j] < k[i]);   /* all ones or zero */
    return i ^ ((i ^ j) & take_j);
}

/* Removes and returns the first entry; the heap must not be empty. */
static inline HeapEntry heap_pop(Heap *heap)
{
    HeapKey *key = heap->key;
    uint32_t *cells = heap->cell;
    HeapEntry top;
    size_t n = --heap->size, i = 0, first;
    HeapKey last = key[n];
    uint32_t last_cell = cells[n];

    top.f = heap_f(key[0]);
    top.cell = cells[0];
    key[n] = HEAP_INF;
    for (first = 1; first < n; first = HEAP_ARITY * i + 1) {
        const HeapKey *k = key + first;
        size_t best = first + heap_smaller(k, heap_smaller(k, 0, 1), heap_smaller(k, 2, 3));
        if (!(key[best] < last))
            break;
        key[i] = key[best];
        cells[i] = cells[best];
        i = best;
    }
    if (n > 0) {
        key[i] = last;
        cells[i] = last_cell;
    }
    return top;
}

#endif
