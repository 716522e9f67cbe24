/*
 * Distance maps (issue 13): the bounded multi-source Dijkstra of range.c read
 * the other way round. A movement range costs the cells entered walking away
 * from its start; a distance map costs the cells entered walking to the
 * nearest source. So the flood starts at the sources with their values and
 * relaxes v from a settled u with dist(u) + step(v -> u) * cost(u): the
 * entered cell is u, the one settled already.
 *
 * The map's arrays are the caller's (the Lua binding puts them in the map's
 * userdata); only the open list is scratch, range.c's (range_internal.h).
 * Arrays follow the grid's bordered layout, the border being cells that
 * cannot be entered, so a neighbour is cell + offset with no bounds check.
 */
#include <math.h>
#include <string.h>

#include "grid_layout.h"
#include "heap.h"
#include "range_internal.h"

#define SQRT2 1.41421356237309504880   /* as search_internal.h: findPath's step */
#define ST_CLOSED 16u                  /* settled by the current flood */

/* 0-3 orthogonal, 4-7 diagonal (range.c's order: E W S N SE SW NE NW);
 * CORNER_X/Y: the orthogonal directions a diagonal one passes between;
 * OPPOSITE: the direction back. */
static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
static const int CORNER_X[8] = {0, 0, 0, 0, 0, 1, 0, 1};
static const int CORNER_Y[8] = {0, 0, 0, 0, 2, 2, 3, 3};
static const uint8_t OPPOSITE[8] = {1, 0, 3, 2, 7, 6, 5, 4};

#define CELL_BYTES (2 * sizeof(double) + sizeof(uint32_t) + sizeof(uint8_t))

size_t astar_distance_bytes(uint32_t width, uint32_t height)
{
    size_t cells = ((size_t)width + 2) * ((size_t)height + 2);
    if (width > ASTAR_MAX_SIDE || height > ASTAR_MAX_SIDE || cells > SIZE_MAX / CELL_BYTES)
        return 0;
    return cells * CELL_BYTES;
}

void astar_distance_layout(AstarDistanceMap *m, void *memory, uint32_t width, uint32_t height,
                           AstarDiagonal diagonal)
{
    size_t i;

    m->width = width;
    m->height = height;
    m->stride = width + 2;
    m->cells = (size_t)m->stride * ((size_t)height + 2);
    m->diagonal = diagonal;
    m->dist = (double *)memory;
    m->cost = m->dist + m->cells;
    m->origin = (uint32_t *)(void *)(m->cost + m->cells);
    m->step = (uint8_t *)(m->origin + m->cells);
    m->reached = 0;
    for (i = 0; i < m->cells; i++) {
        m->dist[i] = INFINITY;
        m->cost[i] = INFINITY;
        m->origin[i] = 0;
        m->step[i] = ASTAR_STEP_NONE;
    }
}

/* Empties the map (its costs stay). */
static void empty(AstarDistanceMap *m)
{
    size_t i;
    for (i = 0; i < m->cells; i++) {
        m->dist[i] = INFINITY;
        m->step[i] = ASTAR_STEP_NONE;
    }
    m->reached = 0;
}

static uint32_t cell_number(const AstarDistanceMap *m, size_t i)
{
    return (uint32_t)((i / m->stride - 1) * m->width + (i % m->stride - 1));
}

/* The entry cost of cell i, asking rule the first time (NAN: aborted). */
static inline double entry(AstarDistanceMap *m, const AstarGrid *grid, size_t i,
                           AstarCellRule rule, void *user)
{
    double c = m->cost[i];
    unsigned flags = 0;

    if (c == c)
        return c;
    c = rule(user, (uint32_t)(i % m->stride - 1), (uint32_t)(i / m->stride - 1),
             grid->cost ? grid->cost[i] : 1.0, &flags);
    if (c != c)
        return c;
    m->cost[i] = c;
    return c;
}

/* The flood from what is in the open list. grid NULL: a rescan, over the
 * cells already in the map (ASTAR_STEP_MEMBER), with their known costs. */
static AstarError flood(Heap *open, AstarDistanceMap *m, const AstarGrid *grid,
                        AstarCellRule rule, void *user, double max_cost, int *aborted)
{
    double *dist = m->dist, *cost = m->cost;
    uint8_t *step = m->step;
    uint32_t *origin = m->origin;
    AstarDiagonal mode = m->diagonal;
    int ndir = mode == ASTAR_DIAGONAL_NEVER ? 4 : 8, d;
    long off[8];

    for (d = 0; d < 8; d++)
        off[d] = DY[d] * (long)m->stride + DX[d];
    while (open->size > 0) {
        uint32_t u = heap_pop(open).cell;
        unsigned su = step[u];
        double gu, cu;

        if (su & ST_CLOSED)
            continue;                                  /* a stale duplicate */
        step[u] = (uint8_t)(su | ST_CLOSED | ASTAR_STEP_MEMBER);
        m->reached++;
        gu = dist[u];
        cu = cost[u];
        for (d = 0; d < ndir; d++) {
            uint32_t v = (uint32_t)((long)u + off[d]);
            unsigned sv = step[v], s;
            double ng;

            if (sv & ST_CLOSED)
                continue;
            if (!grid) {
                if (!(sv & ASTAR_STEP_MEMBER))
                    continue;
            } else {
                double ev = cost[v];
                if (ev != ev) {
                    ev = entry(m, grid, v, rule, user);
                    if (ev != ev) {
                        heap_clear(open);
                        empty(m);
                        *aborted = 1;
                        return ASTAR_OK;
                    }
                }
                if (ev == INFINITY)
                    continue;
            }
            if (d >= 4 && mode != ASTAR_DIAGONAL_ALWAYS) {
                int walls = (cost[(long)u + off[CORNER_X[d]]] == INFINITY)
                            + (cost[(long)u + off[CORNER_Y[d]]] == INFINITY);
                if (walls == 2 || (walls == 1 && mode == ASTAR_DIAGONAL_NO_OBSTACLES))
                    continue;
            }
            ng = gu + (d < 4 ? cu : SQRT2 * cu);
            if (!(ng <= max_cost))
                continue;
            s = OPPOSITE[d];
            if (ng < dist[v]) {
                dist[v] = ng;
                step[v] = (uint8_t)((sv & ~ASTAR_STEP_MASK) | s);
                origin[v] = origin[u];
                if (heap_push(open, ng, v) != ASTAR_OK)
                    return ASTAR_ENOMEM;
            } else if (ng == dist[v] && (sv & ASTAR_STEP_MASK) != ASTAR_STEP_END
                       && s < (sv & ASTAR_STEP_MASK)) {
                step[v] = (uint8_t)((sv & ~ASTAR_STEP_MASK) | s);   /* the tie order */
                origin[v] = origin[u];
            }
        }
    }
    return ASTAR_OK;
}

