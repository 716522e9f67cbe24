/*
 * A* over the bordered grid (see grid_layout.h).
 *
 * Scratch per cell: g (cost so far) and a stamp holding the query's
 * generation, a closed bit and the direction the cell was entered from. A new
 * query bumps the generation instead of clearing memory, so it costs only the
 * cells it touches.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid_layout.h"
#include "heap.h"

#define SQRT2 1.41421356237309504880

#define STAMP_DIR_MASK 7u
#define STAMP_CLOSED 8u
#define STAMP_GEN_SHIFT 4
#define STAMP_GEN_LIMIT (1u << (32 - STAMP_GEN_SHIFT))

/* Directions 0-3 are orthogonal, 4-7 diagonal. For a diagonal, side_a and
 * side_b are the two orthogonal directions it passes between. */
static const int DIR_DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const int DIR_DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
static const int DIR_SIDE_A[8] = {0, 0, 0, 0, 0, 1, 0, 1};
static const int DIR_SIDE_B[8] = {0, 0, 0, 0, 2, 2, 3, 3};

struct AstarSearch {
    /* scratch, reused across queries */
    double *g;
    uint32_t *stamp;
    size_t capacity;
    uint32_t generation;
    Heap open;

    /* the current query */
    const AstarGrid *grid;
    uint64_t grid_version;
    AstarOptions options;
    long offset[8];
    uint32_t start, goal;
    int goal_x, goal_y;
    double h_scale;          /* weight * lowest cost: keeps h admissible */
    AstarStatus status;

    /* closest cell so far, for partial results */
    uint32_t best;
    double best_distance, best_g;

    /* the result */
    uint32_t end;
    size_t length, expanded, touched;
};

AstarSearch *astar_search_new(void)
{
    AstarSearch *search = calloc(1, sizeof *search);
    if (search)
        search->status = ASTAR_NO_PATH;
    return search;
}

void astar_search_free(AstarSearch *search)
{
    if (!search)
        return;
    free(search->g);
    free(search->stamp);
    free(search->open.items);
    free(search);
}

static AstarError reserve_scratch(AstarSearch *search, size_t cells)
{
    double *g;
    uint32_t *stamp;

    if (cells <= search->capacity)
        return ASTAR_OK;
    g = malloc(cells * sizeof *g);
    stamp = calloc(cells, sizeof *stamp);
    if (!g || !stamp) {
        free(g);
        free(stamp);
        return ASTAR_ENOMEM;
    }
    free(search->g);
    free(search->stamp);
    search->g = g;
    search->stamp = stamp;
    search->capacity = cells;
    search->generation = 0;
    return ASTAR_OK;
}

/* The estimate's distance for |dx|, |dy|, before scaling. */
static double distance(AstarHeuristic heuristic, int dx, int dy)
{
    double a = dx < 0 ? -dx : dx, b = dy < 0 ? -dy : dy;
    double lo = a < b ? a : b, hi = a < b ? b : a;

    switch (heuristic) {
    case ASTAR_HEURISTIC_MANHATTAN: return a + b;
    case ASTAR_HEURISTIC_OCTILE: return hi + (SQRT2 - 1.0) * lo;
    case ASTAR_HEURISTIC_EUCLIDEAN: return sqrt(a * a + b * b);
    case ASTAR_HEURISTIC_CHEBYSHEV: return hi;
    case ASTAR_HEURISTIC_ZERO: break;
    }
    return 0.0;
}

static int cell_x(const AstarSearch *s, uint32_t cell) { return (int)(cell % s->grid->stride); }
static int cell_y(const AstarSearch *s, uint32_t cell) { return (int)(cell / s->grid->stride); }

/* Distance used to rank cells for partial results: the heuristic's own, or
 * the diagonal mode's natural one when the heuristic is zero. */
static double closeness(const AstarSearch *s, uint32_t cell)
{
    AstarHeuristic h = s->options.heuristic;
    if (h == ASTAR_HEURISTIC_ZERO)
        h = s->options.diagonal == ASTAR_DIAGONAL_NEVER ? ASTAR_HEURISTIC_MANHATTAN
                                                         : ASTAR_HEURISTIC_OCTILE;
    return distance(h, cell_x(s, cell) - s->goal_x, cell_y(s, cell) - s->goal_y);
}

