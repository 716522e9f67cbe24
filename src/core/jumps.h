/*
 * Jump tables (issue 22), a cache of the grid (jumps.c): where jump point
 * search's diagonal jumps (8 directions) and vertical jumps (4 directions)
 * stop, as bit lines it scans 64 cells per machine word, like the straight
 * jumps' stop lines (grid_layout.h). Not public: see
 * astar_grid_prepare_jumps. Layer 2 (caches on the grid).
 *
 * A diagonal jump from p in direction d (side directions a, b) stops at the
 * first cell c on its way that it cannot enter (c, or a side of the step
 * into it, c - a or c - b, is a wall) or from which a straight jump in a or
 * b finds a jump point (a forced neighbour before a wall). Bit c of the
 * diagonal line of d is set for both, so a diagonal jump is one scan; the
 * scan tells the two apart from the open bytes. The goal is not in the
 * tables: the kernel checks the (at most two) cells where the diagonal
 * crosses the goal's row or column. A vertical jump of 4 directions stops
 * where the column's stop line does (a wall or a forced neighbour) or where
 * a horizontal jump finds a jump point.
 */
#ifndef ASTAR_JUMPS_H
#define ASTAR_JUMPS_H

#include "grid_layout.h"

struct AstarJumps {
    /* Bit set where a straight jump in direction 0 E, 1 W (row lines, laid
     * out like row_bits) or 2 S, 3 N (column lines, like col_bits) finds a
     * jump point before a wall. */
    uint64_t *ahead[4];
    /* Per diagonal direction 4 + k (SE, SW, NE, NW): the stop bits, one line
     * per diagonal of the grid, cell (bx, by) at bit by + ASTAR_BITS_PAD of
     * line bx - by + height + 1 (SE, NW) or bx + by (SW, NE). Bits off the
     * grid are set. */
    uint64_t *diagonal[4];
    /* 4 directions, per vertical direction S, N: the stop bits, laid out
     * like col_bits. */
    uint64_t *vertical[2];
    size_t lines, words;            /* diagonal lines per direction, words per line */
    /* Cells changed since the tables were last brought up to date (bordered
     * indices), applied by astar_jumps_refresh; past capacity, rebuild. */
    uint32_t *dirty;
    size_t ndirty, capacity;
    int rebuild;
    size_t recent;                  /* changes since the last refresh call */
};

/* A refresh applies the changes only when at most this many came since the
 * previous one: a game that edits more between two queries would pay more
 * for them than the tables save a query (on AR0011SR a change costs a fifth
 * to a quarter of what they save on a query: make bench-jumps' second build
 * read 1.06x at 3 and 0.80x to 1.06x at 4), so its queries scan as plain
 * jump point search until the edits calm down, then one refresh applies
 * them all. */
#ifdef JUMPS_APPLY_ALL   /* make bench-jumps' second build: applied however many */
#define ASTAR_JUMPS_CALM ((size_t)-1)
#else
#define ASTAR_JUMPS_CALM 3
#endif

/* The tables when they describe the grid as it is, else NULL (changes not
 * applied yet: the kernel scans as plain jump point search does). */
static inline const struct AstarJumps *astar_jumps_current(const AstarGrid *grid)
{
    const struct AstarJumps *t = grid->jumps;
    return t && t->ndirty == 0 && !t->rebuild ? t : NULL;
}

/* The diagonal stop line through bordered cell (bx, by) for direction d (4..7). */
static inline const uint64_t *astar_jumps_diagonal(const AstarGrid *grid,
                                                   const struct AstarJumps *t, unsigned d,
                                                   size_t bx, size_t by)
{
    size_t line = d == 4 || d == 7 ? bx + grid->height + 1 - by : bx + by;
    return t->diagonal[d - 4] + line * t->words;
}

/* Builds the tables the first time, else applies the changes since they
 * were last applied, unless more than ASTAR_JUMPS_CALM came since the last
 * call: O(cells) once, then per changed cell O(the runs of the three rows
 * and columns through it that lead to it), or one rebuild past cells / 256
 * changes. ASTAR_ENOMEM leaves none. */
AstarError astar_jumps_refresh(AstarGrid *grid);

#endif
