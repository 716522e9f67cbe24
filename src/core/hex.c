/*
 * A* on hex boards: astar_kernel.h's loop on BOARD_HEX (six moves per cell:
 * the four sides and the two diagonals on the side the row (column) is
 * shoved to), compiled per layout and query kind, with hex distance as the
 * estimate, and the hex goal regions of `near`. Every hex step is one of the
 * square grid's eight directions, so the stamps, parents, paths and change
 * checks of search.c work unchanged. Layer 5 (kernels); the geometry is
 * hex_geometry.c's.
 */
#include "astar_kernel.h"   /* the loop is included below with the hooks */
#include "hex_geometry.h"
#include "kernels.h"

int astar_hex_in_region(const AstarSearch *s, size_t i, long x, long y)
{
    AstarHexLayout layout = (AstarHexLayout)(s->grid->hex - 1);
    return hex_distance(layout, (uint32_t)(x - 1), (uint32_t)(y - 1), s->goal_list[2 * i],
                        s->goal_list[2 * i + 1])
           <= s->options.near;
}

/* The heuristic's targets, computed once per step call: the goals' axial
 * coordinates (or, past SEARCH_MAX_BOXES goals, the box around them all,
 * where the Chebyshev distance in offset coordinates is a lower bound:
 * a hex step moves at most one column and one row). */
typedef struct {
    AstarHexLayout layout;
    int zero;              /* heuristic "dijkstra" */
    int nq;                /* goals in q[], r[]; 0: use the box */
    long q[SEARCH_MAX_BOXES], r[SEARCH_MAX_BOXES];
    long near;
} HexTargets;

static void hex_targets(const AstarSearch *s, HexTargets *t)
{
    size_t i;
    t->layout = (AstarHexLayout)(s->grid->hex - 1);
    t->zero = s->options.heuristic == ASTAR_HEURISTIC_ZERO;
    t->near = (long)s->options.near;
    t->nq = 0;
    if (s->ngoals <= SEARCH_MAX_BOXES) {
        for (i = 0; i < s->ngoals; i++)
            hex_to_axial(t->layout, (long)s->goal_list[2 * i], (long)s->goal_list[2 * i + 1],
                     &t->q[i], &t->r[i]);
        t->nq = (int)s->ngoals;
    }
}

/* Unscaled distance from bordered (x, y) to the nearest goal region. */
ASTAR_INLINE double hex_h(const AstarSearch *s, const HexTargets *t, int x, int y)
{
    long q, r, best = -1;
    int i;
    if (t->zero)
        return 0.0;
    if (t->nq == 0)
        return search_box_distance(s, ASTAR_HEURISTIC_CHEBYSHEV, x, y);
    hex_to_axial(t->layout, (long)x - 1, (long)y - 1, &q, &r);
    for (i = 0; i < t->nq; i++) {
        long d = hex_axial_distance(q - t->q[i], r - t->r[i]) - t->near;
        if (best < 0 || d < best)
            best = d;
    }
    return best > 0 ? (double)best : 0.0;
}

/* Unscaled hex distance from bordered (x, y) to the one goal (plain queries). */
ASTAR_INLINE double hex_h1(const AstarHexLayout layout, const HexTargets *t, int x, int y)
{
    long q, r;
    hex_to_axial(layout, (long)x - 1, (long)y - 1, &q, &r);
    return (double)hex_axial_distance(q - t->q[0], r - t->r[0]);
}

/* astar_kernel.h's hooks: a hex step is priced as a one-cell step. */
typedef struct {
    AkCells cells;
    HexTargets targets;
} HexQuery;

ASTAR_INLINE double hex_estimate(const HexQuery *q, const AstarSearch *s, const Board *b,
                         const unsigned traits, int x, int y)
{
    if (!(traits & AK_PLAIN))
        return s->h_scale * hex_h(s, &q->targets, x, y);
    return s->h_scale * (q->targets.zero ? 0.0 : hex_h1(b->layout, &q->targets, x, y));
}

#define AK_QUERY HexQuery
#define AK_H hex_estimate
#include "astar_kernel.h"

/* The loop, compiled per layout and per query kind: plain (no rule, one goal,
 * no near, no bound; unit: no cost layer) or general. */
ASTAR_INLINE AstarStatus hex_loop(AstarSearch *s, size_t max_expansions, AstarError *error,
                                  const AstarHexLayout layout, const unsigned traits)
{
    HexQuery q;
    hex_targets(s, &q.targets);
    return astar_kernel(s, &q, BOARD_HEX, ASTAR_DIAGONAL_NEVER, layout, traits, max_expansions,
                        error);
}

AK_VARIANTS(odd_r, hex_loop, ASTAR_HEX_ODD_R)
AK_VARIANTS(even_r, hex_loop, ASTAR_HEX_EVEN_R)
AK_VARIANTS(odd_q, hex_loop, ASTAR_HEX_ODD_Q)
AK_VARIANTS(even_q, hex_loop, ASTAR_HEX_EVEN_Q)

AstarStatus astar_run_hex(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    static const AkRun RUNS[4][6] = {AK_RUNS(odd_r), AK_RUNS(even_r), AK_RUNS(odd_q),
                                     AK_RUNS(even_q)};
    int plain = !s->options.rule && s->ngoals == 1 && s->options.near == 0
                && !s->options.bounded;
    return RUNS[s->grid->hex - 1][ak_variant(s, plain)](s, max_expansions, error);
}

