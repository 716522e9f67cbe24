/*
 * The search record: what a query's kernels write into its AstarSearch as
 * they expand (the rule's answers, the closest cell so far, the expanded
 * cells, the end and length of the path) and the readers of its results.
 * Layer 4 (search record): the kernels call down into it and it calls
 * nothing above; search.c (queries) sets the record up for each query.
 */
#include <stdlib.h>

#include "hex_geometry.h"
#include "moves.h"
#include "search_internal.h"
#include "terrain.h"

const int ASTAR_DIR_DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
const int ASTAR_DIR_DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
const int ASTAR_DIR_SIDE_A[8] = {0, 0, 0, 0, 0, 1, 0, 1};
const int ASTAR_DIR_SIDE_B[8] = {0, 0, 0, 0, 2, 2, 3, 3};

/* The estimate's distance for |dx|, |dy|, before scaling. */
static double distance(AstarHeuristic heuristic, int dx, int dy)
{
    double a = dx < 0 ? -dx : dx, b = dy < 0 ? -dy : dy;
    double lo = a < b ? a : b, hi = a < b ? b : a;

    switch (heuristic) {
    case ASTAR_HEURISTIC_MANHATTAN: return a + b;
    case ASTAR_HEURISTIC_OCTILE: return hi + (SQRT2 - 1.0) * lo;
    case ASTAR_HEURISTIC_EUCLIDEAN: return sqrt(a * a + b * b);
    case ASTAR_HEURISTIC_CHEBYSHEV: return hi;
    case ASTAR_HEURISTIC_ZERO: break;
    }
    return 0.0;
}

/* Hex distance from bordered cell to the nearest goal region. */
static double hex_closeness(const AstarSearch *s, uint32_t cell)
{
    AstarHexLayout layout = (AstarHexLayout)(s->grid->hex - 1);
    uint32_t stride = s->grid->stride;
    long q, r, gq, gr;
    double best = INFINITY;
    size_t i;
    hex_to_axial(layout, (long)(cell % stride - 1), (long)(cell / stride - 1), &q, &r);
    for (i = 0; i < s->ngoals; i++) {
        double d;
        hex_to_axial(layout, (long)s->goal_list[2 * i], (long)s->goal_list[2 * i + 1], &gq, &gr);
        d = (double)(uint32_t)hex_axial_distance(gq - q, gr - r);
        d = d > (double)s->options.near ? d - (double)s->options.near : 0.0;
        if (d < best)
            best = d;
    }
    return best;
}

/* Distance used to rank cells for partial results: the heuristic's own, or
 * the diagonal mode's natural one when the heuristic is zero. */
static double closeness(const AstarSearch *s, uint32_t cell)
{
    AstarHeuristic h = s->options.heuristic;
    if (s->grid->hex)
        return hex_closeness(s, cell);
    if (h == ASTAR_HEURISTIC_ZERO)
        h = s->options.diagonal == ASTAR_DIAGONAL_NEVER ? ASTAR_HEURISTIC_MANHATTAN
                                                         : ASTAR_HEURISTIC_OCTILE;
    if (s->general)
        return search_box_distance(s, h, search_cell_x(s, cell), search_cell_y(s, cell));
    return distance(h, search_cell_x(s, cell) - s->goal_x, search_cell_y(s, cell) - s->goal_y);
}

double astar_search_closeness(const AstarSearch *s, uint32_t cell)
{
    return closeness(s, cell);
}

static int closed_now(const AstarSearch *s, uint32_t cell)
{
    return (s->stamp[cell] & (STAMP_GEN_MASK | STAMP_CLOSED)) == (search_gen(s) | STAMP_CLOSED);
}

/* What jps.c adds to g for the k steps from cell `from` in direction dir:
 * k times the one step cost on a grid of one cost, else each cell's price
 * one by one, as A* adds them. */
static double jump_sum(const AstarSearch *s, uint32_t from, unsigned dir, size_t k, double g,
                       int weighted)
{
    long at = (long)from;
    if (!weighted)
        return g + (double)k * (dir < 4 ? s->grid->min_cost : SQRT2 * s->grid->min_cost);
    while (k-- > 0) {
        at += s->offset[dir];
        g += dir < 4 ? s->grid->cost[at] : SQRT2 * s->grid->cost[at];
    }
    return g;
}

/* With costs in 8 directions jps.c also links jump points to cells that a
 * diagonal jump passed without queueing them (their g and direction set,
 * never closed), whose g may have dropped since by a last bit: a parent is
 * any cell of this query on the line from which the jump costs no more than
 * the child's g. Every such g is that of a real path, so the path read is
 * as cheap as the child's; cells this walk rewrote are not met again (the
 * path would cross itself, dearer than the cost found). */
