/*
 * Jump tables (issue 22), a cache of the grid: where jump point search's
 * diagonal (and, in 4 directions, vertical) jumps stop, as bit lines
 * (jumps.h), so a jump reads 64 cells per word instead of running two
 * straight scans from every cell on its way. Built the first time a query
 * asks (astar_grid_prepare_jumps, search.c), then kept up to date lazily:
 * astar_grid_set_walkable only notes the cell (the hooks of grid_layout.h),
 * and the next refresh recomputes what the change can have moved: the cells
 * of the three rows and three columns through it whose straight jumps run
 * into it, and their stop bits on the diagonals through them. Layer 2
 * (caches on the grid): it knows no search.
 */
#include <stdlib.h>
#include <string.h>

#include "jumps.h"

#define PAD ASTAR_BITS_PAD

static void jumps_free(AstarGrid *grid)
{
    struct AstarJumps *t = grid->jumps;
    int k;
    if (!t)
        return;
    for (k = 0; k < 4; k++) {
        free(t->ahead[k]);
        free(t->diagonal[k]);
    }
    free(t->vertical[0]);
    free(t->vertical[1]);
    free(t->dirty);
    free(t);
    grid->jumps = NULL;
}

static size_t row_line_words(const AstarGrid *grid) { return (grid->height + 2) * grid->row_words; }
static size_t col_line_words(const AstarGrid *grid) { return grid->stride * grid->col_words; }

static size_t jumps_memory(const AstarGrid *grid)
{
    const struct AstarJumps *t = grid->jumps;
    if (!t)
        return 0;
    return sizeof *t + t->capacity * sizeof *t->dirty
           + (2 * row_line_words(grid) + 4 * col_line_words(grid) + 4 * t->lines * t->words)
                 * sizeof(uint64_t);
}

/* A walkable change is noted for the next refresh; past the list's
 * capacity the tables are rebuilt instead (about as costly by then). Costs,
 * move overrides and links move no stop: jump point search does not run
 * with them, and the tables stay right for when it runs again. */
static void jumps_changed(AstarGrid *grid, size_t i, int walkable)
{
    struct AstarJumps *t = grid->jumps;
    if (walkable < 0)
        return;
    t->recent++;
    if (t->rebuild)
        return;
    if (t->ndirty == t->capacity)
        t->rebuild = 1;
    else
        t->dirty[t->ndirty++] = (uint32_t)i;
}

static const struct AstarCacheHooks JUMP_HOOKS = {jumps_changed, jumps_memory, jumps_free};

/* The directions whose stop bits read a straight direction's ahead bit: E
 * and W feed two diagonals and both vertical lines, S and N two diagonals. */
#define ALL_STOPS 0x3Fu
static const unsigned FEEDS[4] = {0x05u | 0x30u, 0x0Au | 0x30u, 0x03u, 0x0Cu};

/* Sets or clears the bits of mask m in *word. */
static void put(uint64_t *word, uint64_t m, int on)
{
    *word = (*word & ~m) | (on ? m : 0);
}

/* Where interior cell (bx, by) sits in the lines laid out by column (the
 * diagonals, the vertical and the column ahead lines): at bit by + PAD of
 * each, so one word index and one mask serve them all. `col`, `se` and `sw`
 * are its words in its column's line, in its SE / NW diagonal's and in its
 * SW / NE diagonal's. */
typedef struct {
    size_t col, se, sw;
    uint64_t m;
} Spot;

static Spot spot_of(const AstarGrid *grid, const struct AstarJumps *t, size_t bx, size_t by)
{
    Spot p;
    size_t wi = (by + PAD) >> 6;
    p.col = bx * grid->col_words + wi;
    p.se = (bx + grid->height + 1 - by) * t->words + wi;
    p.sw = (bx + by) * t->words + wi;
    p.m = (uint64_t)1 << ((by + PAD) & 63);
    return p;
}

