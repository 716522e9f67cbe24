/*
 * The A* expansion loop, compiled once per diagonal mode and per cost model
 * (all costs 1, or a cost layer) so the inner loop has no mode switches, no
 * function calls and no divisions.
 */
#include "hex_internal.h"
#include "search_internal.h"

/* Offers neighbour n, entered by direction dir at cost ng, at bordered
 * (nx, ny). A macro so the compiler keeps everything in registers. */
#define RELAX(n, ng, dir, nx, ny)                                                   \
    do {                                                                            \
        unsigned st_ = stamp[n];                                                    \
        double h_;                                                                  \
        if ((st_ & STAMP_GEN_MASK) == gen) {                                        \
            if ((st_ & STAMP_CLOSED) || (ng) >= g[n])                               \
                break;                                                              \
        } else {                                                                    \
            s->touched++;                                                           \
        }                                                                           \
        g[n] = (ng);                                                                \
        stamp[n] = (uint16_t)(gen | (dir));                                         \
        h_ = search_h(s, (nx), (ny));                                               \
        if ((ng) + h_ == fc ? search_push_tie(s, (uint32_t)(n)) != ASTAR_OK         \
                            : heap_push(&s->open, (ng) + h_, (uint32_t)(n)) \
                                  != ASTAR_OK) {                                    \
            *error = ASTAR_ENOMEM;                                                  \
            return ASTAR_NO_PATH;                                                   \
        }                                                                           \
    } while (0)

ASTAR_INLINE AstarStatus loop(AstarSearch *s, size_t max_expansions, AstarError *error,
                              const AstarDiagonal mode, const int unit)
{
    const AstarGrid *grid = s->grid;
    const uint8_t *open = grid->open;
    const double *cost = grid->cost;
    double *g = s->g;
    uint16_t *stamp = s->stamp;
    const unsigned gen = search_gen(s);
    const long w = (long)grid->stride;
    const uint32_t goal = s->goal;
    const int partial = s->options.partial;
    const int recording = s->recording;
    const int extra = partial || recording;   /* one test per expansion for both */
    size_t budget = max_expansions;
    double fc = s->ties_f;

    while (s->open.size > 0 || s->ties_size > 0) {
        uint32_t c;
        double gc;
        int cx, cy, oe, ow, os, on;

        if (max_expansions && budget-- == 0) {
            s->ties_f = fc;
            return ASTAR_SEARCHING;
        }
        if (s->ties_size > 0) {
            c = s->ties[--s->ties_size];
        } else {
            HeapEntry top = heap_pop(&s->open);
            c = top.cell;
            fc = top.f;
        }
        if ((stamp[c] & (STAMP_GEN_MASK | STAMP_CLOSED)) == (gen | STAMP_CLOSED)) {
            budget++;                          /* a stale duplicate: not an expansion */
            continue;
        }
        if (c == goal) {
            astar_search_finish(s, ASTAR_FOUND, c);
            return ASTAR_FOUND;
        }
        stamp[c] |= STAMP_CLOSED;
        s->expanded++;
        if (extra) {
            if (partial)
                astar_search_note_closest(s, c);
            if (recording && search_record(s, c) != ASTAR_OK) {
                stamp[c] &= (uint16_t)~STAMP_CLOSED;   /* reported iff recorded */
                s->expanded--;
                *error = ASTAR_ENOMEM;
                return ASTAR_NO_PATH;
            }
        }
        gc = g[c];
        cy = search_row(s, c);
        cx = (int)(c - (uint32_t)cy * (uint32_t)w);
        oe = open[c + 1];
        ow = open[c - 1];
        os = open[c + w];
        on = open[c - w];
        if (oe) {
            uint32_t n = c + 1;
            double ng = gc + (unit ? 1.0 : cost[n]);
            RELAX(n, ng, 0u, cx + 1, cy);
        }
        if (ow) {
            uint32_t n = c - 1;
            double ng = gc + (unit ? 1.0 : cost[n]);
            RELAX(n, ng, 1u, cx - 1, cy);
        }
        if (os) {
            uint32_t n = (uint32_t)(c + w);
            double ng = gc + (unit ? 1.0 : cost[n]);
            RELAX(n, ng, 2u, cx, cy + 1);
        }
        if (on) {
            uint32_t n = (uint32_t)(c - w);
            double ng = gc + (unit ? 1.0 : cost[n]);
            RELAX(n, ng, 3u, cx, cy - 1);
        }
        if (mode == ASTAR_DIAGONAL_NEVER)
            continue;
#define DIAGONAL_OK(a, b)                                                \
    (mode == ASTAR_DIAGONAL_ALWAYS ? 1                                   \
     : mode == ASTAR_DIAGONAL_ONE_OBSTACLE ? ((a) || (b)) : ((a) && (b)))
        if (DIAGONAL_OK(oe, os) && open[c + w + 1]) {
            uint32_t n = (uint32_t)(c + w + 1);
            double ng = gc + (unit ? SQRT2 : SQRT2 * cost[n]);
            RELAX(n, ng, 4u, cx + 1, cy + 1);
        }
        if (DIAGONAL_OK(ow, os) && open[c + w - 1]) {
            uint32_t n = (uint32_t)(c + w - 1);
            double ng = gc + (unit ? SQRT2 : SQRT2 * cost[n]);
            RELAX(n, ng, 5u, cx - 1, cy + 1);
        }
        if (DIAGONAL_OK(oe, on) && open[c - w + 1]) {
            uint32_t n = (uint32_t)(c - w + 1);
            double ng = gc + (unit ? SQRT2 : SQRT2 * cost[n]);
            RELAX(n, ng, 6u, cx + 1, cy - 1);
        }
        if (DIAGONAL_OK(ow, on) && open[c - w - 1]) {
            uint32_t n = (uint32_t)(c - w - 1);
            double ng = gc + (unit ? SQRT2 : SQRT2 * cost[n]);
            RELAX(n, ng, 7u, cx - 1, cy - 1);
        }
#undef DIAGONAL_OK
    }
    return ASTAR_NO_PATH;
}

