/*
 * Jump point search (Harabor & Grastien, "Online Graph Pruning for
 * Pathfinding on Grid Maps", AAAI 2011), with straight jumps scanning 64
 * cells per machine word as in "Improving Jump Point Search" (ICAPS 2014).
 * Only for uniform costs, where it returns A*'s optimal cost while expanding
 * a handful of jump points instead of every cell on the way.
 *
 * NO_OBSTACLES (8 directions, no corner cutting). Canonical paths go
 * diagonally first, then straight. A straight run from p through n is
 * interrupted at n when a side cell of n is open but the same side of p is
 * not: that side can only be reached optimally through n (with it open at p,
 * the diagonal step from p would be shorter). A diagonal step needs both
 * orthogonal cells open, so the cells that would force neighbours on a
 * diagonal are always open: diagonal runs stop only where one of their two
 * straight sub-runs finds a jump point.
 *
 * NEVER (4 directions). Vertical moves play the diagonal's part: a vertical
 * run stops where a side opens behind a wall or where a horizontal sub-run
 * finds a jump point; horizontal runs stop on the same side rule as above.
 * A jump point reached horizontally continues both ways vertically.
 *
 * Costs (issue 22; search.c runs these where terrain.h's terrain_pays).
 * NO_OBSTACLES: the same jumps on the prices of terrain.h, whose comments
 * give the rules and why they are exact: a straight scan stops on the
 * terrain cache's stop lines instead of the grid's, a diagonal jump also
 * stops where the prices force a turn (and goes on past the jump points its
 * straight scans find, diagonal_priced), and a jump point explores the
 * neighbours its prices force. NEVER: the uniform rules, but every jump
 * also stops on an edge cell (one next to another cost), and an edge cell
 * is expanded in every direction, as a start is. Why that is exact: an
 * inner cell's walkable neighbours all cost what it costs, so a cheapest
 * path between two edge cells (or the start, the goal) through inner cells
 * enters cells of one price, and the uniform-grid argument applies to it:
 * the swaps that make it canonical (as above) replace a cell
 * next to an inner cell by another next to it, both walkable, so of the
 * same price; its turns are then at forced neighbours (walls), edge cells
 * or the goal, where jumps stop. A jump's cost adds each cell's price as
 * A* does.
 *
 * Each jump point records only the direction it was reached by;
 * search_record.c unfolds the lines between jump points into a cell-by-cell
 * path. Layer 5 (kernels).
 */
#include "jumps.h"
#include "kernels.h"
#include "terrain.h"

#define NONE ((size_t)-1)


/* Straight scans along a line (a row or a column) whose walkable bits are
 * `open` and whose stop bits for the scan's direction are `stops` (see
 * grid_layout.h). From bit pos, the distance to the first jump point (a
 * forced neighbour, or the goal's bit `target`), or 0 when a wall comes
 * first. The first word is read at pos, the rest word-aligned. */
ASTAR_INLINE size_t scan_up(const uint64_t *stops, const uint64_t *edges, const uint64_t *open,
                            size_t pos, size_t target, const int weighted)
{
    size_t base = pos + 1;
    uint64_t stop = astar_bits_at(stops, base) | (weighted ? astar_bits_at(edges, base) : 0);

    for (;;) {
        if (target >= base && target - base < 64)
            stop |= (uint64_t)1 << (target - base);
        if (stop) {
            size_t b = base + astar_lowest_bit(stop);
            return astar_bit(open, b) ? b - pos : 0;
        }
        base = (base | 63) + 1;
        stop = stops[base >> 6] | (weighted ? edges[base >> 6] : 0);
    }
}

ASTAR_INLINE size_t scan_down(const uint64_t *stops, const uint64_t *edges, const uint64_t *open,
                              size_t pos, size_t target, const int weighted)
{
    size_t base = pos - 64;   /* the line's padding keeps base >= 0 until a wall stops us */
    uint64_t stop = astar_bits_at(stops, base) | (weighted ? astar_bits_at(edges, base) : 0);

    for (;;) {
        if (target >= base && target - base < 64)
            stop |= (uint64_t)1 << (target - base);
        if (stop) {
            size_t b = base + astar_highest_bit(stop);
            return astar_bit(open, b) ? pos - b : 0;
        }
        base = (base - 1) & ~(size_t)63;
        stop = stops[base >> 6] | (weighted ? edges[base >> 6] : 0);
    }
}

