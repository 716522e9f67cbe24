/*
 * The A* side of the one search engine (issue 18): one best-first loop on
 * board.h that every A* query runs on, whatever its board (square 4 or 8
 * directions, hex, large unit) and whatever it asks (one goal; a goal list
 * or `near`; rules; a cost bound; partial results; a step budget). Not
 * public. Layer 5 (kernels). Jump point search (jps.c) is a separate
 * accelerator; it shares the open-list helpers of search_internal.h.
 *
 * A sibling of dijkstra.h rather than the same loop: A* keeps its state in
 * AstarSearch between steps (the open list, the ties stack of equal f, the
 * 16-bit stamps holding direction and closed bit), stops after a number of
 * expansions and goes on later, tests a goal when a cell is popped, and
 * orders its open list by g + h with the ties LIFO. Dijkstra's loop has none
 * of these, and its open lists (FIFO, buckets) are exact only without h.
 *
 * A template: the including file defines, before including it a second time,
 *   AK_QUERY   the type of what its hooks read besides the search, set up
 *              once per step call: AkQuery, or a struct with the same
 *              member `cells` (AkCells, which the kernel fills);
 * and, where the defaults do not fit, the hooks
 *   AK_H       a function (const AK_QUERY *q, const AstarSearch *s,
 *              const Board *b, unsigned traits, int x, int y) giving the
 *              scaled estimate from bordered (x, y) to the nearest goal
 *              (default ak_square_h: square metrics);
 *   AK_LOOK    a function (AK_QUERY *q, AstarSearch *s, const Board *b,
 *              BoardKind kind, unsigned traits, uint32_t u, uint32_t v,
 *              unsigned d, double *price) that looks at the move u -> v in
 *              direction d of a query that is not plain: AK_BLOCKED,
 *              AK_OPEN (*price: what the step is priced by) or AK_ABORT (a
 *              rule stopped the query), asking a rule at most once per cell
 *              (default ak_cell_look: a one-cell unit, priced by the cell it
 *              enters).
 * The loop is astar_kernel; each caller passes a constant board kind and
 * traits, and a diagonal mode (hex layout) that is constant where that
 * pays; the loop is inlined there, so the compiler writes the variants
 * (AK_VARIANTS).
 *   AK_LINK_LOOK  the same for a link u -> v (no direction): AK_BLOCKED,
 *              AK_OPEN or AK_ABORT (default ak_link_look: v enterable).
 *   AK_NO_STOP a function (const AK_QUERY *q, const AstarSearch *s,
 *              uint32_t c): 1 when the path may not end on c, a cell other
 *              than the start whose cells the rule was asked about (default
 *              ak_cell_no_stop: the cell's own ASTAR_RANGE_NO_STOP).
 * traits: AK_PLAIN, one goal cell and no rule, near or bound (the goal test
 * is one comparison); AK_UNIT, also no cost layer (every step costs 1);
 * AK_MOVES, the grid has move overrides or links or the query a move rule
 * (board.h's board_move_price, the links of moves.h, ak_move_rule): only
 * the variant of such queries pays for them.
 */
#ifndef ASTAR_KERNEL_H
#define ASTAR_KERNEL_H

#include "board.h"
#include "moves.h"
#include "search_internal.h"

enum { AK_ABORT = -1, AK_BLOCKED = 0, AK_OPEN = 1 };
enum { AK_PLAIN = 1, AK_UNIT = 2, AK_MOVES = 4 };

/* What the looks read over and over, copied out of the search and the grid
 * at the start of a step call so that it stays in registers: the cells a
 * one-cell unit enters (a large unit's: those of the grid it was asked on)
 * and the query's generation. */
typedef struct {
    const uint8_t *open;
    const double *cost;    /* NULL: every cell costs 1 */
    unsigned gen;
} AkCells;

static inline void ak_cells(AkCells *c, const AstarSearch *s, const AstarGrid *grid)
{
    c->open = grid->open;
    c->cost = grid->cost;
    c->gen = search_gen(s);
}

/* The entry cost of bordered cell n for this query: the rule's answer
 * (asked once per query), else the grid's cost; negative when the path may
 * not end on it, INFINITY when it cannot be entered, NAN when the rule
 * stopped the query. */
