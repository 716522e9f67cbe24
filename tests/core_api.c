/*
 * The C core used from C alone, no Lua: the calls a C or C++ game would make,
 * including the ones the Lua binding never needs (versions, memory reports,
 * walking a path by hand). `make valgrind` runs it under memcheck, so every
 * public C function is covered there. Expected values are worked out by hand
 * in the comments, or by independent references written here (a plain
 * Dijkstra, cell-by-cell scans), never taken from the library.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"
#include "astar_hex.h"
#include "astar_geometry.h"
#include "clearance.h"      /* large units: the layers, compared word for word */
#include "grid_layout.h"
#include "segment.h"       /* any-angle paths: each segment checked with the model */

static int failures;
static long checks;

#define CHECK(cond)                                                          \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                      \
        }                                                                    \
    } while (0)

/* ---- independent references for the checks below ------------------------ */

/* Park-Miller, as in bench/driver.c: the seed lives in the caller. */
static uint32_t next_random(uint64_t *seed)
{
    *seed = (*seed * 16807u) % 2147483647u;
    return (uint32_t)*seed;
}

#define REF_MAX 256   /* cells of the largest grid given to dijkstra() */

/* The lowest cost of any cell, read cell by cell through the public API. */
static double lowest_cost(const AstarGrid *grid)
{
    uint32_t x, y, w = astar_grid_width(grid), h = astar_grid_height(grid);
    double lowest = astar_grid_cost(grid, 0, 0);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (astar_grid_cost(grid, x, y) < lowest)
                lowest = astar_grid_cost(grid, x, y);
    return lowest;
}

static int uniform_costs(const AstarGrid *grid)
{
    uint32_t x, y, w = astar_grid_width(grid), h = astar_grid_height(grid);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (astar_grid_cost(grid, x, y) != astar_grid_cost(grid, 0, 0))
                return 0;
    return 1;
}

/* May a path step from (x, y) by (dx, dy) under this diagonal mode? */
static int step_allowed(const AstarGrid *grid, AstarDiagonal mode, long x, long y, int dx, int dy)
{
    long w = (long)astar_grid_width(grid), h = (long)astar_grid_height(grid);
    long nx = x + dx, ny = y + dy;
    int a, b;

    if (nx < 0 || ny < 0 || nx >= w || ny >= h
        || !astar_grid_walkable(grid, (uint32_t)nx, (uint32_t)ny))
        return 0;
    if (dx == 0 || dy == 0)
        return 1;
    if (mode == ASTAR_DIAGONAL_NEVER)
        return 0;
    a = astar_grid_walkable(grid, (uint32_t)nx, (uint32_t)y);
    b = astar_grid_walkable(grid, (uint32_t)x, (uint32_t)ny);
    return mode == ASTAR_DIAGONAL_ALWAYS ? 1
           : mode == ASTAR_DIAGONAL_ONE_OBSTACLE ? (a || b) : (a && b);
}

/* A plain O(cells^2) Dijkstra on the public accessors: the cheapest cost
 * from (sx, sy) to (gx, gy) (entering a cell costs its cost, times sqrt 2
 * diagonally), or -1 when there is no path. It is reported as a path's
 * cost is (search_record.c): S + sqrt2 * D, the costs of the cells entered
 * straight and diagonally summed apart; with these dyadic costs S and D are
 * exact and the same for every cheapest path, so the bits are the optimum's. */
static double dijkstra(const AstarGrid *grid, AstarDiagonal mode, uint32_t sx, uint32_t sy,
                       uint32_t gx, uint32_t gy)
{
    double dist[REF_MAX], straight[REF_MAX], diagonal[REF_MAX];
    int done[REF_MAX];
    uint32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
    size_t n = (size_t)w * h, i, best;
    int dx, dy;

    if (n > REF_MAX)
        return -2.0;
    for (i = 0; i < n; i++) {
        dist[i] = -1.0;
        done[i] = 0;
    }
    dist[sy * w + sx] = straight[sy * w + sx] = diagonal[sy * w + sx] = 0.0;
    for (;;) {
        long x, y;
        for (best = n, i = 0; i < n; i++)
            if (!done[i] && dist[i] >= 0.0 && (best == n || dist[i] < dist[best]))
                best = i;
        if (best == n)
            return -1.0;
        if (best == gy * w + gx)
            return dist[best];
        done[best] = 1;
        x = (long)(best % w);
        y = (long)(best / w);
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                size_t k;
                double c, st, di, d;
                if ((dx == 0 && dy == 0) || !step_allowed(grid, mode, x, y, dx, dy))
                    continue;
                k = (size_t)(y + dy) * w + (size_t)(x + dx);
                c = astar_grid_cost(grid, (uint32_t)(x + dx), (uint32_t)(y + dy));
                st = straight[best] + (dx && dy ? 0.0 : c);
                di = diagonal[best] + (dx && dy ? c : 0.0);
                d = st + 1.41421356237309504880 * di;
                if (!done[k] && (dist[k] < 0.0 || d < dist[k])) {
                    dist[k] = d;
                    straight[k] = st;
                    diagonal[k] = di;
                }
            }
    }
}

/* The search's path walked from its start: each step allowed, the costs of
 * the cells entered straight and diagonally summed apart, in path order, as
 * a path's cost is reported (S + sqrt2 * D). Returns the cost, or -1 when
 * the path breaks a rule. */
static double walk_cost(const AstarSearch *search, const AstarGrid *grid, AstarDiagonal mode)
{
    uint32_t cells[REF_MAX];
    size_t n = astar_search_length(search), k;
    uint32_t cell = astar_search_end(search);
    double straight = 0.0, diagonal = 0.0;

    if (n > REF_MAX || n == 0)
        return -1.0;
    for (k = n; k-- > 0;) {
        cells[k] = cell;
        if (k > 0)
            cell = astar_search_parent(search, cell);
    }
    if (cells[0] != astar_search_start(search))
        return -1.0;
    for (k = 1; k < n; k++) {
        long x0 = astar_cell_x(search, cells[k - 1]), y0 = astar_cell_y(search, cells[k - 1]);
        long x1 = astar_cell_x(search, cells[k]), y1 = astar_cell_y(search, cells[k]);
        int dx = (int)(x1 - x0), dy = (int)(y1 - y0);
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)
            || !step_allowed(grid, mode, x0, y0, dx, dy))
            return -1.0;
        if (dx && dy)
            diagonal += astar_grid_cost(grid, (uint32_t)x1, (uint32_t)y1);
        else
            straight += astar_grid_cost(grid, (uint32_t)x1, (uint32_t)y1);
    }
    return straight + 1.41421356237309504880 * diagonal;
}

/* A new grid and search for a test, or 0 (and a failure) if there is no memory. */
static int setup(AstarGrid **grid, uint32_t w, uint32_t h, AstarSearch **search)
{
    *grid = NULL;
    checks++;
    if ((search && !(*search = astar_search_new())) || astar_grid_new(grid, w, h) != ASTAR_OK) {
        fprintf(stderr, "core_api: out of memory\n");
        failures++;
        if (search)
            astar_search_free(*search);
        return 0;
    }
    return 1;
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) > 1.0 ? fabs(a) : 1.0);
}

static void set_options(AstarOptions *o, AstarDiagonal mode, AstarAlgorithm algorithm)
{
    memset(o, 0, sizeof *o);
    o->diagonal = mode;
    o->heuristic = mode == ASTAR_DIAGONAL_NEVER ? ASTAR_HEURISTIC_MANHATTAN
                                                : ASTAR_HEURISTIC_OCTILE;
    o->weight = 1.0;
    o->algorithm = algorithm;
}

/* ---- the lowest cost, kept in O(1) amortized ---------------------------- */

/* What astar_grid_min_cost may say at any moment: a lower bound of every
 * cost, the lowest itself when it says it is exact; and JPS offered only
 * when every cost is the same. */
static void check_min_cost(const AstarGrid *grid, const char *when)
{
    int exact = -1;
    double bound = astar_grid_min_cost(grid, &exact), lowest = lowest_cost(grid);
    int uniform = uniform_costs(grid);

    checks++;
    if (!(bound <= lowest && (exact == 0 || (exact == 1 && bound == lowest)))
        || (astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER) && !uniform)) {
        fprintf(stderr, "core_api: %s: bound %g (exact %d), lowest %g, uniform %d\n", when,
                bound, exact, lowest, uniform);
        failures++;
    }
}

/* After refreshing, exact; JPS offered exactly when the costs are uniform. */
static void check_refreshed(AstarGrid *grid, const char *when)
{
    int exact = -1;
    double bound;

    astar_grid_refresh_min_cost(grid);
    bound = astar_grid_min_cost(grid, &exact);
    checks++;
    if (exact != 1 || bound != lowest_cost(grid)
        || astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER) != uniform_costs(grid)
        || astar_jps_supported(grid, ASTAR_DIAGONAL_NO_OBSTACLES) != uniform_costs(grid)
        || astar_jps_supported(grid, ASTAR_DIAGONAL_ALWAYS)) {
        fprintf(stderr, "core_api: %s, refreshed: bound %g (exact %d), lowest %g\n", when,
                bound, exact, lowest_cost(grid));
        failures++;
    }
}

/* Writes cost to cell at (scan index) of grid, then checks what the grid
 * says of its lowest cost; *stale_run counts the writes in a row after which
 * it was only a bound, *stale_seen all of them. */
static void write_cost(AstarGrid *grid, size_t at, double cost, size_t *stale_run,
                       size_t *longest, size_t *stale_seen)
{
    uint32_t w = astar_grid_width(grid);
    int exact;

    CHECK(astar_grid_set_cost(grid, (uint32_t)(at % w), (uint32_t)(at / w), cost) == ASTAR_OK);
    check_min_cost(grid, "after a write");
    astar_grid_min_cost(grid, &exact);
    *stale_run = exact ? 0 : *stale_run + 1;
    *stale_seen += !exact;
    if (*stale_run > *longest)
        *longest = *stale_run;
}

/* Whole-grid rewrites, rising and falling, in scan order and in reverse:
 * the minimum is right (or a lower bound saying so) after every write, exact
 * after a refresh, and a bound for at most cells / 16 writes in a row. */