typedef struct {
    AstarSearch *s;
    const AstarGrid *grid;
    const uint8_t *open;
    double unit, unit_diagonal;    /* step costs */
    int four;                      /* NEVER: 4 directions */
    /* A goal list or near (search.c: a general query without rules or a
     * budget): the cells that end the path hold tgen in target, and a
     * straight scan stops at the nearest of them ahead on its line. */
    int multi;
    const uint16_t *target;
    uint16_t tgen;
    /* The grid's jump tables (jumps.h) when they apply: one goal, the grid's
     * own walls (no query walls written in), up to date; else NULL. */
    const struct AstarJumps *jumps;
    /* Costs (weighted): the entry costs and the terrain's edge cells. */
    const double *cost;
    const struct AstarTerrain *terrain;
} Jps;

/* The variants of the loop: a grid of one cost; costs in 4 directions,
 * stopping on edge cells (terrain.h); costs in 8 directions, stopping where
 * the prices force a neighbour (terrain.h's rules). */
enum { UNIFORM, EDGES, PRICED };

ASTAR_INLINE int is_edge(const Jps *j, int x, int y)
{
    return astar_terrain_edge(j->terrain, j->grid, (size_t)x, (size_t)y);
}

ASTAR_INLINE int is_goal(const Jps *j, uint32_t c)
{
    return j->multi ? j->target[c] == j->tgen : c == j->s->goal;
}

/* A goal list or near (search.c: a general query without rules or a
 * budget): the bit of the nearest cell ahead of bit pos, towards higher bits
 * when up, that lies in a goal's region (within near of it: Manhattan in 4
 * directions, Chebyshev in 8) on row `line` (column when vertical), or NONE.
 * A wall there stops the scan as any wall would. */
static size_t goal_ahead(const AstarSearch *s, int vertical, int line, size_t pos, int up)
{
    size_t best = NONE, i;
    long n = (long)s->options.near;
    int manhattan = s->options.diagonal == ASTAR_DIAGONAL_NEVER;
    for (i = 0; i < s->ngoals; i++) {
        long gx = (long)s->goal_list[2 * i] + 1, gy = (long)s->goal_list[2 * i + 1] + 1;
        long across = (vertical ? gx : gy) - line, along = vertical ? gy : gx, r, lo, hi;
        size_t b;
        across = across < 0 ? -across : across;
        if (across > n)
            continue;
        r = manhattan ? n - across : n;
        lo = along - r + ASTAR_BITS_PAD;
        hi = along + r + ASTAR_BITS_PAD;
        if (up) {
            b = (size_t)(lo > (long)pos ? lo : (long)pos + 1);
            if ((long)b <= hi && b < best)
                best = b;
        } else {
            b = (size_t)(hi < (long)pos ? hi : (long)pos - 1);
            if ((long)b >= lo && (best == NONE || b > best))
                best = b;
        }
    }
    return best;
}

/* A straight jump along one line, a row or a column (vertical): its stop
 * lines, walkable bits and edge bits (weighted) start at word `at`; from
 * bordered coordinate pos (along the line) at coordinate `line` across it.
 * The goal, or the goal list's nearest cell ahead, is a target on the line
 * (the goal's coordinates are read only without a goal list). */
ASTAR_INLINE size_t jump_line(const Jps *j, uint64_t *const *stops, const uint64_t *open,
                              const uint64_t *edges, size_t at, int pos, int line,
                              const int vertical, int up, const int weighted)
{
    const AstarSearch *s = j->s;
    size_t target;

    if (weighted)
        edges += at;
    if (j->multi)
        target = goal_ahead(s, vertical, line, (size_t)pos + ASTAR_BITS_PAD, up);
    else
        target = line == (vertical ? s->goal_x : s->goal_y)
                     ? (size_t)(vertical ? s->goal_y : s->goal_x) + ASTAR_BITS_PAD : NONE;
    return up ? scan_up(stops[0] + at, edges, open + at, (size_t)pos + ASTAR_BITS_PAD, target,
                        weighted)
              : scan_down(stops[1] + at, edges, open + at, (size_t)pos + ASTAR_BITS_PAD, target,
                          weighted);
}

