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

/* A walk along the line from the centre of a to the centre of b. Crossing
 * the i-th vertical grid line (of adx) happens at parameter (2i + 1) /
 * (2 adx), the j-th horizontal one at (2j + 1) / (2 ady): comparing
 * lx = (2i + 1) ady with ly = (2j + 1) adx (kept by adding 2 ady and 2 adx)
 * says which comes first, and equality is a grid corner. */
typedef struct {
    long cell, sx, sy;
    uint64_t adx, ady, i, j, lx, ly;
} LineWalk;

static void line_start(LineWalk *w, long stride, uint32_t a, uint32_t b)
{
    const long ax = (long)(a % (uint32_t)stride), ay = (long)(a / (uint32_t)stride);
    const long bx = (long)(b % (uint32_t)stride), by = (long)(b / (uint32_t)stride);
    w->cell = (long)a;
    w->sx = bx > ax ? 1 : -1;
    w->sy = by > ay ? stride : -stride;
    w->adx = (uint64_t)(bx > ax ? bx - ax : ax - bx);
    w->ady = (uint64_t)(by > ay ? by - ay : ay - by);
    w->i = w->j = 0;
    w->lx = w->adx ? w->ady : UINT64_MAX;
    w->ly = w->ady ? w->adx : UINT64_MAX;
}

static inline int line_more(const LineWalk *w) { return w->i < w->adx || w->j < w->ady; }

static double line_length(const LineWalk *w)
{
    return sqrt((double)w->adx * (double)w->adx + (double)w->ady * (double)w->ady);
}

/* Moves to the next cell the line passes through: 1 when it went across a
 * grid corner (its two cells beside are then cell - sy and cell - sx). */
static inline int line_next(LineWalk *w)
{
    const int across = w->lx <= w->ly, down = w->ly <= w->lx;
    if (across) {
        w->cell += w->sx;
        w->lx = ++w->i < w->adx ? w->lx + 2 * w->ady : UINT64_MAX;
    }
    if (down) {
        w->cell += w->sy;
        w->ly = ++w->j < w->ady ? w->ly + 2 * w->adx : UINT64_MAX;
    }
    return across && down;
}

/* The grid's own walls with every cost 1 (no price, no cost array): only
 * the walls matter, every cell's price is 1. The same answer as the
 * general walk, without its prices. */
static double uniform_highest(AstarDiagonal diagonal, const uint8_t *open, LineWalk *w)
{
    while (line_more(w)) {
        if (line_next(w)) {
            const int o1 = open[w->cell - w->sy], o2 = open[w->cell - w->sx];
            if (diagonal == ASTAR_DIAGONAL_NEVER
                || (diagonal == ASTAR_DIAGONAL_ONE_OBSTACLE ? !(o1 || o2)
                    : diagonal != ASTAR_DIAGONAL_ALWAYS && !(o1 && o2)))
                return INFINITY;
        }
        if (!open[w->cell])
            return INFINITY;
    }
    return 1.0;
}

/* The highest entry cost among the cells the line w (just started) passes
 * through, its start excepted: INFINITY when it is not legal, NAN when the
 * price stopped, 0 (1 on a uniform grid) when it has no length. */
static double line_highest(const SegmentModel *m, LineWalk *w)
{
    double highest = 0.0;

    if (!m->price && !m->grid->cost)
        return uniform_highest(m->diagonal, m->grid->open, w);
    while (line_more(w)) {
        double p;
        if (line_next(w)) {
            int pass = corner_passes(m, (uint32_t)(w->cell - w->sy), (uint32_t)(w->cell - w->sx));
            if (pass < 0)
                return NAN;
            if (!pass)
                return INFINITY;
        }
        p = cell_price(m, (uint32_t)w->cell);
        if (!(p < INFINITY))
            return p;          /* INFINITY: a wall on the line; NAN: stopped */
        if (p > highest)
            highest = p;
    }
    return highest;
}

double segment_cost(const SegmentModel *m, uint32_t a, uint32_t b)
{
    LineWalk w;
    double highest;

    line_start(&w, (long)m->grid->stride, a, b);
    highest = line_highest(m, &w);
    return line_length(&w) * highest;
}

/* Sums apart, as a search sums a path (search_record.c canonical_cost): a
 * row's or column's length times c into S, a diagonal's into D, any other
 * segment's cost into O, each from the start. With whole or dyadic costs S
 * and D are exact, so a polyline of grid lines costs to the last bit what
 * the path of single steps it stands for does (sqrt 2 being irrational,
 * every path of that cost has the same S and D). */
double segment_polyline_cost(const SegmentModel *m, const uint32_t *cells, size_t n)
{
    SegmentModel legal = *m;   /* its lines are legal: no corner is asked about again */
    double straight = 0.0, diagonal = 0.0, other = 0.0;
    size_t k;

    legal.diagonal = ASTAR_DIAGONAL_ALWAYS;
    for (k = 1; k < n; k++) {
        LineWalk w;
        double highest;
        line_start(&w, (long)m->grid->stride, cells[k - 1], cells[k]);
        highest = line_highest(&legal, &w);
        if (!(highest < INFINITY))
            return highest;
        if (w.adx == 0 || w.ady == 0)
            straight += (double)(w.adx + w.ady) * highest;
        else if (w.adx == w.ady)
            diagonal += (double)w.adx * highest;
        else
            other += line_length(&w) * highest;
    }
    return straight + 1.41421356237309504880 * diagonal + other;
}
