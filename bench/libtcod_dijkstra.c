/*
 * make bench-libtcod (issue 22): our 8-direction floods against libtcod's
 * Dijkstra map (TCOD_dijkstra_compute, Debian's libtcod-dev), the C core
 * alone on both sides, on one map (AR0011SR by default), in one run.
 *
 * The same open cells are sources on both sides, one at a time: libtcod
 * floods the whole map in 8 directions (diagonal cost 1.41421356, which
 * libtcod rounds to its integer 141/100; it lets diagonals pass between
 * walls, our ASTAR_DIAGONAL_ALWAYS). Ours, over unit costs:
 *
 *   distanceMap   a new map each time: its arrays laid out and run (what
 *                 grid:distanceMap does under Lua, but the allocation:
 *                 astar_distance_layout_unfilled, one clearing)
 *   rebuild       the same map run again (setSources, update's rebuild)
 *   movementRange astar_range_run_diagonal with no budget
 *
 * Each row is the median over ROUNDS passes of the total over the sources
 * (CPU time), and its ratio ours / libtcod (below 1: ours is faster).
 * Before timing, both must reach the same cells from every source.
 *
 *   libtcod_dijkstra [MAP [SOURCES [ROUNDS]]]   (defaults maps/AR0011SR.map 20 7)
 */
#include <libtcod.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/core/astar.h"

#define DIAGONAL_COST 1.41421356f

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;

    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *length = (size_t)n;
    return text;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, by_value);
    return t[n / 2];
}

typedef struct {
    AstarGrid *grid;
    TCOD_Map *map;
    TCOD_Dijkstra *tcod;
    AstarRange *scratch;
    void *memory;                /* a map's arrays */
    AstarDistanceMap kept;       /* laid out once: the rebuild row */
    AstarDistanceSource *sources;
    int n;
    uint32_t w, h;
} Bench;

enum { ROW_TCOD, ROW_MAP, ROW_REBUILD, ROW_RANGE, ROWS };
static const char *const ROW_NAME[ROWS] = {"libtcod TCOD_dijkstra_compute", "distanceMap (new map)",
                                           "distanceMap rebuilt in place", "movementRange"};

static void run_ours(Bench *bn, AstarDistanceMap *m, int s)
{
    int aborted;
    if (astar_distance_run(bn->scratch, bn->grid, m, &bn->sources[s], 1, INFINITY, NULL, NULL,
                           &aborted) != ASTAR_OK) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
}

/* One pass of row r over every source: its CPU time in ms. */
static double pass(Bench *bn, int r)
{
    const uint32_t w = bn->w, h = bn->h;
    const double t = now_ms();
    int s, aborted;

    for (s = 0; s < bn->n; s++) {
        const AstarDistanceSource *src = &bn->sources[s];
        AstarDistanceMap m;
        switch (r) {
        case ROW_TCOD:
            TCOD_dijkstra_compute(bn->tcod, (int)src->x, (int)src->y);
            break;
        case ROW_MAP:
            astar_distance_layout_unfilled(&m, bn->memory, w, h, ASTAR_DIAGONAL_ALWAYS);
            run_ours(bn, &m, s);
            break;
        case ROW_REBUILD:
            run_ours(bn, &bn->kept, s);
            break;
        default:
            if (astar_range_run_diagonal(bn->scratch, bn->grid, src->x, src->y, INFINITY,
                                         ASTAR_DIAGONAL_ALWAYS, NULL, NULL, &aborted)
                != ASTAR_OK) {
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
        }
    }
    return now_ms() - t;
}

/* Both libraries reach the same cells from every source, and our map and
 * range agree on how many. */
static void check(Bench *bn)
{
    const uint32_t w = bn->w, h = bn->h;
    int s;

    for (s = 0; s < bn->n; s++) {
        const AstarDistanceSource *src = &bn->sources[s];
        size_t reached = 0;
        uint32_t x, y;
        int aborted;

        TCOD_dijkstra_compute(bn->tcod, (int)src->x, (int)src->y);
        run_ours(bn, &bn->kept, s);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                const int theirs = TCOD_dijkstra_get_distance(bn->tcod, (int)x, (int)y) >= 0.0f;
                const size_t i = ((size_t)y + 1) * bn->kept.stride + x + 1;
                const int ours = (bn->kept.step[i] & ASTAR_STEP_MEMBER) != 0;   /* start cells: walls */
                if (theirs != ours) {
                    fprintf(stderr, "source (%u, %u): cell (%u, %u) reached by %s only\n",
                            (unsigned)src->x, (unsigned)src->y, (unsigned)x, (unsigned)y,
                            ours ? "ours" : "libtcod");
                    exit(1);
                }
                reached += (size_t)ours;
            }
        if (astar_range_run_diagonal(bn->scratch, bn->grid, src->x, src->y, INFINITY,
                                     ASTAR_DIAGONAL_ALWAYS, NULL, NULL, &aborted) != ASTAR_OK
            || astar_range_count(bn->scratch) != reached) {
            fprintf(stderr, "source (%u, %u): movementRange reaches %zu cells, the map %zu\n",
                    (unsigned)src->x, (unsigned)src->y, astar_range_count(bn->scratch), reached);
            exit(1);
        }
    }
}

