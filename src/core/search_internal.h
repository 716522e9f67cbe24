/*
 * The search record: an AstarSearch's state, set up by search.c (queries),
 * written by the kernels (astar_kernel.h, jps.c) through the helpers below
 * and search_record.c, read by the results. Not public. Layer 4 (search
 * record).
 *
 * Scratch per cell: g (cost so far, 8 bytes) and a 16-bit stamp holding the
 * query's generation (12 bits), a closed bit and the direction the cell was
 * entered from. A new query bumps the generation instead of clearing memory,
 * so it costs only the cells it touches; every 4095 queries the stamps are
 * cleared once.
 */
#ifndef ASTAR_SEARCH_INTERNAL_H
#define ASTAR_SEARCH_INTERNAL_H

#include <math.h>

#include "grid_layout.h"
#include "heap.h"

#define SQRT2 1.41421356237309504880

#define STAMP_DIR_MASK 7u
#define STAMP_CLOSED 8u
#define STAMP_GEN_MASK 0xFFF0u
#define STAMP_GEN_SHIFT 4
#define STAMP_GEN_LIMIT (1u << (16 - STAMP_GEN_SHIFT))
#define SEARCH_MAX_BOXES 8
/* Goal lists up to this long may run jump point search (jps.c looks for
 * every goal on each line it scans). */
#define SEARCH_JPS_MAX_GOALS 16

/* How far past max_cost, relatively, g may go before a bounded search drops
 * a cell: a path's g and its reported cost differ by at most about one
 * rounding a step (1e-16 relative), so 1e-9 covers paths of millions of
 * steps, and lets in no path whose true cost is above the bound by more
 * than rounding: the reported cost then decides (astar_search_within_max_cost). */
#define BOUND_SLACK 1e-9

#if defined(__GNUC__)
#define ASTAR_INLINE static inline __attribute__((always_inline))
#else
#define ASTAR_INLINE static inline
#endif

/* Directions 0-3 are orthogonal (E, W, S, N), 4-7 diagonal (SE, SW, NE, NW).
 * For a diagonal, side_a and side_b are the orthogonal directions (the
 * horizontal one, then the vertical one) it passes between. */
extern const int ASTAR_DIR_DX[8], ASTAR_DIR_DY[8], ASTAR_DIR_SIDE_A[8], ASTAR_DIR_SIDE_B[8];

struct AstarSearch {
    /* scratch, reused across queries */
    double *g;
    uint16_t *stamp;
    size_t capacity;
    unsigned generation;
    Heap open;
    /* Cells whose f equals the f being expanded: A* may expand them next in
     * any order, so they skip the heap (a LIFO stack beside it). */
    uint32_t *ties;
    size_t ties_size, ties_capacity;
    double ties_f;           /* their f */
    /* Expanded cells in order, when the query records (astar_search_record). */
    uint32_t *recorded;
    size_t recorded_size, recorded_capacity;
    int record_next;         /* astar_search_record's setting */
    int recording;           /* the current query's */

    /* Queries with rules, several goals, near or a budget run the kernel's
     * general variants (astar_kernel.h). Their scratch, allocated by the first such query:
     * the rule's answer per cell (the entry cost, negated for a cell the
     * path may not end on, INFINITY when impassable) valid where rule_stamp
     * holds the generation, and the cells that end the path (target holds
     * the generation). */
    int general;
    double *rule_cost;
    uint16_t *rule_stamp, *target;
    size_t general_capacity;
    uint32_t *goal_list;     /* x, y pairs, 0-based: the query's goals */
    size_t ngoals, goal_capacity;
    /* The heuristic's targets: boxes [x0, x1] x [y0, y1] (bordered) around
     * each goal (its near region's bounding box), or one box around all of
     * them when there are more than SEARCH_MAX_BOXES. */
    int box[SEARCH_MAX_BOXES][4];
    int nboxes;
    /* The query's own walls (AstarOptions.walls, x, y pairs) and, while a
     * step has them written into the grid, the cells it closed. */
    uint32_t *wall_list, *walls_closed;
    size_t nwalls, nclosed, walls_capacity;

    /* Large units (clearance.c, large.c): the query's unit size (1: one
     * cell), the grid it was asked on (base) while grid is then the layer of
     * the positions where the unit fits, whether it runs large.c's loop
     * (costs or a rule), and the positions its walls closed. */
    uint32_t size;
    int large;
    const AstarGrid *base;
    uint32_t *large_closed;
    size_t large_closed_capacity;

