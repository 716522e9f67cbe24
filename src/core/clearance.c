/*
 * Large units' layers (issue 14), a cache of the grid. A unit of size k
 * covers the k x k cells whose top-left cell is its position. Where it fits
 * is an erosion of the walkable bits: a row of k-wide runs (AND of the row
 * shifted by 0..k-1), then the AND of k such rows, 64 cells per word. The
 * grid keeps one layer per size in use, a grid of its own (open bytes, bit
 * lines, stop lines), updated cell by cell by astar_grid_set_walkable
 * through the hooks of grid_layout.h. With uniform costs and no rule a
 * size-k query is exactly a one-cell query on that layer (every position
 * entered costs the one cost; the corner rule applies to the positions
 * beside a diagonal step, which are the layer's cells), so the square loops
 * and jump point search run on it unchanged; with costs or a rule, large.c
 * runs the search. Layer 2 (caches on the grid): it knows no search.
 */
#include <stdlib.h>
#include <string.h>

#include "clearance.h"
#include "grid_layout.h"

static void layers_free(AstarGrid *grid)
{
    struct AstarLayer *layers = grid->layers;
    while (layers) {
        struct AstarLayer *next = layers->next;
        astar_grid_free(layers->fit);
        free(layers);
        layers = next;
    }
    grid->layers = NULL;
}

static size_t layers_memory(const AstarGrid *grid)
{
    const struct AstarLayer *l;
    size_t bytes = 0;
    for (l = grid->layers; l; l = l->next)
        bytes += sizeof *l + astar_grid_memory(l->fit);
    return bytes;
}

/* 1 when the k x k cells at top-left (px, py), 0-based, are all in the grid
 * and walkable: k bits of k rows, up to 64 at a time. */
static int fits(const AstarGrid *grid, uint32_t px, uint32_t py, uint32_t k)
{
    uint32_t j;
    if (px + (uint64_t)k > grid->width || py + (uint64_t)k > grid->height)
        return 0;
    for (j = 0; j < k; j++) {
        const uint64_t *line = astar_row_bits(grid, (size_t)py + 1 + j);
        size_t b = (size_t)px + 1 + ASTAR_BITS_PAD;
        uint32_t left = k;
        while (left) {
            unsigned n = left < 64 ? left : 64;
            uint64_t mask = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
            if ((astar_bits_at(line, b) & mask) != mask)
                return 0;
            b += n;
            left -= n;
        }
    }
    return 1;
}

/* Cell (x, y) became walkable or a wall: the positions whose k x k cells
 * hold it fit or no longer do. */
static void layers_walkable(AstarGrid *grid, uint32_t x, uint32_t y, int walkable)
{
    struct AstarLayer *l;
    for (l = grid->layers; l; l = l->next) {
        uint32_t k = l->size, px, py;
        uint32_t x0 = x >= k - 1 ? x - (k - 1) : 0, y0 = y >= k - 1 ? y - (k - 1) : 0;
        l->fit->version = grid->version;
        if (k > grid->width || k > grid->height)
            continue;                    /* fits nowhere, whatever the walls */
        for (py = y0; py <= y; py++)
            for (px = x0; px <= x; px++) {
                size_t i = astar_index(l->fit, px, py);
                int now = walkable ? fits(grid, px, py, k) : 0;
                if (l->fit->open[i] != now)
                    astar_grid_put_open(l->fit, i, now);
            }
    }
}

/* Any change of bordered cell i: the layers take the grid's version (a cost
 * change moves no position in or out of a layer). */
static void layers_changed(AstarGrid *grid, size_t i, int walkable)
{
    struct AstarLayer *l;

    if (walkable >= 0) {
        layers_walkable(grid, (uint32_t)(i % grid->stride - 1), (uint32_t)(i / grid->stride - 1),
                        walkable);
        return;
    }
    for (l = grid->layers; l; l = l->next)
        l->fit->version = grid->version;
}

static const struct AstarCacheHooks LAYER_HOOKS = {layers_changed, layers_memory, layers_free};

/* The erosion, word by word (see the top of the file). */
static AstarError build(const AstarGrid *grid, uint32_t k, AstarGrid **out)
{
    size_t rows = (size_t)grid->height + 2, words = grid->row_words, y, wi, i;
    uint64_t *hz;
    AstarGrid *f;
    AstarError e = astar_grid_new(&f, grid->width, grid->height);

    if (e != ASTAR_OK)
        return e;
    hz = calloc(rows * words, sizeof *hz);
    if (!hz) {
        astar_grid_free(f);
        return ASTAR_ENOMEM;
    }
    /* hz: bit x of row y set when cells x .. x + k - 1 of the row are open */
    for (y = 1; y <= grid->height; y++) {
        const uint64_t *line = astar_row_bits(grid, y);
        for (wi = 0; wi + 1 < words; wi++) {
            uint64_t acc = ~(uint64_t)0;
            for (i = 0; i < k && acc; i++) {
                size_t b = wi * 64 + i;
                acc = (b >> 6) + 1 < words ? acc & astar_bits_at(line, b) : 0;
            }
            hz[y * words + wi] = acc;
        }
    }
    /* the layer's rows: AND of k rows of hz; then its bytes and columns */
    memset(f->col_bits, 0, grid->stride * f->col_words * sizeof *f->col_bits);
    memset(f->open, 0, f->cells);
    for (y = 1; y <= grid->height; y++) {
        uint64_t *dst = f->row_bits + y * words;
        size_t x;
        for (wi = 0; wi < words; wi++) {
            uint64_t acc = ~(uint64_t)0;
            for (i = 0; i < k && acc; i++)
                acc = y + i <= grid->height ? acc & hz[(y + i) * words + wi] : 0;
            dst[wi] = acc;
        }
        for (x = 1; x <= grid->width; x++)
            if (astar_bit(dst, x + ASTAR_BITS_PAD)) {
                size_t b = y + ASTAR_BITS_PAD;
                f->open[y * grid->stride + x] = 1;
                f->col_bits[x * f->col_words + (b >> 6)] |= (uint64_t)1 << (b & 63);
            }
    }
    free(hz);
    astar_grid_restop(f);
    f->version = grid->version;
    *out = f;
    return ASTAR_OK;
}

AstarError astar_grid_layer(AstarGrid *grid, uint32_t size, AstarGrid **layer, uint32_t *used)
{
    uint32_t cap = (grid->width < grid->height ? grid->width : grid->height) + 1;
    struct AstarLayer *l;
    AstarError e;

    if (size > cap)
        size = cap;                      /* no position fits either way */
    *used = size;
    for (l = grid->layers; l; l = l->next)
        if (l->size == size) {
            *layer = l->fit;
            return ASTAR_OK;
        }
    l = malloc(sizeof *l);
    if (!l)
        return ASTAR_ENOMEM;
    if ((e = build(grid, size, &l->fit)) != ASTAR_OK) {
        free(l);
        return e;
    }
    l->size = size;
    l->next = grid->layers;
    grid->layers = l;
    grid->cache[ASTAR_CACHE_LAYERS] = &LAYER_HOOKS;
    *layer = l->fit;
    return ASTAR_OK;
}

AstarError astar_grid_size_layer(AstarGrid *grid, uint32_t size)
{
    AstarGrid *layer;
    uint32_t used;
    if (size < 2)
        return ASTAR_OK;
    return astar_grid_layer(grid, size, &layer, &used);
}
