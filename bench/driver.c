/*
 * Benchmark driver: the C core called directly, with no Lua, to measure what
 * the binding adds (column "c" of make bench). Timing scheme identical to
 * bench/maps_bench.lua: warm up, then per query one timed run, or a batch of
 * repeats when one run is shorter than the target, median over rounds.
 *
 *   driver maps MAP QUERIES ROUNDS TARGET_US [ALGORITHM]
 *       prints "mem GRID_BYTES SEARCH_BYTES CELLS" and one
 *       "q ID NS EXPANDED COST LENGTH RAN" line per query of the query file
 *       (lines "id sx sy gx gy optimal tol", 0-based); exits 1 if a cost
 *       differs from the optimum.
 *   driver big SIDE WALL_PERCENT
 *       creates a SIDE x SIDE grid, walls WALL_PERCENT% of it (a seeded LCG,
 *       the same as bench/big_grid.lua), answers a corner-to-corner query
 *       and prints "big KEY VALUE" lines (times, memory).
 *   driver algorithms
 *       prints the algorithm names this build of the core accepts.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/core/astar.h"

typedef struct {
    long id;
    unsigned sx, sy, gx, gy;
    double optimal, tol;
    double ns;          /* median time per query */
    size_t expanded, length;
    double cost;
    AstarAlgorithm ran;
} Query;

typedef struct {
    AstarGrid *grid;
    AstarSearch *search;
    AstarOptions options;
    uint32_t *path;     /* the path's x, y pairs, like findPath's flat form */
    size_t path_capacity;
} Bench;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time, like os.clock */
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "driver: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

/* opts.algorithm names, as findPath spells them; "default" leaves AUTO. */
static const char *const ALGORITHM_NAMES[] = {"default", "auto", "astar", "jps", NULL};
static const AstarAlgorithm ALGORITHM_VALUES[] = {ASTAR_ALGORITHM_AUTO, ASTAR_ALGORITHM_AUTO,
                                                  ASTAR_ALGORITHM_ASTAR, ASTAR_ALGORITHM_JPS};

static int set_algorithm(AstarOptions *options, const char *name)
{
    int i;
    for (i = 0; ALGORITHM_NAMES[i]; i++)
        if (strcmp(name, ALGORITHM_NAMES[i]) == 0) {
            options->algorithm = ALGORITHM_VALUES[i];
            return 1;
        }
    return 0;
}

/* One query, including copying the path out of the search. */
static AstarStatus run_query(Bench *b, const Query *q)
{
    AstarError error;
    AstarStatus status = astar_search_run(b->search, b->grid, q->sx, q->sy, q->gx, q->gy,
                                          &b->options, &error);
    if (error != ASTAR_OK)
        die("search failed", error == ASTAR_ENOMEM ? "out of memory" : "grid changed");
    if (status == ASTAR_FOUND) {
        size_t n = astar_search_length(b->search), i;
        AstarPathCursor at;
        if (n > b->path_capacity)
            die("path longer than the grid", NULL);
        astar_path_end(b->search, &at);
        for (i = n; i-- > 0;) {
            b->path[2 * i] = at.x + 1;       /* 1-based, as findPath's flat form */
            b->path[2 * i + 1] = at.y + 1;
            if (i > 0)
                astar_path_back(b->search, &at);
        }
    }
    return status;
}

/* Time per run of q in ns: one run, or a batch when a run is under target. */
static double time_query(Bench *b, const Query *q, double target_ns)
{
    double t0 = now_ns(), t;
    long n, i;

    run_query(b, q);
    t = now_ns() - t0;
    if (t >= target_ns)
        return t;
    n = (long)(target_ns / (t > 1000.0 ? t : 1000.0)) + 1;
    if (n > 100000)
        n = 100000;
    t0 = now_ns();
    for (i = 0; i < n; i++)
        run_query(b, q);
    return (now_ns() - t0) / (double)n;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long size = 0;

    if (!f)
        die("cannot open", path);
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        die("cannot read", path);
    text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
        die("cannot read", path);
    fclose(f);
    text[size] = '\0';
    *length = (size_t)size;
    return text;
}