static void test_min_cost_passes(void)
{
    const uint32_t w = 24, h = 20;
    const size_t n = (size_t)w * h;
    AstarGrid *grid;
    size_t k, pass, run = 0, longest = 0, stale = 0;
    int exact;
    double bound;

    if (!setup(&grid, w, h, NULL))
        return;
    for (pass = 0; pass < 8; pass++) {
        int rising = pass % 2 == 0, reverse = (pass / 2) % 2 == 1;
        double base = 10.0 + 1000.0 * (double)pass;
        for (k = 0; k < n; k++) {
            /* the k-th written cell gets base + k (rising) or base + n - k */
            write_cost(grid, reverse ? n - 1 - k : k,
                       rising ? base + (double)k : base + (double)(n - k), &run, &longest,
                       &stale);
        }
        /* rising: the first cell written is the cheapest; falling: the last */
        CHECK(lowest_cost(grid) == (rising ? base : base + 1.0));
        if (pass == 4)
            continue;                    /* the next pass starts from a bound, if stale */
        check_refreshed(grid, "after a pass");
        run = 0;
    }
    /* Falling passes lower the lowest cost at every write; rising ones over
     * a rising field raise its holder every time: there the bound goes stale,
     * for cells / 16 writes at most. */
    CHECK(stale > 0 && longest <= n / 16);

    /* Back to one cost for all, from the cheapest cell on, in scan order:
     * never uniform before the last write, and uniform after it */
    for (k = 0; k < n; k++)
        write_cost(grid, k, 9000.0, &run, &longest, &stale);
    CHECK(uniform_costs(grid));
    check_refreshed(grid, "uniform again");
    CHECK(astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    CHECK(astar_grid_set_cost(grid, 3, 4, 9001.0) == ASTAR_OK);
    CHECK(!astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    CHECK(astar_grid_set_cost(grid, 3, 4, 9000.0) == ASTAR_OK);
    CHECK(astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    /* Raising a uniform grid to another uniform cost, or lowering one cell
     * and raising it back, is seen at once: the second lowest cost is known
     * in both cases. */
    for (k = 0; k < n; k++)
        write_cost(grid, k, 9400.0, &run, &longest, &stale);
    CHECK(astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    for (k = 0; k < n; k++)
        write_cost(grid, n - 1 - k, 9500.0, &run, &longest, &stale);
    CHECK(astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    CHECK(astar_grid_set_cost(grid, 5, 5, 2.0) == ASTAR_OK);
    CHECK(astar_grid_set_cost(grid, 5, 5, 9500.0) == ASTAR_OK);
    CHECK(astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    CHECK(astar_grid_min_cost(grid, &exact) == 9500.0 && exact == 1);

    /* A rising field rewritten rising: stale within a few writes. A cost at
     * or below the bound is then the lowest at once, held by one cell. */
    for (k = 0; k < n; k++)
        write_cost(grid, k, 10000.0 + (double)k, &run, &longest, &stale);
    for (k = 0; k < n; k++) {
        write_cost(grid, k, 20000.0 + (double)k, &run, &longest, &stale);
        if (run > 0)
            break;
    }
    CHECK(k < 5 && run == 1);
    bound = astar_grid_min_cost(grid, &exact);
    CHECK(exact == 0 && !astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER));
    CHECK(astar_grid_set_cost(grid, 7, 7, bound) == ASTAR_OK);
    CHECK(astar_grid_min_cost(grid, &exact) == bound && exact == 1);
    CHECK(astar_grid_set_cost(grid, 7, 7, bound - 1.0) == ASTAR_OK);
    CHECK(astar_grid_min_cost(grid, &exact) == bound - 1.0 && exact == 1);
    /* every cell the same again, by writes alone: exact once cells / 16
     * writes have passed, without a refresh */
    run = 0;
    for (k = 0; k < n; k++)
        write_cost(grid, n - 1 - k, 30000.0, &run, &longest, &stale);
    for (k = 0; k < n / 16 + 2 && !astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER); k += 2) {
        write_cost(grid, 0, 30001.0, &run, &longest, &stale);
        write_cost(grid, 0, 30000.0, &run, &longest, &stale);
    }
    CHECK(astar_jps_supported(grid, ASTAR_DIAGONAL_NEVER) && longest <= n / 16);
    CHECK(astar_grid_min_cost(grid, NULL) == 30000.0);
    astar_grid_free(grid);
}

/* Random walls and costs, random rewrites: A* answers what a plain Dijkstra
 * does, in every diagonal mode, whether or not the bound was refreshed. */
static void test_min_cost_random(void)
{
    static const double COSTS[] = {1.0, 1.5, 2.0, 3.25, 7.0, 0.5, 12.0};
    const uint32_t w = 13, h = 11;
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    uint64_t seed = 2024;
    int round, q, m, mismatches = 0, compared = 0;
    size_t k;

    if (!setup(&grid, w, h, &search))
        return;
    for (k = 0; k < (size_t)w * h; k++)
        if (next_random(&seed) % 5 == 0)
            astar_grid_set_walkable(grid, (uint32_t)(k % w), (uint32_t)(k / w), 0);
    for (round = 0; round < 60; round++) {
        int writes = (int)(next_random(&seed) % 80) + 1, i;
        for (i = 0; i < writes; i++) {
            uint32_t x = next_random(&seed) % w, y = next_random(&seed) % h;
            /* some rounds only raise: the cheapest cells disappear */
            double cost = round % 3 == 1 ? astar_grid_cost(grid, x, y) + 1.0
                                         : COSTS[next_random(&seed) % 7];
            CHECK(astar_grid_set_cost(grid, x, y, cost) == ASTAR_OK);
            check_min_cost(grid, "random rewrites");
        }
        if (round % 2 == 0)
            astar_grid_refresh_min_cost(grid);
        for (q = 0; q < 6; q++) {
            uint32_t sx = next_random(&seed) % w, sy = next_random(&seed) % h;
            uint32_t gx = next_random(&seed) % w, gy = next_random(&seed) % h;
            for (m = 0; m < 4; m++) {
                AstarError error;
                AstarStatus status;
                double want = dijkstra(grid, (AstarDiagonal)m, sx, sy, gx, gy);
                set_options(&options, (AstarDiagonal)m, ASTAR_ALGORITHM_AUTO);
                status = astar_search_run(search, grid, sx, sy, gx, gy, &options, &error);
                compared++;
                if (error != ASTAR_OK
                    || (want < 0.0 ? status == ASTAR_FOUND
                                   : status != ASTAR_FOUND
                                         || !close_to(astar_search_cost(search), want)
                                         || walk_cost(search, grid, (AstarDiagonal)m)
                                                != astar_search_cost(search)))
                    mismatches++;
            }
        }
    }
    CHECK(compared == 60 * 6 * 4 && mismatches == 0);
    if (mismatches)
        fprintf(stderr, "core_api: %d of %d queries differ from Dijkstra\n", mismatches, compared);

    /* Every cost the same again (not 1): jump point search is offered after
     * the refresh and agrees with Dijkstra. */
    for (k = 0; k < (size_t)w * h; k++)
        CHECK(astar_grid_set_cost(grid, (uint32_t)(k % w), (uint32_t)(k / w), 2.5) == ASTAR_OK);
    check_refreshed(grid, "random grid made uniform");
    for (q = 0; q < 20; q++) {
        uint32_t sx = next_random(&seed) % w, sy = next_random(&seed) % h;
        uint32_t gx = next_random(&seed) % w, gy = next_random(&seed) % h;
        AstarError error;
        AstarStatus status;
        double want = dijkstra(grid, ASTAR_DIAGONAL_NO_OBSTACLES, sx, sy, gx, gy);
        if (!astar_grid_walkable(grid, sx, sy) || sx == gx || sy == gy)
            continue;
        set_options(&options, ASTAR_DIAGONAL_NO_OBSTACLES, ASTAR_ALGORITHM_AUTO);
        status = astar_search_run(search, grid, sx, sy, gx, gy, &options, &error);
        CHECK(error == ASTAR_OK && (want < 0.0 || astar_search_expanded(search) == 0
                                    || astar_search_algorithm(search) == ASTAR_ALGORITHM_JPS));
        CHECK(want < 0.0 ? status != ASTAR_FOUND
                         : status == ASTAR_FOUND && close_to(astar_search_cost(search), want));
    }
    astar_search_free(search);
    astar_grid_free(grid);
}

/* ---- writes that change nothing ----------------------------------------- */

static void test_noop_writes(void)
{
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    AstarError error;
    AstarStatus status;
    uint64_t v;

    if (!setup(&grid, 6, 5, &search))
        return;
    v = astar_grid_version(grid);
    astar_grid_set_walkable(grid, 2, 2, 1);                 /* open already */
    CHECK(astar_grid_set_cost(grid, 2, 2, 1.0) == ASTAR_OK); /* no cost layer, cost 1 */
    CHECK(astar_grid_version(grid) == v);
    astar_grid_set_walkable(grid, 2, 2, 0);                 /* real changes count */
    CHECK(astar_grid_version(grid) == v + 1);
    astar_grid_set_walkable(grid, 2, 2, 0);
    astar_grid_set_walkable(grid, 2, 2, 0);
    CHECK(astar_grid_version(grid) == v + 1);
    CHECK(astar_grid_set_cost(grid, 4, 1, 2.5) == ASTAR_OK);
    CHECK(astar_grid_version(grid) == v + 2);
    CHECK(astar_grid_set_cost(grid, 4, 1, 2.5) == ASTAR_OK); /* the same cost again */
    CHECK(astar_grid_set_cost(grid, 0, 0, 1.0) == ASTAR_OK); /* with a cost layer */
    astar_grid_set_walkable(grid, 4, 1, 1);
    CHECK(astar_grid_version(grid) == v + 2);
    CHECK(astar_grid_set_cost(grid, 4, 1, 1.0) == ASTAR_OK);
    astar_grid_set_walkable(grid, 2, 2, 1);
    CHECK(astar_grid_version(grid) == v + 4);
    CHECK(astar_grid_walkable(grid, 2, 2) && astar_grid_cost(grid, 4, 1) == 1.0);

    /* a stepped search goes on across writes that change nothing */
    set_options(&options, ASTAR_DIAGONAL_NEVER, ASTAR_ALGORITHM_ASTAR);
    CHECK(astar_search_begin(search, grid, 0, 0, 5, 4, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 2, &error) == ASTAR_SEARCHING && error == ASTAR_OK);
    astar_grid_set_walkable(grid, 3, 3, 1);
    CHECK(astar_grid_set_cost(grid, 3, 3, 1.0) == ASTAR_OK);
    status = astar_search_step(search, 0, &error);
    CHECK(status == ASTAR_FOUND && error == ASTAR_OK && astar_search_cost(search) == 9.0);
    CHECK(astar_search_restarts(search) == 0);
    /* and starts again after one on a cell it has touched (the start) */
    CHECK(astar_search_begin(search, grid, 0, 0, 5, 4, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 2, &error) == ASTAR_SEARCHING);
    CHECK(astar_grid_set_cost(grid, 0, 0, 1.5) == ASTAR_OK);
    status = astar_search_step(search, 0, &error);
    CHECK(status == ASTAR_FOUND && error == ASTAR_OK && astar_search_cost(search) == 9.0
          && astar_search_restarts(search) == 1);
    astar_search_free(search);
    astar_grid_free(grid);
}

/* ---- searches that survive changes to their grid ------------------------ */

/* Steps the search to its end; checks the cost against the reference and the
 * path against the grid as it is now, and the restart count. */
static void finish_and_check(AstarSearch *search, const AstarGrid *grid, AstarDiagonal mode,
                             uint32_t gx, uint32_t gy, size_t restarts, const char *what)
{
    AstarError error;
    AstarStatus status;
    double want = dijkstra(grid, mode, 0, 0, gx, gy);
    int before = failures;

    while ((status = astar_search_step(search, 3, &error)) == ASTAR_SEARCHING)
        ;
    CHECK(error == ASTAR_OK && status == ASTAR_FOUND && want >= 0.0);
    CHECK(close_to(astar_search_cost(search), want));
    CHECK(close_to(walk_cost(search, grid, mode), want));
    CHECK(astar_search_restarts(search) == restarts);
    if (failures != before)
        fprintf(stderr, "core_api: ... in %s (restarts %lu)\n", what,
                (unsigned long)astar_search_restarts(search));
}

/* The path of two searches, cell by cell. */
static int same_path(const AstarSearch *a, const AstarSearch *b)
{
    AstarPathCursor pa, pb;
    size_t k;

    if (astar_search_length(a) != astar_search_length(b)
        || astar_search_cost(a) != astar_search_cost(b))
        return 0;
    astar_path_end(a, &pa);
    astar_path_end(b, &pb);
    for (k = 1;; k++) {
        if (pa.x != pb.x || pa.y != pb.y)
            return 0;
        if (k == astar_search_length(a))
            return 1;
        astar_path_back(a, &pa);
        astar_path_back(b, &pb);
    }
}

static void test_restarts(void)
{
    AstarGrid *grid;
    AstarSearch *search, *fresh;
    AstarOptions options;
    AstarError error;
    size_t touched;
    int k;

    if (!setup(&grid, 16, 16, &search))
        return;
    fresh = astar_search_new();
    CHECK(fresh != NULL);
    if (!fresh) {
        astar_search_free(search);
        astar_grid_free(grid);
        return;
    }
    set_options(&options, ASTAR_DIAGONAL_NEVER, ASTAR_ALGORITHM_ASTAR);

    /* a change far from every cell it touched: it goes on, and its answer is
     * a new search's on the changed grid, cell for cell */
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 3, &error) == ASTAR_SEARCHING);
    astar_grid_set_walkable(grid, 15, 0, 0);
    CHECK(astar_grid_set_cost(grid, 0, 15, 3.0) == ASTAR_OK);
    astar_grid_set_walkable(grid, 14, 15, 0);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NEVER, 15, 15, 0, "far changes");
    CHECK(astar_search_run(fresh, grid, 0, 0, 15, 15, &options, &error) == ASTAR_FOUND);
    CHECK(same_path(search, fresh)
          && astar_search_expanded(search) == astar_search_expanded(fresh)
          && astar_search_touched(search) == astar_search_touched(fresh));

    /* a change on or beside a touched cell starts it again; the counters go
     * on adding up: the 3 expansions before, and the new run's */
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 3, &error) == ASTAR_SEARCHING);
    touched = astar_search_touched(search);
    astar_grid_set_walkable(grid, 1, 1, 0);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NEVER, 15, 15, 1, "a touched cell");
    CHECK(astar_search_run(fresh, grid, 0, 0, 15, 15, &options, &error) == ASTAR_FOUND);
    CHECK(same_path(search, fresh));
    CHECK(astar_search_expanded(search) == 3 + astar_search_expanded(fresh)
          && astar_search_touched(search) == touched + astar_search_touched(fresh));
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_restarts(search) == 0);          /* a new query counts again */
    CHECK(astar_search_step(search, 1, &error) == ASTAR_SEARCHING);
    CHECK(astar_grid_set_cost(grid, 1, 0, 5.0) == ASTAR_OK);   /* a cost on a touched cell */
    finish_and_check(search, grid, ASTAR_DIAGONAL_NEVER, 15, 15, 1, "a touched cost");
    CHECK(astar_grid_set_cost(grid, 1, 0, 1.0) == ASTAR_OK);
    astar_grid_set_walkable(grid, 1, 1, 1);

    /* the corner rule: a wall beside the start opens, allowing a diagonal */
    set_options(&options, ASTAR_DIAGONAL_NO_OBSTACLES, ASTAR_ALGORITHM_ASTAR);
    astar_grid_set_walkable(grid, 1, 0, 0);
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 1, &error) == ASTAR_SEARCHING);
    astar_grid_set_walkable(grid, 1, 0, 1);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NO_OBSTACLES, 15, 15, 1, "the corner rule");

    /* the lowest cost scales the heuristic: a change of it, however far */
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 2, &error) == ASTAR_SEARCHING);
    CHECK(astar_grid_set_cost(grid, 15, 0, 0.5) == ASTAR_OK);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NO_OBSTACLES, 15, 15, 1, "the lowest cost");
    CHECK(astar_grid_set_cost(grid, 15, 0, 1.0) == ASTAR_OK);
    CHECK(astar_grid_set_cost(grid, 0, 15, 1.0) == ASTAR_OK);
    astar_grid_set_walkable(grid, 15, 0, 1);
    astar_grid_set_walkable(grid, 14, 15, 1);
    astar_grid_prepare(grid);

    /* jump point search reads whole lines: any change starts it again */
    set_options(&options, ASTAR_DIAGONAL_NO_OBSTACLES, ASTAR_ALGORITHM_JPS);
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_algorithm(search) == ASTAR_ALGORITHM_JPS);
    CHECK(astar_search_step(search, 1, &error) == ASTAR_SEARCHING);
    astar_grid_set_walkable(grid, 0, 15, 0);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NO_OBSTACLES, 15, 15, 1, "JPS");
    CHECK(astar_search_algorithm(search) == ASTAR_ALGORITHM_ASTAR);   /* A* from then on */
    astar_grid_set_walkable(grid, 0, 15, 1);
    /* so that later changes it has not reached leave it alone */
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 1, &error) == ASTAR_SEARCHING);
    astar_grid_set_walkable(grid, 0, 15, 0);
    CHECK(astar_search_step(search, 1, &error) == ASTAR_SEARCHING
          && astar_search_algorithm(search) == ASTAR_ALGORITHM_ASTAR);
    astar_grid_set_walkable(grid, 0, 15, 1);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NO_OBSTACLES, 15, 15, 1, "JPS, then A*");

    /* the grid remembers its last 64 changes: 64 far ones are checked, 66
     * are too many (even though the cell ends as it was) */
    set_options(&options, ASTAR_DIAGONAL_NEVER, ASTAR_ALGORITHM_ASTAR);
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 3, &error) == ASTAR_SEARCHING);
    for (k = 0; k < 64; k++)
        astar_grid_set_walkable(grid, 15, 0, k % 2);
    CHECK(astar_search_step(search, 3, &error) == ASTAR_SEARCHING
          && astar_search_restarts(search) == 0);
    for (k = 0; k < 66; k++)
        astar_grid_set_walkable(grid, 15, 0, k % 2);
    finish_and_check(search, grid, ASTAR_DIAGONAL_NEVER, 15, 15, 1, "66 changes");

    /* a finished search keeps its result */
    CHECK(astar_search_cost(search) == 30.0);
    astar_grid_set_walkable(grid, 0, 1, 0);
    astar_grid_set_walkable(grid, 1, 0, 0);
    CHECK(astar_search_step(search, 0, &error) == ASTAR_FOUND && error == ASTAR_OK
          && astar_search_cost(search) == 30.0 && astar_search_restarts(search) == 1);
    /* and a restart that finds the goal cut off ends at once */
    astar_grid_set_walkable(grid, 1, 0, 1);
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 15, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 1, &error) == ASTAR_SEARCHING);
    astar_grid_set_walkable(grid, 15, 15, 0);
    astar_grid_set_walkable(grid, 1, 0, 0);
    CHECK(astar_search_step(search, 1, &error) == ASTAR_GOAL_BLOCKED && error == ASTAR_OK
          && astar_search_restarts(search) == 1);

    astar_search_free(fresh);
    astar_search_free(search);
    astar_grid_free(grid);
}