/* The stop bits of interior cell (bx, by) named by mask (bits 0-3: the
 * diagonals SE, SW, NE, NW; bits 4-5: the vertical lines S, N). A diagonal
 * d stops at c when c cannot be entered from c - d (c or a side of that
 * step is a wall) or when a straight jump from c along a side direction of
 * d finds a jump point. */
static void table_cell(const AstarGrid *grid, struct AstarJumps *t, size_t bx, size_t by,
                       unsigned mask)
{
    size_t stride = grid->stride, row = by * grid->row_words, rb = bx + PAD;
    const uint8_t *o = grid->open + by * stride + bx;
    Spot p = spot_of(grid, t, bx, by);
    int e = astar_bit(t->ahead[0] + row, rb), w = astar_bit(t->ahead[1] + row, rb);
    int s = (t->ahead[2][p.col] & p.m) != 0, n = (t->ahead[3][p.col] & p.m) != 0;
    int here = !o[0], west = !o[-1], east = !o[1], north = !o[-(long)stride], south = !o[stride];

    /* the sides of a step into c: SE from the west and the north, NW from
     * the east and the south */
    if (mask & 1)
        put(t->diagonal[0] + p.se, p.m, e | s | here | west | north);
    if (mask & 2)
        put(t->diagonal[1] + p.sw, p.m, w | s | here | east | north);
    if (mask & 4)
        put(t->diagonal[2] + p.sw, p.m, e | n | here | west | south);
    if (mask & 8)
        put(t->diagonal[3] + p.se, p.m, w | n | here | east | south);
    if (mask & 16)
        put(t->vertical[0] + p.col, p.m, e | w | ((grid->col_stops[0][p.col] & p.m) != 0));
    if (mask & 32)
        put(t->vertical[1] + p.col, p.m, e | w | ((grid->col_stops[1][p.col] & p.m) != 0));
}

/* An ahead bit of cell (bx, by) came on: every stop bit it feeds (mask, as
 * above) is on now, whatever the rest reads, so nothing else is read. */
static void stops_on(const AstarGrid *grid, struct AstarJumps *t, size_t bx, size_t by,
                     unsigned mask)
{
    Spot p = spot_of(grid, t, bx, by);
    if (mask & 1)
        t->diagonal[0][p.se] |= p.m;
    if (mask & 2)
        t->diagonal[1][p.sw] |= p.m;
    if (mask & 4)
        t->diagonal[2][p.sw] |= p.m;
    if (mask & 8)
        t->diagonal[3][p.se] |= p.m;
    if (mask & 16)
        t->vertical[0][p.col] |= p.m;
    if (mask & 32)
        t->vertical[1][p.col] |= p.m;
}

/* Where a line's bits are: a row's (vertical 0) or a column's. */
typedef struct {
    int vertical;
    unsigned feeds;              /* the stop bits its ahead bits feed (FEEDS) */
    size_t line;                 /* its row or column */
    const uint64_t *stops, *open;
    uint64_t *ahead;
} Line;

static Line line_of(const AstarGrid *grid, struct AstarJumps *t, unsigned d, size_t i)
{
    Line l;
    size_t at = d < 2 ? i * grid->row_words : i * grid->col_words;
    l.vertical = d >= 2;
    l.feeds = FEEDS[d];
    l.line = i;
    l.stops = (d < 2 ? grid->row_stops[d & 1] : grid->col_stops[d & 1]) + at;
    l.open = (d < 2 ? grid->row_bits : grid->col_bits) + at;
    l.ahead = t->ahead[d] + at;
    return l;
}

/* Bits a..b of a word (a <= b <= 63). */
static uint64_t span(unsigned a, unsigned b)
{
    return (~(uint64_t)0 >> (63 - b)) & (~(uint64_t)0 << a);
}

/* The new ahead bits a..b of word w of a line: each takes the walkable bit
 * of the first stop after it (up: towards higher bits, E and S) or before it
 * (W, N), *v being that of the first stop past the word's end in the
 * direction the jumps run; *v becomes that of the first stop at or past a
 * (b when down). A word at a time: only its stops are visited. */