static Query *read_queries(const char *path, size_t *count)
{
    FILE *f = fopen(path, "r");
    Query *list = NULL, q;
    size_t n = 0, capacity = 0;

    if (!f)
        die("cannot open", path);
    memset(&q, 0, sizeof q);
    while (fscanf(f, "%ld %u %u %u %u %lf %lf", &q.id, &q.sx, &q.sy, &q.gx, &q.gy,
                  &q.optimal, &q.tol) == 7) {
        if (n == capacity) {
            capacity = capacity ? capacity * 2 : 256;
            list = realloc(list, capacity * sizeof *list);
            if (!list)
                die("out of memory", NULL);
        }
        list[n++] = q;
    }
    fclose(f);
    *count = n;
    return list;
}

static void bench_open(Bench *b, AstarGrid *grid, const char *algorithm)
{
    memset(b, 0, sizeof *b);
    b->grid = grid;
    b->search = astar_search_new();
    b->options.diagonal = ASTAR_DIAGONAL_NO_OBSTACLES;
    b->options.heuristic = ASTAR_HEURISTIC_OCTILE;
    b->options.weight = 1.0;
    b->options.partial = 0;
    b->path_capacity = (size_t)astar_grid_width(grid) * astar_grid_height(grid);
    b->path = malloc(2 * b->path_capacity * sizeof *b->path);
    if (!b->search || !b->path)
        die("out of memory", NULL);
    if (!set_algorithm(&b->options, algorithm))
        die("this core has no algorithm named", algorithm);
    astar_grid_prepare(grid);   /* component labels, as findPath has them: counted in memory */
    astar_grid_prepare_jumps(grid, &b->options);   /* jump tables, as findPath has them */
}

static void bench_close(Bench *b)
{
    astar_search_free(b->search);
    astar_grid_free(b->grid);
    free(b->path);
}

/* Records the search's last answer in q; 1 (and a message) if not optimal. */
static int check_result(const Bench *b, Query *q, const char *map_path)
{
    if (astar_search_status(b->search) != ASTAR_FOUND) {
        fprintf(stderr, "driver: %s query %ld: no path, expected cost %.8f\n", map_path,
                q->id, q->optimal);
        return 1;
    }
    q->cost = astar_search_cost(b->search);
    q->expanded = astar_search_expanded(b->search);
    q->length = astar_search_length(b->search);
    q->ran = astar_search_algorithm(b->search);
    if (fabs(q->cost - q->optimal) > q->tol) {
        fprintf(stderr, "driver: %s query %ld (%u,%u)->(%u,%u): cost %.10f, optimal %.10f\n",
                map_path, q->id, q->sx, q->sy, q->gx, q->gy, q->cost, q->optimal);
        return 1;
    }
    return 0;
}

static int bench_maps(const char *map_path, const char *query_path, int rounds,
                      double target_us, const char *algorithm)
{
    size_t length, count, i, warm;
    char *text = read_file(map_path, &length), message[128];
    Query *queries = read_queries(query_path, &count);
    double *samples = malloc((size_t)(rounds > 0 ? rounds : 1) * (count ? count : 1)
                             * sizeof *samples);
    AstarGrid *grid;
    Bench b;
    int r;

    if (!samples || rounds < 1)
        die("bad rounds or out of memory", NULL);
    if (astar_grid_from_movingai(&grid, text, length, message, sizeof message) != ASTAR_OK)
        die(map_path, message);
    free(text);
    bench_open(&b, grid, algorithm);

    /* warm-up: sizes the scratch and fills the caches */
    warm = count < 50 ? count : 50;
    for (i = 0; i < warm; i++)
        run_query(&b, &queries[i * count / warm]);

    /* every run of a query gives the same answer: check the last one's */
    for (r = 0; r < rounds; r++)
        for (i = 0; i < count; i++) {
            Query *q = &queries[i];
            samples[i * (size_t)rounds + (size_t)r] = time_query(&b, q, target_us * 1e3);
            if (r == 0 && check_result(&b, q, map_path) != 0)
                return 1;
        }
    for (i = 0; i < count; i++) {
        qsort(&samples[i * (size_t)rounds], (size_t)rounds, sizeof *samples, compare_double);
        queries[i].ns = samples[i * (size_t)rounds + (size_t)rounds / 2];
    }

    printf("mem %lu %lu %lu\n", (unsigned long)astar_grid_memory(b.grid),
           (unsigned long)astar_search_memory(b.search),
           (unsigned long)astar_grid_width(b.grid) * astar_grid_height(b.grid));
    for (i = 0; i < count; i++)
        printf("q %ld %.1f %lu %.10f %lu %s\n", queries[i].id, queries[i].ns,
               (unsigned long)queries[i].expanded, queries[i].cost,
               (unsigned long)queries[i].length,
               queries[i].ran == ASTAR_ALGORITHM_JPS ? "jps" : "astar");
    bench_close(&b);
    free(queries);
    free(samples);
    return 0;
}

