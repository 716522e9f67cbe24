/*
 * A grid as bytes, to move it between Lua states (threads) or to save it.
 * Layer 6 (queries and formats: nothing in the core calls it).
 *
 * Format version 1, every number little-endian:
 *
 * A client of the public grid API only (astar.h): decoding builds the grid
 * with astar_grid_set_walkable / astar_grid_set_cost, so whatever the grid
 * derives from its cells (bit rows, components, the lowest cost) stays right.
 *
 *   offset  size  field
 *        0     8  magic "ASTARGRD"
 *        8     2  format version (1)
 *       10     1  flags: bit 0 = costs follow the walls (set exactly when
 *                 some cell's cost is not 1, so the encoding is canonical);
 *                 bit 2 = a hex board (astar_hex.h), its layout in byte 15
 *       11     1  diagonal mode (AstarDiagonal)
 *       12     1  heuristic (AstarHeuristic)
 *       13     1  heuristic chosen (0 or 1)
 *       14     1  reserved, 0
 *       15     1  hex layout (AstarHexLayout) with flag bit 2, else 0 (so
 *                 every encoding made before hex boards reads as square)
 *       16     4  width
 *       20     4  height
 *       24     8  weight (IEEE-754 binary64)
 *       32     W  walls: ceil(width * height / 8) bytes, cell i = y * width + x
 *                 is bit (i % 8) of byte i / 8, 1 = walkable; spare bits 0
 *     32+W     C  costs (only with flag bit 0): width * height binary64, same order
 *   32+W+C     V  moves and links (only with flag bit 3, set exactly when the
 *                 grid has a move override or a link; issue 19):
 *                   4  N, then N times: 4 cell (y * width + x), 1 direction
 *                      (astar.h's 0-7), 8 cost (binary64; 0 = no move),
 *                      ordered by cell, then direction;
 *                   4  M, then M times: 4 from cell, 4 to cell, 8 cost,
 *                      ordered by from, then to (a two-way link is two)
 * 32+W+C+V     4  FNV-1a 32 of every byte before it
 *
 * Doubles are copied bit for bit, so a decoded grid is identical. Decoding
 * checks the length against the header before reading anything else, so no
 * input can make it read out of bounds or allocate more than the input
 * claims and actually holds.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "astar.h"
#include "astar_hex.h"

#define MAGIC "ASTARGRD"
#define MAGIC_SIZE 8
#define HEADER_SIZE 32
#define CHECKSUM_SIZE 4
#define FLAG_COSTS 1u
#define FLAG_HEX 4u
#define FLAG_MOVES 8u
#define MOVE_SIZE 13u
#define LINK_SIZE 16u
#define CHUNK 4096

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

static uint32_t fnv1a(uint32_t hash, const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        hash = (hash ^ p[i]) * FNV_PRIME;
    return hash;
}

static void put_u16(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)((v >> 8) & 0xff);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    put_u16(p, v & 0xffff);
    put_u16(p + 2, v >> 16);
}

static void put_f64(unsigned char *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    put_u32(p, (uint32_t)(v & 0xffffffffu));
    put_u32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get_u16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get_u32(const unsigned char *p) { return get_u16(p) | get_u16(p + 2) << 16; }

static double get_f64(const unsigned char *p)
{
    uint64_t v = (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Bytes of the walls and costs sections for a w x h grid. */
static uint64_t body_size(uint64_t cells, int costs)
{
    return (cells + 7) / 8 + (costs ? cells * 8 : 0);
}

/* Whether any cell costs other than 1: then the costs are written. */
static int has_costs(const AstarGrid *grid)
{
    uint32_t x, y, w = astar_grid_width(grid), h = astar_grid_height(grid);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (astar_grid_cost(grid, x, y) != 1.0)
                return 1;
    return 0;
}

/* Bytes of the moves section (0: none). */
static uint64_t moves_size(const AstarGrid *grid)
{
    uint64_t n = astar_grid_move_count(grid), m = astar_grid_link_count(grid);
    return n + m ? 8 + n * MOVE_SIZE + m * LINK_SIZE : 0;
}

size_t astar_grid_encoded_size(const AstarGrid *grid)
{
    uint64_t cells = (uint64_t)astar_grid_width(grid) * astar_grid_height(grid);
    uint64_t total = HEADER_SIZE + body_size(cells, has_costs(grid)) + moves_size(grid)
                     + CHECKSUM_SIZE;
    return total > (uint64_t)(size_t)-1 ? 0 : (size_t)total;
}

