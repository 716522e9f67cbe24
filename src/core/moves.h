/*
 * Moves and links (issue 19): the grid's own changes to the moves between
 * its cells, kept beside its cells (not public). Layer 1 (grid storage).
 *
 * - An override prices one move, cell + direction (board.h's 0-7), or
 *   forbids it (INFINITY). A hash table keyed by cell * 8 + direction holds
 *   them; a per-cell byte of flags says which directions have one, so a
 *   search looks at the table only for the moves that are overridden.
 * - A link is an extra directed move between any two cells. They are kept
 *   twice, ordered by source and by target, so a search finds the links
 *   leaving a cell and a distance map (which floods backwards) those
 *   arriving, by a binary search among a few.
 * Cells are bordered indices (grid_layout.h). A grid without any has no
 * AstarMoves (grid->moves NULL), and its queries never look here.
 */
#ifndef ASTAR_MOVES_H
#define ASTAR_MOVES_H

#include <math.h>

#include "grid_layout.h"

#define MOVES_OUT 0x100u     /* flags: links leave the cell */
#define MOVES_IN 0x200u      /* flags: links arrive at the cell */
#define MOVES_EMPTY_KEY 0xFFFFFFFFu
#define MOVES_NO_VIA 0xFFFFFFFFu     /* a search's via[]: reached by a board move */

typedef struct {
    uint32_t from, to;       /* bordered cells */
    double cost;
} MovesLink;

struct AstarMoves {
    uint16_t *flags;          /* per bordered cell: bit d = move d overridden, MOVES_OUT, MOVES_IN */
    size_t cells;             /* entries in flags */
    uint32_t *keys;           /* open addressing, linear probing; MOVES_EMPTY_KEY: free */
    double *values;           /* the override: a cost, or INFINITY (no move) */
    size_t count, capacity;   /* capacity a power of two, at most half full */
    MovesLink *out, *in;      /* the links by (from, to) and by (to, from) */
    size_t nlinks, links_capacity;
    uint64_t link_edits;      /* links made, removed or repriced: moves the links' bound */
    /* The lowest cost / step length over the priced overrides (INFINITY:
     * none): the heuristic's scale must not exceed it. */
    double min_ratio;
};

static inline uint32_t moves_slot(const struct AstarMoves *m, uint32_t key)
{
    return (uint32_t)((key * 2654435761u) & (uint32_t)(m->capacity - 1));
}

/* The override of move d out of bordered cell c; the flag must be set. */
static inline double moves_value(const struct AstarMoves *m, size_t c, unsigned d)
{
    uint32_t key = (uint32_t)(c * 8 + d), i = moves_slot(m, key);
    while (m->keys[i] != key)
        i = (i + 1) & (uint32_t)(m->capacity - 1);
    return m->values[i];
}

/* The links leaving (arriving at, by_target) bordered cell c: their count,
 * the first in *first. */
size_t astar_moves_links(const struct AstarMoves *m, size_t c, int by_target,
                         const MovesLink **first);

/* Does the grid have any override or link? */
static inline int astar_moves_any(const AstarGrid *grid)
{
    return grid->moves && (grid->moves->count > 0 || grid->moves->nlinks > 0);
}

void astar_moves_free(struct AstarMoves *m);
size_t astar_moves_memory(const struct AstarMoves *m);

/* Flat copies (distance maps' snapshots): an AstarMoves laid out in one
 * block of the caller's memory (8-aligned), the struct first, its arrays
 * after it; read as any other, never edited, never freed (astar_moves_free
 * must not see it). A flat copy's hash holds exactly its overrides (the
 * capacity the least power of two at least twice their count) and
 * min_ratio and link_edits are not kept (INFINITY, 0).
 * astar_moves_flat_bytes: the block for cells flags, count overrides and
 * nlinks links (0 when that does not fit in a size_t). astar_moves_flat:
 * an empty one there; then astar_moves_flat_set each override (each cell
 * and direction once), astar_moves_flat_link each link in (from, to) order,
 * and astar_moves_flat_finish (the links by target, the link flags).
 * astar_moves_copy: a flat copy of m (astar_moves_copy_bytes of memory). */
size_t astar_moves_flat_bytes(size_t cells, size_t count, size_t nlinks);
struct AstarMoves *astar_moves_flat(void *memory, size_t cells, size_t count, size_t nlinks);
void astar_moves_flat_set(struct AstarMoves *m, size_t c, unsigned d, double cost);
void astar_moves_flat_link(struct AstarMoves *m, uint32_t from, uint32_t to, double cost);
void astar_moves_flat_finish(struct AstarMoves *m);
size_t astar_moves_copy_bytes(const struct AstarMoves *m);
struct AstarMoves *astar_moves_copy(const struct AstarMoves *m, void *memory);

#endif
