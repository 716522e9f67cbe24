/*
 * Board geometry (issue 20, docs/paths.md "Board geometry"): where a cell's
 * centre lies in pixels, which cell a pixel lies in, the moves that leave a
 * cell, and the board's step distance. Coordinates are 0-based here (the
 * Lua binding converts from 1-based). Layer 1: declarations only
 * (board_geometry.c).
 */
#ifndef ASTAR_GEOMETRY_H
#define ASTAR_GEOMETRY_H

#include "astar.h"

/* The centre of cell (x, y) in pixels, for cells size pixels wide (square)
 * or size from centre to corner (hex). Square: ((x + 0.5) * size,
 * (y + 0.5) * size), the board's top-left corner at the origin. Hex: Red
 * Blob Games' offset-to-pixel formulas with 0-based numbers: the centre of
 * an unshoved (0, 0) at the origin (in "even-r" and "even-q" the first row
 * or column is shoved, so cell (0, 0) lies half a hex right of or below it). */
void astar_cell_centre(const AstarGrid *grid, uint32_t x, uint32_t y, double size, double *px,
                       double *py);

/* The cell whose centre is nearest (px, py) (size as above; px, py finite),
 * in *x, *y: 1 when it is on the board, 0 when it is not. A point as near
 * to two or more centres belongs to the one furthest right, then the lowest
 * (the largest centre x, then y): on a square board a cell spans
 * [x * size, (x + 1) * size) across. Hex: the fractional cube coordinates
 * rounded, then the nearest of that hex and its six neighbours by the
 * distance to their centres (so the answer is the nearest centre as
 * astar_cell_centre computes them, ties as above). */
int astar_cell_at(const AstarGrid *grid, double px, double py, double size, uint32_t *x,
                  uint32_t *y);

/* The board's step distance between two cells, walls and costs ignored:
 * hex steps on a hex board; on a square one |dx| + |dy| in mode NEVER, else
 * (max - min) + sqrt(2) * min of |dx|, |dy| (an 8-direction walk of unit
 * cost, summed so). */
double astar_cell_distance(const AstarGrid *grid, AstarDiagonal diagonal, uint32_t x0,
                           uint32_t y0, uint32_t x1, uint32_t y1);

/* A move leaving a cell: the cell it enters and what a findPath step pays. */
typedef struct {
    uint32_t x, y;
    double cost;
} AstarCellMove;

/* The moves that leave cell (x, y) under the grid's walls, costs, move
 * overrides and links, in diagonal mode diagonal (NEVER on hex boards):
 * the board moves in direction order (E W S N SE SW NE NW; on a hex board
 * its six in the searches' order), each into a walkable cell, a diagonal
 * one only when the corner rule lets it, an override false dropping it,
 * priced by its override or the entered cell's cost times the step length;
 * then the links leaving the cell into walkable cells, by target cell
 * ((y * width + x) order), priced by the link. The cell itself may be a
 * wall (a unit's start is not checked). Writes the first min(count, cap)
 * into out; returns the count (at most 8 plus the cell's links). */
size_t astar_cell_moves(const AstarGrid *grid, AstarDiagonal diagonal, uint32_t x, uint32_t y,
                        AstarCellMove *out, size_t cap);

/* Whether a unit in cell (x0, y0) can still enter cell (x1, y1), both on
 * the grid (grid:firstBlocked, issue 24): (x1, y1) is walkable and, when it
 * is a board neighbour of (x0, y0), the move is one astar_cell_moves lists
 * in mode diagonal (the corner rule, an override false, a diagonal in mode
 * NEVER: not a move) or a link joins them. A step to a cell that is not a
 * neighbour (a link, a smoothed path's leg) is judged by its cell alone. */
int astar_cell_enterable(const AstarGrid *grid, AstarDiagonal diagonal, uint32_t x0, uint32_t y0,
                         uint32_t x1, uint32_t y1);

#endif