/* ---- the heuristic's scale is capped ------------------------------------ */

static void test_h_cap(void)
{
    static const char WALLS[] =
        "........\n"
        "........\n"
        "...#....\n"
        "........\n"
        "....#...\n"
        "......#.\n";
    char message[128];
    AstarGrid *grid;
    AstarSearch *search = astar_search_new();
    AstarOptions options;
    AstarError error;
    AstarStatus status;
    uint32_t x, y;
    int m;

    CHECK(ASTAR_MAX_H_SCALE == 1e300);
    if (!search
        || astar_grid_from_text(&grid, WALLS, strlen(WALLS), message, sizeof message) != ASTAR_OK) {
        CHECK(!"the h cap test's grid and search");
        astar_search_free(search);
        return;
    }
    for (y = 0; y < 6; y++)
        for (x = 0; x < 8; x++)
            CHECK(astar_grid_set_cost(grid, x, y, ASTAR_MAX_COST) == ASTAR_OK);
    /* raised from 1 in turn, the lowest cost is the bound 1 until refreshed:
     * then weight * lowest cost overflows a double (1e315) */
    astar_grid_refresh_min_cost(grid);
    CHECK(astar_grid_min_cost(grid, NULL) == ASTAR_MAX_COST);
    for (m = 0; m < 4; m++) {
        double cost, best = dijkstra(grid, (AstarDiagonal)m, 0, 0, 7, 4);
        set_options(&options, (AstarDiagonal)m, ASTAR_ALGORITHM_AUTO);
        options.weight = 1e300;
        status = astar_search_run(search, grid, 0, 0, 7, 4, &options, &error);
        cost = astar_search_cost(search);
        CHECK(error == ASTAR_OK && status == ASTAR_FOUND);
        CHECK(cost == cost && cost < HUGE_VAL && cost >= best - 1e-9 * best);
        /* the cost is the path's own: its cells' costs summed along it */
        CHECK(walk_cost(search, grid, (AstarDiagonal)m) == cost);
        /* the largest weight there is: the same */
        options.weight = 1.7976931348623157e308;
        options.heuristic = ASTAR_HEURISTIC_EUCLIDEAN;
        status = astar_search_run(search, grid, 0, 0, 7, 4, &options, &error);
        CHECK(error == ASTAR_OK && status == ASTAR_FOUND
              && walk_cost(search, grid, (AstarDiagonal)m) == astar_search_cost(search));
        /* Past a scale of about 1e33, f is the scale times the distance to
         * the goal, g too small to show: every such scale orders cells the
         * same, so the capped one expands what a finite one does. */
        if (m == ASTAR_DIAGONAL_NEVER) {
            uint32_t capped[REF_MAX];
            const uint32_t *cells;
            size_t n, i;
            astar_search_record(search, 1);
            options.heuristic = ASTAR_HEURISTIC_MANHATTAN;
            options.weight = 1e300;
            CHECK(astar_search_run(search, grid, 0, 0, 7, 4, &options, &error) == ASTAR_FOUND);
            n = astar_search_recorded(search, &cells);
            cost = astar_search_cost(search);
            CHECK(n > 0 && n <= REF_MAX);
            for (i = 0; i < n && i < REF_MAX; i++)
                capped[i] = cells[i];
            options.weight = 1e25;       /* a scale of 1e40 */
            CHECK(astar_search_run(search, grid, 0, 0, 7, 4, &options, &error) == ASTAR_FOUND);
            CHECK(astar_search_cost(search) == cost && astar_search_recorded(search, &cells) == n);
            for (i = 0; i < n && i < REF_MAX; i++)
                CHECK(cells[i] == capped[i]);
            astar_search_record(search, 0);
        }
        /* partial, to a wall: the closest cell, a real path too */
        options.partial = 1;
        status = astar_search_run(search, grid, 0, 0, 6, 5, &options, &error);
        CHECK(error == ASTAR_OK && status == ASTAR_PARTIAL
              && walk_cost(search, grid, (AstarDiagonal)m) == astar_search_cost(search));
    }
    astar_search_free(search);
    astar_grid_free(grid);
}

/* ---- recording expanded cells ------------------------------------------- */

/* The recorded list is the set astar_search_expanded_cell reports: each
 * cell once, each reported, as many as reported. */