/* Straight jump from bordered (x, y) in orthogonal direction d (0, 1 along
 * the row, 2, 3 along the column); with costs it also stops on the first
 * edge cell. Each direction's line is picked here, so the scan stays
 * inlined once per axis. */
ASTAR_INLINE size_t jump_straight(const Jps *j, int x, int y, unsigned d, const int mode)
{
    const AstarGrid *grid = j->grid;
    const int weighted = mode == EDGES;
    uint64_t *const *rows = mode == PRICED ? j->terrain->row_stops : grid->row_stops;
    uint64_t *const *cols = mode == PRICED ? j->terrain->col_stops : grid->col_stops;

    if (d < 2)
        return jump_line(j, rows, grid->row_bits, weighted ? j->terrain->row : NULL,
                         (size_t)y * grid->row_words, x, y, 0, d == 0, weighted);
    return jump_line(j, cols, grid->col_bits, weighted ? j->terrain->col : NULL,
                     (size_t)x * grid->col_words, y, x, 1, d == 2, weighted);
}

/* Diagonal jump on a uniform grid (8 directions, no corner cutting): a
 * grid with costs jumps diagonally in diagonal_priced, below. */
static size_t diagonal_uniform(const Jps *j, uint32_t c, int x, int y, unsigned d)
{
    const uint8_t *open = j->open;
    long step = j->s->offset[d];
    unsigned a = (unsigned)ASTAR_DIR_SIDE_A[d], b = (unsigned)ASTAR_DIR_SIDE_B[d];
    long side_a = j->s->offset[a], side_b = j->s->offset[b];
    size_t k = 0;

    for (;;) {
        if (!open[(long)c + side_a] || !open[(long)c + side_b] || !open[(long)c + step])
            return 0;
        c = (uint32_t)((long)c + step);
        x += ASTAR_DIR_DX[d];
        y += ASTAR_DIR_DY[d];
        k++;
        if (is_goal(j, c) || jump_straight(j, x, y, a, UNIFORM) || jump_straight(j, x, y, b, UNIFORM))
            return k;
    }
}

/* ---- the same jumps read from the jump tables (jumps.h) ----------------- */

/* Distance from bit pos to the first set bit of a table line after it,
 * towards higher bits when up: every border cell's bit is set. */
ASTAR_INLINE size_t table_stop(const uint64_t *line, size_t pos, int up)
{
    return up ? astar_next_set(line, pos) - pos : pos - astar_prev_set(line, pos);
}

/* Would plain jump point search stop at step k of a run from c in direction
 * d, where the run crosses the goal's row or column: the goal itself, or a
 * straight jump in a side direction that reaches it (a jump point there is
 * ruled out: the tables would have stopped the run). */
static int stops_at_crossing(const Jps *j, uint32_t c, int x, int y, unsigned d, long k)
{
    uint32_t n = (uint32_t)((long)c + k * j->s->offset[d]);
    int nx = x + (int)k * ASTAR_DIR_DX[d], ny = y + (int)k * ASTAR_DIR_DY[d];
    if (is_goal(j, n))
        return 1;
    if (d < 4)   /* vertical, 4 directions */
        return jump_straight(j, nx, ny, 0, UNIFORM) || jump_straight(j, nx, ny, 1, UNIFORM);
    return jump_straight(j, nx, ny, (unsigned)ASTAR_DIR_SIDE_A[d], UNIFORM)
           || jump_straight(j, nx, ny, (unsigned)ASTAR_DIR_SIDE_B[d], UNIFORM);
}

/* A run of direction d from c that the tables stop at step k (found: at a
 * jump point, else where it cannot go on). Before it, plain jump point
 * search stops only where the run crosses the goal's row or column (at most
 * two steps, the nearer first). */
static size_t table_run(const Jps *j, uint32_t c, int x, int y, unsigned d, size_t k, int found)
{
    const AstarSearch *s = j->s;
    long row = (long)(s->goal_y - y) * ASTAR_DIR_DY[d], col = (long)(s->goal_x - x) * ASTAR_DIR_DX[d];
    long first = row < col ? row : col, second = row < col ? col : row;

    if (d < 4)
        first = second = row;
    if (first >= 1 && (size_t)first < k && stops_at_crossing(j, c, x, y, d, first))
        return (size_t)first;
    if (second > first && second >= 1 && (size_t)second < k
        && stops_at_crossing(j, c, x, y, d, second))
        return (size_t)second;
    return found ? k : 0;
}

