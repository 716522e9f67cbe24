/*
 * The grid's memory layout, shared by grid.c and every layer above it (not
 * public). Layer 1 (grid storage).
 *
 * Cells are stored row by row with a one-cell wall border on every side, so
 * a neighbour is always cell + offset and never needs a bounds check. Cell
 * (x, y) of the user's grid (0-based) is index (y + 1) * stride + (x + 1).
 */
#ifndef ASTAR_GRID_LAYOUT_H
#define ASTAR_GRID_LAYOUT_H

#include "astar.h"

/* How many of the latest changes a grid remembers (search.c). */
#define ASTAR_CHANGE_LOG 64u

struct AstarGrid {
    uint32_t width, height;
    uint32_t stride;        /* width + 2 */
    size_t cells;           /* stride * (height + 2), border included */
    uint8_t *open;          /* 1 = walkable; the border is 0 */
    double *cost;           /* entry cost per cell; NULL while every cost is 1 */
    /* The lowest cost of any cell, which scales the heuristic, kept lazily
     * (astar_grid_set_cost). While min_stale is 0 it is exact and min_count
     * cells hold it; and while sec_known is 1, sec_cost is the second lowest
     * cost exactly, held by sec_count cells (HUGE_VAL and 0 when every cell
     * holds min_cost). When the last cell holding min_cost is raised, a known
     * second lowest takes its place; otherwise min_cost stays as it was, a
     * lower bound every cell's cost is above, and min_stale is 1 (min_count
     * and the second lowest mean nothing then) until a recount. cost_writes
     * counts the cost changes since the last recount: one is due once they
     * reach cells / 16. */
    double min_cost, sec_cost;
    size_t min_count, sec_count;
    int min_stale, sec_known;
    size_t cost_writes;
    uint64_t version;       /* bumped by every change */
    /* The cells of the last ASTAR_CHANGE_LOG changes: the change that made
     * version v wrote cell index (bordered) changes[v % ASTAR_CHANGE_LOG].
     * Written only by the writers (set_walkable, set_cost); a running search
     * reads it to tell whether the changes since its last step reached it. */
    uint32_t changes[ASTAR_CHANGE_LOG];

    /* The walkable flags again as bits, by rows and by columns, so jump point
     * search can scan 64 cells per machine word in every direction. Column x
     * of a row (row y of a column) is bit x + ASTAR_BITS_PAD of that line; the
     * padding and the border are 0, so a scan always stops inside the line. */
    uint64_t *row_bits, *col_bits;
    size_t row_words, col_words;   /* words per row / per column */
    /* Where a straight scan must stop, laid out like row_bits and col_bits,
     * [0] for scans towards higher bits (east, south), [1] towards lower:
     * a wall, or a forced neighbour (a cell of a neighbouring line that is
     * open where the cell before it in the scan's direction is a wall). Kept
     * up to date by astar_grid_set_walkable, so a scan reads one line. */
    uint64_t *row_stops[2], *col_stops[2];

    /* 0: a square grid; 1 + AstarHexLayout: a hex board (hex.c). */
    uint8_t hex;

    /* Connected-component labels (components.c); NULL until first built. */
    struct AstarComponents *components;
    /* Large units: one layer per unit size in use (clearance.c); NULL. */
    struct AstarLayer *layers;
    /* Terrain edges for jump point search with costs (terrain.c); NULL. */
    struct AstarTerrain *terrain;
    /* Move overrides and links (moves.h); NULL while the grid has none. */
    struct AstarMoves *moves;
    /* Jump point search's jump tables (jumps.c); NULL until first built. */
    struct AstarJumps *jumps;
    /* The hooks of the caches above built (NULL: none), in ASTAR_CACHE_* order. */
    const struct AstarCacheHooks *cache[4];
};

/* A cache derived from the grid's cells (the component labels, the layers of
 * large units, the jump tables) hangs off the grid without the grid knowing what it is: the
 * cache sets its hooks in grid->cache[kind] when it is first built, and the
 * grid calls them after every change, to count memory and to free. So grid.c
 * depends on no cache, and the caches sit above the grid. */