static int recorded_matches(const AstarSearch *search, const AstarGrid *grid)
{
    const uint32_t *cells = NULL;
    size_t n = astar_search_recorded(search, &cells), i, reported = 0;
    uint32_t x, y, w = astar_grid_width(grid), h = astar_grid_height(grid);
    unsigned char seen[REF_MAX];

    if ((size_t)w * h > REF_MAX)
        return 0;
    memset(seen, 0, sizeof seen);
    for (i = 0; i < n; i++) {
        x = astar_cell_x(search, cells[i]);
        y = astar_cell_y(search, cells[i]);
        if (x >= w || y >= h || seen[y * w + x] || !astar_search_expanded_cell(search, x, y))
            return 0;
        seen[y * w + x] = 1;
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            reported += (size_t)astar_search_expanded_cell(search, x, y);
    return reported == n;
}

/* Runs one query in slices of `slice` expansions (0: at once), checking
 * between slices that the list only grows at its end and stays equal to the
 * cells reported; returns the list's length, copies it to out. */
static size_t run_recorded(AstarSearch *search, const AstarGrid *grid, uint32_t sx, uint32_t sy,
                           uint32_t gx, uint32_t gy, const AstarOptions *options, size_t slice,
                           uint32_t *out)
{
    AstarError error = ASTAR_OK;
    AstarStatus status;
    size_t have = 0, n, i;
    const uint32_t *cells;

    CHECK(astar_search_begin(search, grid, sx, sy, gx, gy, options) == ASTAR_OK);
    do {
        status = astar_search_step(search, slice, &error);
        n = astar_search_recorded(search, &cells);
        CHECK(error == ASTAR_OK && n <= REF_MAX && recorded_matches(search, grid));
        /* a JPS query that falls back to A* starts its list again */
        if (n >= have && astar_search_algorithm(search) == options->algorithm) {
            for (i = 0; i < have; i++)
                CHECK(cells[i] == out[i]);
        }
        for (i = 0; i < n && i < REF_MAX; i++)
            out[i] = cells[i];
        have = n;
    } while (status == ASTAR_SEARCHING);
    return have;
}

static void test_recording(void)
{
    const uint32_t w = 15, h = 12;
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    AstarError error;
    uint32_t whole[REF_MAX], sliced[REF_MAX];
    const uint32_t *cells;
    uint64_t seed = 77;
    size_t k, n, memory;
    int q, m, a, slices = 0;
    static const size_t SLICES[] = {1, 3, 7};

    if (!setup(&grid, w, h, &search))
        return;
    for (k = 0; k < (size_t)w * h; k++)
        if (next_random(&seed) % 4 == 0)
            astar_grid_set_walkable(grid, (uint32_t)(k % w), (uint32_t)(k / w), 0);

    /* off by default: nothing recorded */
    set_options(&options, ASTAR_DIAGONAL_NEVER, ASTAR_ALGORITHM_ASTAR);
    astar_grid_set_walkable(grid, 0, 0, 1);
    astar_grid_set_walkable(grid, w - 1, h - 1, 1);
    astar_search_run(search, grid, 0, 0, w - 1, h - 1, &options, &error);
    CHECK(astar_search_expanded(search) > 0 && astar_search_recorded(search, &cells) == 0);
    memory = astar_search_memory(search);
    /* on: from the next query */
    astar_search_record(search, 1);
    CHECK(astar_search_recorded(search, NULL) == 0);
    astar_search_run(search, grid, 0, 0, w - 1, h - 1, &options, &error);
    CHECK(astar_search_recorded(search, NULL) == astar_search_expanded(search));
    CHECK(recorded_matches(search, grid));
    CHECK(astar_search_memory(search) > memory);            /* the list is scratch */

    for (q = 0; q < 24; q++) {
        uint32_t sx = next_random(&seed) % w, sy = next_random(&seed) % h;
        uint32_t gx = next_random(&seed) % w, gy = next_random(&seed) % h;
        for (m = 0; m < 4; m++)
            for (a = ASTAR_ALGORITHM_ASTAR; a <= ASTAR_ALGORITHM_JPS; a++) {
                size_t s;
                if (a == ASTAR_ALGORITHM_JPS && (m == 1 || m == 2))
                    continue;                    /* JPS serves NEVER and NO_OBSTACLES */
                set_options(&options, (AstarDiagonal)m, (AstarAlgorithm)a);
                options.partial = q % 3 == 0;    /* a JPS query may fall back to A* */
                n = run_recorded(search, grid, sx, sy, gx, gy, &options, 0, whole);
                CHECK(n == astar_search_expanded(search)
                      || (options.partial && a == ASTAR_ALGORITHM_JPS
                          && n < astar_search_expanded(search)));
                for (s = 0; s < 3; s++) {
                    size_t i;
                    slices++;
                    CHECK(run_recorded(search, grid, sx, sy, gx, gy, &options, SLICES[s], sliced)
                          == n);
                    for (i = 0; i < n; i++)
                        CHECK(sliced[i] == whole[i]);
                }
            }
    }
    CHECK(slices == 24 * 6 * 3);

    /* JPS really ran (uniform costs), and its list is its jump points */
    set_options(&options, ASTAR_DIAGONAL_NO_OBSTACLES, ASTAR_ALGORITHM_AUTO);
    n = run_recorded(search, grid, 0, 0, w - 1, h - 1, &options, 0, whole);
    CHECK(astar_search_algorithm(search) == ASTAR_ALGORITHM_JPS && n > 0
          && n == astar_search_expanded(search));
    /* a start that is the goal expands nothing */
    astar_search_run(search, grid, 3, 3, 3, 3, &options, &error);
    CHECK(astar_search_recorded(search, &cells) == 0);
    /* off again: from the next query */
    astar_search_run(search, grid, 0, 0, w - 1, h - 1, &options, &error);
    astar_search_record(search, 0);
    CHECK(astar_search_recorded(search, NULL) == n);
    astar_search_run(search, grid, 0, 0, w - 1, h - 1, &options, &error);
    CHECK(astar_search_expanded(search) > 0 && astar_search_recorded(search, NULL) == 0);
    astar_search_free(search);
    astar_grid_free(grid);
}

static const char MAP[] =
    "....#\n"
    "..#.#\n"
    "..#..\n"
    ".....\n";

/* ---- a query's own walls (AstarOptions.walls) ------------------------------ */

/* Random 16x12 grids of equal costs and random unit cells: a query with the
 * units as its walls costs what the reference gives on a copy of the grid
 * with those walls set, runs jump point search where it may, and leaves the
 * grid exactly as it was (walls, version). */
static void test_query_walls(void)
{
    uint64_t seed = 20261125;
    int round, found = 0;

    for (round = 0; round < 60; round++) {
        AstarGrid *grid, *copy;
        AstarSearch *search;
        AstarOptions options;
        AstarError error;
        AstarStatus status;
        AstarDiagonal mode = round % 2 ? ASTAR_DIAGONAL_NO_OBSTACLES : ASTAR_DIAGONAL_NEVER;
        uint32_t walls[2 * 12], x, y, sx, sy, gx, gy;
        size_t n = 0, i;
        uint64_t version;
        double expected;
        int before[16 * 12];

        if (!setup(&grid, 16, 12, &search))
            return;
        if (!setup(&copy, 16, 12, NULL)) {
            astar_search_free(search);
            astar_grid_free(grid);
            return;
        }
        for (i = 0; i < 30; i++) {
            x = next_random(&seed) % 16;
            y = next_random(&seed) % 12;
            astar_grid_set_walkable(grid, x, y, 0);
            astar_grid_set_walkable(copy, x, y, 0);
        }
        sx = next_random(&seed) % 16, sy = next_random(&seed) % 12;
        gx = next_random(&seed) % 16, gy = next_random(&seed) % 12;
        astar_grid_set_walkable(grid, sx, sy, 1);
        astar_grid_set_walkable(copy, sx, sy, 1);
        for (i = 0; i < 12; i++) {
            x = next_random(&seed) % 16;
            y = next_random(&seed) % 12;
            walls[2 * n] = x;
            walls[2 * n + 1] = y;
            n++;
            if (!(x == sx && y == sy))        /* the start is never a wall */
                astar_grid_set_walkable(copy, x, y, 0);
        }
        astar_grid_prepare(grid);
        version = astar_grid_version(grid);
        for (y = 0; y < 12; y++)
            for (x = 0; x < 16; x++)
                before[y * 16 + x] = !astar_grid_walkable(grid, x, y);
        expected = dijkstra(copy, mode, sx, sy, gx, gy);
        set_options(&options, mode, round % 3 ? ASTAR_ALGORITHM_AUTO : ASTAR_ALGORITHM_ASTAR);
        options.walls = walls;
        options.wall_count = n;
        status = astar_search_run(search, grid, sx, sy, gx, gy, &options, &error);
        CHECK(error == ASTAR_OK);
        if (expected < 0) {              /* the reference: -1 for unreachable */
            CHECK(status == ASTAR_NO_PATH || status == ASTAR_GOAL_BLOCKED);
            CHECK(status == ASTAR_GOAL_BLOCKED
                  ? !astar_grid_walkable(copy, gx, gy) : astar_grid_walkable(copy, gx, gy)
                        || (gx == sx && gy == sy));
        } else {
            CHECK(status == ASTAR_FOUND);
            CHECK(fabs(astar_search_cost(search) - expected) < 1e-9);
            found++;
            CHECK(astar_search_algorithm(search)
                  == (round % 3 ? ASTAR_ALGORITHM_JPS : ASTAR_ALGORITHM_ASTAR)
                  || (sx == gx && sy == gy));
        }
        CHECK(astar_grid_version(grid) == version);
        for (y = 0; y < 12; y++)
            for (x = 0; x < 16; x++)
                CHECK(astar_grid_walkable(grid, x, y) == !before[y * 16 + x]);
        /* the same query without the walls: the grid alone */
        options.walls = NULL;
        options.wall_count = 0;
        status = astar_search_run(search, grid, sx, sy, gx, gy, &options, &error);
        CHECK(error == ASTAR_OK);
        for (i = 0; i < n; i++)              /* the grid has none of the units */
            astar_grid_set_walkable(copy, walls[2 * i], walls[2 * i + 1],
                                    astar_grid_walkable(grid, walls[2 * i], walls[2 * i + 1]));
        expected = dijkstra(copy, mode, sx, sy, gx, gy);
        CHECK(expected < 0 ? status != ASTAR_FOUND
                                   : status == ASTAR_FOUND
                                         && fabs(astar_search_cost(search) - expected) < 1e-9);
        astar_grid_free(copy);
        astar_search_free(search);
        astar_grid_free(grid);
    }
    CHECK(found > 30);   /* most queries reach their goal */
}

/* Large units: a layer kept up to date by set_walkable is, word for word (open
 * bytes, row and column bits, the four stop lines), the layer built afresh for
 * the grid as it is, and says exactly where a k x k footprint fits. */
static const AstarGrid *layer_of(const AstarGrid *grid, uint32_t size)
{
    const struct AstarLayer *l;
    for (l = grid->layers; l; l = l->next)
        if (l->size == size)
            return l->fit;
    return NULL;
}

static int same_words(const uint64_t *a, const uint64_t *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

static void test_layers(void)
{
    static const uint32_t sizes[] = {2, 3, 5, 70};
    uint64_t seed = 99;
    AstarGrid *grid, *fresh;
    uint32_t w = 131, h = 70, x, y, round;
    size_t i;

    CHECK(astar_grid_new(&grid, w, h) == ASTAR_OK);
    for (i = 0; i < 4; i++)
        CHECK(astar_grid_size_layer(grid, sizes[i]) == ASTAR_OK);
    CHECK(astar_grid_size_layer(grid, 1) == ASTAR_OK && grid->layers != NULL);
    for (round = 0; round < 12; round++) {
        for (i = 0; i < 400; i++)
            astar_grid_set_walkable(grid, next_random(&seed) % w, next_random(&seed) % h,
                                    next_random(&seed) % 4 != 0 || round % 3 == 2);
        CHECK(astar_grid_new(&fresh, w, h) == ASTAR_OK);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                astar_grid_set_walkable(fresh, x, y, astar_grid_walkable(grid, x, y));
        for (i = 0; i < 4; i++) {
            const AstarGrid *kept = layer_of(grid, sizes[i]), *built;
            size_t rows = (size_t)h + 2, rw = kept->row_words, cw = kept->col_words, d;
            uint32_t k = sizes[i], px, py, bad = 0;
            CHECK(astar_grid_size_layer(fresh, k) == ASTAR_OK);
            built = layer_of(fresh, k);
            CHECK(kept->version == grid->version);
            CHECK(memcmp(kept->open, built->open, kept->cells) == 0);
            CHECK(same_words(kept->row_bits, built->row_bits, rows * rw));
            CHECK(same_words(kept->col_bits, built->col_bits, kept->stride * cw));
            for (d = 0; d < 2; d++) {
                CHECK(same_words(kept->row_stops[d], built->row_stops[d], rows * rw));
                CHECK(same_words(kept->col_stops[d], built->col_stops[d], kept->stride * cw));
            }
            for (py = 0; py < h; py++)
                for (px = 0; px < w; px++) {
                    int fits = px + k <= w && py + k <= h, cx, cy;
                    for (cy = 0; fits && cy < (int)k; cy++)
                        for (cx = 0; fits && cx < (int)k; cx++)
                            fits = astar_grid_walkable(grid, px + (uint32_t)cx, py + (uint32_t)cy);
                    bad += (uint32_t)(fits != astar_grid_walkable(kept, px, py));
                }
            CHECK(bad == 0);
        }
        astar_grid_free(fresh);
    }
    CHECK(astar_grid_memory(grid) > 4 * (size_t)w * h);   /* the layers are counted */
    astar_grid_free(grid);
}

/* ---- large units in movement ranges (astar_range_run_large) ------------- */

/* The rule of the large range test: cell costs and flags from a table,
 * counting the calls (each cell at most once per query). */
typedef struct {
    uint32_t w;
    double cost[REF_MAX];
    unsigned flags[REF_MAX];
    int calls[REF_MAX];
} LargeRule;

static double large_rule(void *user, uint32_t x, uint32_t y, double grid_cost, unsigned *flags)
{
    LargeRule *r = (LargeRule *)user;
    uint32_t i = y * r->w + x;
    (void)grid_cost;
    r->calls[i]++;
    *flags = r->flags[i];
    return r->cost[i];
}

/* ASTAR_RANGE_NO_STOP when any cell of the k x k square at (x, y) may not
 * be stopped on (an ally under a large unit: issue 21), else 0. */
static unsigned square_no_stop(const LargeRule *r, uint32_t k, uint32_t x, uint32_t y)
{
    uint32_t i, j;
    for (j = 0; j < k; j++)
        for (i = 0; i < k; i++)
            if (r->flags[(y + j) * r->w + x + i] & ASTAR_RANGE_NO_STOP)
                return ASTAR_RANGE_NO_STOP;
    return 0;
}

/* The value of cell (x, y) for the reference (INFINITY: impassable). */
static double large_value(const AstarGrid *grid, const LargeRule *rule, long x, long y)
{
    if (!astar_grid_walkable(grid, (uint32_t)x, (uint32_t)y))
        return INFINITY;
    return rule ? rule->cost[(uint32_t)y * rule->w + (uint32_t)x]
                : astar_grid_cost(grid, (uint32_t)x, (uint32_t)y);
}

static int large_allowed(const AstarGrid *grid, const LargeRule *rule, long k, long x, long y)
{
    long cx, cy;
    if (x < 0 || y < 0 || x + k > (long)astar_grid_width(grid) || y + k > (long)astar_grid_height(grid))
        return 0;
    for (cy = y; cy < y + k; cy++)
        for (cx = x; cx < x + k; cx++)
            if (large_value(grid, rule, cx, cy) == INFINITY)
                return 0;
    return 1;
}

/* Dijkstra by linear scan over top-left positions, checking every covered
 * cell; a position covering an ENDS_MOVE cell is not expanded (the start is). */
static void large_dijkstra(const AstarGrid *grid, const LargeRule *rule, long k, AstarDiagonal mode,
                           long sx, long sy, double budget, double *dist)
{
    long w = (long)astar_grid_width(grid), h = (long)astar_grid_height(grid), n = w * h, i;
    int done[REF_MAX] = {0};
    for (i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[sy * w + sx] = 0.0;
    for (;;) {
        long best = -1, x, y, dx, dy, cx, cy;
        int zoc = 0;
        for (i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (best < 0 || dist[i] < dist[best]))
                best = i;
        if (best < 0)
            return;
        done[best] = 1;
        x = best % w;
        y = best / w;
        for (cy = y; rule && cy < y + k && cy < h; cy++)
            for (cx = x; cx < x + k && cx < w; cx++)
                zoc |= (rule->flags[cy * w + cx] & ASTAR_RANGE_ENDS_MOVE) != 0;
        if (zoc && !(x == sx && y == sy))
            continue;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                long qx = x + dx, qy = y + dy;
                double worst = 0.0, c;
                if ((dx == 0 && dy == 0) || !large_allowed(grid, rule, k, qx, qy))
                    continue;
                if (dx && dy) {
                    int a = large_allowed(grid, rule, k, x + dx, y), b = large_allowed(grid, rule, k, x, y + dy);
                    if (mode == ASTAR_DIAGONAL_NEVER || (mode == ASTAR_DIAGONAL_NO_OBSTACLES && !(a && b))
                        || (mode == ASTAR_DIAGONAL_ONE_OBSTACLE && !(a || b)))
                        continue;
                }
                for (cy = qy; cy < qy + k; cy++)
                    for (cx = qx; cx < qx + k; cx++)
                        if (!(cx >= x && cx < x + k && cy >= y && cy < y + k)
                            && large_value(grid, rule, cx, cy) > worst)
                            worst = large_value(grid, rule, cx, cy);
                c = dist[best] + (dx && dy ? sqrt(2.0) * worst : worst);
                if (c <= budget && c < dist[qy * w + qx])
                    dist[qy * w + qx] = c;
            }
    }
}

static void test_large_ranges(void)
{
    static const double costs[] = {1.0, 1.0, 2.0, 3.0, INFINITY};
    uint64_t seed = 7;
    AstarRange *range = astar_range_new();
    LargeRule rule;
    double dist[REF_MAX];
    uint32_t w = 12, h = 10, round;
    long compared = 0, mismatches = 0, overasked = 0;

    CHECK(range != NULL);
    for (round = 0; round < 24; round++) {
        AstarGrid *grid;
        uint32_t i, k, d;
        int ruled = round % 3 != 0;
        CHECK(astar_grid_new(&grid, w, h) == ASTAR_OK);
        for (i = 0; i < w * h; i++) {
            if (next_random(&seed) % 8 == 0)
                astar_grid_set_walkable(grid, i % w, i / w, 0);
            if (round % 2 && next_random(&seed) % 4 == 0)
                CHECK(astar_grid_set_cost(grid, i % w, i / w, 1.0 + next_random(&seed) % 3) == ASTAR_OK);
        }
        rule.w = w;
        for (i = 0; i < w * h; i++) {
            rule.cost[i] = costs[next_random(&seed) % 5];
            rule.flags[i] = next_random(&seed) % 10 == 0 ? ASTAR_RANGE_NO_STOP
                            : next_random(&seed) % 15 == 0 ? ASTAR_RANGE_ENDS_MOVE : 0;
        }
        for (k = 1; k <= 4; k++)
            for (d = 0; d < 4; d++) {
                uint32_t sx = next_random(&seed) % w, sy = next_random(&seed) % h, n;
                double budget = 2.5 + next_random(&seed) % 6;
                size_t j, count;
                int aborted = 1;
                memset(rule.calls, 0, sizeof rule.calls);
                CHECK(astar_range_run_large(range, grid, sx, sy, k, budget, (AstarDiagonal)d,
                                            ruled ? large_rule : NULL, &rule, &aborted) == ASTAR_OK);
                CHECK(!aborted);
                large_dijkstra(grid, ruled ? &rule : NULL, k, (AstarDiagonal)d, sx, sy, budget, dist);
                count = astar_range_count(range);
                for (n = 0, i = 0; i < w * h; i++) {
                    n += dist[i] < INFINITY;
                    overasked += rule.calls[i] > 1;
                }
                compared++;
                if (count != n)
                    mismatches++;
                for (j = 0; j < count; j++) {
                    AstarRangeCell c;
                    unsigned want;
                    astar_range_get(range, j, &c);
                    want = j == 0 || !ruled ? 0u : square_no_stop(&rule, k, c.x, c.y);
                    if (!close_to(c.cost, dist[c.y * w + c.x])
                        || (c.flags & ASTAR_RANGE_NO_STOP) != want
                        || (j == 0) != (c.x == sx && c.y == sy))
                        mismatches++;
                }
            }
        astar_grid_free(grid);
    }
    CHECK(compared == 24 * 16 && mismatches == 0 && overasked == 0);
    astar_range_free(range);
}

/* ---- hex boards (astar_hex.h) -------------------------------------------- */

/* The centre of 0-based cell (x, y) of a layout, neighbours 1 apart: the
 * pictures of Red Blob Games, not the library's parity tables. */
static void hex_centre(AstarHexLayout layout, int x, int y, double *cx, double *cy)
{
    const double h = sqrt(3.0) / 2.0;
    int ox = ((x % 2) + 2) % 2, oy = ((y % 2) + 2) % 2;
    switch (layout) {
    case ASTAR_HEX_ODD_R: *cx = x + 0.5 * oy; *cy = y * h; return;
    case ASTAR_HEX_EVEN_R: *cx = x + 0.5 * (1 - oy); *cy = y * h; return;
    case ASTAR_HEX_ODD_Q: *cx = x * h; *cy = y + 0.5 * ox; return;
    case ASTAR_HEX_EVEN_Q: break;
    }
    *cx = x * h;
    *cy = y + 0.5 * (1 - ox);
}

static int hex_adjacent(AstarHexLayout layout, int x0, int y0, int x1, int y1)
{
    double ax, ay, bx, by;
    hex_centre(layout, x0, y0, &ax, &ay);
    hex_centre(layout, x1, y1, &bx, &by);
    return fabs(sqrt((ax - bx) * (ax - bx) + (ay - by) * (ay - by)) - 1.0) < 1e-9;
}

/* Dijkstra by linear scan over the reference's neighbours: the cost from
 * (sx, sy) to every cell (INFINITY: unreachable), entering walkable cells. */
static void hex_dijkstra(const AstarGrid *grid, AstarHexLayout layout, uint32_t sx, uint32_t sy,
                         double *dist)
{
    int w = (int)astar_grid_width(grid), h = (int)astar_grid_height(grid), n = w * h, i;
    int done[REF_MAX] = {0};
    for (i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[sy * (uint32_t)w + sx] = 0.0;
    for (;;) {
        int best = -1, x, y, dx, dy;
        for (i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (best < 0 || dist[i] < dist[best]))
                best = i;
        if (best < 0)
            return;
        done[best] = 1;
        x = best % w;
        y = best / w;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                int nx = x + dx, ny = y + dy, k = ny * w + nx;
                double c;
                if (nx < 0 || ny < 0 || nx >= w || ny >= h || (dx == 0 && dy == 0)
                    || !hex_adjacent(layout, x, y, nx, ny)
                    || !astar_grid_walkable(grid, (uint32_t)nx, (uint32_t)ny))
                    continue;
                c = dist[best] + astar_grid_cost(grid, (uint32_t)nx, (uint32_t)ny);
                if (c < dist[k])
                    dist[k] = c;
            }
    }
}

static void hex_write(void *user, const void *bytes, size_t length)
{
    unsigned char **at = (unsigned char **)user;
    memcpy(*at, bytes, length);
    *at += length;
}

/* Searches, ranges, hex distance and encodings on hex boards of every layout
 * against the reference above. */
static void test_hex(void)
{
    int layout;
    uint64_t seed = 99;
    for (layout = 0; layout < 4; layout++) {
        AstarGrid *grid = NULL, *copy = NULL;
        AstarSearch *search = astar_search_new();
        AstarRange *range = astar_range_new();
        AstarOptions options;
        AstarHexLayout got = ASTAR_HEX_ODD_R;
        AstarGridSettings settings = {ASTAR_DIAGONAL_NEVER, ASTAR_HEURISTIC_OCTILE, 0, 1.0};
        double dist[REF_MAX], open_dist[REF_MAX];
        uint32_t w = 9, h = 7, x, y, q;
        unsigned char *bytes, *at;
        size_t size;
        char message[64];
        int aborted;

        CHECK(astar_grid_new_hex(&grid, w, h, (AstarHexLayout)layout) == ASTAR_OK);
        CHECK(astar_grid_hex(grid, &got) && got == (AstarHexLayout)layout);
        /* hex distance = steps on the open board */
        hex_dijkstra(grid, (AstarHexLayout)layout, 4, 3, open_dist);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                CHECK(astar_hex_distance((AstarHexLayout)layout, 4, 3, x, y)
                      == (uint32_t)open_dist[y * w + x]);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                if (next_random(&seed) % 5 == 0)
                    astar_grid_set_walkable(grid, x, y, 0);
                CHECK(astar_grid_set_cost(grid, x, y, 1.0 + next_random(&seed) % 3)
                      == ASTAR_OK);
            }
        memset(&options, 0, sizeof options);
        options.weight = 1.0;
        options.heuristic = ASTAR_HEURISTIC_OCTILE;      /* any name: hex distance */
        for (q = 0; q < 30; q++) {
            uint32_t sx = next_random(&seed) % w, sy = next_random(&seed) % h;
            uint32_t gx = next_random(&seed) % w, gy = next_random(&seed) % h;
            AstarError e;
            AstarStatus st;
            astar_grid_set_walkable(grid, sx, sy, 1);
            hex_dijkstra(grid, (AstarHexLayout)layout, sx, sy, dist);
            st = astar_search_run(search, grid, sx, sy, gx, gy, &options, &e);
            CHECK(e == ASTAR_OK);
            if (dist[gy * w + gx] < INFINITY && astar_grid_walkable(grid, gx, gy)) {
                AstarPathCursor at_cell;
                size_t k;
                double sum = 0.0;
                CHECK(st == ASTAR_FOUND);
                CHECK(fabs(astar_search_cost(search) - dist[gy * w + gx]) < 1e-9);
                /* the path walks hex steps */
                astar_path_end(search, &at_cell);
                for (k = 1; k < astar_search_length(search); k++) {
                    uint32_t px = at_cell.x, py = at_cell.y;
                    sum += astar_grid_cost(grid, px, py);
                    astar_path_back(search, &at_cell);
                    CHECK(hex_adjacent((AstarHexLayout)layout, (int)px, (int)py, (int)at_cell.x,
                                       (int)at_cell.y));
                }
                CHECK(at_cell.x == sx && at_cell.y == sy);
                CHECK(fabs(sum - astar_search_cost(search)) < 1e-9);
            } else {
                CHECK(st == ASTAR_NO_PATH || st == ASTAR_GOAL_BLOCKED);
            }
            /* the movement range within 3 is every cell the reference reaches within 3 */
            CHECK(astar_range_run_hex(range, grid, sx, sy, 3.0, NULL, NULL, &aborted)
                  == ASTAR_OK);
            {
                size_t want = 0, i;
                for (i = 0; i < (size_t)(w * h); i++)
                    want += dist[i] <= 3.0;
                CHECK(!aborted && astar_range_count(range) == want);
            }
        }
        /* encoded and decoded, the board keeps its layout */
        size = astar_grid_encoded_size(grid);
        bytes = malloc(size);
        CHECK(bytes != NULL);
        if (bytes) {
            at = bytes;
            astar_grid_encode(grid, &settings, hex_write, &at);
            CHECK(astar_grid_decode(&copy, &settings, bytes, size, message, sizeof message)
                  == ASTAR_OK);
            CHECK(copy && astar_grid_hex(copy, &got) && got == (AstarHexLayout)layout);
            free(bytes);
        }
        astar_grid_free(copy);
        astar_range_free(range);
        astar_search_free(search);
        astar_grid_free(grid);
    }
}

/* Board geometry (issue 20): a cell's moves counted without room for them,
 * then listed; centres and the cells under them on every board. */
static void test_geometry(void)
{
    AstarGrid *grid = NULL;
    AstarCellMove moves[10];
    uint32_t x, y, cx, cy;
    double px, py;
    int shape;

    CHECK(astar_grid_new(&grid, 3, 2) == ASTAR_OK);
    astar_grid_set_walkable(grid, 1, 0, 0);
    CHECK(astar_grid_set_cost(grid, 0, 1, 2.5) == ASTAR_OK);
    CHECK(astar_grid_link(grid, 0, 0, 2, 1, 4.0) == ASTAR_OK);
    CHECK(astar_cell_moves(grid, ASTAR_DIAGONAL_ALWAYS, 0, 0, NULL, 0) == 3);
    CHECK(astar_cell_moves(grid, ASTAR_DIAGONAL_ALWAYS, 0, 0, moves, 10) == 3);
    CHECK(moves[0].x == 0 && moves[0].y == 1 && moves[0].cost == 2.5);
    CHECK(moves[1].x == 1 && moves[1].y == 1 && moves[1].cost == 1.41421356237309504880);
    CHECK(moves[2].x == 2 && moves[2].y == 1 && moves[2].cost == 4.0);
    CHECK(astar_cell_moves(grid, ASTAR_DIAGONAL_NO_OBSTACLES, 0, 0, moves, 10) == 2);
    CHECK(astar_cell_distance(grid, ASTAR_DIAGONAL_NEVER, 0, 0, 2, 1) == 3.0);
    astar_grid_free(grid);
    for (shape = 0; shape < 5; shape++) {
        if (shape == 0)
            CHECK(astar_grid_new(&grid, 9, 7) == ASTAR_OK);
        else
            CHECK(astar_grid_new_hex(&grid, 9, 7, (AstarHexLayout)(shape - 1)) == ASTAR_OK);
        for (y = 0; y < 7; y++)
            for (x = 0; x < 9; x++) {
                astar_cell_centre(grid, x, y, 12.5, &px, &py);
                CHECK(astar_cell_at(grid, px, py, 12.5, &cx, &cy) && cx == x && cy == y);
            }
        CHECK(!astar_cell_at(grid, -1e9, 0.0, 12.5, &cx, &cy));
        astar_grid_free(grid);
    }
}

/* ---- any-angle search (AstarOptions.smooth THETA, theta.c) ------------------ */

#define THETA_MAX 64   /* waypoints of the longest any-angle path checked */

static void set_theta(AstarOptions *o, AstarDiagonal mode)
{
    set_options(o, mode, ASTAR_ALGORITHM_AUTO);
    o->smooth = ASTAR_SMOOTH_THETA;
}

/* The waypoints of a search's path, start first, read with the cursor (which
 * must agree with astar_search_parent): how many, 0 past max. */
static size_t theta_waypoints(const AstarSearch *search, uint32_t *cells, size_t max)
{
    AstarPathCursor at;
    size_t n = astar_search_length(search), k;

    if (n == 0 || n > max)
        return 0;
    astar_path_end(search, &at);
    for (k = n; k-- > 0;) {
        cells[k] = at.cell;
        CHECK(at.x == astar_cell_x(search, at.cell) && at.y == astar_cell_y(search, at.cell));
        if (k > 0) {
            uint32_t parent = astar_search_parent(search, at.cell);
            astar_path_back(search, &at);
            CHECK(at.cell == parent);
        }
    }
    return n;
}

/* The highest price of the model among the cells a row, column or diagonal
 * from a to b (bordered, on one line) passes through, a excepted. */
static double aligned_highest(const SegmentModel *model, uint32_t a, uint32_t b, long step)
{
    double highest = 0.0;
    uint32_t cell = a;
    while (cell != b) {
        double p;
        cell = (uint32_t)((long)cell + step);
        p = model->price ? model->price(model->user, cell)
                         : model->grid->cost ? model->grid->cost[cell] : 1.0;
        if (p > highest)
            highest = p;
    }
    return highest;
}

/* Every two consecutive waypoints (distinct) joined by a legal segment of
 * the model, starting at the start, and the polyline's cost as docs/paths.md
 * sums it equal to the search's cost bit for bit: S + sqrt2 * D + O, each
 * added from the start; a row's or column's length times its highest price
 * into S, a diagonal's into D, any other segment's cost into O. */
static int theta_polyline_ok(const AstarSearch *search, const SegmentModel *model)
{
    uint32_t cells[THETA_MAX];
    size_t n = theta_waypoints(search, cells, THETA_MAX), k;
    const long stride = (long)model->grid->stride;
    double straight = 0.0, diagonal = 0.0, other = 0.0;

    if (n == 0 || cells[0] != astar_search_start(search)
        || cells[n - 1] != astar_search_end(search))
        return 0;
    for (k = 1; k < n; k++) {
        double c = segment_cost(model, cells[k - 1], cells[k]);
        long dx = (long)astar_cell_x(search, cells[k]) - (long)astar_cell_x(search, cells[k - 1]);
        long dy = (long)astar_cell_y(search, cells[k]) - (long)astar_cell_y(search, cells[k - 1]);
        long adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
        long step = (dx > 0) - (dx < 0) + ((dy > 0) - (dy < 0)) * stride;
        if (cells[k - 1] == cells[k] || !(c < INFINITY))
            return 0;
        if (adx == 0 || ady == 0)
            straight += (double)(adx + ady) * aligned_highest(model, cells[k - 1], cells[k], step);
        else if (adx == ady)
            diagonal += (double)adx * aligned_highest(model, cells[k - 1], cells[k], step);
        else
            other += c;
    }
    return straight + 1.41421356237309504880 * diagonal + other == astar_search_cost(search);
}

/* Is waypoint k of the search's path at (x, y)? */
static int theta_waypoint_at(const AstarSearch *search, size_t k, uint32_t x, uint32_t y)
{
    uint32_t cells[THETA_MAX];
    size_t n = theta_waypoints(search, cells, THETA_MAX);
    return k < n && astar_cell_x(search, cells[k]) == x && astar_cell_y(search, cells[k]) == y;
}

/* An open board: the straight line, priced sqrt(81 + 9), in every mode with
 * diagonals, run whole or a cell at a time; NEVER gives the corners. */
static void test_theta_open(void)
{
    static const AstarDiagonal MODES[3] = {ASTAR_DIAGONAL_ALWAYS, ASTAR_DIAGONAL_ONE_OBSTACLE,
                                           ASTAR_DIAGONAL_NO_OBSTACLES};
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    AstarError error;
    AstarStatus status;
    size_t memory, n;
    int m;

    if (!setup(&grid, 10, 10, &search))
        return;
    for (m = 0; m < 3; m++) {
        set_theta(&options, MODES[m]);
        CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_FOUND);
        CHECK(error == ASTAR_OK && astar_search_length(search) == 2);
        CHECK(astar_search_cost(search) == sqrt(90.0));
        CHECK(theta_waypoint_at(search, 0, 0, 0) && theta_waypoint_at(search, 1, 9, 3));
        CHECK(astar_search_begin(search, grid, 0, 0, 9, 3, &options) == ASTAR_OK);
        while ((status = astar_search_step(search, 1, &error)) == ASTAR_SEARCHING)
            ;
        CHECK(status == ASTAR_FOUND && astar_search_length(search) == 2
              && astar_search_cost(search) == sqrt(90.0));
    }
    /* the parents were allocated by the first query: later ones add nothing */
    memory = astar_search_memory(search);
    CHECK(astar_search_run(search, grid, 9, 9, 0, 2, &options, &error) == ASTAR_FOUND);
    CHECK(astar_search_memory(search) == memory && astar_search_length(search) == 2
          && astar_search_cost(search) == sqrt(130.0));
    /* the start is the goal: one waypoint, cost 0 */
    CHECK(astar_search_run(search, grid, 4, 4, 4, 4, &options, &error) == ASTAR_FOUND);
    CHECK(astar_search_length(search) == 1 && astar_search_cost(search) == 0.0);
    /* a goal list: the nearer goal, (0, 9) at 9 against sqrt(90); near 2 of
     * (9, 3) (columns 7-9, rows 1-5): its nearest cell, (7, 1) */
    {
        static const uint32_t GOALS[4] = {9, 3, 0, 9};
        options.goals = GOALS;
        options.goal_count = 2;
        CHECK(astar_search_run(search, grid, 0, 0, 0, 0, &options, &error) == ASTAR_FOUND);
        CHECK(astar_search_length(search) == 2 && theta_waypoint_at(search, 1, 0, 9)
              && astar_search_cost(search) == 9.0);
        options.goal_count = 1;
        options.near = 2;
        CHECK(astar_search_run(search, grid, 0, 0, 0, 0, &options, &error) == ASTAR_FOUND);
        CHECK(astar_search_length(search) == 2 && theta_waypoint_at(search, 1, 7, 1)
              && astar_search_cost(search) == sqrt(50.0));
        options.goals = NULL;
        options.goal_count = 0;
        options.near = 0;
    }
    /* 4 directions: no any-angle moves, the corners of the grid path (cost 9 + 3) */
    set_theta(&options, ASTAR_DIAGONAL_NEVER);
    CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_FOUND);
    n = astar_search_length(search);
    CHECK(astar_search_cost(search) == 12.0);
    options.smooth = ASTAR_SMOOTH_CORNERS;
    CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_FOUND);
    CHECK(astar_search_length(search) == n && astar_search_cost(search) == 12.0);
    /* a bound: sqrt(90) is within max_cost = sqrt(90), not within 9.48 */
    set_theta(&options, ASTAR_DIAGONAL_NO_OBSTACLES);
    options.bounded = 1;
    options.max_cost = sqrt(90.0);
    CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_FOUND);
    options.max_cost = 9.48;
    CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_NO_PATH);
    /* a link on the grid (moves): THETA gives the corners */
    CHECK(astar_grid_link(grid, 9, 9, 8, 8, 1.0) == ASTAR_OK);
    set_theta(&options, ASTAR_DIAGONAL_NO_OBSTACLES);
    CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_FOUND);
    n = astar_search_length(search);
    CHECK(close_to(astar_search_cost(search), 6.0 + 3.0 * 1.41421356237309504880));
    options.smooth = ASTAR_SMOOTH_CORNERS;
    CHECK(astar_search_run(search, grid, 0, 0, 9, 3, &options, &error) == ASTAR_FOUND);
    CHECK(astar_search_length(search) == n && n < 10);
    astar_search_free(search);
    astar_grid_free(grid);
}

