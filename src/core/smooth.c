/*
 * Smoothing a walk (smooth.h, docs/paths.md). Layer 3 (board).
 */
#include <math.h>

#include "hex_geometry.h"
#include "smooth.h"

/* The direction of the step (ux, uy) -> (vx, vy), 0-based (dq, dr: axial
 * on a hex board, the cell offset on a square one); 0 when it is not a
 * board move. */
static int step_direction(unsigned hex, long ux, long uy, long vx, long vy, long *dq, long *dr)
{
    if (hex) {
        long uq, ur, vq, vr;
        hex_to_axial((AstarHexLayout)(hex - 1), ux, uy, &uq, &ur);
        hex_to_axial((AstarHexLayout)(hex - 1), vx, vy, &vq, &vr);
        *dq = vq - uq;
        *dr = vr - ur;
        return hex_axial_distance(*dq, *dr) == 1;
    }
    *dq = vx - ux;
    *dr = vy - uy;
    return (*dq || *dr) && *dq >= -1 && *dq <= 1 && *dr >= -1 && *dr <= 1;
}

int astar_path_turns(unsigned hex, const uint32_t a[2], const uint32_t b[2], const uint32_t c[2])
{
    long pq, pr, q, r;
    int first = step_direction(hex, (long)a[0], (long)a[1], (long)b[0], (long)b[1], &pq, &pr);
    int second = step_direction(hex, (long)b[0], (long)b[1], (long)c[0], (long)c[1], &q, &r);
    return !first || !second || q != pq || r != pr;
}

size_t smooth_corners(uint32_t stride, unsigned hex, uint32_t *cells, size_t n)
{
    size_t kept = 1, i;
    uint32_t a[2], b[2], c[2];

    if (n <= 2)
        return n;
    a[0] = cells[0] % stride - 1;
    a[1] = cells[0] / stride - 1;
    b[0] = cells[1] % stride - 1;
    b[1] = cells[1] / stride - 1;
    for (i = 1; i + 1 < n; i++) {
        c[0] = cells[i + 1] % stride - 1;
        c[1] = cells[i + 1] / stride - 1;
        if (astar_path_turns(hex, a, b, c))
            cells[kept++] = cells[i];
        a[0] = b[0];
        a[1] = b[1];
        b[0] = c[0];
        b[1] = c[1];
    }
    cells[kept++] = cells[n - 1];
    return kept;
}

int smooth_walk_costs(const SegmentModel *m, const uint32_t *cells, size_t n, double *w)
{
    size_t j;
    if (n == 0)
        return 0;
    w[0] = 0.0;
    for (j = 1; j < n; j++) {
        double c = segment_cost(m, cells[j - 1], cells[j]);
        if (isnan(c))
            return -1;
        w[j] = w[j - 1] + c;
    }
    return 0;
}

/* Is the segment from cells[a] to cells[j] legal and no dearer, with what
 * came before (*cost so far), than the walk up to j? 1 yes (*c its cost),
 * 0 no, -1 the price stopped. */
static int shortcut(const SegmentModel *m, const uint32_t *cells, const double *w, size_t a,
                    size_t j, double so_far, double *c)
{
    double s = segment_cost(m, cells[a], cells[j]);
    if (isnan(s))
        return -1;
    if (!(s < INFINITY) || !(so_far + s <= w[j]))
        return 0;
    *c = s;
    return 1;
}

/* From cells[a], the farthest cell the gallop and the bisection of
 * docs/paths.md reach: doubling the reach while the shortcut holds, then
 * bisecting between the last that held and the first that did not. The
 * single step always holds (the walk is legal). */
static int reach(const SegmentModel *m, const uint32_t *cells, size_t n, const double *w,
                 size_t a, double so_far, size_t *best, double *best_cost)
{
    size_t k = 2, lo, hi;
    double c;
    int r;

    *best = a + 1;
    *best_cost = segment_cost(m, cells[a], cells[a + 1]);
    if (isnan(*best_cost))
        return -1;
    while (a + k <= n - 1) {
        if ((r = shortcut(m, cells, w, a, a + k, so_far, &c)) < 0)
            return -1;
        if (!r)
            break;
        *best = a + k;
        *best_cost = c;
        k *= 2;
    }
    if (a + k > n - 1) {                  /* past the end: try the last cell */
        if (*best < n - 1) {
            if ((r = shortcut(m, cells, w, a, n - 1, so_far, &c)) < 0)
                return -1;
            if (r) {
                *best = n - 1;
                *best_cost = c;
            }
        }
        return 0;
    }
    lo = *best;
    hi = a + k;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if ((r = shortcut(m, cells, w, a, mid, so_far, &c)) < 0)
            return -1;
        if (r) {
            lo = mid;
            *best_cost = c;
        } else {
            hi = mid;
        }
    }
    *best = lo;
    return 0;
}