#define VARIANT(name, mode, unit)                                                 \
    static AstarStatus name(AstarSearch *s, size_t max, AstarError *error)        \
    {                                                                             \
        return loop(s, max, error, mode, unit);                                   \
    }
VARIANT(never_unit, ASTAR_DIAGONAL_NEVER, 1)
VARIANT(never_cost, ASTAR_DIAGONAL_NEVER, 0)
VARIANT(always_unit, ASTAR_DIAGONAL_ALWAYS, 1)
VARIANT(always_cost, ASTAR_DIAGONAL_ALWAYS, 0)
VARIANT(one_unit, ASTAR_DIAGONAL_ONE_OBSTACLE, 1)
VARIANT(one_cost, ASTAR_DIAGONAL_ONE_OBSTACLE, 0)
VARIANT(no_unit, ASTAR_DIAGONAL_NO_OBSTACLES, 1)
VARIANT(no_cost, ASTAR_DIAGONAL_NO_OBSTACLES, 0)

/* ---- the general loop: rules, several goals, near, a budget ------------ */

/* The entry cost of walkable or not bordered cell n for this query: the
 * rule's answer (asked once per query), else the grid's cost; negative when
 * the path may not end on it, INFINITY when it cannot be entered, NAN when
 * the rule stopped the query. */
ASTAR_INLINE double entry(AstarSearch *s, const uint8_t *open, const double *cost, uint16_t gen,
                          uint32_t n)
{
    if (!open[n])
        return INFINITY;
    if (!s->options.rule)
        return cost ? cost[n] : 1.0;
    if (s->rule_stamp[n] == gen)
        return s->rule_cost[n];
    return astar_search_ask_rule(s, n);
}

/* Offers neighbour n at cost ng unless the budget forbids it; h is the
 * distance to the nearest goal box. */
