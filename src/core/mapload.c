/*
 * Building grids from text: our own ASCII rows and Moving AI .map files.
 * Layer 6 (queries and formats: nothing in the core calls it).
 */
#include <stdio.h>
#include <string.h>

#include "astar.h"

/* What a map character means: a cost (1..9), WALL, or BAD. */
enum { WALL = 0, BAD = -1 };
typedef int (*CellReader)(char c);

static int read_ascii_cell(char c)
{
    if (c == '.')
        return 1;
    if (c == '#')
        return WALL;
    if (c >= '1' && c <= '9')
        return c - '0';
    return BAD;
}

static int read_movingai_cell(char c)
{
    if (c == '.' || c == 'G' || c == 'S')
        return 1;
    if (c == '@' || c == 'O' || c == 'T' || c == 'W')
        return WALL;
    return BAD;
}

static AstarError parse_error(char *message, size_t size, const char *text)
{
    snprintf(message, size, "%s", text);
    return ASTAR_EPARSE;
}

/* Describes a byte for an error message: printable bytes as themselves. */
static void describe_char(char *out, size_t size, unsigned char c)
{
    if (c >= 32 && c < 127)
        snprintf(out, size, "'%c'", c);
    else
        snprintf(out, size, "byte %u", (unsigned)c);
}

/* Length of the line starting at text[pos], without its "\n" or "\r\n". */
static size_t line_length(const char *text, size_t length, size_t pos, size_t *next)
{
    size_t end = pos;
    while (end < length && text[end] != '\n')
        end++;
    *next = end < length ? end + 1 : end;
    if (end > pos && text[end - 1] == '\r')
        end--;
    return end - pos;
}

/* Reads `height` rows of `width` cells starting at text[pos] into a new grid. */
static AstarError read_rows(AstarGrid **out, const char *text, size_t length, size_t pos,
                            size_t width, size_t height, CellReader reader,
                            char *message, size_t size)
{
    AstarGrid *grid;
    AstarError e;
    uint32_t x, y;

    if (width > ASTAR_MAX_SIDE || height > ASTAR_MAX_SIDE
        || (e = astar_grid_new(&grid, (uint32_t)width, (uint32_t)height)) == ASTAR_ETOOBIG)
        return parse_error(message, size, "map too large");
    if (e != ASTAR_OK)
        return e;
    for (y = 0; y < height; y++) {
        size_t next, n = line_length(text, length, pos, &next);
        if (n != width) {
            astar_grid_free(grid);
            snprintf(message, size, "row %u has %u characters, expected %u",
                     (unsigned)y + 1, (unsigned)n, (unsigned)width);
            return ASTAR_EPARSE;
        }
        for (x = 0; x < width; x++) {
            int cell = reader(text[pos + x]);
            char what[16];
            if (cell == BAD) {
                astar_grid_free(grid);
                describe_char(what, sizeof what, (unsigned char)text[pos + x]);
                snprintf(message, size, "unexpected character %s at row %u, column %u",
                         what, (unsigned)y + 1, (unsigned)x + 1);
                return ASTAR_EPARSE;
            }
            if (cell == WALL)
                astar_grid_set_walkable(grid, x, y, 0);
            else if (astar_grid_set_cost(grid, x, y, (double)cell) != ASTAR_OK) {
                astar_grid_free(grid);
                return ASTAR_ENOMEM;
            }
        }
        pos = next;
    }
    *out = grid;
    return ASTAR_OK;
}

AstarError astar_grid_from_text(AstarGrid **out, const char *text, size_t length,
                                char *message, size_t size)
{
    size_t i, height = 1, next;

    *out = NULL;
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r'))
        length--;                       /* a final newline (or several) is fine */
    if (length == 0)
        return parse_error(message, size, "empty map");
    for (i = 0; i < length; i++)
        height += text[i] == '\n';
    return read_rows(out, text, length, 0, line_length(text, length, 0, &next), height,
                     read_ascii_cell, message, size);
}

/* Reads header line "key" (value NULL) or "key N" with N a whole number
 * from 1 to ASTAR_MAX_SIDE. */
static int header_line(const char *text, size_t length, size_t *pos, const char *key,
                       size_t *value)
{
    size_t next, n = line_length(text, length, *pos, &next);
    size_t k = strlen(key), i;
    const char *line = text + *pos;

    *pos = next;
    if (n < k || memcmp(line, key, k) != 0)
        return 0;
    if (!value)
        return n == k;
    if (n == k || line[k] != ' ')
        return 0;
    *value = 0;
    for (i = k + 1; i < n; i++) {
        if (line[i] < '0' || line[i] > '9' || *value > ASTAR_MAX_SIDE)
            return 0;
        *value = *value * 10 + (size_t)(line[i] - '0');
    }
    return i > k + 1 && *value >= 1 && *value <= ASTAR_MAX_SIDE;
}

AstarError astar_grid_from_movingai(AstarGrid **out, const char *text, size_t length,
                                    char *message, size_t size)
{
    size_t pos = 0;
    size_t height, width;

    *out = NULL;
    if (!header_line(text, length, &pos, "type octile", NULL))
        return parse_error(message, size, "line 1 must be 'type octile'");
    if (!header_line(text, length, &pos, "height", &height))
        return parse_error(message, size, "line 2 must be 'height H' with H from 1 to 65535");
    if (!header_line(text, length, &pos, "width", &width))
        return parse_error(message, size, "line 3 must be 'width W' with W from 1 to 65535");
    if (!header_line(text, length, &pos, "map", NULL))
        return parse_error(message, size, "line 4 must be 'map'");
    return read_rows(out, text, length, pos, width, height,
                     read_movingai_cell, message, size);
}