    /* Moves and links (issue 19): whether the query runs the kernels' moves
     * variant (the grid has overrides or links, or a move rule is given);
     * then via[c] is the cell a link entered c from (MOVES_NO_VIA: a board
     * move did), written with every g it improves, and h_links the bound
     * of ak_link_bound (NAN until the first step computes it). The grid's
     * link edits it was started at (disturbed: links move the bound). */
    int moved;
    uint32_t *via;
    size_t via_capacity;
    double h_links;
    uint64_t link_edits;

    /* Smoothing (issue 20): once a query that asks for it has ended, its
     * points (bordered cells, start first) and their cost, which the
     * result readers give instead of the walk; walk_w is scratch for the
     * walk's costs ("sight"). Grown like the rest, never per query. */
    int smoothed;
    uint32_t *walk;
    double *walk_w;
    size_t walk_capacity, walk_n;
    double walk_cost;
    /* Any-angle search (AstarOptions.smooth THETA where it applies: theta.c):
     * whether the query runs it, and parent[c], the waypoint before c on its
     * path (start excepted), written with every g it improves. Allocated by
     * the first such query, grown with the capacity. */
    int theta;
    uint32_t *parent;
    size_t parent_capacity;

    /* the current query */
    const AstarGrid *grid;
    uint64_t grid_version;   /* the grid's version it was last checked against */
    size_t restarts;         /* started again after a change reached it (search.c) */
    size_t earlier_expanded, earlier_touched;   /* the work of the runs before them */
    int goal_checked;        /* the query's start checked its one goal (check_goal) */
    size_t stale_work;       /* expansions while stale labels could have answered it */
    AstarOptions options;
    AstarAlgorithm ran;      /* ASTAR or JPS */
    long offset[8];
    uint32_t start, goal;
    int goal_x, goal_y;      /* bordered coordinates */
    double h_scale;          /* weight * lowest cost: keeps h admissible */
    double inv_stride;       /* 1 / stride: a row without a division */
    AstarStatus status;

    /* closest cell so far, for partial results */
    uint32_t best;
    double best_distance, best_g;

    /* What the loops hold g to (INFINITY: no bound): max_cost and a margin
     * for rounding (BOUND_SLACK), since g adds the steps in the
     * order the search took them and the reported cost sums them apart
     * (search_record.c): the reported cost decides
     * (astar_search_within_max_cost). */
    double bound;

    /* the result: cost is the path's, as astar_search_finish reports it */
    uint32_t end;
    double cost;
    size_t length, expanded, touched;
};

static inline unsigned search_gen(const AstarSearch *s)
{
    return s->generation << STAMP_GEN_SHIFT;
}

/* Column and row of a bordered cell (bordered: 1-based). */
static inline int search_cell_x(const AstarSearch *s, uint32_t cell)
{
    return (int)(cell % s->grid->stride);
}

static inline int search_cell_y(const AstarSearch *s, uint32_t cell)
{
    return (int)(cell / s->grid->stride);
}

/* Row of a bordered cell: exact, since cell < 2^29 and the fraction of
 * (cell + 0.5) / stride stays far from a whole number. */
static inline int search_row(const AstarSearch *s, uint32_t cell)
{
    return (int)(((double)cell + 0.5) * s->inv_stride);
}

/* The heuristic's estimate from bordered (x, y) to the goal, scaled. */
ASTAR_INLINE double search_h(const AstarSearch *s, int x, int y)
{
    int ix = x - s->goal_x, iy = y - s->goal_y;
    double a, b, lo, hi;

    ix = ix < 0 ? -ix : ix;
    iy = iy < 0 ? -iy : iy;
    a = (double)ix;
    b = (double)iy;
    lo = a < b ? a : b;
    hi = a < b ? b : a;
    switch (s->options.heuristic) {
    case ASTAR_HEURISTIC_MANHATTAN: return s->h_scale * (a + b);
    case ASTAR_HEURISTIC_OCTILE: return s->h_scale * (hi + (SQRT2 - 1.0) * lo);
    case ASTAR_HEURISTIC_EUCLIDEAN: return s->h_scale * sqrt(a * a + b * b);
    case ASTAR_HEURISTIC_CHEBYSHEV: return s->h_scale * hi;
    case ASTAR_HEURISTIC_ZERO: break;
    }
    return 0.0;
}

/* The unscaled distance from bordered (x, y) to the nearest goal box: the
 * heuristic's metric over the offsets left outside the box. */