/* A wall along row 3 of a 10 x 8 board, columns 0-5, between (0, 0) and
 * (0, 6): the line to the cell right of the wall's end, (6, 3), enters the
 * wall at (5, 3) (it meets row 3 at x = 5.5), so the path turns the wall's
 * corner (the point (6, 3)). With no obstacles beside a corner the path may
 * not pass that point: it bends at the two cells diagonal to the wall's
 * end, (6, 2) and (6, 4) (the segments of offsets (6, 2) meet the grid
 * corners (2, 1) and (5, 2), all four cells there open). With one obstacle
 * it may: (5, 2), (6, 3), (5, 4), the middle segments passing the point. */
static void test_theta_wall(void)
{
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    AstarError error;
    SegmentModel model;
    uint32_t x;

    if (!setup(&grid, 10, 8, &search))
        return;
    for (x = 0; x < 6; x++)
        astar_grid_set_walkable(grid, x, 3, 0);
    model.grid = grid;
    model.price = NULL;
    model.user = NULL;
    set_theta(&options, ASTAR_DIAGONAL_NO_OBSTACLES);
    model.diagonal = ASTAR_DIAGONAL_NO_OBSTACLES;
    CHECK(astar_search_run(search, grid, 0, 0, 0, 6, &options, &error) == ASTAR_FOUND);
    CHECK(astar_search_length(search) == 4 && theta_waypoint_at(search, 1, 6, 2)
          && theta_waypoint_at(search, 2, 6, 4) && theta_waypoint_at(search, 3, 0, 6));
    CHECK(astar_search_cost(search) == 2.0 + (sqrt(40.0) + sqrt(40.0)));
    CHECK(theta_polyline_ok(search, &model));
    set_theta(&options, ASTAR_DIAGONAL_ONE_OBSTACLE);
    model.diagonal = ASTAR_DIAGONAL_ONE_OBSTACLE;
    CHECK(astar_search_run(search, grid, 0, 0, 0, 6, &options, &error) == ASTAR_FOUND);
    CHECK(astar_search_length(search) == 5 && theta_waypoint_at(search, 1, 5, 2)
          && theta_waypoint_at(search, 2, 6, 3) && theta_waypoint_at(search, 3, 5, 4));
    CHECK(astar_search_cost(search) == 1.41421356237309504880 * 2.0 + (sqrt(29.0) + sqrt(29.0)));
    CHECK(theta_polyline_ok(search, &model));
    /* the wall's end as one of the query's own walls: the same path */
    astar_grid_set_walkable(grid, 5, 3, 1);
    {
        static const uint32_t WALL[2] = {5, 3};
        set_theta(&options, ASTAR_DIAGONAL_NO_OBSTACLES);
        options.walls = WALL;
        options.wall_count = 1;
        CHECK(astar_search_run(search, grid, 0, 0, 0, 6, &options, &error) == ASTAR_FOUND);
        CHECK(astar_search_length(search) == 4 && theta_waypoint_at(search, 1, 6, 2)
              && theta_waypoint_at(search, 2, 6, 4));
        CHECK(astar_search_cost(search) == 2.0 + (sqrt(40.0) + sqrt(40.0)));
        CHECK(astar_grid_walkable(grid, 5, 3));   /* written back */
    }
    /* the whole row closed: no path, or the closest cell, (0, 2), straight down */
    for (x = 5; x < 10; x++)
        astar_grid_set_walkable(grid, x, 3, 0);
    set_theta(&options, ASTAR_DIAGONAL_NO_OBSTACLES);
    CHECK(astar_search_run(search, grid, 0, 0, 0, 6, &options, &error) == ASTAR_NO_PATH);
    options.partial = 1;
    CHECK(astar_search_run(search, grid, 0, 0, 0, 6, &options, &error) == ASTAR_PARTIAL);
    CHECK(astar_search_length(search) == 2 && theta_waypoint_at(search, 1, 0, 2)
          && astar_search_cost(search) == 2.0);
    astar_search_free(search);
    astar_grid_free(grid);
}

