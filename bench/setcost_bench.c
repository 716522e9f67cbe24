/*
 * setCost benchmark: the C core alone rewrites every cost of a SIDE x SIDE
 * grid (default 512), pass after pass, and reports the time per
 * astar_grid_set_cost. Each pass writes every cell once, in scan order or
 * in reverse, the k-th write of the pass getting:
 *
 *   fill     2 + k           from all 1s (untimed in the table's sense: the
 *                            field the next passes rewrite; timed anyway)
 *   rising   2 + N + k       every write raises the cell holding the lowest
 *                            cost, the only one left holding it
 *   falling  2 + 3N - k      the same, from the other end of the values
 *   lower    1 - k / (2N)    every write lowers the lowest cost
 *
 * (N = cells.) Each pass after the first starts from the costs the pass
 * before it leaves, set up untimed on a new grid (written from all 1s in the
 * reverse of the timed order, cheap for any core), so a pass stopped early
 * (LIMIT_MS) does not change what the next one does. rising and falling are
 * where a core that recounts the lowest cost whenever its last holder is
 * raised spends O(N) per write.
 *
 *   setcost_bench [SIDE [ROUNDS [LIMIT_MS]]]
 *       ROUNDS (default 5) runs of the whole sequence, on a new grid each,
 *       the median per pass reported; LIMIT_MS (default 0: none) stops a
 *       pass after that much CPU time and reports the writes it made (for
 *       timing a quadratic core without waiting minutes).
 *
 * Output: one line per order and pass, "setcost ORDER PASS NS_PER_WRITE
 * WRITES", and, with a core that has astar_grid_refresh_min_cost, the time
 * one refresh takes after the pass ("refresh_us", O(cells) when the lowest
 * cost is a stale bound, else O(1)).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../src/core/astar.h"

#define PASSES 4
static const char *const PASS_NAMES[PASSES] = {"fill", "rising", "falling", "lower"};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double pass_cost(int pass, double n, double k)
{
    switch (pass) {
    case 0: return 2.0 + k;
    case 1: return 2.0 + n + k;
    case 2: return 2.0 + 3.0 * n - k;
    default: return 1.0 - k / (2.0 * n);
    }
}

typedef struct {
    double ns;          /* per write */
    size_t writes;
    double refresh_ns;  /* one refresh after the pass, or -1 */
} Sample;

/* One pass over the grid; stops early past limit_ns of CPU time (0: never). */
static Sample run_pass(AstarGrid *grid, uint32_t side, int pass, int reverse, double limit_ns)
{
    size_t n = (size_t)side * side, k;
    double t0 = now_ns(), t = 0.0;
    Sample out;

    for (k = 0; k < n; k++) {
        size_t at = reverse ? n - 1 - k : k;
        if (astar_grid_set_cost(grid, (uint32_t)(at % side), (uint32_t)(at / side),
                                pass_cost(pass, (double)n, (double)k))
            != ASTAR_OK) {
            fprintf(stderr, "setcost_bench: out of memory\n");
            exit(1);
        }
        if (limit_ns > 0.0 && (k & 255) == 255 && (t = now_ns() - t0) > limit_ns) {
            k++;
            break;
        }
    }
    t = now_ns() - t0;
    out.writes = k;
    out.ns = t / (double)k;
    out.refresh_ns = -1.0;
#ifdef ASTAR_MAX_H_SCALE /* a core with the lazy lowest cost */
    t0 = now_ns();
    astar_grid_refresh_min_cost(grid);
    out.refresh_ns = now_ns() - t0;
#endif
    return out;
}

/* A new grid holding the costs pass `pass` leaves (all 1s for -1). */
static AstarGrid *grid_after(uint32_t side, int pass, int reverse)
{
    size_t n = (size_t)side * side, k;
    AstarGrid *grid;

    if (astar_grid_new(&grid, side, side) != ASTAR_OK) {
        fprintf(stderr, "setcost_bench: cannot create the grid\n");
        exit(1);
    }
    if (pass >= 0)
        for (k = n; k-- > 0;) {
            size_t at = reverse ? n - 1 - k : k;
            if (astar_grid_set_cost(grid, (uint32_t)(at % side), (uint32_t)(at / side),
                                    pass_cost(pass, (double)n, (double)k))
                != ASTAR_OK) {
                fprintf(stderr, "setcost_bench: out of memory\n");
                exit(1);
            }
        }
    return grid;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    uint32_t side = argc > 1 ? (uint32_t)atoi(argv[1]) : 512;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    double limit_ns = argc > 3 ? atof(argv[3]) * 1e6 : 0.0;
    int order, pass, r;

    if (side < 1 || side > 4096 || rounds < 1) {
        fprintf(stderr, "usage: setcost_bench [SIDE [ROUNDS [LIMIT_MS]]]\n");
        return 2;
    }
    printf("# %ux%u grid, %d rounds, ns per astar_grid_set_cost (median)\n", side, side, rounds);
    for (order = 0; order < 2; order++) {
        double ns[PASSES][64], refresh[PASSES][64];
        size_t writes[PASSES] = {0};
        if (rounds > 64)
            rounds = 64;
        for (r = 0; r < rounds; r++)
            for (pass = 0; pass < PASSES; pass++) {
                AstarGrid *grid = grid_after(side, pass - 1, order);
                Sample s = run_pass(grid, side, pass, order, limit_ns);
                ns[pass][r] = s.ns;
                refresh[pass][r] = s.refresh_ns;
                writes[pass] = s.writes;
                astar_grid_free(grid);
            }
        for (pass = 0; pass < PASSES; pass++) {
            qsort(ns[pass], (size_t)rounds, sizeof ns[pass][0], compare_double);
            qsort(refresh[pass], (size_t)rounds, sizeof refresh[pass][0], compare_double);
            printf("setcost %s %s %.2f %lu", order ? "reverse" : "scan", PASS_NAMES[pass],
                   ns[pass][rounds / 2], (unsigned long)writes[pass]);
            if (refresh[pass][rounds / 2] >= 0.0)
                printf(" refresh_us %.1f", refresh[pass][rounds / 2] / 1e3);
            printf("\n");
        }
    }
    return 0;
}
