/*
 * Grid storage: walkability, entry costs, and the lowest cost for the
 * heuristic. Layer 1 (grid storage): the caches above it (clearance.c,
 * components.c) follow its changes through the hooks of grid_layout.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid_layout.h"
#include "moves.h"

/* Sets bits [from, to) of a bit line. */
static void fill_bits(uint64_t *line, size_t from, size_t to)
{
    size_t b;
    for (b = from; b < to && (b & 63); b++)
        line[b >> 6] |= (uint64_t)1 << (b & 63);
    for (; b + 64 <= to; b += 64)
        line[b >> 6] = ~(uint64_t)0;
    for (; b < to; b++)
        line[b >> 6] |= (uint64_t)1 << (b & 63);
}

static void put_bit(uint64_t *line, size_t b, int on)
{
    uint64_t mask = (uint64_t)1 << (b & 63);
    if (on)
        line[b >> 6] |= mask;
    else
        line[b >> 6] &= ~mask;
}

/* Word k of the stop line (see grid_layout.h) of line i among lines of
 * `words` words each, scanning towards higher bits (down = 0) or lower. The
 * outer lines are never scanned: they stop everywhere. */
static uint64_t stop_word(const uint64_t *bits, size_t lines, size_t words, size_t i, size_t k,
                          int down)
{
    const uint64_t *line = bits + i * words;
    uint64_t stop = ~line[k];
    size_t side;

    if (i == 0 || i + 1 == lines)
        return ~(uint64_t)0;
    for (side = i - 1; side <= i + 1; side += 2) {
        const uint64_t *a = bits + side * words;
        uint64_t before = down ? (a[k] >> 1) | (k + 1 < words ? a[k + 1] << 63 : 0)
                               : (a[k] << 1) | (k > 0 ? a[k - 1] >> 63 : 0);
        stop |= a[k] & ~before;
    }
    return stop;
}

/* Recomputes words k0..k1 of the stop lines of lines i0..i1. */
static void update_stops(uint64_t *const stops[2], const uint64_t *bits, size_t lines, size_t words,
                         size_t i0, size_t i1, size_t k0, size_t k1)
{
    size_t i, k;
    for (i = i0; i <= i1; i++)
        for (k = k0; k <= k1; k++) {
            stops[0][i * words + k] = stop_word(bits, lines, words, i, k, 0);
            stops[1][i * words + k] = stop_word(bits, lines, words, i, k, 1);
        }
}

/* After bordered cell (bx, by) changed: the stop bits it feeds, those of bits
 * b - 1 .. b + 1 of its own line and the two beside it, in rows and columns. */
static void update_stops_near(AstarGrid *grid, size_t bx, size_t by)
{
    size_t rows = grid->height + 2, bit;

    bit = bx + ASTAR_BITS_PAD;
    update_stops(grid->row_stops, grid->row_bits, rows, grid->row_words, by - 1, by + 1,
                 (bit - 1) >> 6, (bit + 1) >> 6);
    bit = by + ASTAR_BITS_PAD;
    update_stops(grid->col_stops, grid->col_bits, grid->stride, grid->col_words, bx - 1, bx + 1,
                 (bit - 1) >> 6, (bit + 1) >> 6);
}

void astar_grid_restop(AstarGrid *grid)
{
    size_t rows = grid->height + 2;
    update_stops(grid->row_stops, grid->row_bits, rows, grid->row_words, 0, rows - 1, 0,
                 grid->row_words - 1);
    update_stops(grid->col_stops, grid->col_bits, grid->stride, grid->col_words, 0,
                 grid->stride - 1, 0, grid->col_words - 1);
}

/* Allocates the row and column bit layers of a new all-walkable grid. */
static AstarError make_bits(AstarGrid *grid)
{
    size_t rows = grid->height + 2, y, x, d;
    size_t row_size = rows * (grid->row_words = (grid->stride + 2 * ASTAR_BITS_PAD) / 64 + 2);
    size_t col_size = grid->stride * (grid->col_words = (rows + 2 * ASTAR_BITS_PAD) / 64 + 2);

    grid->row_bits = calloc(row_size, sizeof *grid->row_bits);
    grid->col_bits = calloc(col_size, sizeof *grid->col_bits);
    for (d = 0; d < 2; d++) {
        grid->row_stops[d] = malloc(row_size * sizeof *grid->row_bits);
        grid->col_stops[d] = malloc(col_size * sizeof *grid->col_bits);
        if (!grid->row_stops[d] || !grid->col_stops[d])
            return ASTAR_ENOMEM;
    }
    if (!grid->row_bits || !grid->col_bits)
        return ASTAR_ENOMEM;
    for (y = 1; y <= grid->height; y++)
        fill_bits(grid->row_bits + y * grid->row_words, 1 + ASTAR_BITS_PAD,
                  grid->width + 1 + ASTAR_BITS_PAD);
    for (x = 1; x <= grid->width; x++)
        fill_bits(grid->col_bits + x * grid->col_words, 1 + ASTAR_BITS_PAD,
                  grid->height + 1 + ASTAR_BITS_PAD);
    update_stops(grid->row_stops, grid->row_bits, rows, grid->row_words, 0, rows - 1, 0,
                 grid->row_words - 1);
    update_stops(grid->col_stops, grid->col_bits, grid->stride, grid->col_words, 0,
                 grid->stride - 1, 0, grid->col_words - 1);
    return ASTAR_OK;
}