/* Diagonal jump (8 directions) from the tables: the first cell it cannot
 * enter (it, or a side of the step into it, is a wall) or where it finds a
 * jump point, in one scan of its diagonal's stop line. */
static size_t jump_diagonal_table(const Jps *j, uint32_t c, int x, int y, unsigned d)
{
    const long *offset = j->s->offset;
    const uint8_t *open = j->open;
    const uint64_t *line = astar_jumps_diagonal(j->grid, j->jumps, d, (size_t)x, (size_t)y);
    size_t k = table_stop(line, (size_t)y + ASTAR_BITS_PAD, ASTAR_DIR_DY[d] > 0);
    long at = (long)c + (long)k * offset[d];
    int found = open[at] && open[at - offset[ASTAR_DIR_SIDE_A[d]]]
                && open[at - offset[ASTAR_DIR_SIDE_B[d]]];
    return table_run(j, c, x, y, d, k, found);
}

/* Vertical jump (4 directions) from the tables: the column's first wall,
 * forced neighbour or cell whose horizontal jumps find a jump point. */
static size_t jump_vertical_table(const Jps *j, uint32_t c, int x, int y, unsigned d)
{
    const uint64_t *line = j->jumps->vertical[d - 2] + (size_t)x * j->grid->col_words;
    size_t k = table_stop(line, (size_t)y + ASTAR_BITS_PAD, d == 2);
    return table_run(j, c, x, y, d, k, j->open[(long)c + (long)k * j->s->offset[d]]);
}

/* Vertical jump (4 directions). */
ASTAR_INLINE size_t jump_vertical_in(const Jps *j, uint32_t c, int x, int y, unsigned d,
                                     const int mode)
{
    const uint8_t *open = j->open;
    long step = j->s->offset[d];
    size_t k = 0;

    for (;;) {
        c = (uint32_t)((long)c + step);
        y += ASTAR_DIR_DY[d];
        k++;
        if (!open[c])
            return 0;
        if (is_goal(j, c) || (mode == EDGES && is_edge(j, x, y)))
            return k;
        if ((open[c + 1] && !open[(long)c + 1 - step]) || (open[c - 1] && !open[(long)c - 1 - step]))
            return k;
        if (jump_straight(j, x, y, 0, mode) || jump_straight(j, x, y, 1, mode))
            return k;
    }
}

/* One function per variant, out of line as the uniform loop always had
 * them (so its expansion stays small enough for the open list's push to be
 * inlined). */
static size_t vertical_uniform(const Jps *j, uint32_t c, int x, int y, unsigned d)
{
    return jump_vertical_in(j, c, x, y, d, UNIFORM);
}

static size_t vertical_edges(const Jps *j, uint32_t c, int x, int y, unsigned d)
{
    return jump_vertical_in(j, c, x, y, d, EDGES);
}

/* The cost of k steps in direction e from c: with costs each cell's price
 * added step by step as A* adds them, so that the same path costs the same
 * to the last bit. */
ASTAR_INLINE double jump_cost(const Jps *j, uint32_t c, double gc, size_t k, unsigned e,
                              const int mode)
{
    const long step = j->s->offset[e];
    long at = (long)c;
    double g = gc;
    if (mode == UNIFORM)
        return gc + (double)k * (e < 4 ? j->unit : j->unit_diagonal);
    if (e < 4) {
        for (; k > 0; k--)
            g += j->cost[at += step];
    } else {
        for (; k > 0; k--)
            g += SQRT2 * j->cost[at += step];
    }
    return g;
}

/* Offers cell n, at (x, y), reached by direction e at cost g. */
ASTAR_INLINE AstarError offer(const Jps *j, uint32_t n, int x, int y, double g, unsigned e)
{
    AstarSearch *s = j->s;
    double h;
    if (!search_improves(s, s->g, s->stamp, search_gen(s), n, g))
        return ASTAR_OK;
    s->g[n] = g;
    s->stamp[n] = (uint16_t)(search_gen(s) | e);
    h = j->multi ? s->h_scale * search_box_distance(s, s->options.heuristic, x, y)
                 : search_h(s, x, y);
    return search_queue(s, n, g + h, s->ties_f);
}