static uint32_t stamp_of(const AstarSearch *s, uint32_t dir, int closed)
{
    return (s->generation << STAMP_GEN_SHIFT) | (closed ? STAMP_CLOSED : 0u) | dir;
}

static int seen(const AstarSearch *s, uint32_t cell)
{
    return (s->stamp[cell] >> STAMP_GEN_SHIFT) == s->generation;
}

static void finish(AstarSearch *s, AstarStatus status, uint32_t end)
{
    uint32_t cell = end;
    size_t length = 1;

    s->status = status;
    s->end = end;
    while (cell != s->start) {
        cell = astar_search_parent(s, cell);
        length++;
    }
    s->length = length;
}

AstarError astar_search_begin(AstarSearch *s, const AstarGrid *grid,
                              uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                              const AstarOptions *options)
{
    int d;

    s->status = ASTAR_NO_PATH;
    s->expanded = s->touched = 0;
    if (reserve_scratch(s, grid->cells) != ASTAR_OK)
        return ASTAR_ENOMEM;
    if (++s->generation == STAMP_GEN_LIMIT) {
        memset(s->stamp, 0, s->capacity * sizeof *s->stamp);
        s->generation = 1;
    }
    s->grid = grid;
    s->grid_version = grid->version;
    s->options = *options;
    for (d = 0; d < 8; d++)
        s->offset[d] = DIR_DY[d] * (long)grid->stride + DIR_DX[d];
    s->start = (uint32_t)astar_index(grid, sx, sy);
    s->goal = (uint32_t)astar_index(grid, gx, gy);
    s->goal_x = (int)gx + 1;
    s->goal_y = (int)gy + 1;
    s->h_scale = options->weight * grid->min_cost;
    s->open.size = 0;

    s->g[s->start] = 0.0;
    s->stamp[s->start] = stamp_of(s, 0, 0);
    s->touched = 1;
    s->best = s->start;
    s->best_distance = closeness(s, s->start);
    s->best_g = 0.0;

    if (s->start == s->goal) {
        finish(s, ASTAR_FOUND, s->start);
        return ASTAR_OK;
    }
    if (!grid->open[s->goal] && !options->partial) {
        s->status = ASTAR_GOAL_BLOCKED;
        return ASTAR_OK;
    }
    if (heap_push(&s->open, 0.0, 0.0f, s->start) != ASTAR_OK)
        return ASTAR_ENOMEM;
    s->status = ASTAR_SEARCHING;
    return ASTAR_OK;
}

/* Offers cell the cost g, reached by moving in direction dir. */
static AstarError relax(AstarSearch *s, uint32_t cell, double g, uint32_t dir)
{
    double h;

    if (seen(s, cell)) {
        if ((s->stamp[cell] & STAMP_CLOSED) || g >= s->g[cell])
            return ASTAR_OK;
    } else {
        s->touched++;
    }
    s->g[cell] = g;
    s->stamp[cell] = stamp_of(s, dir, 0);
    h = s->h_scale * distance(s->options.heuristic, cell_x(s, cell) - s->goal_x,
                              cell_y(s, cell) - s->goal_y);
    return heap_push(&s->open, g + h, (float)h, cell);
}

static int diagonal_allowed(AstarDiagonal mode, int side_a_open, int side_b_open)
{
    switch (mode) {
    case ASTAR_DIAGONAL_ALWAYS: return 1;
    case ASTAR_DIAGONAL_ONE_OBSTACLE: return side_a_open || side_b_open;
    case ASTAR_DIAGONAL_NO_OBSTACLES: return side_a_open && side_b_open;
    case ASTAR_DIAGONAL_NEVER: break;
    }
    return 0;
}

