/*
 * Hex boards (hex_geometry.c): grids of hexagons in offset coordinates, as
 * Red Blob Games names them. Cell (x, y) is column x, row y, 0-based here
 * (the Lua binding converts from 1-based); "odd"/"even" refer to these
 * 0-based numbers, so in ODD_R the rows y = 1, 3, 5... are shoved half a
 * cell right (with 1-based rows: 2, 4, 6...). Layer 1: declarations only.
 *
 * A hex grid is an AstarGrid whose cells have six neighbours: the four sides
 * of the square grid and two of its diagonals, chosen by the parity of the
 * row (r layouts) or the column (q layouts). A step costs the entered cell's
 * cost (no sqrt 2). Searches on it run hex A* (hex.c) with hex
 * distance times the lowest cost as the heuristic; jump point search and
 * the diagonal modes do not apply.
 */
#ifndef ASTAR_HEX_H
#define ASTAR_HEX_H

#include "astar.h"

typedef enum {
    ASTAR_HEX_ODD_R,     /* pointy tops, odd rows shoved right */
    ASTAR_HEX_EVEN_R,    /* pointy tops, even rows shoved right */
    ASTAR_HEX_ODD_Q,     /* flat tops, odd columns shoved down */
    ASTAR_HEX_EVEN_Q     /* flat tops, even columns shoved down */
} AstarHexLayout;

/* Like astar_grid_new, for a hex board of the given layout (0..3). */
AstarError astar_grid_new_hex(AstarGrid **out, uint32_t width, uint32_t height,
                              AstarHexLayout layout);
/* Nonzero for a hex grid; then *layout (when not NULL) is its layout. */
int astar_grid_hex(const AstarGrid *grid, AstarHexLayout *layout);
/* Makes grid (new, square) a hex grid of the given layout: for decoders. */
void astar_grid_make_hex(AstarGrid *grid, AstarHexLayout layout);

/* The number of steps between two cells (0-based offset coordinates). */
uint32_t astar_hex_distance(AstarHexLayout layout, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1);

/* The six neighbour offsets of a cell in column x, row y (0-based), in the
 * order the searches try them: east, west, south, north, then the two
 * diagonals: for r layouts the southern one first, for q layouts the eastern
 * one first (so their direction codes ascend: SE SW NE NW). Some may lie
 * outside the grid. */
void astar_hex_neighbours(AstarHexLayout layout, uint32_t x, uint32_t y, int dx[6], int dy[6]);

/* Tactics on hex boards (range.c): astar_range_run with the six hex
 * neighbours, and astar_range_attack with hex distance. */
AstarError astar_range_run_hex(AstarRange *range, const AstarGrid *grid, uint32_t sx,
                               uint32_t sy, double budget, AstarRangeRule rule, void *user,
                               int *aborted);
AstarError astar_range_attack_hex(AstarRange *range, const AstarGrid *grid,
                                  const AstarRangeCell *from, size_t n, uint32_t min_distance,
                                  uint32_t max_distance, AstarSightRule sight, void *user,
                                  int *aborted);

/* 1 when the straight line between the centres of the two cells crosses no
 * wall (the ends never count): the cells of the line are those holding the
 * points a + (b - a) * i / N, i = 1 .. N - 1, N the hex distance, in cube
 * coordinates rounded to the nearest cell. A point on an edge between two
 * cells is decided by nudging both ends by (1e-6, 2e-6, -3e-6) in cube
 * coordinates (q, r, s), so the line is the same both ways. A point outside
 * the board (on its jagged edge) does not block. (hex_geometry.c) */
int astar_hex_line_of_sight(const AstarGrid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1);

#endif