/* A rule that prices the cells of columns 5-7 at 5 (a swamp), forbids
 * (6, 1), says the path may not end on (2, 2), and counts how often it is
 * asked about each cell; the segment model reads the same prices. */
typedef struct {
    const AstarGrid *grid;
    unsigned asked[12 * 8];
    int stop;                 /* NAN for (9, 6) */
} ThetaRule;

static double theta_rule_value(uint32_t x, uint32_t y, double grid_cost)
{
    if (x == 6 && y == 1)
        return INFINITY;
    return x >= 5 && x <= 7 ? 5.0 : grid_cost;
}

static double theta_rule(void *user, uint32_t x, uint32_t y, double grid_cost, unsigned *flags)
{
    ThetaRule *r = (ThetaRule *)user;
    r->asked[y * 12 + x]++;
    if (r->stop && x == 9 && y == 6)
        return NAN;
    if (x == 2 && y == 2)
        *flags |= ASTAR_RANGE_NO_STOP;
    return theta_rule_value(x, y, grid_cost);
}

static double theta_rule_price(void *user, uint32_t cell)
{
    const ThetaRule *r = (const ThetaRule *)user;
    uint32_t stride = r->grid->stride, x = cell % stride - 1, y = cell / stride - 1;
    if (!astar_grid_walkable(r->grid, x, y))
        return INFINITY;
    return theta_rule_value(x, y, astar_grid_cost(r->grid, x, y));
}

