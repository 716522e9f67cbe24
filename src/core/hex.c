/*
 * Hex boards: offset coordinates, hex distance, and A* on hex grids:
 * astar_kernel.h's loop on BOARD_HEX (six moves per cell: the four sides and
 * the two diagonals on the side the row (column) is shoved to), compiled per
 * layout and query kind, with hex distance as the estimate. Every hex step
 * is one of the square grid's eight directions, so the stamps, parents,
 * paths and change checks of search.c work unchanged.
 */
#include "astar_kernel.h"   /* the loop is included below with the hooks */
#include "hex_internal.h"

void astar_grid_make_hex(AstarGrid *grid, AstarHexLayout layout)
{
    grid->hex = (uint8_t)(1 + (unsigned)layout);
}

AstarError astar_grid_new_hex(AstarGrid **out, uint32_t width, uint32_t height,
                              AstarHexLayout layout)
{
    AstarError e = astar_grid_new(out, width, height);
    if (e == ASTAR_OK)
        astar_grid_make_hex(*out, layout);
    return e;
}

int astar_grid_hex(const AstarGrid *grid, AstarHexLayout *layout)
{
    if (grid->hex && layout)
        *layout = (AstarHexLayout)(grid->hex - 1);
    return grid->hex != 0;
}

/* Axial (cube q, r) coordinates of 0-based offset cell (x, y), x, y >= 0
 * (Red Blob Games, "Offset coordinates"). */
static void to_axial(AstarHexLayout layout, long x, long y, long *q, long *r)
{
    switch (layout) {
    case ASTAR_HEX_ODD_R: *q = x - (y - (y & 1)) / 2; *r = y; return;
    case ASTAR_HEX_EVEN_R: *q = x - (y + (y & 1)) / 2; *r = y; return;
    case ASTAR_HEX_ODD_Q: *q = x; *r = y - (x - (x & 1)) / 2; return;
    case ASTAR_HEX_EVEN_Q: break;
    }
    *q = x;
    *r = y - (x + (x & 1)) / 2;
}

static long axial_distance(long dq, long dr)
{
    long ds = dq + dr;
    dq = dq < 0 ? -dq : dq;
    dr = dr < 0 ? -dr : dr;
    ds = ds < 0 ? -ds : ds;
    return (dq + dr + ds) / 2;
}

uint32_t astar_hex_distance(AstarHexLayout layout, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1)
{
    long q0, r0, q1, r1;
    to_axial(layout, (long)x0, (long)y0, &q0, &r0);
    to_axial(layout, (long)x1, (long)y1, &q1, &r1);
    return (uint32_t)axial_distance(q1 - q0, r1 - r0);
}

/* The side the diagonals of 0-based row (r layouts) or column (q layouts)
 * number k lie on: +1 (east / south) or -1. */
static int shove(AstarHexLayout layout, uint32_t k)
{
    int odd = (int)(k & 1u);
    return (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_ODD_Q) == odd ? 1 : -1;
}

void astar_hex_neighbours(AstarHexLayout layout, uint32_t x, uint32_t y, int dx[6], int dy[6])
{
    static const int SX[4] = {1, -1, 0, 0}, SY[4] = {0, 0, 1, -1};
    int i;
    for (i = 0; i < 4; i++) {
        dx[i] = SX[i];
        dy[i] = SY[i];
    }
    if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
        int side = shove(layout, y);
        dx[4] = side, dy[4] = 1;
        dx[5] = side, dy[5] = -1;
    } else {
        int side = shove(layout, x);
        dx[4] = 1, dy[4] = side;
        dx[5] = -1, dy[5] = side;
    }
}

int astar_hex_in_region(const AstarSearch *s, size_t i, long x, long y)
{
    AstarHexLayout layout = (AstarHexLayout)(s->grid->hex - 1);
    return astar_hex_distance(layout, (uint32_t)(x - 1), (uint32_t)(y - 1), s->goal_list[2 * i],
                              s->goal_list[2 * i + 1])
           <= s->options.near;
}