/* The Park-Miller generator, exact in doubles too, so Lua draws the same walls. */
static uint64_t next_random(uint64_t *seed)
{
    *seed = (*seed * 16807u) % 2147483647u;
    return *seed;
}

static int bench_big(unsigned side, unsigned wall_percent)
{
    AstarGrid *grid;
    Bench b;
    Query q;
    uint64_t seed = 42;
    unsigned x, y;
    double t0, t_create, t_fill, t_label, t_query;
    AstarStatus status;

    t0 = now_ns();
    if (astar_grid_new(&grid, side, side) != ASTAR_OK)
        die("cannot create the big grid", NULL);
    t_create = now_ns() - t0;
    t0 = now_ns();
    for (y = 0; y < side; y++)
        for (x = 0; x < side; x++)
            if (next_random(&seed) % 100 < wall_percent)
                astar_grid_set_walkable(grid, x, y, 0);
    astar_grid_set_walkable(grid, 0, 0, 1);
    astar_grid_set_walkable(grid, side - 1, side - 1, 1);
    t_fill = now_ns() - t0;

    t0 = now_ns();
    bench_open(&b, grid, "default");
    t_label = now_ns() - t0;
    memset(&q, 0, sizeof q);
    q.gx = q.gy = side - 1;
    t0 = now_ns();
    status = run_query(&b, &q);
    t_query = now_ns() - t0;

    printf("big side %u\nbig walls_percent %u\n", side, wall_percent);
    printf("big create_ms %.3f\nbig fill_ms %.3f\nbig label_ms %.3f\nbig query_ms %.3f\n",
           t_create / 1e6, t_fill / 1e6, t_label / 1e6, t_query / 1e6);
    printf("big found %d\n", status == ASTAR_FOUND);
    if (status == ASTAR_FOUND)
        printf("big cost %.6f\nbig length %lu\n", astar_search_cost(b.search),
               (unsigned long)astar_search_length(b.search));
    printf("big algorithm %s\n",
           astar_search_algorithm(b.search) == ASTAR_ALGORITHM_JPS ? "jps" : "astar");
    printf("big expanded %lu\n", (unsigned long)astar_search_expanded(b.search));
    printf("big grid_bytes %lu\nbig search_bytes %lu\n", (unsigned long)astar_grid_memory(grid),
           (unsigned long)astar_search_memory(b.search));
    printf("big bytes_per_cell %.2f\n",
           (double)(astar_grid_memory(grid) + astar_search_memory(b.search))
               / ((double)side * side));
    bench_close(&b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 6 && strcmp(argv[1], "maps") == 0)
        return bench_maps(argv[2], argv[3], atoi(argv[4]), atof(argv[5]),
                          argc > 6 ? argv[6] : "default");
    if (argc == 4 && strcmp(argv[1], "big") == 0)
        return bench_big((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
    if (argc == 2 && strcmp(argv[1], "algorithms") == 0) {
        const char *const *name;
        for (name = ALGORITHM_NAMES; *name; name++)
            printf("%s\n", *name);
        return 0;
    }
    fprintf(stderr, "usage: driver maps MAP QUERIES ROUNDS TARGET_US [ALGORITHM]\n"
                    "       driver big SIDE WALL_PERCENT\n       driver algorithms\n");
    return 2;
}