/* Expands one cell: relaxes its neighbours. */
static AstarError expand(AstarSearch *s, uint32_t cell)
{
    const uint8_t *open = s->grid->open;
    const double *cost = s->grid->cost;
    double g = s->g[cell];
    int d;

    for (d = 0; d < 4; d++) {
        uint32_t next = (uint32_t)((long)cell + s->offset[d]);
        if (open[next]
            && relax(s, next, g + (cost ? cost[next] : 1.0), (uint32_t)d) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    if (s->options.diagonal == ASTAR_DIAGONAL_NEVER)
        return ASTAR_OK;
    for (d = 4; d < 8; d++) {
        uint32_t next = (uint32_t)((long)cell + s->offset[d]);
        int a = open[(long)cell + s->offset[DIR_SIDE_A[d]]];
        int b = open[(long)cell + s->offset[DIR_SIDE_B[d]]];
        if (open[next] && diagonal_allowed(s->options.diagonal, a, b)
            && relax(s, next, g + SQRT2 * (cost ? cost[next] : 1.0), (uint32_t)d) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    return ASTAR_OK;
}

/* Records cell as the closest so far if it is (ties: the cheaper). */
static void note_closest(AstarSearch *s, uint32_t cell)
{
    double d = closeness(s, cell);
    if (d < s->best_distance || (d == s->best_distance && s->g[cell] < s->best_g)) {
        s->best = cell;
        s->best_distance = d;
        s->best_g = s->g[cell];
    }
}

static AstarStatus fail(AstarSearch *s, AstarError reason, AstarError *error)
{
    if (error)
        *error = reason;
    s->status = ASTAR_NO_PATH;
    s->open.size = 0;
    return s->status;
}

AstarStatus astar_search_step(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    size_t budget = max_expansions;

    if (error)
        *error = ASTAR_OK;
    if (s->status != ASTAR_SEARCHING)
        return s->status;
    if (s->grid->version != s->grid_version)
        return fail(s, ASTAR_EGRIDCHANGED, error);

    while (s->open.size > 0) {
        HeapEntry top;
        uint32_t cell;

        if (max_expansions && budget-- == 0)
            return ASTAR_SEARCHING;
        top = heap_pop(&s->open);
        cell = top.cell;
        if (s->stamp[cell] & STAMP_CLOSED)
            continue;                          /* a stale duplicate */
        if (cell == s->goal) {
            finish(s, ASTAR_FOUND, cell);
            return s->status;
        }
        s->stamp[cell] |= STAMP_CLOSED;
        s->expanded++;
        if (s->options.partial)
            note_closest(s, cell);
        if (expand(s, cell) != ASTAR_OK)
            return fail(s, ASTAR_ENOMEM, error);
    }
    if (s->options.partial)
        finish(s, ASTAR_PARTIAL, s->best);
    else
        s->status = s->grid->open[s->goal] ? ASTAR_NO_PATH : ASTAR_GOAL_BLOCKED;
    return s->status;
}

AstarStatus astar_search_run(AstarSearch *search, const AstarGrid *grid,
                             uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                             const AstarOptions *options, AstarError *error)
{
    AstarError e = astar_search_begin(search, grid, sx, sy, gx, gy, options);
    if (e != ASTAR_OK) {
        if (error)
            *error = e;
        return ASTAR_NO_PATH;
    }
    return astar_search_step(search, 0, error);
}

AstarStatus astar_search_status(const AstarSearch *s) { return s->status; }
uint32_t astar_search_end(const AstarSearch *s) { return s->end; }
uint32_t astar_search_start(const AstarSearch *s) { return s->start; }
double astar_search_cost(const AstarSearch *s) { return s->g[s->end]; }
size_t astar_search_length(const AstarSearch *s) { return s->length; }
size_t astar_search_expanded(const AstarSearch *s) { return s->expanded; }
size_t astar_search_touched(const AstarSearch *s) { return s->touched; }

uint32_t astar_search_parent(const AstarSearch *s, uint32_t cell)
{
    uint32_t dir = s->stamp[cell] & STAMP_DIR_MASK;
    return (uint32_t)((long)cell - s->offset[dir]);
}

uint32_t astar_cell_x(const AstarSearch *s, uint32_t cell) { return (uint32_t)cell_x(s, cell) - 1; }
uint32_t astar_cell_y(const AstarSearch *s, uint32_t cell) { return (uint32_t)cell_y(s, cell) - 1; }

size_t astar_search_memory(const AstarSearch *s)
{
    return sizeof *s + s->capacity * (sizeof *s->g + sizeof *s->stamp)
           + s->open.capacity * sizeof *s->open.items;
}