static uint64_t ahead_word(const Line *l, size_t w, unsigned a, unsigned b, int up, int *v)
{
    uint64_t stops = l->stops[w] & span(a, b), fresh = 0;
    int edge = up ? (int)b : (int)a;
    while (stops) {
        unsigned p = up ? astar_highest_bit(stops) : astar_lowest_bit(stops);
        if (*v && (up ? edge >= (int)p : (int)p >= edge))
            fresh |= up ? span(p, (unsigned)edge) : span((unsigned)edge, p);
        *v = (int)(l->open[w] >> p & 1);
        stops &= ~((uint64_t)1 << p);
        edge = up ? (int)p - 1 : (int)p + 1;
    }
    if (*v && (up ? edge >= (int)a : edge <= (int)b))
        fresh |= up ? span(a, (unsigned)edge) : span((unsigned)edge, b);
    return fresh;
}

/* Recomputes bits lo..hi of an ahead line, the jumps running towards higher
 * bits when up; when `retable`, the stop bits of each cell whose ahead bit
 * changed follow. */
static void redo_ahead(const AstarGrid *grid, struct AstarJumps *t, const Line *l, size_t lo,
                       size_t hi, int up, int retable)
{
    int v = astar_bit(l->open, up ? astar_next_set(l->stops, hi) : astar_prev_set(l->stops, lo));
    size_t w0 = lo >> 6, w1 = hi >> 6, k, last = l->vertical ? grid->height : grid->width;

    for (k = 0; k <= w1 - w0; k++) {
        size_t w = up ? w1 - k : w0 + k;
        unsigned a = w == w0 ? (unsigned)(lo & 63) : 0, b = w == w1 ? (unsigned)(hi & 63) : 63;
        uint64_t range = span(a, b), fresh = ahead_word(l, w, a, b, up, &v);
        uint64_t diff = (l->ahead[w] ^ fresh) & range;
        l->ahead[w] = (l->ahead[w] & ~range) | fresh;
        while (retable && diff) {
            size_t cell = w * 64 + astar_lowest_bit(diff) - PAD;
            size_t bx = l->vertical ? l->line : cell, by = l->vertical ? cell : l->line;
            int on = (int)(fresh >> (cell + PAD - w * 64) & 1);
            diff &= diff - 1;
            if (cell == 0 || cell > last)
                continue;
            if (on)
                stops_on(grid, t, bx, by, l->feeds);
            else
                table_cell(grid, t, bx, by, l->feeds);
        }
    }
}

static void build(AstarGrid *grid, struct AstarJumps *t)
{
    size_t rows = grid->height + 2, i, x, y;
    unsigned d;

    for (d = 0; d < 4; d++)
        memset(t->diagonal[d], 0xFF, t->lines * t->words * sizeof(uint64_t));
    for (d = 0; d < 2; d++)
        memset(t->vertical[d], 0xFF, col_line_words(grid) * sizeof(uint64_t));
    for (d = 0; d < 4; d++) {
        size_t n = d < 2 ? rows : grid->stride, last = d < 2 ? grid->stride - 1 : rows - 1;
        for (i = 1; i + 1 < n; i++) {
            Line l = line_of(grid, t, d, i);
            if (d & 1)
                redo_ahead(grid, t, &l, PAD + 1, PAD + last, 0, 0);
            else
                redo_ahead(grid, t, &l, PAD, PAD + last - 1, 1, 0);
        }
    }
    for (y = 1; y <= grid->height; y++)
        for (x = 1; x <= grid->width; x++)
            table_cell(grid, t, x, y, ALL_STOPS);
    t->ndirty = 0;
    t->rebuild = 0;
}

/* Bordered cell (bx, by) changed. A straight jump's answer (ahead) changes
 * only where the cells it reads changed: the stop bits of the three rows and
 * columns through the cell, at the cell and its two neighbours along the
 * line (grid.c). So on each of those lines, in each direction, the cells
 * whose first stop can have moved run from the last stop before those three
 * bits to the cell; their new ahead bits retable their cells. The cell's
 * walls also enter the stop bits of its 3 x 3 block (the sides of a step). */
