/*
 * The segment model (docs/paths.md, segment.h): walks the cells a straight
 * line between two cell centres passes through, in order, with integer
 * arithmetic only, so that the line's cells and the grid corners it meets
 * exactly are the same on every machine and in the pure-Lua backend.
 * Layer 3 (board).
 */
#include <math.h>

#include "segment.h"

static double cell_price(const SegmentModel *m, uint32_t cell)
{
    const AstarGrid *g = m->grid;
    if (m->price)
        return m->price(m->user, cell);
    if (!g->open[cell])
        return INFINITY;
    return g->cost ? g->cost[cell] : 1.0;
}

/* May the line pass the grid corner between cells a and b, diagonal
 * neighbours, whose two other cells are c1 and c2? 1 yes, 0 no, -1 stop. */
static int corner_passes(const SegmentModel *m, uint32_t c1, uint32_t c2)
{
    double p1, p2;
    if (m->diagonal == ASTAR_DIAGONAL_ALWAYS)
        return 1;
    if (m->diagonal == ASTAR_DIAGONAL_NEVER)
        return 0;
    p1 = cell_price(m, c1);
    if (isnan(p1))
        return -1;
    if (m->diagonal == ASTAR_DIAGONAL_ONE_OBSTACLE && p1 < INFINITY)
        return 1;
    p2 = cell_price(m, c2);
    if (isnan(p2))
        return -1;
    if (m->diagonal == ASTAR_DIAGONAL_ONE_OBSTACLE)
        return p2 < INFINITY;
    return p1 < INFINITY && p2 < INFINITY;
}

/* The line leaves the centre of a for the centre of b. Crossing the i-th
 * vertical grid line (of adx) happens at parameter (2i + 1) / (2 adx), the
 * j-th horizontal one at (2j + 1) / (2 ady): comparing (2i + 1) ady with
 * (2j + 1) adx says which comes first, and equality is a grid corner. */
double segment_cost(const SegmentModel *m, uint32_t a, uint32_t b)
{
    const long stride = (long)m->grid->stride;
    const long ax = (long)(a % (uint32_t)stride), ay = (long)(a / (uint32_t)stride);
    const long bx = (long)(b % (uint32_t)stride), by = (long)(b / (uint32_t)stride);
    const long sx = bx > ax ? 1 : -1, sy = by > ay ? stride : -stride;
    const uint64_t adx = (uint64_t)(bx > ax ? bx - ax : ax - bx);
    const uint64_t ady = (uint64_t)(by > ay ? by - ay : ay - by);
    uint64_t i = 0, j = 0;
    long cell = (long)a;
    double highest = 0.0;

    while (i < adx || j < ady) {
        uint64_t lx = i < adx ? (2 * i + 1) * ady : UINT64_MAX;
        uint64_t ly = j < ady ? (2 * j + 1) * adx : UINT64_MAX;
        double p;
        if (lx < ly) {
            cell += sx;
            i++;
        } else if (ly < lx) {
            cell += sy;
            j++;
        } else {
            int pass = corner_passes(m, (uint32_t)(cell + sx), (uint32_t)(cell + sy));
            if (pass < 0)
                return NAN;
            if (!pass)
                return INFINITY;
            cell += sx + sy;
            i++;
            j++;
        }
        p = cell_price(m, (uint32_t)cell);
        if (!(p < INFINITY))
            return p;          /* INFINITY: a wall on the line; NAN: stopped */
        if (p > highest)
            highest = p;
    }
    return sqrt((double)adx * (double)adx + (double)ady * (double)ady) * highest;
}
