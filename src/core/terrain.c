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
    free(t);
    grid->terrain = NULL;
}

static size_t terrain_memory(const AstarGrid *grid)
{
    return grid->terrain ? sizeof *grid->terrain
                               + ((grid->height + 2) * grid->row_words
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

/* Writes whether bordered (x, y) is an edge cell, counting the change. */
static void refresh(AstarGrid *grid, size_t x, size_t y)
{
    struct AstarTerrain *t = grid->terrain;
    int was = astar_terrain_edge(t, grid, x, y);
    int now = is_edge(grid, y * grid->stride + x);
    if (was == now)
        return;
    set_bit(t->row + y * grid->row_words, x + ASTAR_BITS_PAD, now);
    set_bit(t->col + x * grid->col_words, y + ASTAR_BITS_PAD, now);
    t->edges = now ? t->edges + 1 : t->edges - 1;
}

/* A cell's walkability or cost decides whether it and its eight neighbours
 * are edge cells; moves and links change no cell. */
static void terrain_changed(AstarGrid *grid, size_t i, int what)
{
    size_t x = i % grid->stride, y = i / grid->stride, cx, cy;
    if (what == ASTAR_CHANGE_LINKED || what == ASTAR_CHANGE_UNLINKED)
        return;
    for (cy = y - 1; cy <= y + 1; cy++)
        for (cx = x - 1; cx <= x + 1; cx++)
            if (cx >= 1 && cx <= grid->width && cy >= 1 && cy <= grid->height)
                refresh(grid, cx, cy);
}

static const struct AstarCacheHooks TERRAIN_HOOKS = {terrain_changed, terrain_memory,
                                                    terrain_free};

AstarError astar_grid_terrain(AstarGrid *grid)
{
    struct AstarTerrain *t;
    size_t x, y, rows = (size_t)(grid->height + 2) * grid->row_words,
                 cols = (size_t)grid->stride * grid->col_words;
    if (grid->terrain || !grid->cost || grid->hex)
        return ASTAR_OK;
    t = malloc(sizeof *t);
    if (!t)
        return ASTAR_ENOMEM;
    t->row = calloc(rows, sizeof *t->row);
    t->col = calloc(cols, sizeof *t->col);
    t->edges = 0;
    grid->terrain = t;
    if (!t->row || !t->col) {
        terrain_free(grid);
        return ASTAR_ENOMEM;
    }
    for (y = 1; y <= grid->height; y++)
        for (x = 1; x <= grid->width; x++)
            refresh(grid, x, y);
    grid->cache[ASTAR_CACHE_TERRAIN] = &TERRAIN_HOOKS;
    return ASTAR_OK;
}