int smooth_sight(const SegmentModel *m, uint32_t *cells, size_t n, const double *w,
                 size_t *out_n, double *cost)
{
    size_t a = 0, kept = 1, best;
    double so_far = 0.0, c;

    while (n > 0 && a < n - 1) {
        if (reach(m, cells, n, w, a, so_far, &best, &c) < 0)
            return -1;
        so_far += c;
        cells[kept++] = cells[best];
        a = best;
    }
    *out_n = n > 0 ? kept : 0;
    *cost = 0.0;
    if (n > 0) {                  /* summed as a path's is (segment.h) */
        *cost = segment_polyline_cost(m, cells, kept);
        if (*cost != *cost)
            return -1;
    }
    return 0;
}

/* ---- walks handed in from outside, as 0-based x, y pairs ---------------- */

/* Rewrites the pairs as bordered cells in the first n slots (slot i is
 * written after pairs 2i, 2i + 1 are read, and i <= 2i), and back. */
static void pairs_to_cells(uint32_t stride, uint32_t *xy, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        xy[i] = (xy[2 * i + 1] + 1) * stride + xy[2 * i] + 1;
}

static void cells_to_pairs(uint32_t stride, uint32_t *xy, size_t n)
{
    size_t i = n;
    while (i-- > 0) {
        uint32_t cell = xy[i];
        xy[2 * i] = cell % stride - 1;
        xy[2 * i + 1] = cell / stride - 1;
    }
}

size_t astar_path_corners(uint32_t width, unsigned hex, uint32_t *xy, size_t n)
{
    pairs_to_cells(width + 2, xy, n);
    n = smooth_corners(width + 2, hex, xy, n);
    cells_to_pairs(width + 2, xy, n);
    return n;
}

/* The cost of step a -> b of a walk handed in (bordered cells): the segment
 * model's on a square board, the entered cell's on a hex one; INFINITY when
 * it is not a board move the mode allows. */
static double handed_step(const SegmentModel *m, uint32_t a, uint32_t b)
{
    const AstarGrid *g = m->grid;
    long dq, dr;
    if (!step_direction(g->hex, (long)(a % g->stride) - 1, (long)(a / g->stride) - 1,
                        (long)(b % g->stride) - 1, (long)(b / g->stride) - 1, &dq, &dr))
        return INFINITY;
    if (!g->hex)
        return segment_cost(m, a, b);
    if (!g->open[b])
        return INFINITY;
    return g->cost ? g->cost[b] : 1.0;
}

size_t astar_path_smooth(const AstarGrid *grid, AstarDiagonal diagonal, AstarSmooth mode,
                         uint32_t *xy, size_t n, double *w, double *cost, size_t *bad)
{
    SegmentModel m;
    size_t kept = n, j;
    m.grid = grid;
    m.diagonal = diagonal;
    m.price = NULL;
    m.user = NULL;
    *bad = 0;
    *cost = 0.0;
    pairs_to_cells(grid->stride, xy, n);
    if (n > 0)
        w[0] = 0.0;
    for (j = 1; j < n; j++) {
        double step = handed_step(&m, xy[j - 1], xy[j]);
        if (!(step < INFINITY)) {
            *bad = j;
            cells_to_pairs(grid->stride, xy, n);
            return n;
        }
        w[j] = w[j - 1] + step;
    }
    if (mode == ASTAR_SMOOTH_SIGHT && !grid->hex && diagonal != ASTAR_DIAGONAL_NEVER) {
        smooth_sight(&m, xy, n, w, &kept, cost);    /* the grid's own prices never stop */
    } else {
        if (n > 0)        /* the walk's: summed as a path's (segment.h), a hex board's in order */
            *cost = grid->hex ? w[n - 1] : segment_polyline_cost(&m, xy, n);
        kept = smooth_corners(grid->stride, grid->hex, xy, n);
    }
    cells_to_pairs(grid->stride, xy, kept);
    return kept;
}