/* Clears the closed bits a flood left. */
static void unclose(AstarDistanceMap *m)
{
    size_t i;
    for (i = 0; i < m->cells; i++)
        m->step[i] &= (uint8_t)~ST_CLOSED;
}

AstarError astar_distance_run(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                               const AstarDistanceSource *sources, size_t n, double max_cost,
                               AstarCellRule rule, void *user, int *aborted)
{
    Heap *open = astar_range_heap(scratch);
    AstarError e;
    size_t i;

    *aborted = 0;
    heap_clear(open);
    for (i = 0; i < m->cells; i++) {
        m->dist[i] = INFINITY;
        m->step[i] = ASTAR_STEP_NONE;
        m->origin[i] = 0;
        m->cost[i] = !grid->open[i] ? INFINITY : rule ? NAN : grid->cost ? grid->cost[i] : 1.0;
    }
    m->reached = 0;
    for (i = 0; i < n; i++) {
        size_t c = astar_index(grid, sources[i].x, sources[i].y);
        double v = sources[i].value, ec = m->cost[c];

        if (ec != ec) {
            ec = entry(m, grid, c, rule, user);
            if (ec != ec) {
                empty(m);
                *aborted = 1;
                return ASTAR_OK;
            }
        }
        if (ec == INFINITY || !(v <= max_cost) || !(v < m->dist[c]))
            continue;
        m->dist[c] = v;
        m->step[c] = ASTAR_STEP_END;
        m->origin[c] = (uint32_t)i;
        if (heap_push(open, v, (uint32_t)c) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    e = flood(open, m, grid, rule, user, max_cost, aborted);
    unclose(m);
    return e;
}

AstarError astar_distance_rescan(AstarRange *scratch, AstarDistanceMap *m)
{
    Heap *open = astar_range_heap(scratch);
    AstarError e;
    int aborted = 0;
    size_t i;

    heap_clear(open);
    m->reached = 0;
    for (i = 0; i < m->cells; i++) {
        if (!(m->step[i] & ASTAR_STEP_MEMBER))
            continue;
        m->step[i] = ASTAR_STEP_MEMBER | ASTAR_STEP_END;
        m->origin[i] = cell_number(m, i);
        if (heap_push(open, m->dist[i], (uint32_t)i) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    e = flood(open, m, NULL, NULL, NULL, INFINITY, &aborted);
    unclose(m);
    return e;
}

void astar_distance_descend(AstarDistanceMap *m)
{
    long off[8];
    int ndir = m->diagonal == ASTAR_DIAGONAL_NEVER ? 4 : 8, d;
    size_t i;

    for (d = 0; d < 8; d++)
        off[d] = DY[d] * (long)m->stride + DX[d];
    m->reached = 0;
    for (i = 0; i < m->cells; i++) {
        double best;
        unsigned bs = ASTAR_STEP_END;

        if (!(m->step[i] & ASTAR_STEP_MEMBER))
            continue;
        m->reached++;
        best = m->dist[i];
        for (d = 0; d < ndir; d++) {
            size_t u = (size_t)((long)i + off[d]);
            double ng;

            if (!(m->step[u] & ASTAR_STEP_MEMBER))
                continue;
            if (d >= 4 && m->diagonal != ASTAR_DIAGONAL_ALWAYS) {
                int walls = (m->cost[(long)i + off[CORNER_X[d]]] == INFINITY)
                            + (m->cost[(long)i + off[CORNER_Y[d]]] == INFINITY);
                if (walls == 2 || (walls == 1 && m->diagonal == ASTAR_DIAGONAL_NO_OBSTACLES))
                    continue;
            }
            ng = m->dist[u] + (d < 4 ? m->cost[u] : SQRT2 * m->cost[u]);
            if (ng < best) {
                best = ng;
                bs = (unsigned)d;
            }
        }
        m->step[i] = (uint8_t)(ASTAR_STEP_MEMBER | bs);
        m->origin[i] = cell_number(m, i);
    }
}

int astar_distance_next(const AstarDistanceMap *m, uint32_t x, uint32_t y, uint32_t *nx,
                        uint32_t *ny)
{
    unsigned st = m->step[((size_t)y + 1) * m->stride + x + 1], d = st & ASTAR_STEP_MASK;

    if (!(st & ASTAR_STEP_MEMBER) || d >= 8)
        return 0;
    *nx = (uint32_t)((long)x + DX[d]);
    *ny = (uint32_t)((long)y + DY[d]);
    return 1;
}