/* n open cells spread over the grid (a fixed sequence). */
static AstarDistanceSource *pick_sources(const AstarGrid *grid, int n)
{
    AstarDistanceSource *list = malloc((size_t)n * sizeof *list);
    uint32_t state = 12345;
    int k = 0;

    while (list && k < n) {
        uint32_t x, y;
        state = state * 1103515245u + 12345u;
        x = (state >> 8) % astar_grid_width(grid);
        state = state * 1103515245u + 12345u;
        y = (state >> 8) % astar_grid_height(grid);
        if (!astar_grid_walkable(grid, x, y))
            continue;
        list[k].x = x;
        list[k].y = y;
        list[k].value = 0.0;
        k++;
    }
    return list;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "maps/AR0011SR.map";
    const int nsources = argc > 2 ? atoi(argv[2]) : 20, rounds = argc > 3 ? atoi(argv[3]) : 7;
    double times[ROWS][64], ms[ROWS];
    char message[256];
    size_t length;
    char *text = read_file(path, &length);
    Bench bn;
    uint32_t x, y;
    int r, k;

    if (nsources < 1 || rounds < 1 || rounds > 64) {
        fprintf(stderr, "usage: libtcod_dijkstra [MAP [SOURCES [ROUNDS (1-64)]]]\n");
        return 2;
    }
    if (astar_grid_from_movingai(&bn.grid, text, length, message, sizeof message) != ASTAR_OK) {
        fprintf(stderr, "%s: %s\n", path, message);
        return 1;
    }
    free(text);
    bn.w = astar_grid_width(bn.grid);
    bn.h = astar_grid_height(bn.grid);
    bn.map = TCOD_map_new((int)bn.w, (int)bn.h);
    for (y = 0; y < bn.h; y++)
        for (x = 0; x < bn.w; x++) {
            const int open = astar_grid_walkable(bn.grid, x, y);
            TCOD_map_set_properties(bn.map, (int)x, (int)y, open, open);
        }
    bn.tcod = TCOD_dijkstra_new(bn.map, DIAGONAL_COST);
    bn.scratch = astar_range_new();
    bn.memory = malloc(astar_distance_bytes(bn.w, bn.h));
    bn.n = nsources;
    bn.sources = pick_sources(bn.grid, nsources);
    if (!bn.tcod || !bn.scratch || !bn.memory || !bn.sources) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    astar_distance_layout(&bn.kept, malloc(astar_distance_bytes(bn.w,
                                                                bn.h)),
                          bn.w, bn.h, ASTAR_DIAGONAL_ALWAYS);
    check(&bn);
    for (k = 0; k < rounds; k++)            /* the rows interleaved: the same machine load */
        for (r = 0; r < ROWS; r++)
            times[r][k] = pass(&bn, r);
    printf("%s, %d sources, whole-map 8-direction floods, median of %d passes (CPU ms "
           "per flood)\n", path, nsources, rounds);
    for (r = 0; r < ROWS; r++) {
        ms[r] = median(times[r], rounds) / nsources;
        printf("  %-32s %8.3f ms", ROW_NAME[r], ms[r]);
        if (r != ROW_TCOD)
            printf("   ours / libtcod %.2f", ms[r] / ms[ROW_TCOD]);
        printf("\n");
    }
    TCOD_dijkstra_delete(bn.tcod);
    TCOD_map_delete(bn.map);
    astar_range_free(bn.scratch);
    astar_grid_free(bn.grid);
    free(bn.memory);
    free(bn.kept.dist);
    free(bn.sources);
    return 0;
}