#define RELAX_GENERAL(n, ng, dir, nx, ny)                                           \
    do {                                                                            \
        unsigned st_ = stamp[n];                                                    \
        double h_;                                                                  \
        if (bounded && (ng) > max_cost)                                             \
            break;                                                                  \
        if ((st_ & STAMP_GEN_MASK) == gen) {                                        \
            if ((st_ & STAMP_CLOSED) || (ng) >= g[n])                               \
                break;                                                              \
        } else {                                                                    \
            s->touched++;                                                           \
        }                                                                           \
        g[n] = (ng);                                                                \
        stamp[n] = (uint16_t)(gen | (dir));                                         \
        h_ = s->h_scale * search_box_distance(s, heuristic, (nx), (ny));            \
        if ((ng) + h_ == fc ? search_push_tie(s, (uint32_t)(n)) != ASTAR_OK         \
                            : heap_push(&s->open, (ng) + h_, (uint32_t)(n))         \
                                  != ASTAR_OK) {                                    \
            *error = ASTAR_ENOMEM;                                                  \
            return ASTAR_NO_PATH;                                                   \
        }                                                                           \
    } while (0)

#define ENTRY(var, n)                                                               \
    do {                                                                            \
        var = entry(s, open, cost, (uint16_t)gen, (n));                             \
        if (var != var) {                                                           \
            *error = ASTAR_EABORTED;                                                \
            return ASTAR_NO_PATH;                                                   \
        }                                                                           \
    } while (0)

ASTAR_INLINE AstarStatus general_loop(AstarSearch *s, size_t max_expansions, AstarError *error,
                                      const AstarDiagonal mode)
{
    const AstarGrid *grid = s->grid;
    const uint8_t *open = grid->open;
    const double *cost = grid->cost;
    const uint16_t *target = s->target;
    double *g = s->g;
    uint16_t *stamp = s->stamp;
    const unsigned gen = search_gen(s);
    const long w = (long)grid->stride;
    const int partial = s->options.partial, recording = s->recording;
    const int ruled = s->options.rule != NULL, bounded = s->options.bounded;
    const double max_cost = s->options.max_cost;
    const AstarHeuristic heuristic = s->options.heuristic;
    size_t budget = max_expansions;
    double fc = s->ties_f;

    while (s->open.size > 0 || s->ties_size > 0) {
        uint32_t c;
        double gc, ee, ew, es, en, ed;
        int cx, cy, pe, pw, ps, pn;

        if (max_expansions && budget-- == 0) {
            s->ties_f = fc;
            return ASTAR_SEARCHING;
        }
        if (s->ties_size > 0) {
            c = s->ties[--s->ties_size];
        } else {
            HeapEntry top = heap_pop(&s->open);
            c = top.cell;
            fc = top.f;
        }
        if ((stamp[c] & (STAMP_GEN_MASK | STAMP_CLOSED)) == (gen | STAMP_CLOSED)) {
            budget++;
            continue;
        }
        /* a cell the path may end on (the rule was asked when it was entered) */
        if (target[c] == gen && !(ruled && s->rule_cost[c] < 0)) {
            astar_search_finish(s, ASTAR_FOUND, c);
            return ASTAR_FOUND;
        }
        stamp[c] |= STAMP_CLOSED;
        s->expanded++;
        if (partial && !(ruled && c != s->start && s->rule_cost[c] < 0))
            astar_search_note_closest(s, c);
        if (recording && search_record(s, c) != ASTAR_OK) {
            stamp[c] &= (uint16_t)~STAMP_CLOSED;
            s->expanded--;
            *error = ASTAR_ENOMEM;
            return ASTAR_NO_PATH;
        }
        gc = g[c];
        cy = search_row(s, c);
        cx = (int)(c - (uint32_t)cy * (uint32_t)w);
        /* the four sides first: the corner rule needs them */
        ENTRY(ee, c + 1);
        ENTRY(ew, c - 1);
        ENTRY(es, (uint32_t)(c + w));
        ENTRY(en, (uint32_t)(c - w));
        pe = ee != INFINITY;
        pw = ew != INFINITY;
        ps = es != INFINITY;
        pn = en != INFINITY;
        if (pe)
            RELAX_GENERAL(c + 1, gc + fabs(ee), 0u, cx + 1, cy);
        if (pw)
            RELAX_GENERAL(c - 1, gc + fabs(ew), 1u, cx - 1, cy);
        if (ps)
            RELAX_GENERAL((uint32_t)(c + w), gc + fabs(es), 2u, cx, cy + 1);
        if (pn)
            RELAX_GENERAL((uint32_t)(c - w), gc + fabs(en), 3u, cx, cy - 1);
        if (mode == ASTAR_DIAGONAL_NEVER)
            continue;
#define DIAGONAL_OK(a, b)                                                \
    (mode == ASTAR_DIAGONAL_ALWAYS ? 1                                   \
     : mode == ASTAR_DIAGONAL_ONE_OBSTACLE ? ((a) || (b)) : ((a) && (b)))
        if (DIAGONAL_OK(pe, ps)) {
            ENTRY(ed, (uint32_t)(c + w + 1));
            if (ed != INFINITY)
                RELAX_GENERAL((uint32_t)(c + w + 1), gc + SQRT2 * fabs(ed), 4u, cx + 1, cy + 1);
        }
        if (DIAGONAL_OK(pw, ps)) {
            ENTRY(ed, (uint32_t)(c + w - 1));
            if (ed != INFINITY)
                RELAX_GENERAL((uint32_t)(c + w - 1), gc + SQRT2 * fabs(ed), 5u, cx - 1, cy + 1);
        }
        if (DIAGONAL_OK(pe, pn)) {
            ENTRY(ed, (uint32_t)(c - w + 1));
            if (ed != INFINITY)
                RELAX_GENERAL((uint32_t)(c - w + 1), gc + SQRT2 * fabs(ed), 6u, cx + 1, cy - 1);
        }
        if (DIAGONAL_OK(pw, pn)) {
            ENTRY(ed, (uint32_t)(c - w - 1));
            if (ed != INFINITY)
                RELAX_GENERAL((uint32_t)(c - w - 1), gc + SQRT2 * fabs(ed), 7u, cx - 1, cy - 1);
        }
#undef DIAGONAL_OK
    }
    return ASTAR_NO_PATH;
}