static int parent_priced(const AstarSearch *s, uint32_t prev, unsigned dir, size_t k, double g)
{
    return (s->stamp[prev] & STAMP_GEN_MASK) == search_gen(s)
           && jump_sum(s, prev, dir, k, s->g[prev], 1) <= g;
}

/* Jump point search links each jump point to the one it was found from,
 * along a straight or diagonal line, by recording only the direction. The
 * parent is the closed cell on that line whose cost plus the jump's cost is
 * exactly the child's: the same sum jps.c computed, so it matches bit for bit
 * (another cell that matches is an equally cheap parent). The cells in
 * between get a one-step direction, so the path reads cell by cell like A*'s.
 * Returns the steps from the start to end, those taken diagonally counted
 * in *diagonal. */
static size_t unfold_jumps(AstarSearch *s, uint32_t end, size_t *diagonal)
{
    const int weighted = astar_jps_weighted(s->grid);
    const int priced = weighted && s->options.diagonal != ASTAR_DIAGONAL_NEVER;
    uint32_t cell = end;
    size_t steps = 0;
    unsigned gen = search_gen(s);

    while (cell != s->start) {
        unsigned dir = s->stamp[cell] & STAMP_DIR_MASK;
        long step = s->offset[dir];
        double g = s->g[cell];
        uint32_t prev = (uint32_t)((long)cell - step);
        size_t k = 1;
        while (!(priced ? parent_priced(s, prev, dir, k, g)
                        : closed_now(s, prev) && jump_sum(s, prev, dir, k, s->g[prev], weighted) == g)
               && s->grid->open[prev]) {
            /* keep a jump point's closed bit: astar_search_expanded_cell */
            s->stamp[prev] = (uint16_t)(gen | dir | (closed_now(s, prev) ? STAMP_CLOSED : 0u));
            prev = (uint32_t)((long)prev - step);
            k++;
        }
        steps += k;
        *diagonal += dir >= 4 ? k : 0;
        if (!s->grid->open[prev] && prev != s->start)
            break;                  /* cannot happen; never loop over walls */
        cell = prev;
    }
    return steps;
}

/* What a cell on the path was entered for: the rule's answer, else its cost. */
static double entry_price(const AstarSearch *s, uint32_t cell)
{
    if (s->options.rule) {
        double c = s->rule_cost[cell];
        return c < 0 ? -c : c;                 /* negated: not to end on */
    }
    return s->base->cost ? s->base->cost[cell] : 1.0;
}

/* The path's cost, reported the same for every cheapest path (issue 22):
 * S + sqrt2 * D, S the prices of the cells entered straight and D of those
 * entered diagonally, each added up from the start. With whole or dyadic
 * costs S and D are exact, and (sqrt 2 being irrational) the same for every
 * path of the least cost, whatever order A* or jump point search found its
 * steps in. Only where every step is a cell's price times 1 or sqrt 2:
 * hex boards, large units with costs or rules, moves and links and
 * any-angle paths report the sum their search added (g). The path runs
 * backwards by the stamps' directions: turned around to be summed from the
 * start, and back again, O(length), nothing allocated. */
static double canonical_cost(AstarSearch *s, uint32_t end, size_t steps)
{
    uint16_t *stamp = s->stamp;
    uint32_t cell = end, next;
    unsigned d = stamp[end] & STAMP_DIR_MASK, back;
    double straight = 0.0, diagonal = 0.0;
    size_t k;                                  /* steps counted: never past the start */

    if (s->base->hex || s->large || s->moved || s->theta)
        return s->g[end];
    for (k = 0; k < steps; k++) {              /* each cell names its way on */
        uint32_t p = (uint32_t)((long)cell - s->offset[d]);
        unsigned pd = stamp[p] & STAMP_DIR_MASK;
        stamp[p] = (uint16_t)((stamp[p] & ~STAMP_DIR_MASK) | d);
        cell = p;
        d = pd;
    }
    back = d;                                  /* the start's own bits */
    for (k = 0; k < steps; k++) {
        d = stamp[cell] & STAMP_DIR_MASK;
        next = (uint32_t)((long)cell + s->offset[d]);
        if (d < 4)
            straight += entry_price(s, next);
        else
            diagonal += entry_price(s, next);
        stamp[cell] = (uint16_t)((stamp[cell] & ~STAMP_DIR_MASK) | back);
        back = d;
        cell = next;
    }
    return straight + SQRT2 * diagonal;
}

/* The steps from the start to cell by the parents (a cell's, not a jump's),
 * those taken diagonally counted in *diagonal (square boards). */
