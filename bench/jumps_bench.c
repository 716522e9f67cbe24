/*
 * Jump tables (issue 22, make bench-jumps): jump point search with the
 * grid's jump tables against plain jump point search on the same queries in
 * one run, the C core called directly. Two copies of the map: one prepared
 * with astar_grid_prepare_jumps before every query (as findPath does), one
 * never (plain jump point search). Rounds alternate between them.
 *
 *   jumps_bench MAP SCEN [EDITS [SIDE]]
 *
 * Prints, per query (µs, the mean over 500 queries spread over SCEN, best of
 * 5 rounds): tables and plain with no edits; then for each count in EDITS
 * (a comma list, "2,10,100") that many setWalkable calls between queries
 * (half new random toggles, half undoing the new toggles of the batch
 * before, so the map stays the map and each query follows EDITS changed
 * cells), the edits and the tables' refresh counted in both times; the memory of the tables
 * per cell; the cost of one edit (a toggle, then the refresh before the next
 * query) on the map and on a SIDE x SIDE grid (4096) with 10% random walls.
 * Exits 1 when a cost differs from the scenario's optimum (no edits) or
 * between the two copies (with edits).
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/core/astar.h"

#define QUERIES 500
/* JUMPS_APPLY_ALL (make bench-jumps' second build): every change applied
 * before the next query, however many came since the last. */
#ifdef JUMPS_APPLY_ALL
#define RULE "every change applied"
#else
#define RULE "changes applied when calm"
#endif
#define ROUNDS 5

typedef struct {
    unsigned sx, sy, gx, gy;
    double optimal;
} Query;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
    fprintf(stderr, "jumps_bench: %s\n", what);
    exit(1);
}

static uint64_t seed = 42;
static unsigned next_random(unsigned n)
{
    seed = (seed * 16807u) % 2147483647u;
    return (unsigned)(seed % n);
}

static AstarGrid *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    long size = 0;
    char *text, message[128];
    AstarGrid *grid;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        die("cannot read the map");
    text = malloc((size_t)size);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
        die("cannot read the map");
    fclose(f);
    if (astar_grid_from_movingai(&grid, text, (size_t)size, message, sizeof message) != ASTAR_OK)
        die(message);
    free(text);
    astar_grid_prepare(grid);
    return grid;
}

static size_t read_queries(const char *path, Query *out)
{
    FILE *f = fopen(path, "r");
    char line[512], map[256];
    Query all[20000], q;
    size_t n = 0, i;
    int bucket, w, h;
    if (!f)
        die("cannot read the scenarios");
    while (fgets(line, sizeof line, f) && n < 20000)
        if (sscanf(line, "%d %255s %d %d %u %u %u %u %lf", &bucket, map, &w, &h, &q.sx, &q.sy,
                   &q.gx, &q.gy, &q.optimal) == 9)
            all[n++] = q;
    fclose(f);
    for (i = 0; i < QUERIES && n; i++)
        out[i] = all[i * n / QUERIES];
    return n < QUERIES ? n : QUERIES;
}

static AstarOptions options(void)
{
    AstarOptions o;
    memset(&o, 0, sizeof o);
    o.diagonal = ASTAR_DIAGONAL_NO_OBSTACLES;
    o.heuristic = ASTAR_HEURISTIC_OCTILE;
    o.weight = 1.0;
    o.size = 1;
    return o;
}

static double run(AstarSearch *s, AstarGrid *g, const Query *q, int tables)
{
    AstarOptions o = options();
    AstarError e;
    if (tables)
        astar_grid_prepare_jumps(g, &o);
    if (astar_search_run(s, g, q->sx, q->sy, q->gx, q->gy, &o, &e) != ASTAR_FOUND)
        return -1.0;
    return astar_search_cost(s);
}

/* The new toggles of one batch of edits, undone by the next batch. */
typedef struct {
    unsigned x[1024], y[1024];
    size_t n;
} Toggles;

static void edit(AstarGrid *g, Toggles *t, unsigned edits)
{
    unsigned w = astar_grid_width(g), h = astar_grid_height(g), k;
    size_t undo = t->n;
    for (k = 0; k < undo; k++)
        astar_grid_set_walkable(g, t->x[k], t->y[k], !astar_grid_walkable(g, t->x[k], t->y[k]));
    t->n = 0;
    for (k = 0; k < edits - edits / 2 && t->n < 1024; k++) {
        unsigned x = next_random(w), y = next_random(h);
        t->x[t->n] = x;
        t->y[t->n++] = y;
        astar_grid_set_walkable(g, x, y, !astar_grid_walkable(g, x, y));
    }
}