/* Batches output into CHUNK-sized writes and keeps the checksum. */
typedef struct {
    unsigned char buf[CHUNK];
    size_t used;
    uint32_t hash;
    AstarWriter write;
    void *user;
} Out;

static void flush(Out *o)
{
    o->hash = fnv1a(o->hash, o->buf, o->used);
    o->write(o->user, o->buf, o->used);
    o->used = 0;
}

/* Room for n (<= CHUNK) more bytes; returns where to write them. */
static unsigned char *reserve(Out *o, size_t n)
{
    unsigned char *p;
    if (o->used + n > CHUNK)
        flush(o);
    p = o->buf + o->used;
    o->used += n;
    return p;
}

/* The moves section, cell by cell in the order of the cell numbers. */
static void encode_moves(Out *o, const AstarGrid *grid)
{
    uint32_t x, y, w = astar_grid_width(grid), h = astar_grid_height(grid);
    unsigned d;
    size_t k, n;

    put_u32(reserve(o, 4), (uint32_t)astar_grid_move_count(grid));
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            unsigned set = astar_grid_moves_set(grid, x, y);
            for (d = 0; set && d < 8; d++)
                if (set & (1u << d)) {
                    double cost = astar_grid_get_move(grid, x, y, d);
                    unsigned char *p = reserve(o, MOVE_SIZE);
                    put_u32(p, y * w + x);
                    p[4] = (unsigned char)d;
                    put_f64(p + 5, isinf(cost) ? 0.0 : cost);
                }
        }
    put_u32(reserve(o, 4), (uint32_t)astar_grid_link_count(grid));
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            for (n = astar_grid_links(grid, x, y), k = 0; k < n; k++) {
                uint32_t tx, ty;
                double cost;
                unsigned char *p = reserve(o, LINK_SIZE);
                astar_grid_link_at(grid, x, y, k, &tx, &ty, &cost);
                put_u32(p, y * w + x);
                put_u32(p + 4, ty * w + tx);
                put_f64(p + 8, cost);
            }
}

void astar_grid_encode(const AstarGrid *grid, const AstarGridSettings *settings,
                       AstarWriter write, void *user)
{
    Out o;
    unsigned char *p;
    unsigned bits = 0, nbits = 0;
    uint32_t x, y, w = astar_grid_width(grid), h = astar_grid_height(grid);
    int costs = has_costs(grid);
    AstarHexLayout layout = ASTAR_HEX_ODD_R;
    int hex = astar_grid_hex(grid, &layout);

    o.used = 0;
    o.hash = FNV_OFFSET;
    o.write = write;
    o.user = user;

    p = reserve(&o, HEADER_SIZE);
    memcpy(p, MAGIC, MAGIC_SIZE);
    put_u16(p + 8, ASTAR_ENCODE_VERSION);
    p[10] = (unsigned char)((costs ? FLAG_COSTS : 0) | (hex ? FLAG_HEX : 0)
                            | (moves_size(grid) ? FLAG_MOVES : 0));
    p[11] = (unsigned char)settings->diagonal;
    p[12] = (unsigned char)settings->heuristic;
    p[13] = settings->heuristic_chosen ? 1 : 0;
    p[14] = 0;
    p[15] = (unsigned char)(hex ? layout : 0);
    put_u32(p + 16, w);
    put_u32(p + 20, h);
    put_f64(p + 24, settings->weight);

    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            bits |= (unsigned)(astar_grid_walkable(grid, x, y) ? 1 : 0) << nbits;
            if (++nbits == 8) {
                *reserve(&o, 1) = (unsigned char)bits;
                bits = nbits = 0;
            }
        }
    }
    if (nbits)
        *reserve(&o, 1) = (unsigned char)bits;

    if (costs)
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                put_f64(reserve(&o, 8), astar_grid_cost(grid, x, y));

    if (moves_size(grid))
        encode_moves(&o, grid);
    flush(&o);
    put_u32(o.buf, o.hash);
    o.write(o.user, o.buf, CHECKSUM_SIZE);
}

static AstarError bad(char *message, size_t size, const char *text)
{
    if (size)
        snprintf(message, size, "%s", text);
    return ASTAR_EPARSE;
}