static size_t steps_from_start(const AstarSearch *s, uint32_t cell, size_t *diagonal)
{
    size_t steps = 0;
    while (cell != s->start) {
        *diagonal += (s->stamp[cell] & STAMP_DIR_MASK) >= 4;
        cell = astar_search_parent(s, cell);
        steps++;
    }
    return steps;
}

/* price added k times from 0, as canonical_cost adds a path's prices. */
static double repeated_sum(double price, size_t k)
{
    double sum = 0.0;
    if (price == 1.0)
        return (double)k;                      /* exact */
    while (k-- > 0)
        sum += price;
    return sum;
}

/* Does every move of the path cost its one price, so that canonical_cost
 * is that price added once per straight and once per diagonal step? No
 * rule, every cell one cost, a square board searched cell by cell or by
 * jumps. */
static int uniform_prices(const AstarSearch *s)
{
    const AstarGrid *g = s->base;
    return !s->options.rule && !g->min_stale && g->min_count == (size_t)g->width * g->height
           && !(g->hex || s->large || s->moved || s->theta);
}

void astar_search_finish(AstarSearch *s, AstarStatus status, uint32_t end)
{
    size_t diagonal = 0, steps;

    s->status = status;
    s->end = end;
    steps = s->ran == ASTAR_ALGORITHM_JPS ? unfold_jumps(s, end, &diagonal)
                                          : steps_from_start(s, end, &diagonal);
    s->length = steps + 1;
    if (uniform_prices(s)) {   /* the same sums without walking the path twice more */
        double price = entry_price(s, end);
        s->cost = repeated_sum(price, steps - diagonal) + SQRT2 * repeated_sum(price, diagonal);
    } else {
        s->cost = canonical_cost(s, end, steps);
    }
}

int astar_search_within_max_cost(AstarSearch *s, uint32_t cell)
{
    size_t diagonal = 0;   /* not needed here */

    if (!s->options.bounded || s->g[cell] <= s->options.max_cost * (1.0 - BOUND_SLACK))
        return 1;
    return canonical_cost(s, cell, steps_from_start(s, cell, &diagonal)) <= s->options.max_cost;
}

void astar_search_note_closest(AstarSearch *s, uint32_t cell)
{
    double d = closeness(s, cell);
    if ((d < s->best_distance || (d == s->best_distance && s->g[cell] < s->best_g))
        && astar_search_within_max_cost(s, cell)) {
        s->best = cell;
        s->best_distance = d;
        s->best_g = s->g[cell];
    }
}

double astar_search_ask_move(AstarSearch *s, uint32_t u, uint32_t v, double cost)
{
    double c = s->options.move_rule(s->options.move_user, (uint32_t)search_cell_x(s, u) - 1,
                                    (uint32_t)search_cell_y(s, u) - 1,
                                    (uint32_t)search_cell_x(s, v) - 1,
                                    (uint32_t)search_cell_y(s, v) - 1, cost);
    return c;
}

double astar_search_ask_rule(AstarSearch *s, uint32_t cell)
{
    const AstarGrid *grid = s->base;   /* a large unit's query: not its layer */
    unsigned flags = 0;
    double c = s->options.rule(s->options.rule_user, (uint32_t)search_cell_x(s, cell) - 1,
                               (uint32_t)search_cell_y(s, cell) - 1,
                               grid->cost ? grid->cost[cell] : 1.0, &flags);
    if (c != c)
        return c;
    if (!(c > 0))
        c = INFINITY;                    /* the rule must give > 0: never a free step */
    if ((flags & ASTAR_RANGE_NO_STOP) && c != INFINITY)
        c = -c;
    s->rule_cost[cell] = c;
    s->rule_stamp[cell] = (uint16_t)search_gen(s);
    return c;
}

AstarStatus astar_search_status(const AstarSearch *s) { return s->status; }
AstarAlgorithm astar_search_algorithm(const AstarSearch *s) { return s->ran; }

uint32_t astar_search_end(const AstarSearch *s) { return s->end; }
uint32_t astar_search_start(const AstarSearch *s) { return s->start; }
double astar_search_cost(const AstarSearch *s) { return s->smoothed ? s->walk_cost : s->cost; }
size_t astar_search_length(const AstarSearch *s) { return s->smoothed ? s->walk_n : s->length; }
/* the whole query's work: its runs before restarts (search.c) and this one */
size_t astar_search_expanded(const AstarSearch *s) { return s->earlier_expanded + s->expanded; }
size_t astar_search_touched(const AstarSearch *s) { return s->earlier_touched + s->touched; }
size_t astar_search_restarts(const AstarSearch *s) { return s->restarts; }