/* One edit and the refresh after it, µs, over n toggles undone in turn. */
static double edit_cost(AstarGrid *g, unsigned n)
{
    AstarOptions o = options();
    unsigned w = astar_grid_width(g), h = astar_grid_height(g), k;
    double t = 0, t0;
    for (k = 0; k < n; k++) {
        unsigned x = next_random(w), y = next_random(h);
        int was = astar_grid_walkable(g, x, y);
        t0 = now_us();
        astar_grid_set_walkable(g, x, y, !was);
        astar_grid_prepare_jumps(g, &o);
        astar_grid_set_walkable(g, x, y, was);
        astar_grid_prepare_jumps(g, &o);
        t += now_us() - t0;
    }
    return t / (2.0 * n);
}

static void big(unsigned side)
{
    AstarGrid *g;
    AstarOptions o = options();
    unsigned x, y;
    size_t before;
    double t0;
    if (astar_grid_new(&g, side, side) != ASTAR_OK)
        die("out of memory");
    for (y = 0; y < side; y++)
        for (x = 0; x < side; x++)
            if (next_random(100) < 10)
                astar_grid_set_walkable(g, x, y, 0);
    before = astar_grid_memory(g);
    t0 = now_us();
    astar_grid_prepare_jumps(g, &o);
    printf("big%u build_ms %.1f\n", side, (now_us() - t0) / 1e3);
    printf("big%u bytes_per_cell %.2f\n", side,
           (double)(astar_grid_memory(g) - before) / ((double)side * side));
    printf("big%u edit_us %.2f\n", side, edit_cost(g, 2000));
    astar_grid_free(g);
}

/* Best mean µs a query over ROUNDS rounds, tables (k = 0) and plain (1)
 * alternating, with `edits` setWalkable between queries (0: none, the cost
 * checked against the scenario's); with edits the two copies must agree. */
static void measure(AstarSearch *s, AstarGrid *gt, AstarGrid *gp, const Query *q, size_t n,
                    unsigned edits, double best[2])
{
    static double cost[QUERIES];
    static Toggles toggles[2];
    size_t i;
    int r, k;
    best[0] = best[1] = 1e30;
    for (r = 0; r < ROUNDS; r++)
        for (k = 0; k < 2; k++) {
            AstarGrid *g = k ? gp : gt;
            double total = 0, t0;
            toggles[k].n = 0;
            seed = 1000u + (uint64_t)r;           /* the same edits on both copies */
            for (i = 0; i < n; i++) {
                double c;
                t0 = now_us();
                if (edits)
                    edit(g, &toggles[k], edits);
                c = run(s, g, &q[i], !k);
                total += now_us() - t0;
                if (!edits && fabs(c - q[i].optimal) > 1e-4)
                    die("a cost differs from the scenario's");
                if (edits && k == 0)
                    cost[i] = c;
                if (edits && k == 1 && cost[i] != c)
                    die("with edits, a cost differs between tables and plain");
            }
            if (edits)
                edit(g, &toggles[k], 0);   /* undo the last batch */
            if (total / (double)n < best[k])
                best[k] = total / (double)n;
        }
}

int main(int argc, char **argv)
{
    static Query q[QUERIES];
    AstarGrid *gt, *gp;
    AstarSearch *s = astar_search_new();
    const char *list = argc > 3 ? argv[3] : "100";
    unsigned side = argc > 4 ? (unsigned)atoi(argv[4]) : 4096;
    size_t n, before;
    double best[2], t0;

    if (argc < 3 || !s)
        die("usage: jumps_bench MAP SCEN [EDITS [SIDE]]");
    gt = load(argv[1]);
    gp = load(argv[1]);
    n = read_queries(argv[2], q);
    before = astar_grid_memory(gt);
    t0 = now_us();
    run(s, gt, &q[0], 1);
    printf("map build_ms %.2f\n", (now_us() - t0) / 1e3);
    printf("map bytes_per_cell %.2f\n", (double)(astar_grid_memory(gt) - before)
                                            / ((double)astar_grid_width(gt) * astar_grid_height(gt)));
    printf("queries %lu, %s\n", (unsigned long)n, RULE);
    measure(s, gt, gp, q, n, 0, best);
    printf("edits 0 tables_us %.2f plain_us %.2f ratio %.2f\n", best[0], best[1],
           best[1] / best[0]);
    while (*list) {
        unsigned edits = (unsigned)strtoul(list, NULL, 10);
        list += strcspn(list, ",");
        list += *list == ',';
        if (!edits)
            continue;
        measure(s, gt, gp, q, n, edits, best);
        printf("edits %u tables_us %.2f plain_us %.2f ratio %.2f saved_us %.2f\n", edits, best[0],
               best[1], best[1] / best[0], best[1] - best[0]);
    }
    printf("map edit_us %.2f\n", edit_cost(gt, 2000));
    if (side)
        big(side);
    astar_search_free(s);
    astar_grid_free(gt);
    astar_grid_free(gp);
    return 0;
}
