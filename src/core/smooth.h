/*
 * Smoothing a walk (issue 20, docs/paths.md): "corners" keeps the cells
 * where the direction changes, "sight" pulls the string under the segment
 * model. Both work in place on bordered cells, so a search's result, a
 * range's path and a walk handed in from Lua all go through the same code.
 * Not public. Layer 3 (board).
 */
#ifndef ASTAR_SMOOTH_H
#define ASTAR_SMOOTH_H

#include "segment.h"

/* Keeps cells[0], cells[n - 1] and every cell where the step direction
 * changes, on a board of that stride (hex: the grid's hex field, 0 on a
 * square board); a step that is not a board move (a link) keeps both ends.
 * Returns the new count. */
size_t smooth_corners(uint32_t stride, unsigned hex, uint32_t *cells, size_t n);

/* The walk's cost under the model, step by step (w[0] = 0, w[j] = w[j - 1]
 * + the cost of step j), into w (n doubles). 0, or -1 when the price
 * stopped; a step that is not legal makes w infinite from there on. */
int smooth_walk_costs(const SegmentModel *m, const uint32_t *cells, size_t n, double *w);

/* String pulling (docs/paths.md, "sight") of the walk of n cells, whose
 * costs smooth_walk_costs wrote into w: *out_n kept cells, in place, and
 * their polyline's cost. 0, or -1 when the price stopped. */
int smooth_sight(const SegmentModel *m, uint32_t *cells, size_t n, const double *w,
                 size_t *out_n, double *cost);

#endif