/* The stamps hold the closed bit for this query's generation. A query that
 * expanded nothing may not have bumped the generation (start == goal, a goal
 * known to be unreachable), so its stamps could be an earlier query's. */
int astar_search_expanded_cell(const AstarSearch *s, uint32_t x, uint32_t y)
{
    if (!s->grid || s->expanded == 0 || x >= s->grid->width || y >= s->grid->height)
        return 0;
    return closed_now(s, (uint32_t)astar_index(s->grid, x, y));
}

void astar_search_record(AstarSearch *s, int on) { s->record_next = on != 0; }

size_t astar_search_recorded(const AstarSearch *s, const uint32_t **cells)
{
    if (cells)
        *cells = s->recorded;
    return s->recording ? s->recorded_size : 0;
}

AstarError astar_search_record_grow(AstarSearch *s, uint32_t cell)
{
    if (s->recorded_size == s->recorded_capacity) {
        size_t capacity = s->recorded_capacity ? 2 * s->recorded_capacity : 256;
        uint32_t *list = (uint32_t *)realloc(s->recorded, capacity * sizeof *list);
        if (!list)
            return ASTAR_ENOMEM;
        s->recorded = list;
        s->recorded_capacity = capacity;
    }
    s->recorded[s->recorded_size++] = cell;
    return ASTAR_OK;
}

uint32_t astar_search_parent(const AstarSearch *s, uint32_t cell)
{
    uint32_t dir = s->stamp[cell] & STAMP_DIR_MASK;
    if (s->theta)
        return s->parent[cell];              /* any-angle: the waypoint before */
    if (s->moved && s->via[cell] != MOVES_NO_VIA)
        return s->via[cell];                 /* entered by a link */
    return (uint32_t)((long)cell - s->offset[dir]);
}

uint32_t astar_cell_x(const AstarSearch *s, uint32_t cell)
{
    return (uint32_t)search_cell_x(s, cell) - 1;
}

uint32_t astar_cell_y(const AstarSearch *s, uint32_t cell)
{
    return (uint32_t)search_cell_y(s, cell) - 1;
}

uint32_t astar_search_stride(const AstarSearch *s) { return (uint32_t)s->grid->stride; }

void astar_path_end(const AstarSearch *s, AstarPathCursor *at)
{
    if (s->smoothed) {
        at->index = s->walk_n - 1;
        at->cell = s->walk[at->index];
        at->x = astar_cell_x(s, at->cell);
        at->y = astar_cell_y(s, at->cell);
        return;
    }
    at->cell = s->end;
    at->x = astar_cell_x(s, s->end);
    at->y = astar_cell_y(s, s->end);
}

void astar_path_back(const AstarSearch *s, AstarPathCursor *at)
{
    unsigned dir = s->stamp[at->cell] & STAMP_DIR_MASK;
    if (s->smoothed) {
        at->cell = s->walk[--at->index];
        at->x = astar_cell_x(s, at->cell);
        at->y = astar_cell_y(s, at->cell);
        return;
    }
    if (s->theta || (s->moved && s->via[at->cell] != MOVES_NO_VIA)) {
        at->cell = astar_search_parent(s, at->cell);   /* a waypoint, or entered by a link */
        at->x = astar_cell_x(s, at->cell);
        at->y = astar_cell_y(s, at->cell);
        return;
    }
    at->cell = (uint32_t)((long)at->cell - s->offset[dir]);
    at->x = (uint32_t)((int)at->x - ASTAR_DIR_DX[dir]);
    at->y = (uint32_t)((int)at->y - ASTAR_DIR_DY[dir]);
}

void astar_path_take(const AstarSearch *s, AstarPathCursor *at, uint32_t *xy, size_t count)
{
    uint32_t cell = at->cell, x = at->x, y = at->y;
    size_t k;

    if (count == 0)
        return;
    if (s->smoothed || s->theta || s->moved) {      /* the general walk, step by step */
        for (k = 0;; k++) {
            xy[2 * k] = at->x;
            xy[2 * k + 1] = at->y;
            if (k + 1 == count)
                return;
            astar_path_back(s, at);
        }
    }
    /* a walk of unit steps: each cell's stamp names the direction it came by */
    for (k = 0;; k++) {
        unsigned dir;
        xy[2 * k] = x;
        xy[2 * k + 1] = y;
        if (k + 1 == count)
            break;
        dir = s->stamp[cell] & STAMP_DIR_MASK;
        cell = (uint32_t)((long)cell - s->offset[dir]);
        x = (uint32_t)((int)x - ASTAR_DIR_DX[dir]);
        y = (uint32_t)((int)y - ASTAR_DIR_DY[dir]);
    }
    at->cell = cell;
    at->x = x;
    at->y = y;
}
