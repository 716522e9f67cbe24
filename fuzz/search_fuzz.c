/*
 * libFuzzer target: the search core against a plain reference Dijkstra.
 *
 * The input is a small grid (up to 16x16: size, walls, costs drawn from a
 * palette that includes the extremes 1e15 and the smallest denormal) followed
 * by a stream of commands: change a cell, label components, run a query
 * (whole or stepped), change the grid in the middle of a stepped search,
 * encode + decode the grid. Every answer is checked against the reference
 * written here from the README's cost model, on a mirror of the grid kept by
 * this file (never read back from the core):
 *   - same reachability (found / no path / goal blocked);
 *   - a valid path: starts at the start, legal steps for the diagonal mode,
 *     walkable cells, its summed cost equals the reported one;
 *   - the optimal cost (1e-9 relative) for weight 1 with an admissible
 *     heuristic, cost <= w * optimal for weight w;
 *   - partial results end at a reached cell closest to the goal;
 *   - a stepped search gives the whole search's answer.
 * A failed check aborts, so libFuzzer keeps the input as a crash.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

#define MAX_SIDE 16
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define SQRT2 1.41421356237309504880

static const double COSTS[16] = {
    1, 1, 1, 2, 3, 0.5, 9, 1e15, 4.9406564584124654e-324, 2.2250738585072014e-308,
    1.0000000000000002, 0.1, 1e-9, 123456.789, 1e15, 7.25};
static const double WEIGHTS[8] = {1, 1, 1, 1.5, 2, 10, 1e30, 1.7976931348623157e308};

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} Input;

static unsigned next(Input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

/* The fuzzer's own copy of the grid. */
typedef struct {
    uint32_t w, h;
    int walk[MAX_CELLS];
    double cost[MAX_CELLS];
} Mirror;

#define FAIL(...) do { fprintf(stderr, "search_fuzz: " __VA_ARGS__); \
                       fprintf(stderr, "\n"); abort(); } while (0)

static int open_at(const Mirror *m, int x, int y)
{
    return x >= 0 && y >= 0 && x < (int)m->w && y < (int)m->h && m->walk[y * (int)m->w + x];
}

/* May a unit step from (x, y) by (dx, dy) in this mode? (README "Diagonal modes") */
static int step_allowed(const Mirror *m, AstarDiagonal mode, int x, int y, int dx, int dy)
{
    int a, b;
    if (!open_at(m, x + dx, y + dy))
        return 0;
    if (dx == 0 || dy == 0)
        return 1;
    a = open_at(m, x + dx, y);
    b = open_at(m, x, y + dy);
    switch (mode) {
    case ASTAR_DIAGONAL_ALWAYS: return 1;
    case ASTAR_DIAGONAL_ONE_OBSTACLE: return a || b;
    case ASTAR_DIAGONAL_NO_OBSTACLES: return a && b;
    default: return 0;
    }
}

/* O(n^2) Dijkstra from (sx, sy): dist[] is INFINITY where unreachable. */
static void reference(const Mirror *m, AstarDiagonal mode, int sx, int sy, double *dist)
{
    int done[MAX_CELLS] = {0};
    int n = (int)(m->w * m->h), i;

    for (i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[sy * (int)m->w + sx] = 0;
    for (;;) {
        int best = -1, dx, dy;
        for (i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (best < 0 || dist[i] < dist[best]))
                best = i;
        if (best < 0)
            return;
        done[best] = 1;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                int x = best % (int)m->w, y = best / (int)m->w, j;
                double c;
                if ((dx == 0 && dy == 0) || !step_allowed(m, mode, x, y, dx, dy))
                    continue;
                j = (y + dy) * (int)m->w + x + dx;
                c = dist[best] + (dx && dy ? SQRT2 * m->cost[j] : m->cost[j]);
                if (c < dist[j])
                    dist[j] = c;
            }
    }
}

/* The README's closeness for partial results, computed as the core does. */
static double closeness(AstarHeuristic h, AstarDiagonal mode, int dx, int dy)
{
    double a = fabs((double)dx), b = fabs((double)dy);
    double lo = a < b ? a : b, hi = a < b ? b : a;
    if (h == ASTAR_HEURISTIC_ZERO)
        h = mode == ASTAR_DIAGONAL_NEVER ? ASTAR_HEURISTIC_MANHATTAN : ASTAR_HEURISTIC_OCTILE;
    switch (h) {
    case ASTAR_HEURISTIC_MANHATTAN: return a + b;
    case ASTAR_HEURISTIC_OCTILE: return hi + (SQRT2 - 1.0) * lo;
    case ASTAR_HEURISTIC_EUCLIDEAN: return sqrt(a * a + b * b);
    case ASTAR_HEURISTIC_CHEBYSHEV: return hi;
    default: return 0;
    }
}