/* Offers the jump point k steps from c (cost gc) in direction e, with
 * costs: unless it is closed, or holds a cost its jump cannot beat even at
 * the lowest price a step (min_cost, a lower bound of every cost, times
 * 1 - 1e-9 against the rounding of the sums), which spares adding the
 * prices of the cells in between. */
ASTAR_INLINE AstarError offer_priced(const Jps *j, uint32_t c, int x, int y, double gc, size_t k,
                                     unsigned e)
{
    const AstarSearch *s = j->s;
    uint32_t n = (uint32_t)((long)c + (long)k * s->offset[e]);
    unsigned st = s->stamp[n];
    if ((st & STAMP_GEN_MASK) == search_gen(s)
        && ((st & STAMP_CLOSED)
            || s->g[n] <= gc + (double)k * (e < 4 ? j->unit : j->unit_diagonal) * (1 - 1e-9)))
        return ASTAR_OK;
    return offer(j, n, x + (int)k * ASTAR_DIR_DX[e], y + (int)k * ASTAR_DIR_DY[e],
                 jump_cost(j, c, gc, k, e, PRICED), e);
}

/* How far above the f being expanded a diagonal jump with costs goes on
 * through cells it does not queue, in steps of the lowest price: measured
 * on make bench-jpsw's map (0: 13% fewer instructions than stopping at the
 * first jump point its straight scans find, 8 and 12: 22%, unbounded: 4%
 * more). */
#define PRICED_WINDOW 8.0

/* Diagonal jump with costs (8 directions) from c, whose cost is gc. Each
 * cell it enters is, in effect, queued and expanded at once: the jump
 * points its two straight scans find are offered from it, and the jump
 * goes on, its cost and direction written in the cell (not queued, never
 * closed) so that search_record.c can link the jump points to it. That is
 * exact, as any order of expansion is with a consistent heuristic so long
 * as a cell whose cost drops is expanded again (search_improves: it is
 * queued then). It stops, and queues the cell as plain jump point search
 * does, at the goal, where its prices force a turn (terrain.h), or once
 * the cell's f passes the f being expanded by PRICED_WINDOW steps: far
 * ahead of the search's front, cells it would expand may never be needed.
 * A cell holding a cost no dearer ends it: all it would offer was. */
static AstarError diagonal_priced(const Jps *j, uint32_t c, int x, int y, double gc, unsigned d)
{
    AstarSearch *s = j->s;
    const uint8_t *open = j->open;
    const long step = s->offset[d];
    const unsigned a = (unsigned)ASTAR_DIR_SIDE_A[d], b = (unsigned)ASTAR_DIR_SIDE_B[d];
    const long side_a = s->offset[a], side_b = s->offset[b];
    const unsigned gen = search_gen(s);
    const double reach = s->ties_f + PRICED_WINDOW * j->unit;
    double g = gc, h;
    AstarError err;

    for (;;) {
        size_t ka, kb;
        if (!open[(long)c + side_a] || !open[(long)c + side_b] || !open[(long)c + step])
            return ASTAR_OK;
        c = (uint32_t)((long)c + step);
        x += ASTAR_DIR_DX[d];
        y += ASTAR_DIR_DY[d];
        g += SQRT2 * j->cost[c];
        if (!search_improves(s, s->g, s->stamp, gen, c, g))
            return ASTAR_OK;
        s->g[c] = g;
        s->stamp[c] = (uint16_t)(gen | d);
        h = j->multi ? s->h_scale * search_box_distance(s, s->options.heuristic, x, y)
                     : search_h(s, x, y);
        if (g + h > reach || is_goal(j, c) || terrain_forced_turn(j->grid, (long)c, side_a, side_b)
            || terrain_forced_turn(j->grid, (long)c, side_b, side_a))
            return search_queue(s, c, g + h, s->ties_f);
        ka = jump_straight(j, x, y, a, PRICED);
        kb = jump_straight(j, x, y, b, PRICED);
        if (ka && (err = offer_priced(j, c, x, y, g, ka, a)) != ASTAR_OK)
            return err;
        if (kb && (err = offer_priced(j, c, x, y, g, kb, b)) != ASTAR_OK)
            return err;
    }
}

