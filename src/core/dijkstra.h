/*
 * The Dijkstra side of the one search engine (issue 18): one bounded,
 * multi-source best-first loop that movement ranges (range.c) and distance
 * maps (distance.c) configure. Not public. Layer 5 (kernels).
 *
 * A template: the including file defines, before including it,
 *   DK_QUERY          its query's type (what it records per cell);
 *   DK_CORNER_FIRST   1 when the corner rule is checked before the diagonal
 *                     cell is looked up (ranges), 0 after (distance maps): the
 *                     rule callbacks see exactly the calls they saw before;
 * and these static inline functions:
 *   int dk_settle(DK_QUERY *q, BoardKind kind, uint32_t u, double *g)
 *       u was popped: 0 when it is stale or must not be expanded (a zone of
 *       control), else 1 with its cost in *g; records u as settled either way;
 *   int dk_look(DK_QUERY *q, const Board *b, BoardKind kind, unsigned traits,
 *               uint32_t u, uint32_t v, unsigned d, double *price)
 *       the move u -> v in direction d: DK_BLOCKED (a wall for the corner
 *       rule), DK_PASS (passable but not to be relaxed: settled, or outside a
 *       rescan), DK_OPEN (*price: what the step is priced by), DK_ABORT (a
 *       rule stopped the query); asks the rule at most once per cell;
 *   int dk_relax(DK_QUERY *q, uint32_t u, uint32_t v, unsigned d, double g)
 *       offers v the cost g through u (d: DK_LINK when by a link): 1 when v
 *       must be (re)queued;
 *   int dk_look_link(DK_QUERY *q, const Board *b, BoardKind kind, uint32_t u,
 *                    uint32_t v)
 *       a link between u and v (the walk's direction is DK_REVERSE's): DK_BLOCKED,
 *       DK_PASS, DK_OPEN or DK_ABORT, as dk_look (the link's cost is its price).
 * With the trait DK_MOVES (the grid has move overrides or links, or the query
 * a move rule: issue 19) the loop also asks the board for each move's
 * override (board_move_price), the move rule (DK_QUERY's members moves: the grid's,
 * move_rule, move_user) for each move, and follows the links; DK_REVERSE (defined 1 by
 * a file whose loop floods backwards, from where walks end: distance maps)
 * says that the walk goes v -> u, so the move asked about is v's.
 * The loop is dijkstra_loop; each caller passes constant board and open-list
 * kinds, and the loop is inlined there, so the compiler writes the variants.
 * traits (DK_KNOWN, DK_RESCAN) tell dk_look what the query is known to be;
 * constant where a variant pays for checking them. A file that passes
 * DK_KNOWN also defines DK_WALL(q, c) (is cell c a wall: the corner rule
 * reads the cells rather than tracking the looks) and DK_PRICE(q) (what
 * every move out of the settled cell is priced by: the budget is checked
 * once per cell, and on a 4-direction board not per move). A file may
 * define DK_PAST_BUDGET(q, b, kind, u): what a settled cell u none of whose
 * moves out fits the budget does instead (distance maps mark the walls
 * beside it: start cells).
 * A file whose loop can stop after a budget of settled cells (DK_SLICE, a
 * map built a slice at a time: issue 24) defines DK_SLICE_LEFT(q), an
 * lvalue counting the cells the slice may still settle; the loop then
 * returns with the open list kept, to be resumed. Variants without the
 * trait compile as before.
 */
#ifndef ASTAR_DIJKSTRA_H
#define ASTAR_DIJKSTRA_H

#include "board.h"
#include "heap.h"
#include "scratch.h"

#if defined(__GNUC__)
#define DK_INLINE static inline __attribute__((always_inline))
#define ASTAR_NOINLINE __attribute__((noinline))
#else
#define DK_INLINE static inline
#define ASTAR_NOINLINE
#endif

enum { DK_ABORT = -1, DK_BLOCKED = 0, DK_OPEN = 1, DK_PASS = 2 };
/* Traits: every entry cost is known (no rule to ask); a rescan of known
 * cells; moves and links (never with DK_KNOWN: an override may be cheaper
 * than the price DK_PRICE bounds the budget by). */
enum { DK_KNOWN = 1, DK_RESCAN = 2, DK_MOVES = 4, DK_SLICE = 8 };
/* dk_relax's direction for a step by a link. */
#define DK_LINK 8u
/* What dijkstra_loop returns. */
enum { DK_DONE = 0, DK_ABORTED = 1, DK_NOMEM = 2 };