#define GENERAL(name, mode)                                                       \
    static AstarStatus name(AstarSearch *s, size_t max, AstarError *error)        \
    {                                                                             \
        return general_loop(s, max, error, mode);                                 \
    }
GENERAL(never_general, ASTAR_DIAGONAL_NEVER)
GENERAL(always_general, ASTAR_DIAGONAL_ALWAYS)
GENERAL(one_general, ASTAR_DIAGONAL_ONE_OBSTACLE)
GENERAL(no_general, ASTAR_DIAGONAL_NO_OBSTACLES)

static AstarStatus run_general(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    switch (s->options.diagonal) {
    case ASTAR_DIAGONAL_NEVER: return never_general(s, max_expansions, error);
    case ASTAR_DIAGONAL_ALWAYS: return always_general(s, max_expansions, error);
    case ASTAR_DIAGONAL_ONE_OBSTACLE: return one_general(s, max_expansions, error);
    case ASTAR_DIAGONAL_NO_OBSTACLES: break;
    }
    return no_general(s, max_expansions, error);
}

AstarStatus astar_run_astar(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    int unit = s->grid->cost == NULL;
    if (s->general)
        return s->grid->hex ? astar_run_hex(s, max_expansions, error)
                            : run_general(s, max_expansions, error);
    switch (s->options.diagonal) {
    case ASTAR_DIAGONAL_NEVER:
        return unit ? never_unit(s, max_expansions, error) : never_cost(s, max_expansions, error);
    case ASTAR_DIAGONAL_ALWAYS:
        return unit ? always_unit(s, max_expansions, error) : always_cost(s, max_expansions, error);
    case ASTAR_DIAGONAL_ONE_OBSTACLE:
        return unit ? one_unit(s, max_expansions, error) : one_cost(s, max_expansions, error);
    case ASTAR_DIAGONAL_NO_OBSTACLES:
        break;
    }
    return unit ? no_unit(s, max_expansions, error) : no_cost(s, max_expansions, error);
}
