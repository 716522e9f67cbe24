/*
 * Any-angle search (docs/paths.md, "theta"): Theta* (Nash, Daniel, Koenig &
 * Felner 2007) on square boards in 8 directions, one-cell units, no moves;
 * search.c runs it for AstarOptions.smooth THETA where that applies
 * (s->theta). Layer 5 (kernels): A* over the board's moves with one change,
 * a cell may also be reached by a straight segment from the parent of the
 * cell being expanded (segment.c's model, priced by the query's entry costs
 * through ak_entry, so a rule is asked at most once per cell per query).
 * The open list, ties stack, goal test, bound, partial and step budget are
 * those of astar_kernel.h's loop, through search_internal.h's helpers; the
 * query is always of the general kind (search.c), so targets and goal boxes
 * are set. The path is the chain of parent[] from the end: waypoints.
 *
 * The order of operations, which the pure-Lua mirror follows step by step
 * (rules are asked in this order; ties break the same way):
 *
 *   while the ties stack or the heap holds a cell:
 *     1. budget: with a budget, when it is spent, stop (ASTAR_SEARCHING;
 *        the f being expanded is kept for the next step);
 *     2. c = the ties' top, else the heap's top (its f becomes fc);
 *        a closed c is a stale duplicate: skip it, no budget used;
 *     3. goal test: c is a target of this query and, when a rule is given
 *        and c is not the start, the rule did not mark it no-stop: end
 *        (ASTAR_FOUND at c);
 *     4. close c, count it expanded; partial: note c as the closest so far
 *        (unless no-stop, as in 3); recording: record c;
 *     5. p = parent[c] (none for the start);
 *     6. look at the four sides in direction order E, W, S, N: their entry
 *        costs (ak_entry: a wall INFINITY, the rule asked once per cell);
 *     7. for d in E, W, S, N, SE, SW, NE, NW:
 *        a. a diagonal: skip it unless the corner rule holds for the two
 *           sides' looks (INFINITY counts as blocked); then look at it;
 *        b. v blocked (INFINITY): skip;
 *        c. v closed this query: skip (no segment is looked at);
 *        d. grid step: ng = g[c] + step(d, |entry(v)|) (sqrt 2 times it
 *           diagonally), parent c;
 *        e. when c is not the start: the segment p -> v (segment_cost,
 *           asking the rule about the cells it meets in its order); when it
 *           is legal and g[p] + its cost <= ng, that is ng, parent p (the
 *           line wins a tie). Skipped when v already holds a g from p this
 *           query (theta_has_parent): a saving that changes nothing seen,
 *           so a mirror may do it or not;
 *        f. a bound (max_cost): skip when ng > bound;
 *        g. skip unless ng improves on v's g this query (search_improves);
 *        h. g[v] = ng, parent[v] = the parent chosen, stamp v with d, and
 *           queue v at f = ng + h(v): on the ties stack when f == fc, else
 *           on the heap; h = h_scale * the Euclidean distance to the
 *           nearest goal box (search_box_distance).
 *   Out of cells: ASTAR_NO_PATH (search.c then gives partial results).
 *
 * A rule's NAN (stop) anywhere stops the query (ASTAR_EABORTED). g[v] is
 * g[parent] + the segment's cost for both kinds of step (a grid step is the
 * segment to a neighbour, priced the same), so the end's g is the sum of
 * the polyline's segments added from the start in order.
 */
#include "kernels.h"
#include "segment.h"

#include "astar_kernel.h"   /* ak_entry, AkCells: no loop (AK_QUERY is not defined) */

typedef struct {
    AstarSearch *s;
    AkCells cells;
} ThetaQuery;

/* The segment model's price of a cell: the query's entry cost (the rule's
 * no-stop sign dropped); INFINITY for a wall, NAN when the rule stopped. */
static double theta_price(void *user, uint32_t cell)
{
    ThetaQuery *q = (ThetaQuery *)user;
    return fabs(ak_entry(q->s, &q->cells, cell));
}

/* Did the rule say the path may cross c but not end there (never the
 * start)? Its answer is known: c was entered. */
ASTAR_INLINE int theta_no_stop(const AstarSearch *s, uint32_t c)
{
    return s->options.rule && c != s->start && s->rule_cost[c] < 0;
}

/* May the path end on c (step 3)? */
ASTAR_INLINE int theta_ends_on(const AstarSearch *s, uint32_t c, unsigned gen)
{
    return s->target[c] == gen && !theta_no_stop(s, c);
}

/* Has v a g from p this query? Then g[v] is g[p] + the segment p -> v's
 * cost already (p is closed, its g final; a grid step from p costs what its
 * segment does), and the rule was asked about the segment's cells: looking
 * at it again could change nothing, so step 7e is skipped (a saving only,
 * nothing a caller can see). */
ASTAR_INLINE int theta_has_parent(const AstarSearch *s, unsigned gen, uint32_t v, uint32_t p)
{
    return (s->stamp[v] & STAMP_GEN_MASK) == gen && s->parent[v] == p;
}