/* The open list, a parameter of the loop:
 * - OPEN_HEAP: heap.h's binary heap, any costs;
 * - OPEN_FIFO: a queue in the heap's cell array (reserved for every cell),
 *   exact when every step costs the same and the sources share one value:
 *   cells arrive in the order of their values;
 * - OPEN_BUCKETS: a circular bucket queue of nb lists of width `width` from
 *   `base`, exact when every step costs at least 2 * width (see distance.c). */
typedef enum { OPEN_HEAP, OPEN_FIFO, OPEN_BUCKETS } OpenKind;

typedef struct {
    Heap *heap;
    uint32_t *queue;                  /* FIFO: the heap's cell array, held */
    size_t head, tail;
    AstarCellList *bucket, *list;     /* BUCKETS; list: bucket b's */
    size_t nb, b, pending;
    double base, width;
} OpenList;

static inline void open_heap(OpenList *o, Heap *heap)
{
    o->heap = heap;
    heap_clear(heap);
}

DK_INLINE int open_pop(OpenList *o, const OpenKind kind, uint32_t *cell)
{
    switch (kind) {
    case OPEN_HEAP:
        if (o->heap->size == 0)
            return 0;
        *cell = heap_pop(o->heap).cell;
        return 1;
    case OPEN_FIFO:
        if (o->head == o->tail)
            return 0;
        *cell = o->queue[o->head++];
        return 1;
    default:
        while (o->list->size == 0) {
            if (o->pending == 0)
                return 0;
            o->b++;
            o->list = &o->bucket[o->b % o->nb];
        }
        o->pending--;
        *cell = o->list->cell[--o->list->size];
        return 1;
    }
}

DK_INLINE AstarError open_push(OpenList *o, const OpenKind kind, double f, uint32_t cell)
{
    size_t k;

    switch (kind) {
    case OPEN_HEAP:
        return heap_push(o->heap, f, cell);
    case OPEN_FIFO:
        o->queue[o->tail++] = cell;
        return ASTAR_OK;
    default:
        k = (size_t)((f - o->base) / o->width);
        if (k <= o->b)
            k = o->b + 1;                      /* cannot happen; stay ahead */
        o->pending++;
        return astar_cell_list_push(&o->bucket[k % o->nb], cell);
    }
}

DK_INLINE void open_clear(OpenList *o, const OpenKind kind)
{
    size_t k;
    if (kind == OPEN_HEAP)
        heap_clear(o->heap);
    else if (kind == OPEN_FIFO)
        o->head = o->tail;
    else
        for (k = 0; k < o->nb; k++)
            o->bucket[k].size = 0;
}

#endif /* ASTAR_DIJKSTRA_H */

/* The loop itself is defined once per including file, with its hooks. */
#ifdef DK_QUERY
#ifndef DK_PAST_BUDGET
#define DK_PAST_BUDGET(q, b, kind, u) do { } while (0)
#endif
#ifndef DK_WALL
#define DK_WALL(q, c) 0
#define DK_PRICE(q) 0.0
#endif
#ifndef DK_REVERSE
#define DK_REVERSE 0
#endif
#ifdef DK_SLICE_LEFT
#define DK_SLICE_GOES_ON(q, traits) (!((traits) & DK_SLICE) || DK_SLICE_LEFT(q) > 0)
#define DK_SLICE_SPEND(q, traits) do { if ((traits) & DK_SLICE) DK_SLICE_LEFT(q)--; } while (0)
#else
#define DK_SLICE_GOES_ON(q, traits) 1
#define DK_SLICE_SPEND(q, traits) do { } while (0)
#endif

/* The move rule's price of the walk's move from -> to, which the grid
 * prices at step: INFINITY (not to be taken), NAN (stop). */
DK_INLINE double dk_move_price(const DK_QUERY *q, const Board *b, uint32_t from, uint32_t to,
                               double step)
{
    if (!q->move_rule)
        return step;
    return q->move_rule(q->move_user, from % b->stride - 1, from / b->stride - 1,
                        to % b->stride - 1, to / b->stride - 1, step);
}

/* DK_MOVES: relaxes the cells the links of u join it to (links leaving u,
 * or arriving at it when the flood goes backwards). */
