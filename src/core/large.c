/*
 * Large units' searches (issue 14): the query's walls on the size's layer,
 * the goal's check, and the loop for a unit with costs or a rule:
 * astar_kernel.h's loop on BOARD_LARGE, each step priced by the cells it
 * newly covers. Queries without costs or rules run the square loops and
 * jump point search on the layer (clearance.c) unchanged. Layer 5 (kernels).
 */
#include <stdlib.h>

#include "astar_kernel.h"   /* the loop is included below with the look */
#include "clearance.h"
#include "kernels.h"

/* ---- the query's walls ------------------------------------------------- */

AstarError astar_large_reserve_walls(AstarSearch *s)
{
    size_t k = s->size, n = s->nwalls, want = s->grid->cells;
    if (n && k * k <= want / n)
        want = n * k * k;
    if (!n || want <= s->large_closed_capacity)
        return ASTAR_OK;
    free(s->large_closed);
    s->large_closed = malloc(want * sizeof *s->large_closed);
    s->large_closed_capacity = s->large_closed ? want : 0;
    return s->large_closed ? ASTAR_OK : ASTAR_ENOMEM;
}

void astar_large_walls_on(AstarSearch *s)
{
    AstarGrid *fit = (AstarGrid *)s->grid;
    uint32_t k = s->size;
    size_t i;
    s->nclosed = 0;
    if (k > fit->width || k > fit->height)
        return;                          /* fits nowhere: nothing to close */
    for (i = 0; i < s->nwalls; i++) {
        uint32_t x = s->wall_list[2 * i], y = s->wall_list[2 * i + 1], px, py;
        uint32_t x0 = x >= k - 1 ? x - (k - 1) : 0, y0 = y >= k - 1 ? y - (k - 1) : 0;
        for (py = y0; py <= y; py++)
            for (px = x0; px <= x; px++) {
                uint32_t cell = (uint32_t)astar_index(fit, px, py);
                if (fit->open[cell]) {   /* the start too: only as a neighbour */
                    astar_grid_put_open(fit, cell, 0);
                    s->large_closed[s->nclosed++] = cell;
                }
            }
    }
}

int astar_large_wall_listed(const AstarSearch *s, uint32_t position)
{
    long stride = (long)s->grid->stride, px = (long)position % stride - 1,
         py = (long)position / stride - 1, k = (long)s->size;
    size_t i;
    for (i = 0; i < s->nwalls; i++) {
        long x = (long)s->wall_list[2 * i], y = (long)s->wall_list[2 * i + 1];
        if (x >= px && x < px + k && y >= py && y < py + k)
            return 1;
    }
    return 0;
}

/* ---- the loop with costs or a rule ------------------------------------- */

/* Every cell of position p, row by row: NAN when the rule stopped the
 * query, INFINITY at the first impassable one, else 0. */
static double check_footprint(AstarSearch *s, const AkCells *cells, uint32_t p)
{
    const size_t stride = s->grid->stride, k = s->size;
    size_t row, i;
    for (row = p; row < p + k * stride; row += stride)
        for (i = row; i < row + k; i++) {
            double v = ak_entry(s, cells, (uint32_t)i);
            if (v != v || v == INFINITY)
                return v;
        }
    return 0.0;
}

/* astar_kernel.h's look for a large unit: the cost of moving it from
 * position u by direction d onto v (positions are top-left cells, on the
 * layer s->grid; q->cells are those of the grid the query was asked on,
 * s->base): the highest entry cost among the cells it newly covers;
 * blocked when v does not fit or covers an impassable cell. The cells
 * shared with u were checked when u was entered, but for the start, whose
 * cells a rule was never asked about: from there every cell is checked. */
ASTAR_INLINE int large_look(AkQuery *q, AstarSearch *s, const Board *b,
                            const BoardKind kind, const unsigned traits, uint32_t u, uint32_t v,
                            unsigned d, double *price)
{
    AstarNewCells cells;
    size_t cell;
    double worst = 0.0;

    (void)kind;
    (void)traits;
    if (!s->grid->open[v])
        return AK_BLOCKED;
    if (u == s->start && s->options.rule) {
        double e = check_footprint(s, &q->cells, v);
        if (e != 0.0)
            return e != e ? AK_ABORT : AK_BLOCKED;
    }
    board_new_cells(b, &cells, v, d);
    while (astar_new_cell(&cells, &cell)) {
        double e = ak_entry(s, &q->cells, (uint32_t)cell);
        if (e != e)
            return AK_ABORT;
        if (e == INFINITY)
            return AK_BLOCKED;
        if (fabs(e) > worst)
            worst = fabs(e);
    }
    *price = worst;
    return AK_OPEN;
}

/* A link from u takes the unit to position v when it fits there: every
 * cell it covers at v is checked. */
ASTAR_INLINE int large_link_look(AkQuery *q, AstarSearch *s, uint32_t v)
{
    double e;
    if (!s->grid->open[v])
        return AK_BLOCKED;
    e = check_footprint(s, &q->cells, v);
    return e != e ? AK_ABORT : e == INFINITY ? AK_BLOCKED : AK_OPEN;
}

/* A position may not be ended on when any cell it covers may not (an ally
 * under any part of the unit). Every cell of an entered position was asked
 * about (large_look), so the answers are read, never asked. */
ASTAR_INLINE int large_no_stop(const AkQuery *q, const AstarSearch *s, uint32_t p)
{
    const size_t stride = s->grid->stride, k = s->size;
    const uint16_t gen = (uint16_t)q->cells.gen;
    size_t row, i;
    for (row = p; row < p + k * stride; row += stride)
        for (i = row; i < row + k; i++)
            if (s->rule_stamp[i] == gen && s->rule_cost[i] < 0)
                return 1;
    return 0;
}

#define AK_QUERY AkQuery
#define AK_LOOK large_look
#define AK_NO_STOP large_no_stop
#define AK_LINK_LOOK large_link_look
#include "astar_kernel.h"

double astar_large_goal(AstarSearch *s)
{
    AkCells cells;
    AkQuery q;
    double v;
    ak_cells(&cells, s, s->base);
    v = check_footprint(s, &cells, s->goal);
    if (v != 0.0)
        return v;
    v = ak_entry(s, &cells, s->goal);
    q.cells = cells;
    return s->options.rule && large_no_stop(&q, s, s->goal) ? -fabs(v) : v;
}

AstarStatus astar_run_large(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    AkQuery q;
    if (s->moved)
        return astar_kernel(s, &q, BOARD_LARGE, s->options.diagonal, ASTAR_HEX_ODD_R, AK_MOVES,
                            max_expansions, error);
    return astar_kernel(s, &q, BOARD_LARGE, s->options.diagonal, ASTAR_HEX_ODD_R, 0,
                        max_expansions, error);
}