/* Checks everything that does not need the grid; 0 and a message if wrong. */
static AstarError check_header(const unsigned char *p, size_t length, uint64_t *cells,
                               char *message, size_t size)
{
    uint32_t version, width, height, flags;
    uint64_t expected;

    if (memcmp(p, MAGIC, length < MAGIC_SIZE ? length : MAGIC_SIZE) != 0)
        return bad(message, size, "bad magic");
    if (length < HEADER_SIZE + CHECKSUM_SIZE) {
        if (size)
            snprintf(message, size, "truncated (%lu bytes, a header needs %d)",
                     (unsigned long)length, HEADER_SIZE + CHECKSUM_SIZE);
        return ASTAR_EPARSE;
    }
    version = get_u16(p + 8);
    if (version != ASTAR_ENCODE_VERSION) {
        if (size)
            snprintf(message, size, "unsupported version %u (this build reads %d)",
                     (unsigned)version, ASTAR_ENCODE_VERSION);
        return ASTAR_EPARSE;
    }
    flags = p[10];
    width = get_u32(p + 16);
    height = get_u32(p + 20);
    if (width < 1 || height < 1 || width > ASTAR_MAX_SIDE || height > ASTAR_MAX_SIDE
        || (uint64_t)width * height > ASTAR_MAX_CELLS) {
        if (size)
            snprintf(message, size, "bad size %lux%lu (at most %u on a side, %u cells)",
                     (unsigned long)width, (unsigned long)height, ASTAR_MAX_SIDE,
                     ASTAR_MAX_CELLS);
        return ASTAR_EPARSE;
    }
    *cells = (uint64_t)width * height;
    expected = HEADER_SIZE + body_size(*cells, (flags & FLAG_COSTS) != 0) + CHECKSUM_SIZE;
    if ((flags & FLAG_MOVES) && length >= expected + 4) {
        /* the counts say how long the section is; each is checked against
         * the bytes present before the next is read */
        const unsigned char *q = p + expected - CHECKSUM_SIZE;
        uint64_t n = get_u32(q), m;
        expected += 8 + n * MOVE_SIZE;
        if (length >= expected) {
            m = get_u32(q + 4 + n * MOVE_SIZE);
            expected += m * LINK_SIZE;
        }
    } else if (flags & FLAG_MOVES) {
        expected += 8;
    }
    if (length != expected) {
        if (size)
            snprintf(message, size, "%s (%.0f bytes, expected %.0f)",
                     length < expected ? "truncated" : "trailing bytes",
                     (double)length, (double)expected);   /* long is 32 bits on Windows */
        return ASTAR_EPARSE;
    }
    if (fnv1a(FNV_OFFSET, p, length - CHECKSUM_SIZE) != get_u32(p + length - CHECKSUM_SIZE))
        return bad(message, size, "checksum mismatch");
    if (flags & ~(FLAG_COSTS | FLAG_HEX | FLAG_MOVES))
        return bad(message, size, "unknown flags");
    if (p[11] > ASTAR_DIAGONAL_NO_OBSTACLES)
        return bad(message, size, "bad diagonal mode");
    if (p[12] > ASTAR_HEURISTIC_ZERO || p[13] > 1)
        return bad(message, size, "bad heuristic");
    if (p[14] != 0 || (!(flags & FLAG_HEX) && p[15] != 0))
        return bad(message, size, "reserved bytes are not 0");
    if ((flags & FLAG_HEX) && p[15] > ASTAR_HEX_EVEN_Q)
        return bad(message, size, "bad hex layout");
    {
        double w = get_f64(p + 24);
        if (!(w >= 1) || isinf(w))
            return bad(message, size, "bad weight");
    }
    return ASTAR_OK;
}

/* Is the move from cell (x, y) in direction d one to a board neighbour? */
static int move_on_board(const AstarGrid *grid, uint32_t x, uint32_t y, unsigned d)
{
    static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1}, DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
    long tx = (long)x + DX[d], ty = (long)y + DY[d];
    AstarHexLayout layout;
    int k;

    if (tx < 0 || ty < 0 || tx >= (long)astar_grid_width(grid) || ty >= (long)astar_grid_height(grid))
        return 0;
    if (astar_grid_hex(grid, &layout)) {
        int hx[6], hy[6];
        astar_hex_neighbours(layout, x, y, hx, hy);
        for (k = 0; k < 6; k++)
            if (hx[k] == DX[d] && hy[k] == DY[d])
                return 1;
        return 0;
    }
    return 1;
}

