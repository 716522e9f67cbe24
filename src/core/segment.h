/*
 * The segment model of issue 20 (docs/paths.md): straight lines between the
 * centres of two cells of a square board, which string pulling ("sight") and
 * any-angle search ("theta") take as moves. Not public. Layer 3 (board);
 * segment.c holds the walk along the line.
 */
#ifndef ASTAR_SEGMENT_H
#define ASTAR_SEGMENT_H

#include "grid_layout.h"

/* The entry cost of a bordered cell for the query the model serves: > 0,
 * INFINITY when the cell cannot be entered, NAN to stop (a rule asked to). */
typedef double (*SegmentPrice)(void *user, uint32_t cell);

typedef struct {
    const AstarGrid *grid;
    AstarDiagonal diagonal;     /* the corner rule at grid corners the line meets */
    SegmentPrice price;         /* NULL: the grid's own walls and costs */
    void *user;
} SegmentModel;

/* The cost of the segment between the centres of bordered cells a and b:
 * its length (in cells) times the highest entry cost among the cells it
 * passes through, a excepted; INFINITY when it is not legal, NAN when the
 * price stopped. 0 when a == b. */
double segment_cost(const SegmentModel *m, uint32_t a, uint32_t b);

/* The cost of the polyline through bordered cells[0..n-1] (docs/paths.md),
 * whose segments are legal (checked when they were chosen; the corners
 * they pass are not looked at again): S + sqrt2 * D + O, S the lengths
 * times c of its segments along a row or a column, D of those along a
 * diagonal, O the costs of the others, each added up from the start (c: a
 * segment's highest entry cost, as above). INFINITY when a cell on it
 * cannot be entered, NAN when the price stopped. */
double segment_polyline_cost(const SegmentModel *m, const uint32_t *cells, size_t n);

#endif