ASTAR_INLINE double ak_entry(AstarSearch *s, const AkCells *c, uint32_t n)
{
    if (!c->open[n])
        return INFINITY;
    if (!s->options.rule)
        return c->cost ? c->cost[n] : 1.0;
    if (s->rule_stamp[n] == (uint16_t)c->gen)
        return s->rule_cost[n];
    return astar_search_ask_rule(s, n);
}

/* The query of a kernel whose hooks need nothing more. */
typedef struct {
    AkCells cells;
} AkQuery;

typedef AstarStatus (*AkRun)(AstarSearch *, size_t, AstarError *);

/* The variants of a loop for one board setting (a diagonal mode, a hex
 * layout): plain with every step 1, plain with a cost layer, general, then
 * the same three with moves; AK_RUNS lists them in that order, ak_variant
 * picks one for a query. */
#define AK_VARIANTS(name, loop, setting)                                         \
    static AstarStatus name##_unit(AstarSearch *s, size_t m, AstarError *e)      \
    {                                                                            \
        return loop(s, m, e, setting, AK_PLAIN | AK_UNIT);                       \
    }                                                                            \
    static AstarStatus name##_cost(AstarSearch *s, size_t m, AstarError *e)      \
    {                                                                            \
        return loop(s, m, e, setting, AK_PLAIN);                                 \
    }                                                                            \
    static AstarStatus name##_general(AstarSearch *s, size_t m, AstarError *e)   \
    {                                                                            \
        return loop(s, m, e, setting, 0);                                        \
    }                                                                            \
    static AstarStatus name##_moves_unit(AstarSearch *s, size_t m, AstarError *e) \
    {                                                                            \
        return loop(s, m, e, setting, AK_PLAIN | AK_UNIT | AK_MOVES);            \
    }                                                                            \
    static AstarStatus name##_moves_cost(AstarSearch *s, size_t m, AstarError *e) \
    {                                                                            \
        return loop(s, m, e, setting, AK_PLAIN | AK_MOVES);                      \
    }                                                                            \
    static AstarStatus name##_moves(AstarSearch *s, size_t m, AstarError *e)     \
    {                                                                            \
        return loop(s, m, e, setting, AK_MOVES);                                 \
    }