DK_INLINE int dk_links(DK_QUERY *q, const Board *b, const BoardKind kind, OpenList *open,
                       const OpenKind open_kind, uint32_t u, double g, double budget)
{
    const MovesLink *link;
    size_t n = astar_moves_links(q->moves, u, DK_REVERSE, &link), k;

    for (k = 0; k < n; k++) {
        const uint32_t v = DK_REVERSE ? link[k].from : link[k].to;
        int look = dk_look_link(q, b, kind, u, v);
        double step, ng;

        if (look == DK_ABORT)
            return DK_ABORTED;
        if (look != DK_OPEN)
            continue;
        step = dk_move_price(q, b, DK_REVERSE ? v : u, DK_REVERSE ? u : v, link[k].cost);
        if (step != step)
            return DK_ABORTED;
        ng = g + step;
        if (step == INFINITY || !(ng <= budget))
            continue;
        if (dk_relax(q, u, v, DK_LINK, ng) && open_push(open, open_kind, ng, v) != ASTAR_OK)
            return DK_NOMEM;
    }
    return DK_DONE;
}
/* Settles cells from the open list in order of cost, relaxing the moves the
 * board allows up to `budget`. */
DK_INLINE int dijkstra_loop(DK_QUERY *q, const Board *b, const BoardKind kind, OpenList *open,
                            const OpenKind open_kind, const unsigned traits, double budget)
{
    const int corners = board_has_corners(b, kind);
    uint32_t u;

    while (DK_SLICE_GOES_ON(q, traits) && open_pop(open, open_kind, &u)) {
        const unsigned *dirs = NULL;
        int side[4] = {1, 1, 1, 1}, n, k;
        double g;

        if (!dk_settle(q, kind, u, &g))
            continue;
        DK_SLICE_SPEND(q, traits);
        /* known costs on a square board: the cheapest move out costs the same */
        if ((traits & DK_KNOWN) && kind <= BOARD_SQUARE8 && !(g + DK_PRICE(q) <= budget)) {
            DK_PAST_BUDGET(q, b, kind, u);
            continue;
        }
        n = board_moves(b, kind, u, &dirs);
#if defined(__GNUC__)
#pragma GCC unroll 8   /* the offsets as constants, no loop: 15% off a whole 8-direction map */
#endif
        for (k = 0; k < n; k++) {
            unsigned d = kind == BOARD_HEX ? dirs[k] : (unsigned)k;
            uint32_t v = (uint32_t)((long)u + b->off[d]);
            double price = 0.0, ng, step;   /* price: set by dk_look when it answers DK_OPEN */
            int look;

            if (DK_CORNER_FIRST && corners && d >= 4 && !board_corner_ok(b, (int)d, side))
                continue;
            look = dk_look(q, b, kind, traits, u, v, d, &price);
            if (corners && d < 4 && !(traits & DK_KNOWN))
                side[d] = look != DK_BLOCKED;
            if (look == DK_ABORT) {
                open_clear(open, open_kind);
                return DK_ABORTED;
            }
            if (look != DK_OPEN)
                continue;
            if (!DK_CORNER_FIRST && corners && d >= 4 && (traits & DK_KNOWN)) {
                side[BOARD_CORNER_X[d]] = !DK_WALL(q, (long)u + b->off[BOARD_CORNER_X[d]]);
                side[BOARD_CORNER_Y[d]] = !DK_WALL(q, (long)u + b->off[BOARD_CORNER_Y[d]]);
            }
            if (!DK_CORNER_FIRST && corners && d >= 4 && !board_corner_ok(b, (int)d, side))
                continue;
            step = board_step(kind, d, price);
            if (traits & DK_MOVES) {
                /* the walk's move: u -> v, or v -> u flooding backwards */
                if (!board_move_price(b, kind, q->moves, DK_REVERSE ? v : u,
                                      DK_REVERSE ? BOARD_OPPOSITE[d] : d, &step))
                    continue;
                step = dk_move_price(q, b, DK_REVERSE ? v : u, DK_REVERSE ? u : v, step);
                if (step != step) {
                    open_clear(open, open_kind);
                    return DK_ABORTED;
                }
                if (step == INFINITY)
                    continue;                  /* the rule forbids it */
            }
            ng = g + step;
            if (!((traits & DK_KNOWN) && kind <= BOARD_SQUARE8 && d < 4) && !(ng <= budget))
                continue;
            if (dk_relax(q, u, v, d, ng) && open_push(open, open_kind, ng, v) != ASTAR_OK)
                return DK_NOMEM;
        }
        if ((traits & DK_MOVES) && q->moves
            && (q->moves->flags[u] & (DK_REVERSE ? MOVES_IN : MOVES_OUT))) {
            int done = dk_links(q, b, kind, open, open_kind, u, g, budget);
            if (done == DK_ABORTED)
                open_clear(open, open_kind);
            if (done != DK_DONE)
                return done;
        }
    }
    return DK_DONE;
}
#endif
