/*
 * libFuzzer target: every parser of untrusted bytes, with arbitrary bytes.
 *
 *   astar_grid_from_text      rows of . # 1-9 (checked cell by cell against a
 *                             reference parse written here)
 *   astar_grid_from_movingai  Moving AI .map text
 *   astar_grid_decode         grid:encode()'s format, as given and with its
 *                             checksum repaired, so mutations reach the field
 *                             checks behind it; a decoded grid re-encodes to
 *                             the same bytes (the format is canonical)
 *
 * Errors must come with a NUL-terminated message that fits its buffer (the
 * buffer size is drawn from the input, down to 1 byte); a parsed grid is
 * searched once corner to corner.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

#define FAIL(...) do { fprintf(stderr, "parse_fuzz: " __VA_ARGS__); \
                       fprintf(stderr, "\n"); abort(); } while (0)

/* A message buffer with a guard zone, to see writes past message_size. */
typedef struct {
    char text[160];
    size_t size;
} Message;

static void message_init(Message *m, size_t size)
{
    memset(m->text, 'Z', sizeof m->text);
    m->size = size;
}

static void message_check(const Message *m, AstarError e, const char *who)
{
    size_t i;
    for (i = m->size; i < sizeof m->text; i++)
        if (m->text[i] != 'Z')
            FAIL("%s wrote past its %zu-byte message", who, m->size);
    if (e == ASTAR_EPARSE && memchr(m->text, '\0', m->size) == NULL)
        FAIL("%s left its message without a NUL", who);
}

static void search_once(const AstarGrid *grid)
{
    AstarSearch *s = astar_search_new();
    AstarOptions o;
    AstarError e;
    if (!s)
        return;
    memset(&o, 0, sizeof o);
    o.diagonal = ASTAR_DIAGONAL_NO_OBSTACLES;
    o.heuristic = ASTAR_HEURISTIC_OCTILE;
    o.weight = 1;
    (void)astar_search_run(s, grid, 0, 0, astar_grid_width(grid) - 1,
                           astar_grid_height(grid) - 1, &o, &e);
    astar_search_free(s);
}

/* Reference for from_text: after dropping trailing \r and \n, every line
 * (a final \r removed) is a row of equal length. */
static void check_text(const AstarGrid *grid, const char *t, size_t n)
{
    uint32_t x, y = 0;
    size_t pos = 0;

    while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == '\r'))
        n--;
    while (pos <= n) {
        size_t end = pos, len;
        while (end < n && t[end] != '\n')
            end++;
        len = end > pos && t[end - 1] == '\r' ? end - 1 - pos : end - pos;
        if (y >= astar_grid_height(grid) || len != astar_grid_width(grid))
            FAIL("from_text accepted a row of %zu cells (row %u)", len, y + 1);
        for (x = 0; x < len; x++) {
            char c = t[pos + x];
            int walk = c != '#';
            double cost = c == '.' || c == '#' ? 1 : c - '0';
            if (c != '.' && c != '#' && !(c >= '1' && c <= '9'))
                FAIL("from_text accepted byte %u", (unsigned char)c);
            if (astar_grid_walkable(grid, x, y) != walk || astar_grid_cost(grid, x, y) != cost)
                FAIL("from_text: cell (%u, %u) differs from '%c'", x + 1, y + 1, c);
        }
        y++;
        pos = end + 1;
    }
    if (y != astar_grid_height(grid))
        FAIL("from_text: %u rows, the grid has %u", y, astar_grid_height(grid));
}

typedef struct {
    unsigned char *bytes;
    size_t length, capacity;
} Buffer;

static void write_buffer(void *user, const void *bytes, size_t length)
{
    Buffer *b = (Buffer *)user;
    if (length > b->capacity - b->length)
        FAIL("encode wrote more than astar_grid_encoded_size");
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
}

static void try_decode(const unsigned char *data, size_t size, size_t message_size)
{
    AstarGrid *grid = NULL;
    AstarGridSettings settings;
    Message m;
    AstarError e;
    Buffer b;

    message_init(&m, message_size);
    e = astar_grid_decode(&grid, &settings, data, size, m.text, m.size);
    message_check(&m, e, "decode");
    if (e != ASTAR_OK) {
        if (grid)
            FAIL("decode failed but returned a grid");
        return;
    }
    b.capacity = astar_grid_encoded_size(grid);
    b.length = 0;
    b.bytes = malloc(b.capacity ? b.capacity : 1);
    if (b.bytes) {
        astar_grid_encode(grid, &settings, write_buffer, &b);
        if (b.length != size || memcmp(b.bytes, data, size) != 0)
            FAIL("decode then encode changed the bytes (%zu -> %zu)", size, b.length);
        free(b.bytes);
    }
    search_once(grid);
    astar_grid_free(grid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t message_size = size ? 1 + data[0] % 128 : 128;
    AstarGrid *grid = NULL;
    Message m;
    AstarError e;

    message_init(&m, message_size);
    e = astar_grid_from_text(&grid, (const char *)data, size, m.text, m.size);
    message_check(&m, e, "from_text");
    if (e == ASTAR_OK) {
        check_text(grid, (const char *)data, size);
        search_once(grid);
        astar_grid_free(grid);
    } else if (grid) {
        FAIL("from_text failed but returned a grid");
    }

    grid = NULL;
    message_init(&m, message_size);
    e = astar_grid_from_movingai(&grid, (const char *)data, size, m.text, m.size);
    message_check(&m, e, "from_movingai");
    if (e == ASTAR_OK) {
        search_once(grid);
        astar_grid_free(grid);
    } else if (grid) {
        FAIL("from_movingai failed but returned a grid");
    }

    try_decode(data, size, message_size);
    if (size >= 4) {
        /* the same bytes with a correct FNV-1a 32 checksum at the end */
        unsigned char *copy = malloc(size);
        uint32_t h = 2166136261u;
        size_t i;
        if (!copy)
            return 0;
        memcpy(copy, data, size);
        for (i = 0; i + 4 < size; i++)
            h = (h ^ copy[i]) * 16777619u;
        for (i = 0; i < 4; i++)
            copy[size - 4 + i] = (unsigned char)(h >> (8 * i));
        try_decode(copy, size, message_size);
        free(copy);
    }
    return 0;
}