static void test_theta_rule(void)
{
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    AstarError error;
    SegmentModel model;
    ThetaRule rule;
    size_t k;
    int most = 0;

    if (!setup(&grid, 12, 8, &search))
        return;
    memset(&rule, 0, sizeof rule);
    rule.grid = grid;
    astar_grid_set_walkable(grid, 3, 4, 0);
    set_theta(&options, ASTAR_DIAGONAL_ONE_OBSTACLE);
    options.rule = theta_rule;
    options.rule_user = &rule;
    options.rule_min_cost = 1.0;
    CHECK(astar_search_run(search, grid, 0, 6, 11, 1, &options, &error) == ASTAR_FOUND);
    model.grid = grid;
    model.diagonal = ASTAR_DIAGONAL_ONE_OBSTACLE;
    model.price = theta_rule_price;
    model.user = &rule;
    CHECK(theta_polyline_ok(search, &model));
    for (k = 0; k < 12 * 8; k++)
        most = rule.asked[k] > (unsigned)most ? (int)rule.asked[k] : most;
    CHECK(most == 1 && rule.asked[6 * 12 + 0] == 0);   /* once per cell, never the start */
    /* the swamp is crossed, priced as swamp: 3 columns at 5 at least */
    CHECK(astar_search_cost(search) >= 11.0 + 2.0 * 5.0);
    /* (2, 2) may be crossed, not ended on */
    CHECK(astar_search_run(search, grid, 0, 0, 2, 2, &options, &error) == ASTAR_GOAL_BLOCKED);
    /* a rule that stops the query when asked about (9, 6), on the way */
    rule.stop = 1;
    CHECK(astar_search_run(search, grid, 0, 6, 11, 6, &options, &error) == ASTAR_NO_PATH
          && error == ASTAR_EABORTED);
    astar_search_free(search);
    astar_grid_free(grid);
}