AstarError astar_grid_new(AstarGrid **out, uint32_t width, uint32_t height)
{
    AstarGrid *grid;
    uint32_t y;
    int k;

    *out = NULL;
    if (width < 1 || height < 1 || width > ASTAR_MAX_SIDE || height > ASTAR_MAX_SIDE
        || (uint64_t)width * height > ASTAR_MAX_CELLS)
        return ASTAR_ETOOBIG;

    grid = malloc(sizeof *grid);
    if (!grid)
        return ASTAR_ENOMEM;
    grid->width = width;
    grid->height = height;
    grid->stride = width + 2;
    grid->cells = (size_t)grid->stride * (height + 2);
    grid->cost = NULL;
    grid->min_cost = 1.0;
    grid->min_count = (size_t)width * height;
    grid->sec_cost = HUGE_VAL;          /* no second cost */
    grid->sec_count = 0;
    grid->min_stale = 0;
    grid->sec_known = 1;
    grid->cost_writes = 0;
    grid->version = 0;
    memset(grid->changes, 0, sizeof grid->changes);
    grid->row_bits = grid->col_bits = NULL;
    grid->row_stops[0] = grid->row_stops[1] = grid->col_stops[0] = grid->col_stops[1] = NULL;
    grid->components = NULL;
    grid->layers = NULL;
    grid->terrain = NULL;
    grid->moves = NULL;
    grid->jumps = NULL;
    for (k = 0; k < ASTAR_CACHES; k++)
        grid->cache[k] = NULL;
    grid->hex = 0;
    grid->open = calloc(grid->cells, 1);
    if (!grid->open || make_bits(grid) != ASTAR_OK) {
        astar_grid_free(grid);
        return ASTAR_ENOMEM;
    }
    for (y = 0; y < height; y++)
        memset(grid->open + astar_index(grid, 0, y), 1, width);
    *out = grid;
    return ASTAR_OK;
}

void astar_grid_free(AstarGrid *grid)
{
    int k;

    if (!grid)
        return;
    free(grid->open);
    free(grid->cost);
    free(grid->row_bits);
    free(grid->col_bits);
    free(grid->row_stops[0]);
    free(grid->row_stops[1]);
    free(grid->col_stops[0]);
    free(grid->col_stops[1]);
    astar_moves_free(grid->moves);
    for (k = 0; k < ASTAR_CACHES; k++)
        if (grid->cache[k])
            grid->cache[k]->free(grid);
    free(grid);
}

uint32_t astar_grid_width(const AstarGrid *grid) { return grid->width; }
uint32_t astar_grid_height(const AstarGrid *grid) { return grid->height; }
uint64_t astar_grid_version(const AstarGrid *grid) { return grid->version; }

int astar_grid_walkable(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    return grid->open[astar_index(grid, x, y)];
}

void astar_grid_put_open(AstarGrid *grid, size_t i, int walkable)
{
    size_t bx = i % grid->stride, by = i / grid->stride;

    grid->open[i] = (uint8_t)walkable;
    put_bit(grid->row_bits + by * grid->row_words, bx + ASTAR_BITS_PAD, walkable);
    put_bit(grid->col_bits + bx * grid->col_words, by + ASTAR_BITS_PAD, walkable);
    update_stops_near(grid, bx, by);
}

/* Tells the caches built over the grid that bordered cell i changed. */
static void tell_caches(AstarGrid *grid, size_t i, int walkable)
{
    int k;
    for (k = 0; k < ASTAR_CACHES; k++)
        if (grid->cache[k])
            grid->cache[k]->changed(grid, i, walkable);
}

void astar_grid_set_walkable(AstarGrid *grid, uint32_t x, uint32_t y, int walkable)
{
    size_t i = astar_index(grid, x, y);

    walkable = walkable ? 1 : 0;
    if (grid->open[i] == walkable)
        return;                          /* no change: the version stays */
    astar_grid_put_open(grid, i, walkable);
    astar_grid_changed(grid, i);
    tell_caches(grid, i, walkable);
}

double astar_grid_cost(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    return grid->cost ? grid->cost[astar_index(grid, x, y)] : 1.0;
}

/* Counts the two lowest costs and their holders: O(cells). */
static void recount_min_cost(AstarGrid *grid)
{
    uint32_t x, y;
    double lowest = HUGE_VAL, second = HUGE_VAL;
    size_t count = 0, count2 = 0;

    for (y = 0; y < grid->height; y++) {
        const double *row = grid->cost + astar_index(grid, 0, y);
        for (x = 0; x < grid->width; x++) {
            double c = row[x];
            if (c < lowest) {
                second = lowest;
                count2 = count;
                lowest = c;
                count = 1;
            } else if (c == lowest) {
                count++;
            } else if (c < second) {
                second = c;
                count2 = 1;
            } else if (c == second) {
                count2++;
            }
        }
    }
    grid->min_cost = lowest;
    grid->min_count = count;
    grid->sec_cost = second;
    grid->sec_count = count2;
    grid->min_stale = 0;
    grid->sec_known = 1;
    grid->cost_writes = 0;
}