static void apply(AstarGrid *grid, struct AstarJumps *t, size_t bx, size_t by)
{
    size_t i, j;
    unsigned d;
    /* rows (d = 0: E, W), then columns (d = 2: S, N): along the line the
     * cell sits at `at`, the lines through it and its neighbours are
     * `across`, and the line's last bit is `end` */
    for (d = 0; d < 4; d += 2) {
        size_t across = d ? bx : by, at = (d ? by : bx) + PAD;
        size_t n = d ? grid->width : grid->height;
        size_t end = PAD + (d ? grid->height + 1 : grid->stride - 1);
        for (i = across - 1; i <= across + 1; i++) {
            Line up, down;
            size_t lo, hi;
            if (i == 0 || i > n)
                continue;
            up = line_of(grid, t, d, i);
            down = line_of(grid, t, d + 1, i);
            lo = astar_prev_set(up.stops, at - 1);
            redo_ahead(grid, t, &up, lo < PAD ? PAD : lo, at, 1, 1);
            hi = astar_next_set(down.stops, at + 1);
            redo_ahead(grid, t, &down, at, hi > end ? end : hi, 0, 1);
        }
    }
    for (j = by - 1; j <= by + 1; j++)
        for (i = bx - 1; i <= bx + 1; i++)
            if (j >= 1 && j <= grid->height && i >= 1 && i <= grid->width)
                table_cell(grid, t, i, j, ALL_STOPS);
}

static AstarError create(AstarGrid *grid)
{
    struct AstarJumps *t = calloc(1, sizeof *t);
    size_t cells = (size_t)grid->width * grid->height;
    int k;

    if (!t)
        return ASTAR_ENOMEM;
    grid->jumps = t;
    grid->cache[ASTAR_CACHE_JUMPS] = &JUMP_HOOKS;     /* frees what is made on failure */
    t->lines = grid->stride + grid->height + 1;
    t->words = grid->col_words;
    /* a change costs about its runs; past cells / 256 of them, one rebuild
     * costs no more than applying them */
    t->capacity = cells / 256 < 64 ? 64 : cells / 256;
    t->dirty = malloc(t->capacity * sizeof *t->dirty);
    for (k = 0; k < 4; k++) {
        t->ahead[k] = calloc(k < 2 ? row_line_words(grid) : col_line_words(grid), sizeof(uint64_t));
        t->diagonal[k] = malloc(t->lines * t->words * sizeof(uint64_t));
        if (!t->ahead[k] || !t->diagonal[k])
            return ASTAR_ENOMEM;
    }
    for (k = 0; k < 2; k++)
        if (!(t->vertical[k] = malloc(col_line_words(grid) * sizeof(uint64_t))))
            return ASTAR_ENOMEM;
    if (!t->dirty)
        return ASTAR_ENOMEM;
    build(grid, t);
    return ASTAR_OK;
}

AstarError astar_jumps_refresh(AstarGrid *grid)
{
    struct AstarJumps *t = grid->jumps;
    size_t k, recent;

    if (!t) {
        AstarError e = create(grid);
        if (e != ASTAR_OK) {
            jumps_free(grid);
            grid->cache[ASTAR_CACHE_JUMPS] = NULL;
        }
        return e;
    }
    recent = t->recent;
    t->recent = 0;
    if (recent > ASTAR_JUMPS_CALM)
        return ASTAR_OK;          /* still being edited: plain scans meanwhile */
    if (t->rebuild) {
        build(grid, t);
        return ASTAR_OK;
    }
    for (k = 0; k < t->ndirty; k++)
        apply(grid, t, t->dirty[k] % grid->stride, t->dirty[k] / grid->stride);
    t->ndirty = 0;
    return ASTAR_OK;
}