#define AK_RUNS(name)                                                            \
    {name##_unit, name##_cost, name##_general, name##_moves_unit, name##_moves_cost, \
     name##_moves}

/* The variant of a query (AK_RUNS' order): the three kinds, each without
 * and with moves. */
static inline int ak_variant(const AstarSearch *s, int plain)
{
    const int k = !plain ? 2 : s->grid->cost ? 1 : 0;
    return s->moved ? 3 + k : k;
}

#endif /* ASTAR_KERNEL_H */

/* The loop itself is defined once per including file, with its hooks. */
#ifdef AK_QUERY
#ifndef AK_H
#define AK_H ak_square_h
/* The estimate on a square grid: to the one goal, or to the nearest goal
 * box (search_box_distance); scaled. */
ASTAR_INLINE double ak_square_h(const AK_QUERY *q, const AstarSearch *s, const Board *b,
                                const unsigned traits, int x, int y)
{
    (void)q;
    (void)b;
    return (traits & AK_PLAIN) ? search_h(s, x, y)
                               : s->h_scale * search_box_distance(s, s->options.heuristic, x, y);
}
#endif
#ifndef AK_LOOK
#define AK_LOOK ak_cell_look
/* A one-cell unit's move is priced by the cell it enters (plain queries
 * read the grid in the loop itself). */
ASTAR_INLINE int ak_cell_look(AK_QUERY *q, AstarSearch *s, const Board *b, const BoardKind kind,
                              const unsigned traits, uint32_t u, uint32_t v, unsigned d,
                              double *price)
{
    double e = ak_entry(s, &q->cells, v);

    (void)b;
    (void)kind;
    (void)traits;
    (void)u;
    (void)d;
    if (e != e)
        return AK_ABORT;
    if (e == INFINITY)
        return AK_BLOCKED;
    *price = fabs(e);
    return AK_OPEN;
}
#endif

#ifndef AK_NO_STOP
#define AK_NO_STOP ak_cell_no_stop
/* Whether the path may not end on c, a cell the rule was asked about
 * (ASTAR_RANGE_NO_STOP: its entry cost is negative). */
ASTAR_INLINE int ak_cell_no_stop(const AK_QUERY *q, const AstarSearch *s, uint32_t c)
{
    (void)q;
    return s->rule_cost[c] < 0;
}
#endif

#ifndef AK_LINK_LOOK
#define AK_LINK_LOOK ak_link_look
/* A link is taken when its target can be entered (its price is its own). */
ASTAR_INLINE int ak_link_look(AK_QUERY *q, AstarSearch *s, uint32_t v)
{
    double e = ak_entry(s, &q->cells, v);
    return e != e ? AK_ABORT : e == INFINITY ? AK_BLOCKED : AK_OPEN;
}
#endif

/* Offers v at cost ng (from u; via: u when by a link, else MOVES_NO_VIA),
 * the step in direction d for the stamp, when the bound allows it. */
ASTAR_INLINE AstarError ak_offer_cell(AstarSearch *s, AK_QUERY *q, const Board *b,
                                      const unsigned traits, double *g, uint16_t *stamp,
                                      unsigned gen, uint32_t v, int vx, int vy, double ng,
                                      double bound, double fc, unsigned d, uint32_t via)
{
    double h;

    if ((!(traits & AK_PLAIN) && ng > bound) || !search_improves(s, g, stamp, gen, v, ng))
        return ASTAR_OK;
    g[v] = ng;
    stamp[v] = (uint16_t)(gen | d);
    h = AK_H(q, s, b, traits, vx, vy);
    if (traits & AK_MOVES) {
        s->via[v] = via;
        if (s->h_links < h)
            h = s->h_links;      /* a link may shortcut the board (astar_kernel_link_bound) */
    }
    return search_queue(s, v, ng + h, fc);
}

/* The price of a move in a query with moves: the move rule's answer about
 * the move u -> v that the grid prices at step (INFINITY: not to be taken;
 * NAN: the rule stopped the query). */
ASTAR_INLINE double ak_move_rule(AstarSearch *s, uint32_t u, uint32_t v, double step)
{
    return s->options.move_rule ? astar_search_ask_move(s, u, v, step) : step;
}

/* Offers v, entered from u by direction d, when the look found the move
 * open (price: what it is priced by) and the bound allows it. */
ASTAR_INLINE AstarError ak_offer(AstarSearch *s, AK_QUERY *q, const Board *b, const BoardKind kind,
                          const unsigned traits, double *g, uint16_t *stamp, unsigned gen,
                          uint32_t u, int x, int y, double gc, double bound, double fc,
                          unsigned d, int look, double price)
{
    const uint32_t v = (uint32_t)((long)u + board_offset(b, d));
    double step;

    if (look == AK_BLOCKED)
        return ASTAR_OK;
    if (traits & AK_PLAIN)   /* the look read open only: the price is read here */
        price = (traits & AK_UNIT) ? 1.0 : q->cells.cost[v];
    step = board_step(kind, d, price);
    if (!(traits & AK_MOVES)) {
        /* ak_offer_cell's work written out: called from here, the compiler
         * made the plain loops 3% longer */
        const double ng = gc + step;
        if ((!(traits & AK_PLAIN) && ng > bound) || !search_improves(s, g, stamp, gen, v, ng))
            return ASTAR_OK;
        g[v] = ng;
        stamp[v] = (uint16_t)(gen | d);
        return search_queue(s, v, ng + AK_H(q, s, b, traits, x + BOARD_DX[d], y + BOARD_DY[d]),
                            fc);
    }
    {
        if (!board_move_price(b, kind, s->base->moves, u, d, &step))
            return ASTAR_OK;
        step = ak_move_rule(s, u, v, step);
        if (step != step)
            return ASTAR_EABORTED;
        if (step == INFINITY)
            return ASTAR_OK;
    }
    return ak_offer_cell(s, q, b, traits, g, stamp, gen, v, x + BOARD_DX[d], y + BOARD_DY[d],
                         gc + step, bound, fc, d, MOVES_NO_VIA);
}

/* Offers the targets of the links leaving u (a query with moves). */
ASTAR_INLINE AstarError ak_offer_links(AstarSearch *s, AK_QUERY *q, const Board *b,
                                       const unsigned traits, double *g, uint16_t *stamp,
                                       unsigned gen, uint32_t u, double gc, double bound,
                                       double fc)
{
    const MovesLink *link;
    size_t n = astar_moves_links(s->base->moves, u, 0, &link), k;

    for (k = 0; k < n; k++) {
        const uint32_t v = link[k].to;
        int look = AK_LINK_LOOK(q, s, v), vy;
        double step;
        AstarError e;

        if (look == AK_ABORT)
            return ASTAR_EABORTED;
        if (look == AK_BLOCKED)
            continue;
        step = ak_move_rule(s, u, v, link[k].cost);
        if (step != step)
            return ASTAR_EABORTED;
        if (step == INFINITY)
            continue;
        vy = search_row(s, v);
        e = ak_offer_cell(s, q, b, traits, g, stamp, gen, v, (int)(v - (uint32_t)vy * b->stride),
                          vy, gc + step, bound, fc, 0u, u);
        if (e != ASTAR_OK)
            return e;
    }
    return ASTAR_OK;
}

/* h_links: the least cost + estimate over the links' targets, a bound under
 * any path that takes a link (it pays for its last link, then at least the
 * estimate from that link's target), so min(h, h_links) stays admissible
 * and consistent. Once per query (astar_search_begin sets it to NAN). */
ASTAR_INLINE void ak_link_bound(AstarSearch *s, AK_QUERY *q, const Board *b,
                                const unsigned traits)
{
    const struct AstarMoves *m = s->base->moves;
    double best = INFINITY;
    size_t k;

    for (k = 0; m && k < m->nlinks; k++) {
        const uint32_t v = m->out[k].to;
        const int vy = search_row(s, v);
        double f = m->out[k].cost + AK_H(q, s, b, traits, (int)(v - (uint32_t)vy * b->stride), vy);
        if (f < best)
            best = f;
    }
    s->h_links = best;
}

/* Expands up to max_expansions cells (0: no limit) in order of g + h, the
 * ties first: ASTAR_FOUND when a goal is popped, ASTAR_SEARCHING when the
 * budget runs out, else ASTAR_NO_PATH, with *error set on ENOMEM or when a
 * rule stopped the query (astar_run_astar's contract). The board is set up
 * here from kind, diagonal and layout (constants where the caller's are),
 * and so is q->cells: the grid's cells, or for a large unit those of the
 * grid it was asked on. */
ASTAR_INLINE AstarStatus astar_kernel(AstarSearch *s, AK_QUERY *q, const BoardKind kind,
                                      const AstarDiagonal diagonal, const AstarHexLayout layout,
                                      const unsigned traits, size_t max_expansions,
                                      AstarError *error)
{
    Board board, *b = &board;
    AstarError offered;
    const unsigned gen = search_gen(s);
    const int plain = (traits & AK_PLAIN) != 0;
    /* a square board looks at its four sides before offering any (the
     * corner rule needs them, and rules have always been asked so); hex
     * and large boards look at each move just before offering it */
    const int sides_first = kind <= BOARD_SQUARE8;
    const int partial = s->options.partial, recording = s->recording;
    const int ruled = s->options.rule != NULL;
    const double bound = s->bound;   /* max_cost and rounding's margin (search.c) */
    const uint16_t *target = s->target;
    const uint32_t goal = s->goal;
    const int extra = partial || recording;   /* one test per expansion for both */
    double *g = s->g;
    uint16_t *stamp = s->stamp;
    size_t budget = max_expansions;
    double fc;
    int corners;

    board_init_moves(b, s->grid->stride, diagonal, layout, kind == BOARD_LARGE ? s->size : 1);
    corners = board_has_corners(b, kind);
    ak_cells(&q->cells, s, kind == BOARD_LARGE ? s->base : s->grid);
    if ((traits & AK_MOVES) && s->h_links != s->h_links)
        ak_link_bound(s, q, b, traits);
    fc = s->ties_f;
    while (s->open.size > 0 || s->ties_size > 0) {
        int l0 = AK_BLOCKED, l1 = AK_BLOCKED, l2 = AK_BLOCKED, l3 = AK_BLOCKED, l, x, y;
        double p0 = 0.0, p1 = 0.0, p2 = 0.0, p3 = 0.0, p = 0.0, gc;
        const unsigned *dirs = NULL;
        uint32_t c;

        if (max_expansions && budget-- == 0) {
            s->ties_f = fc;
            return ASTAR_SEARCHING;
        }
        c = search_pop(s, &fc);
        if (search_closed(stamp, gen, c)) {
            budget++;                          /* a stale duplicate: not an expansion */
            continue;
        }
        /* a cell the path may end on (a rule was asked when it was entered),
         * under a bound only when its cost as reported is within max_cost */
        if (plain ? c == goal
                  : target[c] == gen && !(ruled && c != s->start && AK_NO_STOP(q, s, c))
                        && astar_search_within_max_cost(s, c)) {
            astar_search_finish(s, ASTAR_FOUND, c);
            return ASTAR_FOUND;
        }
        stamp[c] |= STAMP_CLOSED;
        s->expanded++;
        if (extra) {
            if (partial && (plain || !(ruled && c != s->start && AK_NO_STOP(q, s, c))))
                astar_search_note_closest(s, c);
            if (recording && search_record(s, c) != ASTAR_OK) {
                stamp[c] &= (uint16_t)~STAMP_CLOSED;   /* reported iff recorded */
                s->expanded--;
                *error = ASTAR_ENOMEM;
                return ASTAR_NO_PATH;
            }
        }
        gc = g[c];
        y = search_row(s, c);
        x = (int)(c - (uint32_t)y * b->stride);
        /* each direction a constant where it can be: no arrays, no loop */
#define AK_LOOK_AT(d, look, price)                                                         \
    do {                                                                                   \
        const uint32_t v_ = (uint32_t)((long)c + board_offset(b, d));                      \
        if (plain)                                                                         \
            look = q->cells.open[v_];                                                      \
        else if ((look = AK_LOOK(q, s, b, kind, traits, c, v_, d, &price)) == AK_ABORT)    \
            goto aborted;                                                                  \
    } while (0)
#define AK_OFFER(d, look, price)                                                           \
    do {                                                                                   \
        if ((offered = ak_offer(s, q, b, kind, traits, g, stamp, gen, c, x, y, gc, bound,  \
                                fc, d, look, price)) != ASTAR_OK)                          \
            goto failed;                                                                   \
    } while (0)
#define AK_SIDE(d, look, price)                                                            \
    do {                                                                                   \
        if (!sides_first)                                                                  \
            AK_LOOK_AT(d, look, price);                                                    \
        AK_OFFER(d, look, price);                                                          \
    } while (0)
#define AK_DIAGONAL(d)                                                                     \
    do {                                                                                   \
        if (!corners || board_corner_ok(b, d, open_sides)) {                               \
            AK_LOOK_AT(d, l, p);                                                           \
            AK_OFFER(d, l, p);                                                             \
        }                                                                                  \
    } while (0)
        if (sides_first) {
            AK_LOOK_AT(0u, l0, p0);
            AK_LOOK_AT(1u, l1, p1);
            AK_LOOK_AT(2u, l2, p2);
            AK_LOOK_AT(3u, l3, p3);
        }
        AK_SIDE(0u, l0, p0);
        AK_SIDE(1u, l1, p1);
        AK_SIDE(2u, l2, p2);
        AK_SIDE(3u, l3, p3);
        if (kind == BOARD_HEX) {
            unsigned first, second;
            board_hex_diagonals(b, (size_t)x, (size_t)y, &first, &second);
            AK_LOOK_AT(first, l, p);
            AK_OFFER(first, l, p);
            AK_LOOK_AT(second, l, p);
            AK_OFFER(second, l, p);
        } else if (board_moves(b, kind, c, &dirs) == 8) {
            const int open_sides[4] = {l0 != AK_BLOCKED, l1 != AK_BLOCKED, l2 != AK_BLOCKED,
                                       l3 != AK_BLOCKED};
            AK_DIAGONAL(4u);
            AK_DIAGONAL(5u);
            AK_DIAGONAL(6u);
            AK_DIAGONAL(7u);
        }
        if ((traits & AK_MOVES) && s->base->moves && (s->base->moves->flags[c] & MOVES_OUT)
            && (offered = ak_offer_links(s, q, b, traits, g, stamp, gen, c, gc, bound, fc))
                   != ASTAR_OK)
            goto failed;
#undef AK_DIAGONAL
#undef AK_SIDE
#undef AK_OFFER
#undef AK_LOOK_AT
    }
    return ASTAR_NO_PATH;
failed:
    *error = offered;
    return ASTAR_NO_PATH;
aborted:
    *error = ASTAR_EABORTED;
    return ASTAR_NO_PATH;
}
#endif