static int admissible(const AstarOptions *o)
{
    return o->heuristic != ASTAR_HEURISTIC_MANHATTAN || o->diagonal == ASTAR_DIAGONAL_NEVER;
}

/* a equals b to 1e-9 relative (plus a denormal-sized slack: sums of
 * denormals are rounded to multiples of 2^-1074). */
static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-300;
}

/* Walks the reported path back from its end and checks it; returns its cost. */
static double check_path(const Mirror *m, const AstarSearch *s, const AstarOptions *o,
                         int sx, int sy)
{
    uint32_t cells[MAX_CELLS + 1];
    size_t n = astar_search_length(s), i;
    uint32_t cell = astar_search_end(s);
    double sum = 0;

    if (n < 1 || n > MAX_CELLS)
        FAIL("path length %zu", n);
    for (i = n; i-- > 0;) {
        cells[i] = cell;
        if (i > 0)
            cell = astar_search_parent(s, cell);
    }
    if (cells[0] != astar_search_start(s) || (int)astar_cell_x(s, cells[0]) != sx
        || (int)astar_cell_y(s, cells[0]) != sy)
        FAIL("path does not begin at the start");
    for (i = 1; i < n; i++) {
        int x0 = (int)astar_cell_x(s, cells[i - 1]), y0 = (int)astar_cell_y(s, cells[i - 1]);
        int x1 = (int)astar_cell_x(s, cells[i]), y1 = (int)astar_cell_y(s, cells[i]);
        int dx = x1 - x0, dy = y1 - y0;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)
            || !step_allowed(m, o->diagonal, x0, y0, dx, dy))
            FAIL("illegal step (%d,%d)->(%d,%d) in mode %d", x0, y0, x1, y1, o->diagonal);
        sum += (dx && dy ? SQRT2 : 1.0) * m->cost[y1 * (int)m->w + x1];
    }
    if (!close_to(astar_search_cost(s), sum))
        FAIL("reported cost %.17g, path sums to %.17g", astar_search_cost(s), sum);
    return sum;
}

/* Checks the answer of the query (sx, sy) -> (gx, gy) that just ended. */
static void check_answer(const Mirror *m, const AstarSearch *s, const AstarOptions *o,
                         int sx, int sy, int gx, int gy, AstarStatus status)
{
    double dist[MAX_CELLS], opt, cost;
    int goal = gy * (int)m->w + gx;

    reference(m, o->diagonal, sx, sy, dist);
    opt = dist[goal];
    if (opt < INFINITY) {
        if (status != ASTAR_FOUND)
            FAIL("status %d, but the goal is reachable at cost %.17g", status, opt);
        cost = check_path(m, s, o, sx, sy);
        if (o->weight == 1 && admissible(o) && !close_to(cost, opt))
            FAIL("cost %.17g, optimal %.17g (h %d, mode %d, algorithm %d)", cost, opt,
                 o->heuristic, o->diagonal, astar_search_algorithm(s));
        if (admissible(o) && !(cost <= o->weight * opt * (1 + 1e-9) + 1e-300))
            FAIL("cost %.17g above %g x optimal %.17g", cost, o->weight, opt);
        return;
    }
    if (!o->partial) {
        AstarStatus want = m->walk[goal] ? ASTAR_NO_PATH : ASTAR_GOAL_BLOCKED;
        if (status != want)
            FAIL("status %d, expected %d (goal unreachable)", status, want);
        return;
    }
    if (status != ASTAR_PARTIAL)
        FAIL("status %d, expected partial", status);
    {
        /* the end is a reached cell, and none is closer to the goal */
        int ex, ey, i, n = (int)(m->w * m->h);
        double best = INFINITY, here, cheapest = INFINITY;
        cost = check_path(m, s, o, sx, sy);
        ex = (int)astar_cell_x(s, astar_search_end(s));
        ey = (int)astar_cell_y(s, astar_search_end(s));
        for (i = 0; i < n; i++)
            if (dist[i] < INFINITY) {
                double d = closeness(o->heuristic, o->diagonal, i % (int)m->w - gx,
                                     i / (int)m->w - gy);
                best = d < best ? d : best;
            }
        here = closeness(o->heuristic, o->diagonal, ex - gx, ey - gy);
        if (here != best)
            FAIL("partial path ends %.17g from the goal; a reached cell is %.17g", here, best);
        for (i = 0; i < n; i++)
            if (dist[i] < cheapest && closeness(o->heuristic, o->diagonal, i % (int)m->w - gx,
                                                i / (int)m->w - gy) == best)
                cheapest = dist[i];
        if (o->weight == 1 && admissible(o)
            && (!close_to(cost, dist[ey * (int)m->w + ex]) || !close_to(cost, cheapest)))
            FAIL("partial cost %.17g; optimal to the end %.17g, cheapest closest %.17g",
                 cost, dist[ey * (int)m->w + ex], cheapest);
    }
}