enum { ASTAR_CACHE_LAYERS, ASTAR_CACHE_COMPONENTS, ASTAR_CACHE_JUMPS, ASTAR_CACHE_TERRAIN,
       ASTAR_CACHES };
struct AstarCacheHooks {
    /* Bordered cell i became walkable (1) or a wall (0), or an ASTAR_CHANGE_*. */
    void (*changed)(AstarGrid *grid, size_t i, int walkable);
    size_t (*memory)(const AstarGrid *grid);
    void (*free)(AstarGrid *grid);
};

/* What else than its walkable flag changed at a cell (the hooks' argument):
 * its cost or a move's price (no connectivity); a link to or from it was
 * made, or removed. */
enum { ASTAR_CHANGE_COST = -1, ASTAR_CHANGE_LINKED = -2, ASTAR_CHANGE_UNLINKED = -3 };

#define ASTAR_BITS_PAD 64

/* Writes whether bordered cell i is walkable (0 or 1) into the open bytes,
 * the bit lines and their stop lines, and nothing else: no version, no
 * change log, no component labels. astar_grid_set_walkable adds those; a
 * search with per-query walls (search.c) writes them with this for the
 * length of one call and writes the cells back before it returns. */
void astar_grid_put_open(AstarGrid *grid, size_t i, int walkable);

/* Recomputes every stop line of a grid from its bit lines (the layers of
 * large units are grids whose bits they write themselves). */
void astar_grid_restop(AstarGrid *grid);

/* Counts a change of bordered cell i: the version and the change log. */
static inline void astar_grid_changed(AstarGrid *grid, size_t i)
{
    grid->version++;
    grid->changes[grid->version % ASTAR_CHANGE_LOG] = (uint32_t)i;
}

/* The 64 bits of a line starting at bit b (b >= 0; the line is padded so the
 * word after b's word always exists). */
static inline uint64_t astar_bits_at(const uint64_t *line, size_t b)
{
    size_t w = b >> 6;
    unsigned o = (unsigned)(b & 63);
    return o ? (line[w] >> o) | (line[w + 1] << (64 - o)) : line[w];
}

static inline const uint64_t *astar_row_bits(const AstarGrid *grid, size_t row)
{
    return grid->row_bits + row * grid->row_words;
}

static inline const uint64_t *astar_col_bits(const AstarGrid *grid, size_t col)
{
    return grid->col_bits + col * grid->col_words;
}

/* The lowest and the highest set bit of v (v != 0). */
#if defined(__GNUC__)
static inline unsigned astar_lowest_bit(uint64_t v) { return (unsigned)__builtin_ctzll(v); }
static inline unsigned astar_highest_bit(uint64_t v) { return 63u - (unsigned)__builtin_clzll(v); }
#else
static inline unsigned astar_lowest_bit(uint64_t v)
{
    unsigned i = 0;
    while (!(v & 1)) {
        v >>= 1;
        i++;
    }
    return i;
}
static inline unsigned astar_highest_bit(uint64_t v)
{
    unsigned i = 63;
    while (!(v >> 63)) {
        v <<= 1;
        i--;
    }
    return i;
}
#endif

/* The first set bit of a line after bit p, and the last one before p (p >=
 * 64): the caller knows one is there (a wall or the padding). */
static inline size_t astar_next_set(const uint64_t *line, size_t p)
{
    size_t b = p + 1;
    uint64_t w = astar_bits_at(line, b);
    while (!w) {
        b = (b | 63) + 1;
        w = line[b >> 6];
    }
    return b + astar_lowest_bit(w);
}

static inline size_t astar_prev_set(const uint64_t *line, size_t p)
{
    size_t b = p - 64;
    uint64_t w = astar_bits_at(line, b);
    while (!w) {
        b = (b - 1) & ~(size_t)63;
        w = line[b >> 6];
    }
    return b + astar_highest_bit(w);
}

/* Bit b of a line. */
static inline int astar_bit(const uint64_t *line, size_t b)
{
    return (int)((line[b >> 6] >> (b & 63)) & 1);
}

static inline size_t astar_index(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    return (size_t)(y + 1) * grid->stride + (x + 1);
}

#endif