void astar_grid_refresh_min_cost(AstarGrid *grid)
{
    if (grid->min_stale)
        recount_min_cost(grid);
}

double astar_grid_min_cost(const AstarGrid *grid, int *exact)
{
    if (exact)
        *exact = !grid->min_stale;
    return grid->min_cost;
}

/* Follows a cell's cost going from old to cost (they differ) in the lowest
 * and second lowest costs: O(1), and O(cells) at most once per cells / 16
 * calls. See grid_layout.h for the fields. */
static void note_cost_change(AstarGrid *grid, double old, double cost)
{
    size_t cells = (size_t)grid->width * grid->height;
    int due = ++grid->cost_writes >= cells / 16;

    if (grid->min_stale) {
        /* Every cell is above the bound: a cost at or below it is the lowest,
         * held by this cell alone. */
        if (cost <= grid->min_cost) {
            grid->min_cost = cost;
            grid->min_count = 1;
            grid->min_stale = 0;
            grid->sec_known = 0;
        } else if (due) {
            recount_min_cost(grid);
        }
        return;
    }
    /* the cell leaves old's count ... */
    if (old == grid->min_cost)
        grid->min_count--;
    else if (grid->sec_known && old == grid->sec_cost)
        grid->sec_count--;
    /* ... and joins cost's */
    if (cost < grid->min_cost) {
        if (grid->min_count > 0) {        /* else the second lowest stays second */
            grid->sec_cost = grid->min_cost;
            grid->sec_count = grid->min_count;
            grid->sec_known = 1;
        }
        grid->min_cost = cost;
        grid->min_count = 1;
    } else if (cost == grid->min_cost) {
        grid->min_count++;
    } else if (grid->sec_known) {
        if (cost < grid->sec_cost) {      /* nothing lies between the two */
            grid->sec_cost = cost;
            grid->sec_count = 1;
        } else if (cost == grid->sec_cost) {
            grid->sec_count++;
        }
    }
    if (grid->sec_known && grid->sec_count == 0 && grid->sec_cost != HUGE_VAL)
        grid->sec_known = 0;              /* the second lowest is gone: the third is unknown */
    if (grid->min_count == 0) {
        if (grid->sec_known) {            /* a real one: the cell written is above min_cost */
            grid->min_cost = grid->sec_cost;
            grid->min_count = grid->sec_count;
            grid->sec_known = 0;
        } else if (due) {
            recount_min_cost(grid);
            return;
        } else {
            grid->min_stale = 1;          /* every cell is above min_cost */
            return;
        }
    }
    if (grid->min_count == cells) {       /* uniform: no second cost */
        grid->sec_cost = HUGE_VAL;
        grid->sec_count = 0;
        grid->sec_known = 1;
    }
}

/* The lowest cost follows each change in O(1) while it is known, with the
 * second lowest ready to replace it; when both have been raised away it goes
 * stale: the old value stays, below every cost, a lower bound that keeps the
 * heuristic admissible. While stale, a cost at or below the bound is the new
 * lowest, held by one cell; and once cells / 16 costs have changed since the
 * last recount, one recount (O(cells)) makes it exact again, so a write
 * costs O(1) amortized whatever the order. */
AstarError astar_grid_set_cost(AstarGrid *grid, uint32_t x, uint32_t y, double cost)
{
    size_t i = astar_index(grid, x, y);
    double old;

    if (!grid->cost) {
        size_t k;
        if (cost == 1.0)
            return ASTAR_OK;
        grid->cost = malloc(grid->cells * sizeof *grid->cost);
        if (!grid->cost)
            return ASTAR_ENOMEM;
        for (k = 0; k < grid->cells; k++)
            grid->cost[k] = 1.0;
    }
    old = grid->cost[i];
    if (cost == old)
        return ASTAR_OK;                 /* no change: the version stays */
    grid->cost[i] = cost;
    astar_grid_changed(grid, i);
    tell_caches(grid, i, ASTAR_CHANGE_COST);
    note_cost_change(grid, old, cost);
    return ASTAR_OK;
}

static size_t caches_memory(const AstarGrid *grid)
{
    size_t bytes = 0;
    int k;
    for (k = 0; k < ASTAR_CACHES; k++)
        if (grid->cache[k])
            bytes += grid->cache[k]->memory(grid);
    return bytes;
}

size_t astar_grid_memory(const AstarGrid *grid)
{
    return sizeof *grid + grid->cells * (sizeof *grid->open
                                         + (grid->cost ? sizeof *grid->cost : 0))
           + 3 * ((grid->height + 2) * grid->row_words + grid->stride * grid->col_words)
                 * sizeof *grid->row_bits   /* walkable bits and the two stop lines */
           + astar_moves_memory(grid->moves) + caches_memory(grid);
}
