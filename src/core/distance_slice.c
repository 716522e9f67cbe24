/*
 * Distance maps built a slice at a time (issue 24): map:update and
 * map:setSources with a budget, then map:step. The build runs into a second
 * set of per-cell arrays (the slice's, laid out as the map's), its open list
 * kept here between slices, and swaps them with the map's when complete, so
 * the map answers its previous values meanwhile. The grid changed between
 * two slices (its version): the build starts again on the grid as it is.
 * The result is a run's to the bit (the heap gives what the run's queues
 * give). The memory is the caller's (the binding: a userdata); only the heap
 * allocates, freed by astar_distance_slice_free. Layer 6 (queries).
 */
#include <string.h>

#include "distance_internal.h"

struct AstarDistanceSlice {
    AstarDistanceMap next;     /* the pending values: the second arrays */
    Heap open;                 /* the pending flood's open list */
    const AstarGrid *grid;     /* the grid of the pending build; NULL: none pending */
    uint64_t version;          /* the grid's version its seeding saw */
    int seeded;                /* the sources are queued (else: seed first) */
};

#define SLICE_HEAD ((sizeof(AstarDistanceSlice) + 15) / 16 * 16)

size_t astar_distance_slice_bytes(uint32_t width, uint32_t height)
{
    size_t cells = astar_distance_bytes(width, height);
    return cells && cells <= SIZE_MAX - SLICE_HEAD ? SLICE_HEAD + cells : 0;
}

AstarDistanceSlice *astar_distance_slice_init(void *memory, const AstarDistanceMap *like)
{
    AstarDistanceSlice *s = (AstarDistanceSlice *)memory;

    memset(s, 0, sizeof *s);
    astar_distance_layout(&s->next, (char *)memory + SLICE_HEAD, like->width, like->height,
                          like->diagonal);
    s->next.hex = like->hex;
    s->next.size = like->size;
    return s;
}

void astar_distance_slice_free(AstarDistanceSlice *s)
{
    heap_free(&s->open);
    s->grid = NULL;
}

size_t astar_distance_slice_memory(const AstarDistanceSlice *s)
{
    return heap_bytes(&s->open);
}

int astar_distance_slice_pending(const AstarDistanceSlice *s)
{
    return s->grid != NULL;
}

void astar_distance_slice_cancel(AstarDistanceSlice *s)
{
    heap_clear(&s->open);
    s->grid = NULL;
    s->seeded = 0;
}

void astar_distance_slice_begin(AstarDistanceSlice *s, const AstarGrid *grid)
{
    astar_distance_slice_cancel(s);
    /* the arrays' last run may be of a grid freed since: clear them all */
    astar_distance_forget(&s->next);
    s->grid = grid;
}

int astar_distance_slice_run(AstarDistanceSlice *s, const AstarDistanceSource *sources,
                             size_t n, double max_cost, AstarCellRule rule, void *user,
                             size_t cells, int *aborted, AstarError *e)
{
    *aborted = 0;
    *e = ASTAR_OK;
    if (!s->grid)
        return 1;
    if (s->seeded && s->grid->version != s->version)
        s->seeded = 0;                     /* edited between slices: again */
    if (!s->seeded) {
        s->version = s->grid->version;
        heap_clear(&s->open);
        *e = astar_distance_slice_seed(&s->next, s->grid, &s->open, sources, n, max_cost, rule,
                                       user, aborted);
        if (*e != ASTAR_OK || *aborted)
            return 0;
        s->seeded = 1;
    }
    if (!astar_distance_slice_flood(&s->next, s->grid, &s->open, max_cost, rule, user, cells,
                                    aborted, e)) {
        if (*aborted || *e != ASTAR_OK)
            s->seeded = 0;                 /* whatever comes next starts again */
        return 0;
    }
    return 1;
}

void astar_distance_slice_finish(AstarDistanceSlice *s, AstarDistanceMap *m)
{
    astar_distance_swap(m, &s->next);
    astar_distance_slice_cancel(s);
}