static void read_options(Input *in, AstarOptions *o)
{
    unsigned a = next(in), b = next(in);
    memset(o, 0, sizeof *o);
    o->diagonal = (AstarDiagonal)(a & 3);
    o->heuristic = (AstarHeuristic)((a >> 2) % 5);
    o->partial = (a >> 5) & 1;
    o->weight = (b & 8) ? WEIGHTS[b & 7] : 1.0;
    o->algorithm = (AstarAlgorithm)((b >> 4) % 4);   /* 3: an unknown value means AUTO */
}

/* Returns 0 when out of memory, 1 when the cell stayed as it was, 2 when it changed. */
static int set_cell(Input *in, AstarGrid *grid, Mirror *m)
{
    uint32_t x = next(in) % m->w, y = next(in) % m->h;
    unsigned v = next(in);
    int i = (int)(y * m->w + x);

    if (v & 0x80) {
        int was = m->walk[i];
        m->walk[i] = (v & 1) != 0;
        astar_grid_set_walkable(grid, x, y, m->walk[i]);
        return was == m->walk[i] ? 1 : 2;
    }
    if (astar_grid_set_cost(grid, x, y, COSTS[v & 15]) != ASTAR_OK)
        return 0;
    if (m->cost[i] == COSTS[v & 15])
        return 1;
    m->cost[i] = COSTS[v & 15];
    return 2;
}

static void query(Input *in, AstarGrid *grid, AstarSearch *search, const Mirror *m,
                  int stepped)
{
    int sx = (int)(next(in) % m->w), sy = (int)(next(in) % m->h);
    int gx = (int)(next(in) % m->w), gy = (int)(next(in) % m->h);
    size_t budget = 1 + next(in) % 7;
    AstarOptions o;
    AstarError e;
    AstarStatus st;
    double whole;

    read_options(in, &o);
    st = astar_search_run(search, grid, (uint32_t)sx, (uint32_t)sy, (uint32_t)gx,
                          (uint32_t)gy, &o, &e);
    if (e != ASTAR_OK)
        FAIL("search error %d", e);
    check_answer(m, search, &o, sx, sy, gx, gy, st);
    if (st == ASTAR_NO_PATH)
        astar_grid_note_no_path(grid, search);
    if (!stepped)
        return;
    whole = st == ASTAR_FOUND || st == ASTAR_PARTIAL ? astar_search_cost(search) : -1;
    if (astar_search_begin(search, grid, (uint32_t)sx, (uint32_t)sy, (uint32_t)gx,
                           (uint32_t)gy, &o) != ASTAR_OK)
        FAIL("begin failed");
    do
        st = astar_search_step(search, budget, &e);
    while (st == ASTAR_SEARCHING && e == ASTAR_OK);
    if (e != ASTAR_OK)
        FAIL("stepped search error %d", e);
    check_answer(m, search, &o, sx, sy, gx, gy, st);
    if ((st == ASTAR_FOUND || st == ASTAR_PARTIAL) != (whole >= 0)
        || (whole >= 0 && astar_search_cost(search) != whole))
        FAIL("stepped search differs from the whole search");
}

/* Changing the grid under a running search: a change it has not reached
 * leaves it alone, one it has reached starts it again; either way its answer
 * is the right one for the grid as it is when it finishes. A search that had
 * finished keeps its result, and writes that change nothing restart nothing,
 * except that labels rebuilt by its steps (astar_search_prepare_step, with
 * walls closed by earlier inputs) may prove its goal cut off: that restart
 * ends it with no path. */