/* Step 7 c-h for the neighbour v of c in direction d, whose entry cost is
 * entry (finite): ASTAR_OK, ASTAR_EABORTED or ASTAR_ENOMEM. */
static AstarError theta_relax(AstarSearch *s, const SegmentModel *line, uint32_t c, uint32_t p,
                              uint32_t v, unsigned d, double entry, double fc)
{
    const unsigned gen = search_gen(s);
    const double bound = s->bound;   /* max_cost and rounding's margin (search.c) */
    double ng, h;
    uint32_t from = c;
    int vy;

    if (search_closed(s->stamp, gen, v))
        return ASTAR_OK;
    ng = s->g[c] + board_step(BOARD_SQUARE8, d, fabs(entry));
    if (c != s->start && !theta_has_parent(s, gen, v, p)) {
        const double seg = segment_cost(line, p, v);
        if (seg != seg)
            return ASTAR_EABORTED;
        if (seg < INFINITY && s->g[p] + seg <= ng) {
            ng = s->g[p] + seg;
            from = p;
        }
    }
    if (ng > bound || !search_improves(s, s->g, s->stamp, gen, v, ng))
        return ASTAR_OK;
    s->g[v] = ng;
    s->parent[v] = from;
    s->stamp[v] = (uint16_t)(gen | d);
    vy = search_row(s, v);
    h = s->h_scale * search_box_distance(s, ASTAR_HEURISTIC_EUCLIDEAN,
                                         (int)(v - (uint32_t)vy * s->grid->stride), vy);
    return search_queue(s, v, ng + h, fc);
}

/* Steps 4-7 for c, popped and not a goal: ASTAR_OK, or the error that ends
 * the query. */
static AstarError theta_expand(AstarSearch *s, ThetaQuery *q, const SegmentModel *line,
                               const Board *b, uint32_t c, double fc)
{
    double entry[8];
    int open[4];
    const uint32_t p = c == s->start ? c : s->parent[c];
    unsigned d;

    s->stamp[c] |= STAMP_CLOSED;
    s->expanded++;
    if (s->options.partial && !theta_no_stop(s, c))
        astar_search_note_closest(s, c);
    if (s->recording && search_record(s, c) != ASTAR_OK) {
        s->stamp[c] &= (uint16_t)~STAMP_CLOSED;   /* reported iff recorded */
        s->expanded--;
        return ASTAR_ENOMEM;
    }
    for (d = 0; d < 4; d++) {
        entry[d] = ak_entry(s, &q->cells, (uint32_t)((long)c + board_offset(b, d)));
        if (entry[d] != entry[d])
            return ASTAR_EABORTED;
        open[d] = entry[d] != INFINITY;
    }
    for (d = 0; d < 8; d++) {
        const uint32_t v = (uint32_t)((long)c + board_offset(b, d));
        AstarError e;
        if (d >= 4) {
            if (!board_corner_ok(b, (int)d, open))
                continue;
            entry[d] = ak_entry(s, &q->cells, v);
            if (entry[d] != entry[d])
                return ASTAR_EABORTED;
        }
        if (entry[d] == INFINITY)
            continue;
        if ((e = theta_relax(s, line, c, p, v, d, entry[d], fc)) != ASTAR_OK)
            return e;
    }
    return ASTAR_OK;
}

AstarStatus astar_run_theta(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    const unsigned gen = search_gen(s);
    AstarDiagonal mode = s->options.diagonal;
    size_t budget = max_expansions;
    double fc = s->ties_f;
    ThetaQuery q;
    SegmentModel line;
    Board board;

    if ((unsigned)mode > ASTAR_DIAGONAL_NO_OBSTACLES)
        mode = ASTAR_DIAGONAL_NO_OBSTACLES;   /* as every switch on it reads it */
    board_init_moves(&board, s->grid->stride, mode, ASTAR_HEX_ODD_R, 1);
    q.s = s;
    ak_cells(&q.cells, s, s->grid);
    line.grid = s->grid;
    line.diagonal = mode;
    line.price = s->options.rule ? theta_price : NULL;   /* NULL: the grid's, the same */
    line.user = &q;
    while (s->open.size > 0 || s->ties_size > 0) {
        AstarError e;
        uint32_t c;

        if (max_expansions && budget-- == 0) {
            s->ties_f = fc;
            return ASTAR_SEARCHING;
        }
        c = search_pop(s, &fc);
        if (search_closed(s->stamp, gen, c)) {
            budget++;                          /* a stale duplicate: not an expansion */
            continue;
        }
        if (theta_ends_on(s, c, gen) && astar_search_within_max_cost(s, c)) {
            astar_search_finish(s, ASTAR_FOUND, c);
            return ASTAR_FOUND;
        }
        if ((e = theta_expand(s, &q, &line, &board, c, fc)) != ASTAR_OK) {
            *error = e;
            return ASTAR_NO_PATH;
        }
    }
    return ASTAR_NO_PATH;
}