ASTAR_INLINE double search_box_distance(const AstarSearch *s, AstarHeuristic heuristic, int x,
                                        int y)
{
    double best = INFINITY;
    int i;
    for (i = 0; i < s->nboxes; i++) {
        const int *b = s->box[i];
        int dx = x < b[0] ? b[0] - x : x > b[1] ? x - b[1] : 0;
        int dy = y < b[2] ? b[2] - y : y > b[3] ? y - b[3] : 0;
        double a = (double)dx, c = (double)dy, lo = a < c ? a : c, hi = a < c ? c : a, d;
        switch (heuristic) {
        case ASTAR_HEURISTIC_MANHATTAN: d = a + c; break;
        case ASTAR_HEURISTIC_OCTILE: d = hi + (SQRT2 - 1.0) * lo; break;
        case ASTAR_HEURISTIC_EUCLIDEAN: d = sqrt(a * a + c * c); break;
        case ASTAR_HEURISTIC_CHEBYSHEV: d = hi; break;
        default: d = 0.0;
        }
        if (d < best)
            best = d;
    }
    return best;
}

/* Pushes a cell on the ties stack, growing it geometrically. */
static inline AstarError search_push_tie(AstarSearch *s, uint32_t cell)
{
    if (s->ties_size == s->ties_capacity) {
        size_t capacity = s->ties_capacity ? 2 * s->ties_capacity : 256;
        uint32_t *ties = (uint32_t *)realloc(s->ties, capacity * sizeof *ties);
        if (!ties)
            return ASTAR_ENOMEM;
        s->ties = ties;
        s->ties_capacity = capacity;
    }
    s->ties[s->ties_size++] = cell;
    return ASTAR_OK;
}

/* The next cell to expand: the ties first, else the heap's top, whose f
 * becomes *fc (the f of the cells being expanded). The open list must not
 * be empty. */
ASTAR_INLINE uint32_t search_pop(AstarSearch *s, double *fc)
{
    HeapEntry top;
    if (s->ties_size > 0)
        return s->ties[--s->ties_size];
    top = heap_pop(&s->open);
    *fc = top.f;
    return top.cell;
}

/* Was cell closed by this query (a stale duplicate when popped)? */
ASTAR_INLINE int search_closed(const uint16_t *stamp, unsigned gen, uint32_t cell)
{
    return (stamp[cell] & (STAMP_GEN_MASK | STAMP_CLOSED)) == (gen | STAMP_CLOSED);
}

/* Does cost g improve on what cell n holds this query? Counts n touched the
 * first time; a closed cell is never improved. */
ASTAR_INLINE int search_improves(AstarSearch *s, const double *gv, const uint16_t *stamp,
                                 unsigned gen, uint32_t n, double g)
{
    unsigned st = stamp[n];
    if ((st & STAMP_GEN_MASK) == gen)
        return !(st & STAMP_CLOSED) && !(g >= gv[n]);
    s->touched++;
    return 1;
}

/* Queues cell n at f: on the ties stack when f is the f being expanded
 * (fc), so it comes next, else on the heap. */
ASTAR_INLINE AstarError search_queue(AstarSearch *s, uint32_t n, double f, double fc)
{
    return f == fc ? search_push_tie(s, n) : heap_push(&s->open, f, n);
}

/* Appends an expanded cell to the recorded list (search_record.c): the rare
 * case of search_record, out of line so the loops stay small. */
AstarError astar_search_record_grow(AstarSearch *s, uint32_t cell);

/* Records an expanded cell when the query records. */
ASTAR_INLINE AstarError search_record(AstarSearch *s, uint32_t cell)
{
    if (s->recorded_size < s->recorded_capacity) {
        s->recorded[s->recorded_size++] = cell;
        return ASTAR_OK;
    }
    return astar_search_record_grow(s, cell);
}

/* The record's writers the kernels call (search_record.c), out of line as
 * they are rare: once a query, once a cell a rule is asked about, once an
 * expansion of a partial query. */
/* Ends the query: status and the path's last cell. */
void astar_search_finish(AstarSearch *s, AstarStatus status, uint32_t end);
/* Remembers cell as the closest to the goal so far if it is, and within
 * max_cost. */
void astar_search_note_closest(AstarSearch *s, uint32_t cell);
/* Whether the path the parents give to cell costs at most max_cost as it
 * would be reported (always, without a bound): surely when g is below it by
 * more than rounding, else summed (rare: only a cell whose g is within
 * rounding of max_cost). The goal tests and note_closest ask it: a goal
 * beyond it is out of reach, as every cheapest path reports the same cost. */
int astar_search_within_max_cost(AstarSearch *s, uint32_t cell);
/* The distance note_closest ranks cells by (search.c ranks the start). */
double astar_search_closeness(const AstarSearch *s, uint32_t cell);
/* The rule's answer for a walkable bordered cell not asked yet this query:
 * memoised; NAN when the rule stopped the query. */
double astar_search_ask_rule(AstarSearch *s, uint32_t cell);
/* The move rule's price of the move u -> v (bordered cells or positions)
 * that the grid prices at cost: INFINITY when it forbids it, NAN when it
 * stopped the query. */
double astar_search_ask_move(AstarSearch *s, uint32_t u, uint32_t v, double cost);

#endif