/* Jumps from c in direction e and offers the jump point found, if any. */
ASTAR_INLINE AstarError explore_in(const Jps *j, uint32_t c, int x, int y, double gc, unsigned e,
                                   const int mode)
{
    AstarSearch *s = j->s;
    size_t k;

    if (e < 2 || (e < 4 && !j->four))
        k = jump_straight(j, x, y, e, mode);
    else if (e < 4)   /* 4 directions: UNIFORM (tables when built) or EDGES */
        k = mode == EDGES ? vertical_edges(j, c, x, y, e)
            : j->jumps    ? jump_vertical_table(j, c, x, y, e)
                          : vertical_uniform(j, c, x, y, e);
    else if (mode == PRICED)
        return diagonal_priced(j, c, x, y, gc, e);
    else              /* 8 directions: UNIFORM (tables when built) */
        k = j->jumps ? jump_diagonal_table(j, c, x, y, e) : diagonal_uniform(j, c, x, y, e);
    if (!k)
        return ASTAR_OK;
    if (mode == PRICED)
        return offer_priced(j, c, x, y, gc, k, e);
    return offer(j, (uint32_t)((long)c + (long)k * s->offset[e]), x + (int)k * ASTAR_DIR_DX[e],
                 y + (int)k * ASTAR_DIR_DY[e], jump_cost(j, c, gc, k, e, mode), e);
}

static AstarError explore_uniform(const Jps *j, uint32_t c, int x, int y, double gc, unsigned e)
{
    return explore_in(j, c, x, y, gc, e, UNIFORM);
}

static AstarError explore_edges(const Jps *j, uint32_t c, int x, int y, double gc, unsigned e)
{
    return explore_in(j, c, x, y, gc, e, EDGES);
}

static AstarError explore_priced(const Jps *j, uint32_t c, int x, int y, double gc, unsigned e)
{
    return explore_in(j, c, x, y, gc, e, PRICED);
}

ASTAR_INLINE AstarError explore(const Jps *j, uint32_t c, int x, int y, double gc, unsigned e,
                                const int mode)
{
    return mode == PRICED ? explore_priced(j, c, x, y, gc, e)
           : mode == EDGES ? explore_edges(j, c, x, y, gc, e)
                           : explore_uniform(j, c, x, y, gc, e);
}

/* The diagonal between horizontal direction h (0/1) and vertical v (2/3). */
static unsigned diagonal_of(unsigned h, unsigned v)
{
    return 4u + h + (v == 3 ? 2u : 0u);
}

/* Expands jump point c: explores the directions pruning leaves; all of
 * them from the start and, with costs, from an edge cell. */
ASTAR_INLINE AstarError expand_in(const Jps *j, uint32_t c, int x, int y, const int mode)
{
    AstarSearch *s = j->s;
    double gc = s->g[c];
    unsigned dir = s->stamp[c] & STAMP_DIR_MASK, e;
    AstarError err = ASTAR_OK;

    if (c == s->start || (mode == EDGES && is_edge(j, x, y))) {
        for (e = 0; e < (j->four ? 4u : 8u) && err == ASTAR_OK; e++)
            err = explore(j, c, x, y, gc, e, mode);
        return err;
    }
    err = explore(j, c, x, y, gc, dir, mode);
    if (j->four) {
        unsigned p = dir < 2 ? 2u : 0u;
        if (err == ASTAR_OK)
            err = explore(j, c, x, y, gc, p, mode);
        if (err == ASTAR_OK)
            err = explore(j, c, x, y, gc, p + 1, mode);
        return err;
    }
    if (dir >= 4) {
        unsigned h = (unsigned)ASTAR_DIR_SIDE_A[dir], v = (unsigned)ASTAR_DIR_SIDE_B[dir];
        if (err == ASTAR_OK)
            err = explore(j, c, x, y, gc, h, mode);
        if (err == ASTAR_OK)
            err = explore(j, c, x, y, gc, v, mode);
        if (mode == PRICED) {   /* the turns the prices force (terrain.h) */
            long oh = s->offset[h], ov = s->offset[v];
            if (err == ASTAR_OK && terrain_forced_turn(j->grid, (long)c, oh, ov))
                err = explore(j, c, x, y, gc, diagonal_of(h ^ 1u, v), mode);
            if (err == ASTAR_OK && terrain_forced_turn(j->grid, (long)c, ov, oh))
                err = explore(j, c, x, y, gc, diagonal_of(h, v ^ 1u), mode);
        }
        return err;
    }
    if (mode == PRICED) {
        long step = s->offset[dir];
        unsigned p = dir < 2 ? 2u : 0u, q;
        for (q = p; q < p + 2 && err == ASTAR_OK; q++) {
            long side = s->offset[q];
            if (terrain_forced_side(j->grid, (long)c, step, side))
                err = explore(j, c, x, y, gc, q, mode);
            if (err == ASTAR_OK && terrain_forced_ahead(j->grid, (long)c, step, side))
                err = explore(j, c, x, y, gc,
                              dir < 2 ? diagonal_of(dir, q) : diagonal_of(q, dir), mode);
        }
        return err;
    }
    {
        long back = (long)c - s->offset[dir];
        unsigned p = dir < 2 ? 2u : 0u, q;
        for (q = p; q < p + 2 && err == ASTAR_OK; q++) {
            if (j->open[(long)c + s->offset[q]] && !j->open[back + s->offset[q]]) {
                err = explore(j, c, x, y, gc, q, mode);
                if (err == ASTAR_OK)
                    err = explore(j, c, x, y, gc,
                                  dir < 2 ? diagonal_of(dir, q) : diagonal_of(q, dir), mode);
            }
        }
    }
    return err;
}