double astar_hex_closeness(const AstarSearch *s, uint32_t cell)
{
    AstarHexLayout layout = (AstarHexLayout)(s->grid->hex - 1);
    uint32_t stride = s->grid->stride;
    uint32_t x = cell % stride - 1, y = cell / stride - 1;
    double best = INFINITY;
    size_t i;
    for (i = 0; i < s->ngoals; i++) {
        double d = (double)astar_hex_distance(layout, x, y, s->goal_list[2 * i],
                                              s->goal_list[2 * i + 1]);
        d = d > (double)s->options.near ? d - (double)s->options.near : 0.0;
        if (d < best)
            best = d;
    }
    return best;
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
            to_axial(t->layout, (long)s->goal_list[2 * i], (long)s->goal_list[2 * i + 1],
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
    to_axial(t->layout, (long)x - 1, (long)y - 1, &q, &r);
    for (i = 0; i < t->nq; i++) {
        long d = axial_distance(q - t->q[i], r - t->r[i]) - t->near;
        if (best < 0 || d < best)
            best = d;
    }
    return best > 0 ? (double)best : 0.0;
}

/* Unscaled hex distance from bordered (x, y) to the one goal (plain queries). */
ASTAR_INLINE double hex_h1(const AstarHexLayout layout, const HexTargets *t, int x, int y)
{
    long q, r;
    to_axial(layout, (long)x - 1, (long)y - 1, &q, &r);
    return (double)axial_distance(q - t->q[0], r - t->r[0]);
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
    static const AkRun RUNS[4][3] = {AK_RUNS(odd_r), AK_RUNS(even_r), AK_RUNS(odd_q),
                                     AK_RUNS(even_q)};
    int plain = !s->options.rule && s->ngoals == 1 && s->options.near == 0
                && !s->options.bounded;
    return RUNS[s->grid->hex - 1][ak_variant(s, plain)](s, max_expansions, error);
}

/* 0-based offset cell of axial (q, r): the inverse of to_axial. */
static void from_axial(AstarHexLayout layout, long q, long r, long *x, long *y)
{
    switch (layout) {
    case ASTAR_HEX_ODD_R: *x = q + (r - (r & 1)) / 2; *y = r; return;
    case ASTAR_HEX_EVEN_R: *x = q + (r + (r & 1)) / 2; *y = r; return;
    case ASTAR_HEX_ODD_Q: *x = q; *y = r + (q - (q & 1)) / 2; return;
    case ASTAR_HEX_EVEN_Q: break;
    }
    *x = q;
    *y = r + (q + (q & 1)) / 2;
}

#define NUDGE_Q 1e-6
#define NUDGE_R 2e-6

int astar_hex_line_of_sight(const AstarGrid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1)
{
    AstarHexLayout layout = ASTAR_HEX_ODD_R;
    long q0, r0, q1, r1, n, i;
    double aq, ar, bq, br;

    astar_grid_hex(grid, &layout);
    to_axial(layout, (long)x0, (long)y0, &q0, &r0);
    to_axial(layout, (long)x1, (long)y1, &q1, &r1);
    n = axial_distance(q1 - q0, r1 - r0);
    aq = (double)q0 + NUDGE_Q;
    ar = (double)r0 + NUDGE_R;
    bq = (double)q1 + NUDGE_Q;
    br = (double)r1 + NUDGE_R;
    for (i = 1; i < n; i++) {
        double t = (double)i / (double)n;
        double q = aq + (bq - aq) * t, r = ar + (br - ar) * t, s = -q - r;
        double rq = floor(q + 0.5), rr = floor(r + 0.5), rs = floor(s + 0.5);
        double dq = fabs(rq - q), dr = fabs(rr - r), ds = fabs(rs - s);
        long x, y;
        if (dq > dr && dq > ds)
            rq = -rr - rs;
        else if (dr > ds)
            rr = -rq - rs;
        from_axial(layout, (long)rq, (long)rr, &x, &y);
        if (x < 0 || y < 0 || x >= (long)grid->width || y >= (long)grid->height)
            continue;                 /* off the board's jagged edge: no wall */
        if (!grid->open[astar_index(grid, (uint32_t)x, (uint32_t)y)])
            return 0;
    }
    return 1;
}