/* Reads the moves section at q (its length was checked) into grid. */
static AstarError decode_moves(AstarGrid *grid, const unsigned char *q, char *message,
                               size_t size)
{
    uint32_t w = astar_grid_width(grid), h = astar_grid_height(grid);
    uint64_t cells = (uint64_t)w * h, n = get_u32(q), m, k, last = 0;
    AstarError e;

    q += 4;
    for (k = 0; k < n; k++, q += MOVE_SIZE) {
        uint32_t cell = get_u32(q);
        unsigned d = q[4];
        uint64_t key = (uint64_t)cell * 8 + d;
        double cost = get_f64(q + 5);
        if (cell >= cells || d > 7 || !move_on_board(grid, cell % w, cell / w, d))
            return bad(message, size, "bad move");
        if (k > 0 && key <= last)
            return bad(message, size, "moves out of order");
        if (!(cost == 0 || (cost > 0 && cost <= ASTAR_MAX_COST)))
            return bad(message, size, "bad move cost");
        last = key;
        e = astar_grid_set_move(grid, cell % w, cell / w, d, cost == 0 ? INFINITY : cost);
        if (e != ASTAR_OK)
            return e;
    }
    m = get_u32(q);
    q += 4;
    if (n + m == 0)           /* the encoder sets the flag only then: one encoding per grid */
        return bad(message, size, "moves flag set but no moves or links");
    for (k = 0; k < m; k++, q += LINK_SIZE) {
        uint32_t from = get_u32(q), to = get_u32(q + 4);
        uint64_t key = (uint64_t)from * cells + to;
        double cost = get_f64(q + 8);
        if (from >= cells || to >= cells || from == to)
            return bad(message, size, "bad link");
        if (k > 0 && key <= last)
            return bad(message, size, "links out of order");
        if (!(cost > 0 && cost <= ASTAR_MAX_COST))
            return bad(message, size, "bad link cost");
        last = key;
        e = astar_grid_link(grid, from % w, from / w, to % w, to / w, cost);
        if (e != ASTAR_OK)
            return e;
    }
    (void)h;
    return ASTAR_OK;
}

AstarError astar_grid_decode(AstarGrid **out, AstarGridSettings *settings, const void *data,
                             size_t length, char *message, size_t message_size)
{
    const unsigned char *p = data;
    const unsigned char *walls = p + HEADER_SIZE, *costs;
    AstarGrid *grid;
    uint64_t cells = 0, i;
    uint32_t x, y, w, h;
    AstarError e;

    *out = NULL;
    e = check_header(p, length, &cells, message, message_size);
    if (e != ASTAR_OK)
        return e;
    if (cells % 8 && walls[cells / 8] >> (cells % 8))
        return bad(message, message_size, "spare wall bits are not 0");

    costs = walls + (cells + 7) / 8;
    if (p[10] & FLAG_COSTS) {
        int some_not_1 = 0;
        for (i = 0; i < cells; i++) {
            double c = get_f64(costs + i * 8);
            if (!(c > 0 && c <= ASTAR_MAX_COST))
                return bad(message, message_size, "bad cell cost");
            some_not_1 |= c != 1.0;
        }
        if (!some_not_1)      /* the encoder writes no costs then: one encoding per grid */
            return bad(message, message_size, "costs present but every cost is 1");
    }

    w = get_u32(p + 16);
    h = get_u32(p + 20);
    e = astar_grid_new(&grid, w, h);
    if (e != ASTAR_OK)
        return e == ASTAR_ENOMEM ? ASTAR_ENOMEM : bad(message, message_size, "bad size");
    if (p[10] & FLAG_HEX)
        astar_grid_make_hex(grid, (AstarHexLayout)p[15]);
    i = 0;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++, i++) {
            if (!((walls[i / 8] >> (i % 8)) & 1u))
                astar_grid_set_walkable(grid, x, y, 0);   /* a new grid is all open */
            if ((p[10] & FLAG_COSTS)
                && astar_grid_set_cost(grid, x, y, get_f64(costs + i * 8)) != ASTAR_OK) {
                astar_grid_free(grid);
                return ASTAR_ENOMEM;
            }
        }

    if (p[10] & FLAG_MOVES) {
        e = decode_moves(grid, costs + ((p[10] & FLAG_COSTS) ? cells * 8 : 0), message,
                         message_size);
        if (e != ASTAR_OK) {
            astar_grid_free(grid);
            return e;
        }
    }
    settings->diagonal = (AstarDiagonal)p[11];
    settings->heuristic = (AstarHeuristic)p[12];
    settings->heuristic_chosen = p[13];
    settings->weight = get_f64(p + 24);
    *out = grid;
    return ASTAR_OK;
}