static AstarError expand_uniform(const Jps *j, uint32_t c, int x, int y)
{
    return expand_in(j, c, x, y, UNIFORM);
}

static AstarError expand_edges(const Jps *j, uint32_t c, int x, int y)
{
    return expand_in(j, c, x, y, EDGES);
}

static AstarError expand_priced(const Jps *j, uint32_t c, int x, int y)
{
    return expand_in(j, c, x, y, PRICED);
}

ASTAR_INLINE AstarStatus run(AstarSearch *s, size_t max_expansions, AstarError *error,
                             const int mode)
{
    Jps j;
    uint16_t *stamp = s->stamp;
    const unsigned gen = search_gen(s);
    const int recording = s->recording;
    size_t budget = max_expansions;

    j.s = s;
    j.grid = s->grid;
    j.open = s->grid->open;
    j.unit = s->grid->min_cost;
    j.unit_diagonal = SQRT2 * s->grid->min_cost;
    j.four = s->options.diagonal == ASTAR_DIAGONAL_NEVER;
    j.multi = s->general;
    j.target = s->target;
    j.tgen = (uint16_t)gen;
    /* the tables hold the grid's walls only: one goal, no query walls, one cost */
    j.jumps = mode == UNIFORM && !j.multi && s->nclosed == 0 && s->grid == s->base
                  ? astar_jumps_current(s->grid)
                  : NULL;
    j.cost = s->grid->cost;
    j.terrain = s->grid->terrain;

    while (s->open.size > 0 || s->ties_size > 0) {
        uint32_t c;
        int x, y;

        if (max_expansions && budget-- == 0)
            return ASTAR_SEARCHING;
        c = search_pop(s, &s->ties_f);
        if (search_closed(stamp, gen, c)) {
            budget++;                          /* a stale duplicate: not an expansion */
            continue;
        }
        if (is_goal(&j, c)) {
            astar_search_finish(s, ASTAR_FOUND, c);
            return ASTAR_FOUND;
        }
        if (recording && search_record(s, c) != ASTAR_OK) {
            *error = ASTAR_ENOMEM;
            return ASTAR_NO_PATH;
        }
        stamp[c] |= STAMP_CLOSED;
        s->expanded++;
        y = search_row(s, c);
        x = (int)(c - (uint32_t)y * s->grid->stride);
        if ((mode == PRICED  ? expand_priced(&j, c, x, y)
             : mode == EDGES ? expand_edges(&j, c, x, y)
                             : expand_uniform(&j, c, x, y)) != ASTAR_OK) {
            *error = ASTAR_ENOMEM;
            return ASTAR_NO_PATH;
        }
    }
    return ASTAR_NO_PATH;
}

static AstarStatus run_uniform(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    return run(s, max_expansions, error, UNIFORM);
}

static AstarStatus run_edges(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    return run(s, max_expansions, error, EDGES);
}

static AstarStatus run_priced(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    return run(s, max_expansions, error, PRICED);
}

AstarStatus astar_run_jps(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    if (!astar_jps_weighted(s->grid))
        return run_uniform(s, max_expansions, error);
    return s->options.diagonal == ASTAR_DIAGONAL_NEVER ? run_edges(s, max_expansions, error)
                                                       : run_priced(s, max_expansions, error);
}
