/*
 * Terrain edges (terrain.h), a cache of the grid for jump point search on
 * weighted grids. Layer 2 (caches on the grid).
 */
#include <stdlib.h>

#include "terrain.h"

static void terrain_free(AstarGrid *grid)
{
    struct AstarTerrain *t = grid->terrain;
    if (!t)
        return;
    free(t->row);
    free(t->col);
    free(t->row_stops[0]);
    free(t->row_stops[1]);
    free(t->col_stops[0]);
    free(t->col_stops[1]);
    free(t);
    grid->terrain = NULL;
}

static size_t terrain_memory(const AstarGrid *grid)
{
    return grid->terrain ? sizeof *grid->terrain
                               + (grid->terrain->row_stops[0] ? 3 : 1)
                                     * ((grid->height + 2) * grid->row_words
                                        + grid->stride * grid->col_words) * sizeof(uint64_t)
                         : 0;
}

/* Is bordered cell i an edge cell? A cell of the grid, so its eight
 * neighbours are cells or the (closed) border. */
static int is_edge(const AstarGrid *grid, size_t i)
{
    const long w = (long)grid->stride;
    const long around[8] = {-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1};
    const double c = grid->cost[i];
    int k;
    if (!grid->open[i])
        return 0;
    for (k = 0; k < 8; k++) {
        size_t n = (size_t)((long)i + around[k]);
        if (grid->open[n] && grid->cost[n] != c)
            return 1;
    }
    return 0;
}

static void set_bit(uint64_t *line, size_t b, int on)
{
    uint64_t mask = (uint64_t)1 << (b & 63);
    if (on)
        line[b >> 6] |= mask;
    else
        line[b >> 6] &= ~mask;
}

/* Writes bit b of a line in each of the stop lines for the two ways along
 * it: a wall, or a walkable cell with a forced neighbour. */
static void put_stops(uint64_t *const stops[2], size_t at, size_t b, const AstarGrid *grid,
                      size_t i, long step, long side)
{
    long x = (long)i;
    set_bit(stops[0] + at, b, !grid->open[i] || terrain_straight_stop(grid, x, step, side));
    set_bit(stops[1] + at, b, !grid->open[i] || terrain_straight_stop(grid, x, -step, side));
}

/* Writes what bordered (x, y), a cell of the grid, is: an edge cell or not
 * (counted), and its stop bits once they are built. */
static void refresh(AstarGrid *grid, size_t x, size_t y)
{
    struct AstarTerrain *t = grid->terrain;
    size_t i = y * grid->stride + x;
    int was = astar_terrain_edge(t, grid, x, y);
    int now = is_edge(grid, i);
    if (t->row_stops[0]) {
        put_stops(t->row_stops, y * grid->row_words, x + ASTAR_BITS_PAD, grid, i, 1,
                  (long)grid->stride);
        put_stops(t->col_stops, x * grid->col_words, y + ASTAR_BITS_PAD, grid, i,
                  (long)grid->stride, 1);
    }
    if (was == now)
        return;
    set_bit(t->row + y * grid->row_words, x + ASTAR_BITS_PAD, now);
    set_bit(t->col + x * grid->col_words, y + ASTAR_BITS_PAD, now);
    t->edges = now ? t->edges + 1 : t->edges - 1;
}

/* The border's cells are walls: a scan stops there. */
static void border_stops(AstarGrid *grid)
{
    struct AstarTerrain *t = grid->terrain;
    size_t x, y, d;
    for (d = 0; d < 2; d++) {
        for (y = 1; y <= grid->height; y++) {
            set_bit(t->row_stops[d] + y * grid->row_words, ASTAR_BITS_PAD, 1);
            set_bit(t->row_stops[d] + y * grid->row_words, grid->width + 1 + ASTAR_BITS_PAD, 1);
        }
        for (x = 1; x <= grid->width; x++) {
            set_bit(t->col_stops[d] + x * grid->col_words, ASTAR_BITS_PAD, 1);
            set_bit(t->col_stops[d] + x * grid->col_words, grid->height + 1 + ASTAR_BITS_PAD, 1);
        }
    }
}

/* A cell's walkability or cost decides whether it and its eight neighbours
 * are edge cells; moves and links change no cell. */
static void terrain_changed(AstarGrid *grid, size_t i, int what)
{
    size_t x = i % grid->stride, y = i / grid->stride, cx, cy;
    if (what == ASTAR_CHANGE_LINKED || what == ASTAR_CHANGE_UNLINKED)
        return;
    if (what >= 0)
        grid->terrain->open = what ? grid->terrain->open + 1 : grid->terrain->open - 1;
    for (cy = y - 1; cy <= y + 1; cy++)
        for (cx = x - 1; cx <= x + 1; cx++)
            if (cx >= 1 && cx <= grid->width && cy >= 1 && cy <= grid->height)
                refresh(grid, cx, cy);
}

static const struct AstarCacheHooks TERRAIN_HOOKS = {terrain_changed, terrain_memory,
                                                    terrain_free};

/* The stop lines, built while edge cells are few enough for them to be of
 * use (terrain_pays): on a grid whose terrain changes every few cells they
 * would cost their O(cells) for nothing. */
static AstarError build_stops(AstarGrid *grid)
{
    struct AstarTerrain *t = grid->terrain;
    size_t x, y, d, rows = (size_t)(grid->height + 2) * grid->row_words,
                    cols = (size_t)grid->stride * grid->col_words;
    for (d = 0; d < 2; d++) {
        t->row_stops[d] = calloc(rows, sizeof *t->row);
        t->col_stops[d] = calloc(cols, sizeof *t->col);
    }
    if (!t->row_stops[0] || !t->row_stops[1] || !t->col_stops[0] || !t->col_stops[1]) {
        for (d = 0; d < 2; d++) {
            free(t->row_stops[d]);
            free(t->col_stops[d]);
            t->row_stops[d] = t->col_stops[d] = NULL;
        }
        return ASTAR_ENOMEM;
    }
    border_stops(grid);
    for (y = 1; y <= grid->height; y++)
        for (x = 1; x <= grid->width; x++)
            refresh(grid, x, y);
    return ASTAR_OK;
}

AstarError astar_grid_terrain(AstarGrid *grid)
{
    struct AstarTerrain *t = grid->terrain;
    size_t x, y, rows = (size_t)(grid->height + 2) * grid->row_words,
                 cols = (size_t)grid->stride * grid->col_words;
    if (!grid->cost || grid->hex)
        return ASTAR_OK;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return ASTAR_ENOMEM;
        t->row = calloc(rows, sizeof *t->row);
        t->col = calloc(cols, sizeof *t->col);
        grid->terrain = t;
        if (!t->row || !t->col) {
            terrain_free(grid);
            return ASTAR_ENOMEM;
        }
        for (y = 1; y <= grid->height; y++)
            for (x = 1; x <= grid->width; x++) {
                refresh(grid, x, y);
                t->open += grid->open[y * grid->stride + x];
            }
        grid->cache[ASTAR_CACHE_TERRAIN] = &TERRAIN_HOOKS;
    }
    if (!t->row_stops[0] && terrain_pays(t, 0))
        return build_stops(grid);
    return ASTAR_OK;
}