static void changed_under_search(Input *in, AstarGrid *grid, AstarSearch *search, Mirror *m)
{
    AstarOptions o;
    AstarError e;
    AstarStatus st, before;
    uint32_t gx = m->w - 1, gy = m->h - 1;
    size_t budget = 1 + next(in) % 4;
    unsigned writes = 1 + next(in) % 3, k;
    int changed = 0, r;
    double cost;

    read_options(in, &o);
    if (astar_search_begin(search, grid, 0, 0, gx, gy, &o) != ASTAR_OK)
        FAIL("begin failed");
    before = st = astar_search_step(search, budget, &e);
    cost = st == ASTAR_FOUND || st == ASTAR_PARTIAL ? astar_search_cost(search) : -1.0;
    for (k = 0; k < writes; k++) {
        if (!(r = set_cell(in, grid, m)))
            return;
        changed |= r == 2;
    }
    do {
        astar_search_prepare_step(search, grid);
        st = astar_search_step(search, budget, &e);
    } while (st == ASTAR_SEARCHING && e == ASTAR_OK);
    if (e != ASTAR_OK)
        FAIL("stepped search error %d", e);
    if (before != ASTAR_SEARCHING) {
        if (st != before || (cost >= 0.0 && astar_search_cost(search) != cost)
            || astar_search_restarts(search) != 0)
            FAIL("a finished search changed its result");
        return;
    }
    if (!changed && astar_search_restarts(search) != 0 && st != ASTAR_NO_PATH)
        FAIL("writes that changed nothing restarted a search");
    check_answer(m, search, &o, 0, 0, (int)gx, (int)gy, st);
}

/* encode + decode gives the same cells. */
static void round_trip(const AstarGrid *grid, const Mirror *m);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in = {data, size, 0};
    Mirror m;
    AstarGrid *grid;
    AstarSearch *search;
    uint32_t x, y;
    unsigned density;
    int ops = 0;

    m.w = 1 + next(&in) % MAX_SIDE;
    m.h = 1 + next(&in) % MAX_SIDE;
    density = next(&in) % 8;
    if (astar_grid_new(&grid, m.w, m.h) != ASTAR_OK)
        return 0;
    search = astar_search_new();
    if (!search) {
        astar_grid_free(grid);
        return 0;
    }
    for (y = 0; y < m.h; y++)
        for (x = 0; x < m.w; x++) {
            unsigned v = next(&in);
            int i = (int)(y * m.w + x);
            m.walk[i] = (v & 7) >= density;
            m.cost[i] = 1;
            if (!m.walk[i])
                astar_grid_set_walkable(grid, x, y, 0);
            if ((v >> 3) & 1) {
                if (astar_grid_set_cost(grid, x, y, COSTS[v >> 4]) != ASTAR_OK)
                    goto done;
                m.cost[i] = COSTS[v >> 4];
            }
        }
    while (in.pos < in.size && ops++ < 64) {
        switch (next(&in) % 8) {
        case 0:
        case 1:
            if (!set_cell(&in, grid, &m))
                goto done;
            break;
        case 2:
            (void)astar_grid_label_components(grid);
            break;
        case 3:
            changed_under_search(&in, grid, search, &m);
            break;
        case 4:
            round_trip(grid, &m);
            break;
        case 5:
            query(&in, grid, search, &m, 1);
            break;
        default:
            query(&in, grid, search, &m, 0);
            break;
        }
    }
done:
    astar_search_free(search);
    astar_grid_free(grid);
    return 0;
}

typedef struct {
    unsigned char bytes[8192];
    size_t length;
} Buffer;

static void write_buffer(void *user, const void *bytes, size_t length)
{
    Buffer *b = (Buffer *)user;
    if (length > sizeof b->bytes - b->length)
        FAIL("encoding longer than expected");
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
}

static void round_trip(const AstarGrid *grid, const Mirror *m)
{
    static const AstarGridSettings settings = {
        ASTAR_DIAGONAL_ONE_OBSTACLE, ASTAR_HEURISTIC_EUCLIDEAN, 1, 2.5};
    Buffer *b = malloc(sizeof *b);
    AstarGridSettings back;
    AstarGrid *copy = NULL;
    char message[64];
    uint32_t x, y;

    if (!b)
        return;
    b->length = 0;
    astar_grid_encode(grid, &settings, write_buffer, b);
    if (b->length != astar_grid_encoded_size(grid))
        FAIL("encoded %zu bytes, size said %zu", b->length, astar_grid_encoded_size(grid));
    if (astar_grid_decode(&copy, &back, b->bytes, b->length, message, sizeof message)
        != ASTAR_OK)
        FAIL("decode of an encoding failed: %s", message);
    if (astar_grid_width(copy) != m->w || astar_grid_height(copy) != m->h
        || memcmp(&back.weight, &settings.weight, sizeof back.weight) != 0
        || back.diagonal != settings.diagonal || back.heuristic != settings.heuristic)
        FAIL("decode changed the size or settings");
    for (y = 0; y < m->h; y++)
        for (x = 0; x < m->w; x++) {
            int i = (int)(y * m->w + x);
            if (!astar_grid_walkable(copy, x, y) != !m->walk[i]
                || astar_grid_cost(copy, x, y) != m->cost[i])
                FAIL("decode changed cell (%u, %u)", x, y);
        }
    astar_grid_free(copy);
    free(b);
}