/* Random boards with walls and costs, in the three modes with diagonals:
 * any-angle search finds a path exactly when the grid has one (an
 * independent Dijkstra), never dearer than A*'s or the reference's, each
 * segment legal under the model, the polyline's cost the cost returned bit
 * for bit; stepped (2 cells a step) it gives the same path. */
static void test_theta_random(void)
{
    static const double COSTS[8] = {1.0, 1.0, 1.0, 1.0, 1.5, 2.0, 4.0, 0.75};
    static const AstarDiagonal MODES[3] = {ASTAR_DIAGONAL_ALWAYS, ASTAR_DIAGONAL_ONE_OBSTACLE,
                                           ASTAR_DIAGONAL_NO_OBSTACLES};
    const uint32_t w = 14, h = 12;
    AstarGrid *grid;
    AstarSearch *search, *grid_search;
    AstarOptions options, plain;
    AstarError error;
    SegmentModel model;
    uint64_t seed = 4242;
    int round, found = 0, cheaper = 0, bent = 0;

    if (!setup(&grid, w, h, &search))
        return;
    astar_grid_free(grid);
    grid_search = astar_search_new();
    CHECK(grid_search != NULL);
    for (round = 0; grid_search && round < 90; round++) {
        AstarDiagonal mode = MODES[round % 3];
        uint32_t x, y, sx, sy, gx, gy;
        AstarStatus status;
        double want;

        if (!setup(&grid, w, h, NULL))
            break;
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                if (next_random(&seed) % 100 < 22)
                    astar_grid_set_walkable(grid, x, y, 0);
                else if (round % 2)
                    CHECK(astar_grid_set_cost(grid, x, y, COSTS[next_random(&seed) % 8])
                          == ASTAR_OK);
            }
        sx = next_random(&seed) % w;
        sy = next_random(&seed) % h;
        gx = next_random(&seed) % w;
        gy = next_random(&seed) % h;
        astar_grid_set_walkable(grid, sx, sy, 1);
        astar_grid_set_walkable(grid, gx, gy, 1);
        astar_grid_prepare(grid);
        set_theta(&options, mode);
        set_options(&plain, mode, ASTAR_ALGORITHM_ASTAR);
        want = dijkstra(grid, mode, sx, sy, gx, gy);
        status = astar_search_run(search, grid, sx, sy, gx, gy, &options, &error);
        CHECK(error == ASTAR_OK && (status == ASTAR_FOUND) == (want >= 0.0));
        CHECK(astar_search_run(grid_search, grid, sx, sy, gx, gy, &plain, &error) == status);
        if (status == ASTAR_FOUND) {
            double cost = astar_search_cost(search);
            model.grid = grid;
            model.diagonal = mode;
            model.price = NULL;
            model.user = NULL;
            found++;
            cheaper += cost < astar_search_cost(grid_search);
            bent += astar_search_length(search) > 2;
            CHECK(cost <= astar_search_cost(grid_search) && cost <= want);
            CHECK(theta_polyline_ok(search, &model));
            CHECK(astar_search_begin(grid_search, grid, sx, sy, gx, gy, &options) == ASTAR_OK);
            while ((status = astar_search_step(grid_search, 2, &error)) == ASTAR_SEARCHING)
                ;
            CHECK(status == ASTAR_FOUND && same_path(search, grid_search));
        }
        astar_grid_free(grid);
    }
    CHECK(found > 40 && cheaper > 20 && bent > 10);
    astar_search_free(grid_search);
    astar_search_free(search);
}

/* A stepped any-angle query starts again after any change (its segments
 * read cells it never touched), and answers as a new query would. */
static void test_theta_restarts(void)
{
    AstarGrid *grid;
    AstarSearch *search, *fresh;
    AstarOptions options;
    AstarError error;
    AstarStatus status;

    if (!setup(&grid, 16, 16, &search))
        return;
    fresh = astar_search_new();
    CHECK(fresh != NULL);
    set_theta(&options, ASTAR_DIAGONAL_NO_OBSTACLES);
    CHECK(astar_search_begin(search, grid, 0, 0, 15, 5, &options) == ASTAR_OK);
    CHECK(astar_search_step(search, 2, &error) == ASTAR_SEARCHING);
    astar_grid_set_walkable(grid, 8, 3, 0);     /* on the line, never touched yet */
    while ((status = astar_search_step(search, 2, &error)) == ASTAR_SEARCHING)
        ;
    CHECK(status == ASTAR_FOUND && astar_search_restarts(search) == 1);
    CHECK(astar_search_length(search) == 3);    /* the line is blocked: a bend */
    if (fresh) {
        CHECK(astar_search_run(fresh, grid, 0, 0, 15, 5, &options, &error) == ASTAR_FOUND);
        CHECK(same_path(search, fresh));
    }
    astar_search_free(fresh);
    astar_search_free(search);
    astar_grid_free(grid);
}

int main(void)
{
    char message[128];
    AstarGrid *grid;
    AstarSearch *search;
    AstarRange *range;
    AstarOptions options;
    AstarError error;
    AstarStatus status;
    uint64_t version;
    uint32_t cell, x, y;
    size_t cells = 0;
    int aborted = 0;

    if (astar_grid_from_text(&grid, MAP, strlen(MAP), message, sizeof message) != ASTAR_OK) {
        fprintf(stderr, "core_api: the test map does not load: %s\n", message);
        return 1;
    }
    CHECK(astar_grid_width(grid) == 5 && astar_grid_height(grid) == 4);

    /* Every change bumps the version (a running search uses it to notice). */
    version = astar_grid_version(grid);
    astar_grid_set_walkable(grid, 0, 3, 0);
    CHECK(astar_grid_version(grid) > version);
    astar_grid_set_walkable(grid, 0, 3, 1);
    CHECK(astar_grid_set_cost(grid, 1, 3, 2.5) == ASTAR_OK);
    CHECK(astar_grid_cost(grid, 1, 3) == 2.5);

    /* 4 directions from (0,0) to (4,3): down the left side and along the
     * bottom row, 6 steps of 1 and (1,3) at 2.5, costs 8.5; along the top
     * and down the right, (1,0) (2,0) (3,0) (3,1) (3,2) (4,2) (4,3), costs 7
     * in 8 cells. */
    search = astar_search_new();
    CHECK(search != NULL);
    memset(&options, 0, sizeof options);
    options.diagonal = ASTAR_DIAGONAL_NEVER;
    options.heuristic = ASTAR_HEURISTIC_MANHATTAN;
    options.weight = 1.0;
    astar_grid_prepare(grid);
    status = astar_search_run(search, grid, 0, 0, 4, 3, &options, &error);
    CHECK(error == ASTAR_OK && status == ASTAR_FOUND);
    CHECK(fabs(astar_search_cost(search) - 7.0) < 1e-12);
    CHECK(astar_search_length(search) == 8);

    /* Walk the path back by hand: each step moves to a 4-neighbour. */
    for (cell = astar_search_end(search); cell != astar_search_start(search);) {
        uint32_t prev = astar_search_parent(search, cell);
        long dx = (long)astar_cell_x(search, cell) - (long)astar_cell_x(search, prev);
        long dy = (long)astar_cell_y(search, cell) - (long)astar_cell_y(search, prev);
        CHECK(labs(dx) + labs(dy) == 1);
        cells++;
        cell = prev;
    }
    CHECK(cells + 1 == astar_search_length(search));
    CHECK(astar_cell_x(search, cell) == 0 && astar_cell_y(search, cell) == 0);
    {   /* the cursor walks the same cells with the same coordinates */
        AstarPathCursor at;
        size_t k;
        astar_path_end(search, &at);
        cell = astar_search_end(search);
        for (k = 1; k < astar_search_length(search); k++) {
            CHECK(at.cell == cell && at.x == astar_cell_x(search, cell)
                  && at.y == astar_cell_y(search, cell));
            astar_path_back(search, &at);
            cell = astar_search_parent(search, cell);
        }
        CHECK(at.cell == astar_search_start(search) && at.x == 0 && at.y == 0);
    }
    CHECK(astar_search_expanded(search) > 0);
    CHECK(astar_search_touched(search) >= astar_search_expanded(search));
    for (y = 0, cells = 0; y < 4; y++)
        for (x = 0; x < 5; x++)
            cells += (size_t)astar_search_expanded_cell(search, x, y);
    CHECK(cells == astar_search_expanded(search));
    CHECK(astar_grid_memory(grid) > 0 && astar_search_memory(search) > 0);

    /* A wall goal, and a stepped search of one node at a time. */
    status = astar_search_run(search, grid, 0, 0, 4, 0, &options, &error);
    CHECK(status == ASTAR_GOAL_BLOCKED);
    CHECK(astar_search_begin(search, grid, 0, 0, 4, 3, &options) == ASTAR_OK);
    while ((status = astar_search_step(search, 1, &error)) == ASTAR_SEARCHING)
        ;
    CHECK(status == ASTAR_FOUND && fabs(astar_search_cost(search) - 7.0) < 1e-12);

    /* A movement range of budget 2 from (0,0): (1,0) (0,1) cost 1, (2,0)
     * (1,1) (0,2) cost 2: six cells with the start. */
    range = astar_range_new();
    CHECK(range != NULL);
    CHECK(astar_range_run(range, grid, 0, 0, 2.0, NULL, NULL, &aborted) == ASTAR_OK);
    CHECK(!aborted && astar_range_count(range) == 6);
    CHECK(astar_range_memory(range) > 0);

    /* Budget 1.5 from (1,1), next to the walls (2,1) and (2,2): 4 directions
     * reach 3 cells besides the start; diagonals add (0,0) and (0,2), and (2,0), which passes
     * the wall (2,1), unless no-obstacles. */
    {
        static const size_t want[4] = {4, 7, 7, 6}, ring[3] = {3, 5, 2};
        AstarRangeCell from = {0, 0, 0.0, 0, 0};
        int d;
        for (d = 0; d < 4; d++) {
            CHECK(astar_range_run_diagonal(range, grid, 1, 1, 1.5, (AstarDiagonal)d, NULL, NULL,
                                           &aborted) == ASTAR_OK);
            CHECK(!aborted && astar_range_count(range) == want[d]);
        }
        /* distance exactly 2 from (0,0): a Manhattan diamond edge, a square's
         * edge, a circle's two points */
        for (d = 0; d < 3; d++) {
            CHECK(astar_range_attack_metric(range, grid, &from, 1, 2, 2, (AstarMetric)d, NULL,
                                            NULL, &aborted) == ASTAR_OK);
            CHECK(!aborted && astar_range_count(range) == ring[d]);
        }
    }

    astar_range_free(range);
    astar_search_free(search);
    astar_grid_free(grid);

    /* Parse errors name the problem; nothing is allocated. */
    CHECK(astar_grid_from_text(&grid, "..\n.x\n", 6, message, sizeof message) == ASTAR_EPARSE);
    CHECK(grid == NULL && strstr(message, "row 2, column 2") != NULL);

    test_min_cost_passes();
    test_min_cost_random();
    test_noop_writes();
    test_restarts();
    test_h_cap();
    test_recording();
    test_query_walls();
    test_layers();
    test_hex();
    test_geometry();
    test_large_ranges();
    test_theta_open();
    test_theta_wall();
    test_theta_rule();
    test_theta_random();
    test_theta_restarts();

    if (failures) {
        fprintf(stderr, "core_api: %d of %ld checks failed\n", failures, checks);
        return 1;
    }
    printf("core_api: all %ld checks passed\n", checks);
    return 0;
}
