/*
 * Distance maps (issue 13): the bounded multi-source Dijkstra of range.c read
 * the other way round. A movement range costs the cells entered walking away
 * from its start; a distance map costs the cells entered walking to the
 * nearest source. So the flood starts at the sources with their values and
 * relaxes v from a settled u with dist(u) + step(v -> u) * cost(u): the
 * entered cell is u, the one settled already.
 *
 * Moves and links (issue 19): the flood runs over reversed moves, each
 * priced as walking it costs (dijkstra.h's DK_MOVES with DK_REVERSE: v's
 * override of the move v -> u, the links arriving at u, the move rule asked
 * about v -> u). The map follows its own snapshot of the grid's overrides
 * and links (m->moves, a flat copy: moves.h), never the grid's, so a rescan
 * (flee, blend) or a descent walks the moves the map was made with; a step
 * by a link is ASTAR_STEP_LINK, its target in m->via. Maps without moves
 * and without a move rule run the plain loops (FIFO, buckets, heap) as
 * before; with them, the heap (map_flood_moves).
 *
 * The map's arrays are the caller's (the Lua binding puts them in the map's
 * userdata); only the open list is scratch: the AstarRange's (scratch.h,
 * range_internal.h). Layer 6 (queries).
 * Arrays follow the grid's bordered layout, the border being cells that
 * cannot be entered, so a neighbour is cell + offset with no bounds check.
 */
#include <math.h>
#include <string.h>

#include "dijkstra.h"   /* board.h and the open lists; the loop is included below */
#include "grid_layout.h"
#include "hex_geometry.h"
#include "distance_internal.h"
#include "range_internal.h"

static int starts(AstarDistanceMap *m, double max_cost, AstarMoveRule rule, void *user);

/* Does step byte st give a cell a value: a cell of the map, or a start cell
 * with a step? */
static int has_value(unsigned st)
{
    return (st & ASTAR_STEP_MEMBER)
           || ((st & ASTAR_STEP_START) && (st & ASTAR_STEP_MASK) != ASTAR_STEP_NONE);
}

#define CELL_BYTES (2 * sizeof(double) + sizeof(uint32_t) + sizeof(uint8_t))

size_t astar_distance_bytes(uint32_t width, uint32_t height)
{
    size_t cells = ((size_t)width + 2) * ((size_t)height + 2);
    if (width > ASTAR_MAX_SIDE || height > ASTAR_MAX_SIDE || cells > SIZE_MAX / CELL_BYTES)
        return 0;
    return cells * CELL_BYTES;
}

void astar_distance_layout(AstarDistanceMap *m, void *memory, uint32_t width, uint32_t height,
                           AstarDiagonal diagonal)
{
    astar_distance_layout_unfilled(m, memory, width, height, diagonal);
    astar_distance_clear(m);
}

void astar_distance_layout_unfilled(AstarDistanceMap *m, void *memory, uint32_t width,
                                    uint32_t height, AstarDiagonal diagonal)
{
    m->width = width;
    m->height = height;
    m->stride = width + 2;
    m->cells = (size_t)m->stride * ((size_t)height + 2);
    m->diagonal = diagonal;
    m->dist = (double *)memory;
    m->cost = m->dist + m->cells;
    m->origin = (uint32_t *)(void *)(m->cost + m->cells);
    m->step = (uint8_t *)(m->origin + m->cells);
    m->hex = 0;
    m->size = 1;
    m->moves = NULL;
    m->via = NULL;
    m->reached = 0;
    m->grid_costs = 0;
    astar_distance_forget(m);   /* synced NULL: a run clears every cell first */
}

/* The rectangle of every cell, border included. */
static void whole_box(AstarDistanceMap *m)
{
    m->box[0] = m->box[1] = 0;
    m->box[2] = m->stride - 1;
    m->box[3] = m->height + 1;
}

void astar_distance_forget(AstarDistanceMap *m)
{
    m->synced = NULL;
    whole_box(m);
}

void astar_distance_clear(AstarDistanceMap *m)
{
    size_t i;

    m->reached = 0;
    m->grid_costs = 0;
    for (i = 0; i < m->cells; i++) {
        m->dist[i] = INFINITY;
        m->cost[i] = INFINITY;
        m->origin[i] = 0;
        m->step[i] = ASTAR_STEP_NONE;
    }
    astar_distance_forget(m);
}

/* Empties the map (its costs stay; the next run clears every cell). */
static void empty(AstarDistanceMap *m)
{
    size_t i;
    for (i = 0; i < m->cells; i++) {
        m->dist[i] = INFINITY;
        m->step[i] = ASTAR_STEP_NONE;
    }
    m->reached = 0;
    astar_distance_forget(m);
}

static uint32_t cell_number(const AstarDistanceMap *m, size_t i)
{
    return (uint32_t)((i / m->stride - 1) * m->width + (i % m->stride - 1));
}

/* A byte repeated over a word: a flag of 8 step bytes at once. */
#define BYTES8 UINT64_C(0x0101010101010101)

/* Is bordered cell i a cell of the grid (not its border)? */
static inline int inside(const AstarDistanceMap *m, size_t i)
{
    const size_t x = i % m->stride, y = i / m->stride;
    return x >= 1 && x <= m->width && y >= 1 && y <= m->height;
}

/* The entry cost of cell i, recorded the first time the flood looks at it
 * (a plain map has the grid's from its clearing): a wall's INFINITY, the
 * grid's cost, or the rule's answer (NAN: aborted). On a map of one-cell
 * units a cell closed there (a wall of the grid, issue 24, or closed by
 * the rule) is a start cell: a walk may start on it. */
static inline double entry(AstarDistanceMap *m, const AstarGrid *grid, size_t i,
                           AstarCellRule rule, void *user)
{
    double c = m->cost[i];
    unsigned flags = 0;

    if (c != c) {
        if (!grid->open[i])
            c = INFINITY;
        else if (!rule)
            c = grid->cost ? grid->cost[i] : 1.0;
        else
            c = rule(user, (uint32_t)(i % m->stride - 1), (uint32_t)(i / m->stride - 1),
                     grid->cost ? grid->cost[i] : 1.0, &flags);
        if (c != c)
            return c;
        m->cost[i] = c;
    }
    if (c == INFINITY && m->size == 1 && inside(m, i))
        m->step[i] |= ASTAR_STEP_START;
    return c;
}

/* Offers v (step bits sv) the walk through u at ng, its first step s: a
 * direction, or ASTAR_STEP_LINK (the link v -> u, u then kept in via[v]).
 * A lower value wins: 1, the caller queues v. An equal one takes the lower
 * direction (the tie order nextStep documents; a direction before a link, a
 * link of lower target before another), unless v is a source. The map's
 * arrays come as arguments: through m, every byte stored to step would make
 * the compiler load them again. via is NULL (a constant there) in the
 * floods without links, which so pay nothing for them. */
static inline int offer(double *dist, uint8_t *step, uint32_t *origin, uint32_t *via,
                        uint32_t u, uint32_t v, unsigned sv, double ng, unsigned s)
{
    if (ng < dist[v]) {
        dist[v] = ng;
        step[v] = (uint8_t)((sv & ~ASTAR_STEP_MASK) | s);
        if (via && s == ASTAR_STEP_LINK)
            via[v] = u;
        origin[v] = origin[u];
        return 1;
    }
    if (ng == dist[v] && (sv & ASTAR_STEP_MASK) != ASTAR_STEP_END
        && (via && s == ASTAR_STEP_LINK
                ? (sv & ASTAR_STEP_MASK) == ASTAR_STEP_LINK && u < via[v]
                : s < (sv & ASTAR_STEP_MASK))) {
        step[v] = (uint8_t)((sv & ~ASTAR_STEP_MASK) | s);
        if (via && s == ASTAR_STEP_LINK)
            via[v] = u;
        origin[v] = origin[u];
    }
    return 0;
}

/* ---- large units (issue 14): maps over the top-left cells of k x k units ----
 *
 * A position is the unit's top-left cell (bordered index); it is allowed when
 * its k x k cells are in the grid and can be entered. The flood relaxes v
 * from a settled u (the walk steps v -> u), so the step's price is the
 * highest entry cost of the cells u covers and v does not; v's own cells that
 * u does not cover are the ones still to check (u's are known to be
 * enterable). u is allowed, so those cells are at most one row or column
 * past u's: in the grid or on its border (which cannot be entered), never
 * beyond the arrays. */

/* Position v = u + direction d beside an allowed position u: 1 when the
 * cells of v not covered by u can be entered, asking rule about those not
 * asked yet (row by row, stopping at the first that cannot be entered); 0
 * when one cannot; -1 when the rule stopped the flood. grid NULL: from the
 * known costs only (a cell never asked counts as one that can be entered).
 * fit (no rule): the grid's layer of the positions where the unit fits. */
static int sized_open(AstarDistanceMap *m, const AstarGrid *grid, const AstarGrid *fit,
                      size_t u, int d, AstarCellRule rule, void *user)
{
    const size_t v = (size_t)((long)u + BOARD_DY[d] * (long)m->stride + BOARD_DX[d]);
    AstarNewCells cells;
    size_t c;

    if (fit)
        return fit->open[v] != 0;
    astar_new_cells(&cells, v, BOARD_DX[d], BOARD_DY[d], m->size, m->stride);
    while (astar_new_cell(&cells, &c)) {
        double e = m->cost[c];
        if (e != e) {
            if (!grid)
                continue;
            e = entry(m, grid, c, rule, user);
            if (e != e)
                return -1;
        }
        if (e == INFINITY)
            return 0;
    }
    return 1;
}

/* The price of the step from p by direction d (both positions allowed): the
 * highest entry cost among the cells the step newly covers. */
static double sized_price(const AstarDistanceMap *m, size_t p, int d)
{
    const size_t q = (size_t)((long)p + BOARD_DY[d] * (long)m->stride + BOARD_DX[d]);
    AstarNewCells cells;
    size_t c;
    double worst = 0.0;

    astar_new_cells(&cells, q, BOARD_DX[d], BOARD_DY[d], m->size, m->stride);
    while (astar_new_cell(&cells, &c))
        if (m->cost[c] > worst)
            worst = m->cost[c];
    return worst;
}

/* Source position c: 1 when the unit fits there (every cell asked, row by
 * row, until one cannot be entered), 0 when not, -1 when the rule stopped. */
static int sized_source(AstarDistanceMap *m, const AstarGrid *grid, size_t c,
                        AstarCellRule rule, void *user)
{
    const long stride = (long)m->stride, k = (long)m->size;
    const long cx = (long)c % stride, cy = (long)c / stride;
    long x, y;

    if (cx - 1 + k > (long)m->width || cy - 1 + k > (long)m->height)
        return 0;
    for (y = cy; y < cy + k; y++)
        for (x = cx; x < cx + k; x++) {
            size_t i = (size_t)(y * stride + x);
            double e = m->cost[i];
            if (e != e) {
                e = entry(m, grid, i, rule, user);
                if (e != e)
                    return -1;
            }
            if (e == INFINITY)
                return 0;
        }
    return 1;
}

/* Clears the closed bits a flood left, and the start bits dk_look gave
 * the border (it marks every closed cell it looks at, with no test of
 * where it is): both are in m->box. */
static void unclose(AstarDistanceMap *m)
{
    const uint8_t border = (uint8_t)~(ST_CLOSED | ASTAR_STEP_START);
    uint32_t y;
    for (y = m->box[1]; y <= m->box[3]; y++) {
        uint8_t *row = m->step + (size_t)y * m->stride;
        const uint8_t keep = y == 0 || y == m->height + 1 ? border : (uint8_t)~ST_CLOSED;
        const uint64_t keep8 = BYTES8 * keep;
        uint8_t *p = row + m->box[0], *end = row + m->box[2] + 1;
        for (; end - p >= 8; p += 8) {      /* 8 cells a word */
            uint64_t w;
            memcpy(&w, p, sizeof w);
            w &= keep8;
            memcpy(p, &w, sizeof w);
        }
        for (; p < end; p++)
            *p &= keep;
        if (m->box[0] == 0)
            row[0] &= border;
        if (m->box[2] == m->stride - 1)
            row[m->stride - 1] &= border;
    }
}

/* ---- the flood: dijkstra.h's loop with distance-map hooks --------------- */

/* One flood: the map's arrays (as locals, so a byte stored to step does not
 * make the compiler load them again), the grid (NULL: a rescan, over the
 * cells already in the map, with their known costs) and the rule. */
typedef struct {
    AstarDistanceMap *m;
    double *dist, *cost;
    uint8_t *step;
    uint32_t *origin;
    uint32_t *via;           /* the link steps' targets: NULL without links (offer) */
    const AstarGrid *grid;
    const AstarGrid *fit;    /* BOARD_LARGE, no rule: the positions where the unit fits */
    AstarCellRule rule;
    void *user;
    double entered;          /* the entry cost of the cell being expanded */
    const struct AstarMoves *moves;   /* moves and links (DK_MOVES): the map's snapshot */
    AstarMoveRule move_rule; /* the query's move rule, or NULL */
    void *move_user;
    int track;               /* keep in box the rectangle of the cells settled */
    uint32_t box[4];
    AstarCellList *settled;  /* a repair's: every cell settled, in order (NULL: none) */
    int nomem;               /* settled could not grow */
    size_t left;             /* DK_SLICE: the cells the slice may still settle */
} MapQuery;

static inline int dk_settle(MapQuery *q, const BoardKind kind, uint32_t u, double *g)
{
    unsigned su = q->step[u];

    (void)kind;
    if (su & ST_CLOSED)
        return 0;                                      /* a stale duplicate */
    q->step[u] = (uint8_t)(su | ST_CLOSED | ASTAR_STEP_MEMBER);
    q->m->reached++;
    if (q->track) {
        const uint32_t x = u % q->m->stride, y = u / q->m->stride;
        q->box[0] = x < q->box[0] ? x : q->box[0];
        q->box[1] = y < q->box[1] ? y : q->box[1];
        q->box[2] = x > q->box[2] ? x : q->box[2];
        q->box[3] = y > q->box[3] ? y : q->box[3];
    }
    if (q->settled && astar_cell_list_push(q->settled, u) != ASTAR_OK)
        q->nomem = 1;
    q->entered = q->cost[u];
    *g = q->dist[u];
    return 1;
}

/* The walk steps v -> u, so the step is priced by what it enters: u's entry
 * cost, or for a large unit the highest of the cells u covers and v does
 * not. v itself must be enterable (its rule asked the first time).
 * Forced inline: the loop is compiled many times over (sliced builds too),
 * and a call per look would cost every plain flood a third more. */
DK_INLINE int dk_look(MapQuery *q, const Board *b, const BoardKind kind,
                      const unsigned traits, uint32_t u, uint32_t v, unsigned d, double *price)
{
    unsigned sv = q->step[v];

    (void)b;
    (void)u;
    if (sv & ST_CLOSED)
        return DK_PASS;
    if (kind == BOARD_LARGE) {
        int ok = sized_open(q->m, q->grid, q->fit, u, (int)d, q->rule, q->user);
        if (ok <= 0)
            return ok < 0 ? DK_ABORT : DK_BLOCKED;
        if ((traits & DK_RESCAN) && !(sv & ASTAR_STEP_MEMBER))
            return DK_PASS;
        *price = sized_price(q->m, v, BOARD_OPPOSITE[d]);
        return DK_OPEN;
    }
    if (traits & DK_RESCAN) {          /* a cell never asked is no wall */
        if (q->cost[v] == INFINITY)
            return DK_BLOCKED;
        if (!(sv & ASTAR_STEP_MEMBER))
            return DK_PASS;
    } else {
        double c = q->cost[v];
        if (!(traits & DK_KNOWN) && c != c) {   /* looked at the first time: recorded */
            c = entry(q->m, q->grid, v, q->rule, q->user);
            if (c != c)
                return DK_ABORT;
        }
        if (c == INFINITY) {           /* closed, looked at: a start cell (unclose: the border's) */
            q->step[v] = (uint8_t)(sv | ASTAR_STEP_START);
            return DK_BLOCKED;
        }
    }
    *price = q->entered;
    return DK_OPEN;
}

/* The link v -> u (the flood goes backwards: u is settled, the walk starts
 * at v): taken when v can be in the map, as a board move's v: enterable,
 * or for a large unit the position fits (every cell it covers asked); a
 * rescan stays among the map's cells. The link's cost is its price. */
static inline int dk_look_link(MapQuery *q, const Board *b, const BoardKind kind, uint32_t u,
                               uint32_t v)
{
    unsigned sv = q->step[v];
    double c;
    int ok;

    (void)b;
    (void)u;
    if (sv & ST_CLOSED)
        return DK_PASS;
    if (!q->grid)                                   /* a rescan: members can be entered */
        return (sv & ASTAR_STEP_MEMBER) ? DK_OPEN : DK_PASS;
    if (kind == BOARD_LARGE) {
        ok = q->fit ? q->fit->open[v] != 0 : sized_source(q->m, q->grid, v, q->rule, q->user);
        return ok < 0 ? DK_ABORT : ok ? DK_OPEN : DK_BLOCKED;
    }
    c = q->cost[v];
    if (c != c) {
        c = entry(q->m, q->grid, v, q->rule, q->user);
        if (c != c)
            return DK_ABORT;
    }
    return c == INFINITY ? DK_BLOCKED : DK_OPEN;
}

/* The first step of the walk from v that the flood took by direction d
 * from u (dk_relax's d: DK_LINK, 8, for a link): the way back. */
static const uint8_t MAP_STEP[9] = {1, 0, 3, 2, 7, 6, 5, 4, ASTAR_STEP_LINK};

/* Member u of a plain map none of whose moves out fits the budget: a run
 * looks at its neighbours all the same, so the walls among them are start
 * cells, as dk_look marks them (unclose: the border's). */
static inline void mark_walls_beside(MapQuery *q, const Board *b, const BoardKind kind,
                                     uint32_t u)
{
    const unsigned *dirs = NULL;
    const int n = board_moves(b, kind, u, &dirs);
    int k;

    for (k = 0; k < n; k++) {
        const uint32_t v = (uint32_t)((long)u + b->off[kind == BOARD_HEX ? dirs[k] : (unsigned)k]);
        if (q->cost[v] == INFINITY)
            q->step[v] |= ASTAR_STEP_START;
    }
}

static inline int dk_relax(MapQuery *q, uint32_t u, uint32_t v, unsigned d, double g)
{
    return offer(q->dist, q->step, q->origin, q->via, u, v, q->step[v], g, MAP_STEP[d]);
}

#define DK_QUERY MapQuery
#define DK_WALL(q, c) ((q)->cost[c] == INFINITY)
#define DK_PRICE(q) ((q)->entered)
#define DK_CORNER_FIRST 0   /* a diagonal cell is asked before the corner rule looks */
#define DK_REVERSE 1        /* the walk goes v -> u: the moves asked about are v's */
#define DK_PAST_BUDGET(q, b, kind, u) mark_walls_beside(q, b, kind, u)
#define DK_SLICE_LEFT(q) ((q)->left)
#include "dijkstra.h"

/* The query of one flood. */
static inline void map_query(MapQuery *q, AstarDistanceMap *m, const AstarGrid *grid,
                             const AstarGrid *fit, AstarCellRule rule, void *user,
                             AstarMoveRule move_rule, void *move_user, uint32_t *via)
{
    q->m = m;
    q->dist = m->dist;
    q->cost = m->cost;
    q->step = m->step;
    q->origin = m->origin;
    q->via = via;
    q->grid = grid;
    q->fit = fit;
    q->rule = rule;
    q->user = user;
    q->moves = m->moves;
    q->move_rule = move_rule;
    q->move_user = move_user;
    q->track = 0;
    q->settled = NULL;
    q->nomem = 0;
}

/* map_flood's loops over moves and links (issue 19): the heap, no
 * DK_KNOWN. A function apart, taking no local of map_flood's by address:
 * map_flood's own loops keep their locals in registers. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int map_flood_moves(AstarDistanceMap *m, const AstarGrid *grid, const AstarGrid *fit,
                           AstarCellRule rule, void *user, AstarMoveRule move_rule,
                           void *move_user, OpenList open_copy, BoardKind kind, unsigned traits,
                           double max_cost)
{
    OpenList *open = &open_copy;
    const unsigned mt = (traits & DK_RESCAN) | DK_MOVES;
    MapQuery q;
    Board b;

    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    map_query(&q, m, grid, fit, rule, user, move_rule, move_user,
              astar_distance_moves_linked(m->moves) ? m->via : NULL);
    if (kind == BOARD_SQUARE4)
        return dijkstra_loop(&q, &b, BOARD_SQUARE4, open, OPEN_HEAP, mt, max_cost);
    if (kind == BOARD_SQUARE8)
        return dijkstra_loop(&q, &b, BOARD_SQUARE8, open, OPEN_HEAP, mt, max_cost);
    if (kind == BOARD_HEX)
        return dijkstra_loop(&q, &b, BOARD_HEX, open, OPEN_HEAP, mt, max_cost);
    return dijkstra_loop(&q, &b, BOARD_LARGE, open, OPEN_HEAP, mt, max_cost);
}

/* m->box after a flood: the rectangle of the cells settled and the sources
 * (box), grown by what a run writes around them (the cells a step asks
 * about, a start cell beside a member: a unit's size and one more). */
static void grow_box(AstarDistanceMap *m, const uint32_t *box)
{
    const uint32_t k = m->size + 1;

    if (box[0] > box[2]) {                  /* nothing: an empty rectangle */
        m->box[0] = m->box[1] = 1;
        m->box[2] = m->box[3] = 0;
        return;
    }
    m->box[0] = box[0] > k ? box[0] - k : 0;
    m->box[1] = box[1] > k ? box[1] - k : 0;
    m->box[2] = box[2] + k < m->stride - 1 ? box[2] + k : m->stride - 1;
    m->box[3] = box[3] + k < m->height + 1 ? box[3] + k : m->height + 1;
}

/* The flood from what is in the open list, the loop compiled for the map's
 * board and the open list chosen (with moves or a move rule: the heap,
 * map_flood_moves): a rule stopping it leaves the map empty. With track
 * (a bounded map without moves), m->box holds the sources' rectangle and
 * becomes what the flood wrote (grow_box); else every cell. */
static AstarError map_flood(AstarDistanceMap *m, const AstarGrid *grid, const AstarGrid *fit,
                            AstarCellRule rule, void *user, AstarMoveRule move_rule,
                            void *move_user, const OpenList *open_list, OpenKind open_kind,
                            double max_cost, int track, AstarCellList *settled, int *aborted)
{
    OpenList open_copy = *open_list, *open = &open_copy;   /* a local: kept in registers */
    MapQuery q;
    Board b;
    BoardKind kind = m->hex ? BOARD_HEX : m->size > 1 ? BOARD_LARGE
                     : m->diagonal == ASTAR_DIAGONAL_NEVER ? BOARD_SQUARE4 : BOARD_SQUARE8;
    unsigned traits = grid ? 0u : DK_RESCAN;
    int done;

    memcpy(q.box, m->box, sizeof q.box);
    whole_box(m);
    if (m->moves || move_rule) {
        done = map_flood_moves(m, grid, fit, rule, user, move_rule, move_user, *open_list, kind,
                               traits, max_cost);
        goto end;
    }
    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    map_query(&q, m, grid, fit, rule, user, NULL, NULL, NULL);
    q.track = track;
    q.settled = settled;
    if (open_kind == OPEN_FIFO)
        done = dijkstra_loop(&q, &b, BOARD_SQUARE4, open, OPEN_FIFO, DK_KNOWN, max_cost);
    else if (open_kind == OPEN_BUCKETS)
        done = kind == BOARD_SQUARE4
                   ? dijkstra_loop(&q, &b, BOARD_SQUARE4, open, OPEN_BUCKETS, DK_KNOWN, max_cost)
                   : dijkstra_loop(&q, &b, BOARD_SQUARE8, open, OPEN_BUCKETS, DK_KNOWN, max_cost);
    else if (kind == BOARD_SQUARE4)
        done = dijkstra_loop(&q, &b, BOARD_SQUARE4, open, OPEN_HEAP, traits, max_cost);
    else if (kind == BOARD_SQUARE8)
        done = dijkstra_loop(&q, &b, BOARD_SQUARE8, open, OPEN_HEAP, traits, max_cost);
    else if (kind == BOARD_HEX)
        done = dijkstra_loop(&q, &b, BOARD_HEX, open, OPEN_HEAP, traits, max_cost);
    else
        done = dijkstra_loop(&q, &b, BOARD_LARGE, open, OPEN_HEAP, traits, max_cost);
    if (track && done == DK_DONE)
        grow_box(m, q.box);
    if (q.nomem && done == DK_DONE)
        done = DK_NOMEM;
end:
    if (done == DK_ABORTED) {
        empty(m);
        *aborted = 1;
    }
    unclose(m);
    return done == DK_NOMEM ? ASTAR_ENOMEM : ASTAR_OK;
}

AstarError astar_distance_flood(AstarDistanceMap *m, const AstarGrid *grid, const OpenList *open,
                                double max_cost, int track, AstarCellList *settled)
{
    int aborted = 0;
    return map_flood(m, grid, NULL, NULL, NULL, NULL, NULL, open, OPEN_HEAP, max_cost, track,
                     settled, &aborted);
}

/* The open list for a flood of m from sources of one value or not (same):
 * - when every step costs 1 (4 directions, no rule, unit costs) and the
 *   sources share one value, a FIFO queue: cells settle level by level, the
 *   order of their values, so the result is the heap's exactly (ties
 *   included: every cell one level down has relaxed a cell before it is
 *   taken); the queue is the heap's cell array, reserved for every cell;
 * - over the grid's entry costs (no rule) from sources of one value, a bucket
 *   queue: every step costs at least 2 * width (width is half the lowest
 *   entry cost), so a cell settled from bucket b (values [base + b * width,
 *   base + (b + 1) * width)) relaxes its neighbours into bucket b + 1 or
 *   later, rounding included, and no cell of a bucket can lower another of
 *   the same bucket: taken in any order, every cell is final when taken, and
 *   its parents (lower values, earlier buckets) were all taken before it, so
 *   the tie order gives the heap's result exactly. The nb buckets are used
 *   in a circle: a step spans at most nb - 2 of them;
 * - else the heap. */
static AstarError map_open(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                           AstarCellRule rule, int moves, int same, double base, double lo,
                           double hi, OpenList *open, OpenKind *kind)
{
    open_heap(open, &astar_range_open(scratch)->heap);
    *kind = OPEN_HEAP;
    if (rule || moves || m->hex || m->size > 1 || !same)
        return ASTAR_OK;
    if (!grid->cost && m->diagonal == ASTAR_DIAGONAL_NEVER) {
        AstarError e = heap_reserve(open->heap, m->cells);
        *kind = OPEN_FIFO;
        open->queue = open->heap->cell;   /* after the reserve: it may move */
        open->head = open->tail = 0;
        return e;
    }
    if (lo < INFINITY && 2.0 * BOARD_SQRT2 * hi / lo + 2.0 <= (double)ASTAR_MAX_BUCKETS) {
        size_t k;
        *kind = OPEN_BUCKETS;
        open->bucket = astar_range_open(scratch)->bucket;
        open->nb = (size_t)(2.0 * BOARD_SQRT2 * hi / lo) + 2;
        open->b = open->pending = 0;
        open->list = &open->bucket[0];
        open->base = base;
        open->width = lo / 2.0;
        for (k = 0; k < ASTAR_MAX_BUCKETS; k++)
            open->bucket[k].size = 0;
    }
    return ASTAR_OK;
}

/* May the map's walks end at source cell c? 1 yes, 0 no, -1 the rule stopped. */
static int source_fits(AstarDistanceMap *m, const AstarGrid *grid, size_t c, AstarCellRule rule,
                       void *user)
{
    double e;

    if (m->size > 1)
        return sized_source(m, grid, c, rule, user);
    e = entry(m, grid, c, rule, user);
    return e != e ? -1 : e != INFINITY;
}

AstarError astar_distance_run(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                               const AstarDistanceSource *sources, size_t n, double max_cost,
                               AstarCellRule rule, void *user, int *aborted)
{
    return astar_distance_run_moves(scratch, grid, m, sources, n, max_cost, rule, user, NULL,
                                    NULL, aborted);
}

/* ---- what a run clears (issue 24) -------------------------------------------
 *
 * A run starts from the cleared map of the grid: no values, and
 * - with rules, or moves on a map of one-cell units, no entry costs (NAN:
 *   the flood records each cell's as it looks at it, so a map encodes the
 *   costs of the cells it looked at and no others);
 * - else the grid's costs (a plain map: no call per look, its encoding
 *   derives the cells looked at from the steps, m->grid_costs; large
 *   units: the fit of a position reads cells no flood looks at).
 * Run again on the grid of its last run (m->synced), a map is that already
 * but in m->box, what the last run wrote, and at the cells changed since
 * (the grid's change log): those alone are cleared, so a bounded map costs
 * what it reaches, not the grid's size. */

/* Cell (x, y) (bordered) of a cleared map of grid: no value; the grid's
 * entry cost, or with `asked` none (NAN: recorded as the flood looks; on
 * large units only an open cell's, the rule's to ask). */
static inline void clear_cell(AstarDistanceMap *m, const AstarGrid *grid, uint32_t x, uint32_t y,
                              int asked)
{
    const size_t i = (size_t)y * m->stride + x;

    m->dist[i] = INFINITY;
    m->origin[i] = 0;
    m->step[i] = ASTAR_STEP_NONE;
    if (m->size == 1 && asked) {
        m->cost[i] = NAN;
        return;
    }
    if (grid->open[i]) {
        m->cost[i] = asked ? NAN : grid->cost ? grid->cost[i] : 1.0;
        return;
    }
    m->cost[i] = INFINITY;
}

/* Cells x0..x1 of the row starting at bordered cell `row`, as clear_cell
 * leaves them; with `bound`, *lo and *hi take in the grid's costs of its
 * open cells (for the bucket queue). The arrays in restrict locals: a
 * byte stored to step would otherwise make the compiler load all again.
 * With `costs_kept` the row's entry costs are the grid's already (a plain
 * map run again on its grid): only the values are cleared. */
static void clear_row(AstarDistanceMap *m, const AstarGrid *grid, size_t row, uint32_t x0,
                      uint32_t x1, int asked, int bound, int costs_kept, double *lo, double *hi)
{
    double *restrict dist = m->dist + row, *restrict cost = m->cost + row;
    uint32_t *restrict origin = m->origin + row;
    uint8_t *restrict step = m->step + row;
    const uint8_t *restrict open = grid->open + row;
    const double *restrict gcost = grid->cost ? grid->cost + row : NULL;
    const int none = m->size == 1 && asked;
    double l = *lo, h = *hi, c;
    uint32_t x;

    if (costs_kept) {
        for (x = x0; x <= x1; x++) {
            dist[x] = INFINITY;
            origin[x] = 0;
            step[x] = ASTAR_STEP_NONE;
        }
        return;
    }
    for (x = x0; x <= x1; x++) {
        dist[x] = INFINITY;
        origin[x] = 0;
        step[x] = ASTAR_STEP_NONE;
        if (!open[x]) {
            cost[x] = none ? NAN : INFINITY;
            continue;
        }
        c = gcost ? gcost[x] : 1.0;
        cost[x] = asked ? NAN : c;
        if (bound) {
            l = c < l ? c : l;
            h = c > h ? c : h;
        }
    }
    *lo = l;
    *hi = h;
}

/* Clears what the last run left (every cell unless m->synced is grid as
 * the change log still tells) and records the grid; *lo and *hi bound the
 * entry costs for the bucket queue (INFINITY, 0: unknown, the heap).
 * asked: the run records its costs as it looks (clear_cell). */
static void clear_for(AstarDistanceMap *m, const AstarGrid *grid, int asked, double *lo,
                      double *hi)
{
    uint32_t y, x0 = 0, y0 = 0, x1 = m->stride - 1, y1 = m->height + 1;
    const int kept = m->synced == grid && m->synced_rule == asked
                     && grid->version - m->synced_version <= ASTAR_CHANGE_LOG;

    *lo = INFINITY;
    *hi = 0;
    if (kept) {
        uint64_t v;
        x0 = m->box[0], y0 = m->box[1], x1 = m->box[2], y1 = m->box[3];
        for (v = m->synced_version + 1; v <= grid->version; v++) {
            uint32_t i = grid->changes[v % ASTAR_CHANGE_LOG];
            clear_cell(m, grid, i % m->stride, i / m->stride, asked);
        }
        if (!grid->cost && !asked)
            *lo = *hi = 1.0;
    }
    /* a plain run writes no cost: kept, the map holds the grid's already */
    for (y = y0; y <= y1; y++)
        clear_row(m, grid, (size_t)y * m->stride, x0, x1, asked, !kept, kept && !asked, lo, hi);
    m->synced = grid;
    m->synced_version = grid->version;
    m->synced_rule = asked;
    m->grid_costs = m->size == 1 && !asked;
    m->reached = 0;
    m->box[0] = m->box[1] = UINT32_MAX;     /* the run's rectangle: none yet */
    m->box[2] = m->box[3] = 0;
}

/* Adds bordered cell i to m->box. */
static void box_add(AstarDistanceMap *m, size_t i)
{
    const uint32_t x = (uint32_t)(i % m->stride), y = (uint32_t)(i / m->stride);
    m->box[0] = x < m->box[0] ? x : m->box[0];
    m->box[1] = y < m->box[1] ? y : m->box[1];
    m->box[2] = x > m->box[2] ? x : m->box[2];
    m->box[3] = y > m->box[3] ? y : m->box[3];
}

/* The layer of the positions where a unit of m's size fits (clearance.c),
 * when the flood reads it (large units, no rule); else NULL. */
static AstarError fit_layer(AstarDistanceMap *m, const AstarGrid *grid, AstarCellRule rule,
                            const AstarGrid **fit)
{
    AstarGrid *layer;
    uint32_t used;

    *fit = NULL;
    if (m->size <= 1 || rule)
        return ASTAR_OK;
    if (astar_grid_layer((AstarGrid *)grid, m->size, &layer, &used) != ASTAR_OK)
        return ASTAR_ENOMEM;
    *fit = layer;
    return ASTAR_OK;
}

/* Gives the n sources their values in the cleared map m and queues them on
 * open: DK_DONE, DK_ABORTED (the rule stopped) or DK_NOMEM. */
static int seed_sources(AstarDistanceMap *m, const AstarGrid *grid, OpenList *open,
                        OpenKind kind, const AstarDistanceSource *sources, size_t n,
                        double max_cost, AstarCellRule rule, void *user)
{
    size_t i;

    for (i = 0; i < n; i++) {
        size_t c = astar_index(grid, sources[i].x, sources[i].y);
        double v = sources[i].value;
        int fits;

        box_add(m, c);                      /* asked about: written */
        m->step[c] |= ST_SOURCE;            /* looked at (a plain map's encoding) */
        fits = source_fits(m, grid, c, rule, user);
        if (fits < 0)
            return DK_ABORTED;
        if (!fits || !(v <= max_cost) || !(v < m->dist[c]))
            continue;
        m->dist[c] = v;
        m->step[c] = ASTAR_STEP_END;
        m->origin[c] = (uint32_t)i;
        if (open_push(open, kind, v, (uint32_t)c) != ASTAR_OK)
            return DK_NOMEM;
    }
    return DK_DONE;
}

AstarError astar_distance_run_moves(AstarRange *scratch, const AstarGrid *grid,
                                     AstarDistanceMap *m, const AstarDistanceSource *sources,
                                     size_t n, double max_cost, AstarCellRule rule, void *user,
                                     AstarMoveRule move_rule, void *move_user, int *aborted)
{
    const AstarGrid *fit = NULL;
    const int track = max_cost < INFINITY && !m->moves && !move_rule;
    OpenList open;
    OpenKind kind;
    AstarError e;
    size_t i;
    double lo, hi;
    int seeded;

    *aborted = 0;
    clear_for(m, grid, rule || (m->size == 1 && (m->moves || move_rule)), &lo, &hi);
    if (m->moves || move_rule)
        m->synced_rule |= 2;                /* no repair after: its walks took moves */
    if (fit_layer(m, grid, rule, &fit) != ASTAR_OK) {
        astar_distance_forget(m);
        return ASTAR_ENOMEM;
    }
    for (i = 1; i < n && sources[i].value == sources[0].value; i++)
        ;
    if (map_open(scratch, grid, m, rule, m->moves || move_rule, i >= n && n > 0,
                 n ? sources[0].value : 0, lo, hi, &open, &kind) != ASTAR_OK) {
        astar_distance_forget(m);
        return ASTAR_ENOMEM;
    }
    seeded = seed_sources(m, grid, &open, kind, sources, n, max_cost, rule, user);
    if (seeded == DK_ABORTED) {
        open_clear(&open, kind);
        empty(m);
        *aborted = 1;
        return ASTAR_OK;
    }
    if (seeded == DK_NOMEM) {
        astar_distance_forget(m);
        return ASTAR_ENOMEM;
    }
    e = map_flood(m, grid, fit, rule, user, move_rule, move_user, &open, kind, max_cost, track,
                  NULL, aborted);
    if (e != ASTAR_OK)
        astar_distance_forget(m);          /* half filled: clear every cell next time */
    /* the start cells the flood looked at (closed by the rule, walls): over m->box */
    if (e == ASTAR_OK && !*aborted && starts(m, max_cost, move_rule, move_user) < 0) {
        empty(m);
        *aborted = 1;
    }
    return e;
}

/* ---- a flood a slice at a time (issue 24; distance_slice.c) ------------------
 *
 * The run above cut in two: the seeding of the cleared map, then the heap's
 * flood by slices of settled cells, the closed bits kept between slices
 * (a cell popped again is a stale duplicate), the start cells after the
 * last. No moves, no move rule: the binding builds those whole. */

AstarError astar_distance_slice_seed(AstarDistanceMap *m, const AstarGrid *grid, Heap *heap,
                                     const AstarDistanceSource *sources, size_t n,
                                     double max_cost, AstarCellRule rule, void *user,
                                     int *aborted)
{
    OpenList open;
    double lo, hi;
    int seeded;

    *aborted = 0;
    clear_for(m, grid, rule != NULL, &lo, &hi);
    whole_box(m);                           /* unclose and the next run: every cell */
    open_heap(&open, heap);
    seeded = seed_sources(m, grid, &open, OPEN_HEAP, sources, n, max_cost, rule, user);
    if (seeded == DK_ABORTED) {
        heap_clear(heap);
        empty(m);
        *aborted = 1;
    }
    if (seeded == DK_NOMEM) {
        astar_distance_forget(m);
        return ASTAR_ENOMEM;
    }
    return ASTAR_OK;
}

AstarError astar_distance_rescan(AstarRange *scratch, AstarDistanceMap *m)
{
    OpenList open;
    int aborted = 0;
    size_t i;

    open_heap(&open, &astar_range_open(scratch)->heap);
    m->reached = 0;
    for (i = 0; i < m->cells; i++) {
        if (!(m->step[i] & ASTAR_STEP_MEMBER))
            continue;
        m->step[i] = ASTAR_STEP_MEMBER | ASTAR_STEP_END;
        m->origin[i] = cell_number(m, i);
        if (heap_push(open.heap, m->dist[i], (uint32_t)i) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    return map_flood(m, NULL, NULL, NULL, NULL, NULL, NULL, &open, OPEN_HEAP, INFINITY, 0, NULL,
                     &aborted);
}

size_t astar_distance_moves_bytes(const AstarGrid *grid)
{
    return astar_moves_any(grid) ? astar_moves_copy_bytes(grid->moves) : 0;
}

const struct AstarMoves *astar_distance_moves_copy(const AstarGrid *grid, void *memory)
{
    return astar_moves_copy(grid->moves, memory);
}

int astar_distance_moves_linked(const struct AstarMoves *moves)
{
    return moves && moves->nlinks > 0;
}

size_t astar_distance_via_bytes(const AstarDistanceMap *m)
{
    return m->cells * sizeof *m->via;
}


/* Does the move from cell (position) i to u enter a cell w closes? The
 * cells of u's footprint that i's does not cover (u alone for one cell). */
static int enters_closed(const AstarDistanceMap *m, const AstarDistanceWalk *w, size_t i,
                         size_t u)
{
    const long stride = (long)m->stride, k = (long)m->size;
    const long ix = (long)i % stride, iy = (long)i / stride;
    const long ux = (long)u % stride, uy = (long)u / stride;
    long x, y;

    if (!w || !w->closed)
        return 0;
    for (y = uy; y < uy + k; y++)
        for (x = ux; x < ux + k; x++)
            if (!(x >= ix && x < ix + k && y >= iy && y < iy + k)
                && w->closed(w->user, (uint32_t)(x - 1), (uint32_t)(y - 1)))
                return 1;
    return 0;
}

/* A move out of cell (position) i chosen by choose_move. */
typedef struct {
    double best;       /* value of the cell entered + the move's price */
    double price;
    size_t to;         /* the cell (position) entered */
    AstarMoveRule rule;   /* asked about each move (walking direction), or NULL */
    void *user;
    int aborted;       /* the rule answered NAN */
} MoveChoice;

/* The move i -> u priced *price by the grid, as the rule of c prices it: 0
 * when it is not taken (INFINITY, or NAN: c->aborted). */
static int ask_move(const AstarDistanceMap *m, MoveChoice *c, size_t i, size_t u, double *price)
{
    if (!c->rule)
        return 1;
    *price = c->rule(c->user, (uint32_t)(i % m->stride - 1), (uint32_t)(i / m->stride - 1),
                     (uint32_t)(u % m->stride - 1), (uint32_t)(u / m->stride - 1), *price);
    if (*price != *price)
        c->aborted = 1;
    return *price < INFINITY;
}

/* Among the moves out of cell (position) i on board kind `kind` to members
 * u with dist(u) < below whose cells w lets the walk enter (w NULL: all),
 * the first (E W S N SE SW NE NW, then links by target cell) minimising
 * dist(u) + price when that is below c->best (set by the caller, with
 * c->rule): its code (a direction or ASTAR_STEP_LINK), c filled;
 * ASTAR_STEP_END when none is, or when the rule stopped (c->aborted).
 * A step is priced by the cells it enters: the neighbour's entry cost, or
 * for a large unit the highest among the cells the step newly covers, then
 * m->moves' override. The corner rule reads the known costs (a cell never
 * asked counts as one that can be entered). */
static inline unsigned choose_move(const AstarDistanceMap *m, const Board *b,
                                   const BoardKind kind, size_t i, double below,
                                   const AstarDistanceWalk *w, MoveChoice *c)
{
    const unsigned *dirs = NULL;
    const int n = board_moves(b, kind, i, &dirs);
    int side[4] = {1, 1, 1, 1}, k;
    unsigned bs = ASTAR_STEP_END;

    if (board_has_corners(b, kind))
        for (k = 0; k < 4; k++)
            side[k] = kind == BOARD_LARGE
                          ? sized_open((AstarDistanceMap *)m, NULL, NULL, i, k, NULL, NULL)
                          : m->cost[(long)i + b->off[k]] != INFINITY;
    for (k = 0; k < n; k++) {
        unsigned d = kind == BOARD_HEX ? dirs[k] : (unsigned)k;
        size_t u = (size_t)((long)i + b->off[d]);
        double ng, step;

        if (!(m->step[u] & ASTAR_STEP_MEMBER) || !(m->dist[u] < below))
            continue;
        if (d >= 4 && board_has_corners(b, kind) && !board_corner_ok(b, (int)d, side))
            continue;
        step = board_step(kind, d, kind == BOARD_LARGE ? sized_price(m, i, (int)d) : m->cost[u]);
        if (!board_move_price(b, kind, m->moves, i, d, &step))   /* the walk's move: i's own */
            continue;
        if (c->rule && !ask_move(m, c, i, u, &step)) {   /* tested here: no call without one */
            if (c->aborted)
                return ASTAR_STEP_END;
            continue;
        }
        ng = m->dist[u] + step;
        if (ng < c->best && (!w || !enters_closed(m, w, i, u))) {
            c->best = ng;
            c->price = step;
            c->to = u;
            bs = d;
        }
    }
    if (m->moves && (m->moves->flags[i] & MOVES_OUT)) {
        const MovesLink *link;
        size_t nl = astar_moves_links(m->moves, i, 0, &link), j;
        for (j = 0; j < nl; j++) {                   /* by target: the first on a tie */
            double ng, price = link[j].cost;
            if (!(m->step[link[j].to] & ASTAR_STEP_MEMBER) || !(m->dist[link[j].to] < below))
                continue;
            if (!ask_move(m, c, i, link[j].to, &price)) {
                if (c->aborted)
                    return ASTAR_STEP_END;
                continue;
            }
            ng = m->dist[link[j].to] + price;
            if (ng < c->best && !enters_closed(m, w, i, link[j].to)) {
                c->best = ng;
                c->price = price;
                c->to = link[j].to;
                bs = ASTAR_STEP_LINK;
            }
        }
    }
    return bs;
}

/* One member's step: the neighbour it walks to, the member through which
 * its value is least (none when it is a source, or the least itself). */
static inline unsigned descend_step(AstarDistanceMap *m, const Board *b,
                                    const BoardKind kind, size_t i)
{
    MoveChoice c;
    unsigned bs;

    c.best = m->dist[i];
    c.rule = NULL;
    bs = choose_move(m, b, kind, i, INFINITY, NULL, &c);
    if (bs == ASTAR_STEP_LINK)
        m->via[i] = (uint32_t)c.to;
    return bs;
}

static BoardKind map_kind(const AstarDistanceMap *m)
{
    return m->hex ? BOARD_HEX : m->size > 1 ? BOARD_LARGE
           : m->diagonal == ASTAR_DIAGONAL_NEVER ? BOARD_SQUARE4 : BOARD_SQUARE8;
}

/* Start cell i of a map of one-cell units (ASTAR_STEP_START: a cell the
 * flood looked at that the rule closes or that is a wall of the grid)
 * takes the best move into the map (choose_move: least value + price, the
 * first on a tie; rule asked about each) when that is at most max_cost, as
 * if a unit stood there. -1 when the rule stopped. */
static inline int start_value(AstarDistanceMap *m, const Board *b, const BoardKind kind,
                              size_t i, double max_cost, AstarMoveRule rule, void *user)
{
    MoveChoice c;
    unsigned bs;

    c.best = INFINITY;
    c.rule = rule;
    c.user = user;
    c.aborted = 0;
    bs = choose_move(m, b, kind, i, INFINITY, NULL, &c);
    if (c.aborted)
        return -1;
    if (bs == ASTAR_STEP_END || !(c.best <= max_cost)) {
        m->step[i] = ASTAR_STEP_START | ASTAR_STEP_NONE;
        m->dist[i] = INFINITY;
        return 0;
    }
    m->step[i] = (uint8_t)(ASTAR_STEP_START | bs);
    m->dist[i] = c.best;
    m->origin[i] = m->origin[c.to];
    if (bs == ASTAR_STEP_LINK)
        m->via[i] = (uint32_t)c.to;
    return 0;
}

/* The start cells of a map of one-cell units (those beside the map are in
 * m->box), each valued by start_value. -1 when the rule stopped. */
static int starts_on(AstarDistanceMap *m, const BoardKind kind, double max_cost,
                     AstarMoveRule rule, void *user)
{
    Board b;
    uint32_t x, y;

    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    for (y = m->box[1]; y <= m->box[3]; y++)
        for (x = m->box[0]; x <= m->box[2]; x++) {
            const size_t i = (size_t)y * m->stride + x;
            if (x + 8 <= m->box[2] + 1) {   /* 8 cells a word: most have no start bit */
                uint64_t w;
                memcpy(&w, m->step + i, sizeof w);
                if (!(w & BYTES8 * ASTAR_STEP_START)) {
                    x += 7;
                    continue;
                }
            }
            if ((m->step[i] & ASTAR_STEP_START)
                && start_value(m, &b, kind, i, max_cost, rule, user) < 0)
                return -1;
        }
    return 0;
}

void astar_distance_start(AstarDistanceMap *m, size_t i, double max_cost)
{
    const BoardKind kind = map_kind(m);
    Board b;

    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    if (kind == BOARD_SQUARE4)
        (void)start_value(m, &b, BOARD_SQUARE4, i, max_cost, NULL, NULL);
    else if (kind == BOARD_SQUARE8)
        (void)start_value(m, &b, BOARD_SQUARE8, i, max_cost, NULL, NULL);
    else
        (void)start_value(m, &b, BOARD_HEX, i, max_cost, NULL, NULL);
}

BoardKind astar_distance_kind(const AstarDistanceMap *m) { return map_kind(m); }

static int starts(AstarDistanceMap *m, double max_cost, AstarMoveRule rule, void *user)
{
    BoardKind kind = map_kind(m);
    if (m->size > 1)
        return 0;
    if (kind == BOARD_HEX)
        return starts_on(m, BOARD_HEX, max_cost, rule, user);
    if (kind == BOARD_SQUARE4)
        return starts_on(m, BOARD_SQUARE4, max_cost, rule, user);
    return starts_on(m, BOARD_SQUARE8, max_cost, rule, user);
}

/* Rebuilds every member's step and origin from the values (a decoded map, or
 * one whose values a rescan changed): each walks to its best neighbour, and
 * its origin becomes itself (a rebuilt map does not know its sources' walks). */
static inline void descend_on(AstarDistanceMap *m, const BoardKind kind)
{
    Board b;
    size_t i;

    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    m->reached = 0;
    for (i = 0; i < m->cells; i++) {
        if (!(m->step[i] & ASTAR_STEP_MEMBER))
            continue;
        m->reached++;
        m->step[i] = (uint8_t)(ASTAR_STEP_MEMBER | descend_step(m, &b, kind, i));
        m->origin[i] = cell_number(m, i);
    }
}

int astar_distance_slice_flood(AstarDistanceMap *m, const AstarGrid *grid, Heap *heap,
                               double max_cost, AstarCellRule rule, void *user, size_t cells,
                               int *aborted, AstarError *e)
{
    const BoardKind kind = map_kind(m);
    const AstarGrid *fit;
    OpenList open;
    MapQuery q;
    Board b;
    int done;

    *aborted = 0;
    *e = fit_layer(m, grid, rule, &fit);
    if (*e != ASTAR_OK)
        return 0;
    open.heap = heap;                       /* as the last slice left it */
    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    map_query(&q, m, grid, fit, rule, user, NULL, NULL, NULL);
    q.left = cells;
    if (kind == BOARD_SQUARE4)
        done = dijkstra_loop(&q, &b, BOARD_SQUARE4, &open, OPEN_HEAP, DK_SLICE, max_cost);
    else if (kind == BOARD_SQUARE8)
        done = dijkstra_loop(&q, &b, BOARD_SQUARE8, &open, OPEN_HEAP, DK_SLICE, max_cost);
    else if (kind == BOARD_HEX)
        done = dijkstra_loop(&q, &b, BOARD_HEX, &open, OPEN_HEAP, DK_SLICE, max_cost);
    else
        done = dijkstra_loop(&q, &b, BOARD_LARGE, &open, OPEN_HEAP, DK_SLICE, max_cost);
    if (done == DK_NOMEM) {
        *e = ASTAR_ENOMEM;
        return 0;
    }
    if (done == DK_ABORTED) {
        heap_clear(heap);
        empty(m);
        *aborted = 1;
        return 0;
    }
    while (heap->size > 0 && (m->step[heap->cell[0]] & ST_CLOSED))
        heap_pop(heap);                     /* stale duplicates: nothing left to settle */
    if (heap->size > 0)
        return 0;                           /* more next slice */
    unclose(m);
    /* the start cells the flood looked at (closed by the rule, walls), as a run */
    if (starts(m, max_cost, NULL, NULL) < 0) {
        empty(m);
        *aborted = 1;
        return 0;
    }
    return 1;
}

void astar_distance_swap(AstarDistanceMap *a, AstarDistanceMap *b)
{
    AstarDistanceMap t = *a;

    a->dist = b->dist;
    a->cost = b->cost;
    a->origin = b->origin;
    a->step = b->step;
    a->reached = b->reached;
    a->synced = b->synced;
    a->synced_version = b->synced_version;
    a->synced_rule = b->synced_rule;
    a->grid_costs = b->grid_costs;
    memcpy(a->box, b->box, sizeof a->box);
    b->dist = t.dist;
    b->cost = t.cost;
    b->origin = t.origin;
    b->step = t.step;
    b->reached = t.reached;
    b->synced = t.synced;
    b->synced_version = t.synced_version;
    b->synced_rule = t.synced_rule;
    b->grid_costs = t.grid_costs;
    memcpy(b->box, t.box, sizeof b->box);
}

void astar_distance_descend(AstarDistanceMap *m)
{
    if (m->hex)
        descend_on(m, BOARD_HEX);
    else if (m->size > 1)
        descend_on(m, BOARD_LARGE);
    else if (m->diagonal == ASTAR_DIAGONAL_NEVER)
        descend_on(m, BOARD_SQUARE4);
    else
        descend_on(m, BOARD_SQUARE8);
}

int astar_distance_next(const AstarDistanceMap *m, uint32_t x, uint32_t y, uint32_t *nx,
                        uint32_t *ny)
{
    const size_t i = ((size_t)y + 1) * m->stride + x + 1;
    unsigned st = m->step[i], d = st & ASTAR_STEP_MASK;

    if (!(st & (ASTAR_STEP_MEMBER | ASTAR_STEP_START)) || (d >= 8 && d != ASTAR_STEP_LINK))
        return 0;
    if (d == ASTAR_STEP_LINK) {
        *nx = m->via[i] % m->stride - 1;
        *ny = m->via[i] / m->stride - 1;
        return 1;
    }
    *nx = (uint32_t)((long)x + BOARD_DX[d]);
    *ny = (uint32_t)((long)y + BOARD_DY[d]);
    return 1;
}

/* Is cell (position) (x, y) within w->near of a source: Manhattan in 4
 * directions, Chebyshev in 8, hex steps on a hex map (findPath's near)? */
static int near_source(const AstarDistanceMap *m, const AstarDistanceWalk *w, uint32_t x,
                       uint32_t y)
{
    size_t k;

    for (k = 0; k < w->nsources; k++) {
        const AstarDistanceSource *s = &w->sources[k];
        uint32_t dx = x > s->x ? x - s->x : s->x - x, dy = y > s->y ? y - s->y : s->y - y;
        if (m->hex ? hex_distance((AstarHexLayout)(m->hex - 1), x, y, s->x, s->y) <= w->near
                   : m->diagonal == ASTAR_DIAGONAL_NEVER ? (uint64_t)dx + dy <= w->near
                                                         : dx <= w->near && dy <= w->near)
            return 1;
    }
    return 0;
}

static unsigned walk_on(const AstarDistanceMap *m, const BoardKind kind,
                        const AstarDistanceWalk *w, size_t i, MoveChoice *c)
{
    Board b;
    board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
    c->best = INFINITY;
    c->rule = NULL;
    return choose_move(m, &b, kind, i, m->dist[i], w, c);
}

int astar_distance_walk_next(const AstarDistanceMap *m, const AstarDistanceWalk *w, uint32_t x,
                             uint32_t y, double spent, uint32_t *nx, uint32_t *ny,
                             double *price)
{
    const size_t i = ((size_t)y + 1) * m->stride + x + 1;
    BoardKind kind = map_kind(m);
    unsigned d = m->step[i] & ASTAR_STEP_MASK;
    MoveChoice c;

    if (w->has_near && near_source(m, w, x, y))
        return 0;
    if (!(m->step[i] & (ASTAR_STEP_MEMBER | ASTAR_STEP_START)) || d == ASTAR_STEP_END
        || d == ASTAR_STEP_NONE)
        return 0;
    /* the map's own step, priced as choose_move prices it */
    c.best = INFINITY;
    c.to = d == ASTAR_STEP_LINK ? m->via[i] : (size_t)((long)i + BOARD_DY[d] * (long)m->stride
                                                       + BOARD_DX[d]);
    if (enters_closed(m, w, i, c.to)) {
        d = kind == BOARD_HEX      ? walk_on(m, BOARD_HEX, w, i, &c)
            : kind == BOARD_LARGE  ? walk_on(m, BOARD_LARGE, w, i, &c)
            : kind == BOARD_SQUARE4 ? walk_on(m, BOARD_SQUARE4, w, i, &c)
                                    : walk_on(m, BOARD_SQUARE8, w, i, &c);
        if (d == ASTAR_STEP_END)
            return 0;
    } else if (d == ASTAR_STEP_LINK) {
        const MovesLink *link;
        size_t nl = astar_moves_links(m->moves, i, 0, &link), j;
        c.price = INFINITY;
        for (j = 0; j < nl; j++)
            if (link[j].to == c.to && link[j].cost < c.price)
                c.price = link[j].cost;
    } else {
        Board b;
        board_init(&b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0),
                   m->size);
        c.price = board_step(kind, d, kind == BOARD_LARGE ? sized_price(m, i, (int)d)
                                                         : m->cost[c.to]);
        board_move_price(&b, kind, m->moves, i, d, &c.price);
    }
    if (!(spent + c.price <= w->max_cost))
        return 0;
    *nx = (uint32_t)(c.to % m->stride - 1);
    *ny = (uint32_t)(c.to / m->stride - 1);
    *price = c.price;
    return 1;
}

/* ---- encoding ---------------------------------------------------------------
 *
 * Format version 1 (astar 2.0.0), every number little-endian:
 *
 *   offset  size  field
 *        0     8  magic "ASTARDMP"
 *        8     2  format version (1)
 *       10     1  diagonal mode (AstarDiagonal); with ASTAR_DISTANCE_HEX, the
 *                 hex layout (AstarHexLayout) instead
 *       11     1  flags (ASTAR_DISTANCE_DERIVED, ASTAR_DISTANCE_RULES,
 *                 ASTAR_DISTANCE_HEX: a hex board's map, ASTAR_DISTANCE_SIZED:
 *                 a map of large units, below)
 *       12     4  width
 *       16     4  height
 *       20     4  number of sources n
 *       24     8  maxCost (binary64)
 *       32  16 n  sources: x, y (4 bytes each, 0-based), value (binary64)
 *             C  step per cell (C = width * height, row by row): 0-7 the
 *                direction, 8 the walk ends here, 15 not in the map
 *           8 C  entry cost per cell (binary64; NaN: never asked; -inf: a start
 *                cell of a map of one-cell units, closed by the rules: issue 21,
 *                whose step, when it has one, is the step byte, and its value
 *                and origin are written with the members')
 *          12 M  per cell in the map or start cell with a step (M of them, row by row): value
 *                (binary64), origin (4 bytes)
 *             4  FNV-1a 32 of every byte before it
 *
 * A map of large units (size k > 1; issue 14) has flag ASTAR_DISTANCE_SIZED
 * and 4 bytes more right after the header (offset 32: k, from 2 to 65535),
 * the rest following them; the format version stays 1, a map of one cell is
 * written as before, and bytes without the flag decode as size 1. A member
 * position must fit (its k x k cells in the grid) and every cell it covers
 * must have a finite entry cost.
 *
 * A map that keeps move overrides or links (issue 19: made on a grid that
 * has some, or derived by flee or blend from such a map) has flag
 * ASTAR_DISTANCE_MOVES (16), set exactly then; its steps may then be 9 as
 * well (the first step is a link), and right before the checksum come the
 * moves it keeps and the targets of its link steps:
 *
 *             4  N, the number of overrides
 *          13 N  per override: cell (4 bytes, y * width + x of the move's
 *                source), direction (1 byte, astar.h's 0-7: E W S N SE SW
 *                NE NW), cost (binary64; 0 = the move is impossible);
 *                ordered by cell, then direction
 *             4  L, the number of one-way links
 *          16 L  per link: from cell (4), to cell (4), cost (binary64);
 *                ordered by from, then to (a two-way link is two)
 *           4 K  per cell whose step is 9 (K of them, row by row): the cell
 *                its link goes to (4 bytes, y * width + x)
 *
 * N and L are the grid format's moves section (encode.c), the grid's as the
 * map was made: N + L > 0; an override's move goes to a board neighbour in
 * the grid (one of the six of the cell's row or column parity on a hex
 * map); a link joins two distinct cells; costs are in (0, 1e15] (but an
 * override's 0). A step 9's cell has a link to its target, which is in the
 * map. Bytes without the flag (every map made before) decode as before.
 *
 * Format version 2 (issue 24: a map handed to a thread costs well under
 * building it) is written; version 1 (2.0.0) still decodes. Version 2 is
 * version 1 but for:
 *   - byte 9: the width in bytes of an origin, 0 (every origin is 0: one
 *     source), 1, 2 or 4, the least that holds the largest;
 *   - the entry costs: 2 bytes P, then, when 1 <= P <= 256, the P distinct
 *     costs (binary64, in the order the cells first show them, NaN as one
 *     bit pattern) and one byte per cell, the index of its cost; P = 0: the
 *     8 C bytes of version 1 (more than 256 distinct costs);
 *   - the values: the M values (binary64) first, then the M origins in that
 *     width;
 *   - the checksum: Adler-32 (RFC 1950) of every byte before it, which a
 *     machine (and the pure-Lua backend) computes with additions only.
 * Since issue 24 a map of one-cell units has the entry costs of the cells
 * its flood looked at only (the members, their neighbours, the sources; NaN
 * for the others, with or without rules), and a wall it looked at is a
 * start cell (-inf) as a cell closed by the rules is: both backends write
 * the same bytes. Older bytes decode as they are.
 */
#define DM_MAGIC "ASTARDMP"
#define DM_HEADER 32u
#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v & 0xff);
    p[1] = (unsigned char)((v >> 8) & 0xff);
    p[2] = (unsigned char)((v >> 16) & 0xff);
    p[3] = (unsigned char)((v >> 24) & 0xff);
}

static void put_f64(unsigned char *p, double d)
{
    uint64_t v;
    if (d != d)
        v = UINT64_C(0x7ff8000000000000);          /* one NaN: canonical bytes */
    else
        memcpy(&v, &d, sizeof v);
    put_u32(p, (uint32_t)(v & 0xffffffffu));
    put_u32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline double get_f64(const unsigned char *p)
{
    uint64_t v = (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t hash = FNV_OFFSET;
    size_t i;
    for (i = 0; i < n; i++)
        hash = (hash ^ p[i]) * FNV_PRIME;
    return hash;
}

static uint64_t fixed_size(uint64_t cells, uint64_t n)
{
    return DM_HEADER + 16 * n + 9 * cells + 4;
}

#define DM_VERSION 2u      /* written; version 1 still decodes */
#define DM_PALETTE 256u    /* the most distinct costs written as a palette */
#define DM_SLOTS 1024u     /* the palette's hash slots (a power of 2) */
#define ADLER_MOD 65521u
#define ADLER_BLOCK 5552u  /* the most bytes before b can overflow 32 bits */

/* Adler-32 (version 2's checksum): two sums, additions only. */
static uint32_t adler32(const unsigned char *p, size_t n)
{
    uint32_t a = 1, b = 0;
    while (n > 0) {
        size_t k = n < ADLER_BLOCK ? n : ADLER_BLOCK;
        n -= k;
        for (; k >= 8; k -= 8, p += 8) {   /* 8 bytes at once: b gains 8a and a weighted sum */
            b += 8 * a + 8u * p[0] + 7u * p[1] + 6u * p[2] + 5u * p[3] + 4u * p[4] + 3u * p[5]
                 + 2u * p[6] + p[7];
            a += (uint32_t)p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7];
        }
        while (k--) {
            a += *p++;
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    return b << 16 | a;
}

static uint32_t checksum(unsigned version, const unsigned char *p, size_t n)
{
    return version == 1 ? fnv1a(p, n) : adler32(p, n);
}

static uint64_t f64_bits(double d)
{
    uint64_t v;
    if (d != d)
        return UINT64_C(0x7ff8000000000000);
    memcpy(&v, &d, sizeof v);
    return v;
}

/* Did the last run of m look at bordered cell i (a cell of the grid), so
 * record its entry cost: a member, a start cell, a source, or a neighbour
 * of a member (every member looks at all its neighbours)? */
static int looked_at(const AstarDistanceMap *m, const Board *b, const BoardKind kind, size_t i)
{
    const unsigned *dirs = NULL;
    int n, k;

    if (m->step[i] & (ASTAR_STEP_MEMBER | ASTAR_STEP_START | ST_SOURCE))
        return 1;
    n = board_moves(b, kind, i, &dirs);
    for (k = 0; k < n; k++)
        if (m->step[(long)i + b->off[kind == BOARD_HEX ? dirs[k] : (unsigned)k]]
            & ASTAR_STEP_MEMBER)
            return 1;
    return 0;
}

/* The entry cost m records for bordered cell i: NAN for a cell its run did
 * not look at (a plain map holds the grid's: m->grid_costs). */
static double recorded_cost(const AstarDistanceMap *m, const Board *b, size_t i)
{
    if (!m->grid_costs)
        return m->cost[i];
    return looked_at(m, b, map_kind(m), i) ? m->cost[i] : NAN;
}

/* The board of m's moves. */
static void map_board(const AstarDistanceMap *m, Board *b)
{
    board_init(b, m->stride, m->diagonal, (AstarHexLayout)(m->hex ? m->hex - 1 : 0), m->size);
}

void astar_distance_copy_costs(AstarDistanceMap *to, const AstarDistanceMap *from)
{
    Board b;
    size_t i;

    map_board(from, &b);
    memcpy(to->cost, from->cost, from->cells * sizeof *to->cost);
    if (from->grid_costs)
        for (i = from->stride; i < from->cells - from->stride; i++)
            if (i % from->stride >= 1 && i % from->stride <= from->width)
                to->cost[i] = recorded_cost(from, &b, i);
    to->grid_costs = 0;
}

/* The cost written for bordered cell i: -inf for a start cell. */
static double written_cost(const AstarDistanceMap *m, const Board *b, size_t i)
{
    return (m->step[i] & ASTAR_STEP_START) ? -INFINITY : recorded_cost(m, b, i);
}

/* The distinct costs of a map, in the order the cells first show them. */
typedef struct {
    uint64_t bits[DM_PALETTE];
    uint16_t slot[DM_SLOTS];   /* 0 empty, else the index + 1 */
    unsigned n;
} CostPalette;

/* The index of cost bits v, added when new; -1 when the palette is full. */
static int palette_index(CostPalette *pal, uint64_t v)
{
    size_t h = (size_t)((v * UINT64_C(0x9e3779b97f4a7c15)) >> 54) & (DM_SLOTS - 1);
    while (pal->slot[h]) {
        if (pal->bits[pal->slot[h] - 1] == v)
            return pal->slot[h] - 1;
        h = (h + 1) & (DM_SLOTS - 1);
    }
    if (pal->n == DM_PALETTE)
        return -1;
    pal->bits[pal->n] = v;
    pal->slot[h] = (uint16_t)++pal->n;
    return (int)pal->n - 1;
}

/* The bytes of the cost section for a palette of n (0: none) and C cells. */
static uint64_t costs_size(unsigned n, uint64_t cells)
{
    return 2 + (n ? 8 * (uint64_t)n + cells : 8 * cells);
}

/* Where the sections of an encoding lie, in either version. */
typedef struct {
    unsigned version, width;          /* width: of an origin */
    const unsigned char *steps, *costs, *palette, *values, *origins;
    unsigned npalette;                /* 0: a binary64 per cell */
    double pal[DM_PALETTE];           /* the palette, read */
    size_t value_stride, origin_stride;
    uint64_t members, links, end;     /* end: the offset after the values */
} Sections;

/* Cell c's entry cost in the encoding. */
static inline double section_cost(const Sections *sc, size_t c)
{
    if (sc->npalette)
        return sc->pal[sc->costs[c]];
    return get_f64(sc->costs + 8 * c);
}

static inline double section_value(const Sections *sc, uint64_t k)
{
    return get_f64(sc->values + sc->value_stride * (size_t)k);
}

static inline uint32_t section_origin(const Sections *sc, uint64_t k)
{
    const unsigned char *q = sc->origins + sc->origin_stride * (size_t)k;
    switch (sc->width) {
    case 0:
        return 0;
    case 1:
        return q[0];
    case 2:
        return (uint32_t)q[0] | (uint32_t)q[1] << 8;
    default:
        return get_u32(q);
    }
}

#define DM_MOVE 13u      /* bytes of an override */
#define DM_LINK 16u      /* bytes of a link */

/* The members with a link step. */
static uint64_t link_steps(const AstarDistanceMap *m)
{
    uint64_t k = 0;
    size_t i;
    for (i = 0; i < m->cells; i++)
        k += has_value(m->step[i]) && (m->step[i] & ASTAR_STEP_MASK) == ASTAR_STEP_LINK;
    return k;
}

/* The bytes of the moves section (0: none). */
static uint64_t moves_size(const AstarDistanceMap *m)
{
    if (!m->moves)
        return 0;
    return 8 + DM_MOVE * (uint64_t)m->moves->count + DM_LINK * (uint64_t)m->moves->nlinks
           + 4 * link_steps(m);
}

size_t astar_distance_encoded_size(const AstarDistanceMap *m, size_t nsources)
{
    /* room for every cell with a value: counting them would cost a pass */
    uint64_t cells = (uint64_t)m->width * m->height;
    uint64_t costs = costs_size(0, cells), palette = costs_size(DM_PALETTE, cells);
    uint64_t total = DM_HEADER + (m->size > 1 ? 4 : 0) + 16 * (uint64_t)nsources + cells
                     + (costs > palette ? costs : palette) + 12 * cells + moves_size(m) + 4;
    return total > (uint64_t)(size_t)-1 ? 0 : (size_t)total;
}

/* The bordered cell of cell number c. */
static size_t bordered_of(const AstarDistanceMap *m, uint64_t c)
{
    return (size_t)(c / m->width + 1) * m->stride + (size_t)(c % m->width) + 1;
}

/* Writes the moves section at p; returns its end. */
static unsigned char *encode_moves(const AstarDistanceMap *m, unsigned char *p)
{
    const struct AstarMoves *mv = m->moves;
    uint32_t x, y;
    size_t k;

    put_u32(p, (uint32_t)mv->count);
    p += 4;
    for (y = 0; y < m->height; y++)
        for (x = 0; x < m->width; x++) {
            size_t i = ((size_t)y + 1) * m->stride + x + 1;
            unsigned d;
            for (d = 0; d < 8; d++) {
                double v;
                if (!(mv->flags[i] & (1u << d)))
                    continue;
                v = moves_value(mv, i, d);
                put_u32(p, y * m->width + x);
                p[4] = (unsigned char)d;
                put_f64(p + 5, v == INFINITY ? 0.0 : v);
                p += DM_MOVE;
            }
        }
    put_u32(p, (uint32_t)mv->nlinks);
    p += 4;
    for (k = 0; k < mv->nlinks; k++, p += DM_LINK) {
        put_u32(p, cell_number(m, mv->out[k].from));
        put_u32(p + 4, cell_number(m, mv->out[k].to));
        put_f64(p + 8, mv->out[k].cost);
    }
    for (y = 0; y < m->height; y++)
        for (x = 0; x < m->width; x++) {
            size_t i = ((size_t)y + 1) * m->stride + x + 1;
            if (has_value(m->step[i]) && (m->step[i] & ASTAR_STEP_MASK) == ASTAR_STEP_LINK) {
                put_u32(p, cell_number(m, m->via[i]));
                p += 4;
            }
        }
    return p;
}

/* Writes the steps at p, and after them the cost section; returns its end,
 * and in *members and *width the count and the origin width of the cells
 * with a value. The palette's indices are written first where the largest
 * palette would end (the room the encoded size leaves), then moved down. */
static unsigned char *encode_cells(const AstarDistanceMap *m, unsigned char *p, uint64_t *members,
                                   unsigned *width)
{
    const size_t cells = (size_t)m->width * m->height;
    unsigned char *costs = p + cells, *idx = costs + 2 + 8 * DM_PALETTE;
    CostPalette pal;
    uint32_t x, y, most = 0;
    int full = 0;
    unsigned k;
    Board b;

    map_board(m, &b);
    memset(pal.slot, 0, sizeof pal.slot);
    pal.n = 0;
    *members = 0;
    for (y = 0; y < m->height; y++)
        for (x = 0; x < m->width; x++) {
            size_t i = ((size_t)y + 1) * m->stride + x + 1;
            uint8_t st = m->step[i];
            if (has_value(st)) {
                *p++ = (unsigned char)(st & ASTAR_STEP_MASK);
                ++*members;
                if (m->origin[i] > most)
                    most = m->origin[i];
            } else {
                *p++ = ASTAR_STEP_NONE;
            }
            if (!full) {
                int c = palette_index(&pal, f64_bits(written_cost(m, &b, i)));
                full = c < 0;
                *idx++ = (unsigned char)c;
            }
        }
    *width = most == 0 ? 0u : most < 256 ? 1u : most < 65536 ? 2u : 4u;
    if (full)
        pal.n = 0;
    costs[0] = (unsigned char)(pal.n & 0xff);
    costs[1] = (unsigned char)(pal.n >> 8);
    p = costs + 2;
    if (!full) {
        for (k = 0; k < pal.n; k++, p += 8) {
            put_u32(p, (uint32_t)(pal.bits[k] & 0xffffffffu));
            put_u32(p + 4, (uint32_t)(pal.bits[k] >> 32));
        }
        memmove(p, costs + 2 + 8 * DM_PALETTE, cells);
        return p + cells;
    }
    for (y = 0; y < m->height; y++)
        for (x = 0; x < m->width; x++, p += 8)
            put_f64(p, written_cost(m, &b, ((size_t)y + 1) * m->stride + x + 1));
    return p;
}

size_t astar_distance_encode(const AstarDistanceMap *m, const AstarDistanceHeader *header,
                             const AstarDistanceSource *sources, unsigned char *out)
{
    unsigned char *p = out;
    uint64_t members;
    unsigned width;
    uint32_t x, y;
    size_t k;

    memcpy(p, DM_MAGIC, 8);
    p[8] = DM_VERSION;
    p[10] = (unsigned char)(m->hex ? m->hex - 1 : (unsigned)m->diagonal);
    p[11] = (unsigned char)((header->flags
                             & ~(ASTAR_DISTANCE_HEX | ASTAR_DISTANCE_SIZED | ASTAR_DISTANCE_MOVES))
                            | (m->hex ? ASTAR_DISTANCE_HEX : 0u)
                            | (m->size > 1 ? ASTAR_DISTANCE_SIZED : 0u)
                            | (m->moves ? ASTAR_DISTANCE_MOVES : 0u));
    put_u32(p + 12, m->width);
    put_u32(p + 16, m->height);
    put_u32(p + 20, (uint32_t)header->nsources);
    put_f64(p + 24, header->max_cost);
    p += DM_HEADER;
    if (m->size > 1) {
        put_u32(p, m->size);
        p += 4;
    }
    for (k = 0; k < header->nsources; k++, p += 16) {
        put_u32(p, sources[k].x);
        put_u32(p + 4, sources[k].y);
        put_f64(p + 8, sources[k].value);
    }
    p = encode_cells(m, p, &members, &width);
    out[9] = (unsigned char)width;
    for (y = 0; y < m->height; y++)
        for (x = 0; x < m->width; x++) {
            size_t i = ((size_t)y + 1) * m->stride + x + 1;
            if (has_value(m->step[i])) {
                put_f64(p, m->dist[i]);
                p += 8;
            }
        }
    for (y = 0; y < m->height && width; y++)
        for (x = 0; x < m->width; x++) {
            size_t i = ((size_t)y + 1) * m->stride + x + 1;
            uint32_t o = m->origin[i];
            if (!has_value(m->step[i]))
                continue;
            p[0] = (unsigned char)(o & 0xff);
            if (width > 1)
                p[1] = (unsigned char)((o >> 8) & 0xff);
            if (width > 2) {
                p[2] = (unsigned char)((o >> 16) & 0xff);
                p[3] = (unsigned char)(o >> 24);
            }
            p += width;
        }
    if (m->moves)
        p = encode_moves(m, p);
    put_u32(p, adler32(out, (size_t)(p - out)));
    return (size_t)(p - out) + 4;
}

static AstarError parse_error(char *message, size_t size, const char *text)
{
    if (size > 0) {
        strncpy(message, text, size - 1);
        message[size - 1] = '\0';
    }
    return ASTAR_EPARSE;
}

AstarError astar_distance_decode_header(const void *data, size_t length,
                                        AstarDistanceHeader *header, char *message,
                                        size_t message_size)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t cells;

    if (length < DM_HEADER + 4 || memcmp(p, DM_MAGIC, 8) != 0)
        return parse_error(message, message_size, "bad magic or too short");
    if (!((p[8] == 1 && p[9] == 0)
          || (p[8] == 2 && (p[9] == 0 || p[9] == 1 || p[9] == 2 || p[9] == 4))))
        return parse_error(message, message_size, "unknown format version");
    if (p[10] > ASTAR_DIAGONAL_NO_OBSTACLES || p[11] > 31)
        return parse_error(message, message_size, "bad diagonal mode or flags");
    header->flags = p[11];
    header->hex = (p[11] & ASTAR_DISTANCE_HEX) ? 1u + p[10] : 0u;
    header->diagonal = header->hex ? ASTAR_DIAGONAL_NEVER : (AstarDiagonal)p[10];
    header->width = get_u32(p + 12);
    header->height = get_u32(p + 16);
    header->nsources = get_u32(p + 20);
    header->max_cost = get_f64(p + 24);
    cells = (uint64_t)header->width * header->height;
    if (header->width < 1 || header->height < 1 || header->width > ASTAR_MAX_SIDE
        || header->height > ASTAR_MAX_SIDE || cells > ASTAR_MAX_CELLS)
        return parse_error(message, message_size, "bad size");
    if (header->max_cost != header->max_cost)
        return parse_error(message, message_size, "bad maxCost");
    header->size = 1;
    if (p[11] & ASTAR_DISTANCE_SIZED) {
        if (length < DM_HEADER + 8)
            return parse_error(message, message_size, "truncated");
        header->size = get_u32(p + DM_HEADER);
        if (header->size < 2 || header->size > ASTAR_MAX_SIDE || header->hex)
            return parse_error(message, message_size, "bad unit size");
    }
    if ((p[8] == 1 ? fixed_size(cells, header->nsources)
                   : DM_HEADER + 16 * (uint64_t)header->nsources + cells + 2 + 4)
            + (header->size > 1 ? 4 : 0)
        > length)
        return parse_error(message, message_size, "truncated");
    if (checksum(p[8], p, length - 4) != get_u32(p + length - 4))
        return parse_error(message, message_size, "bad checksum");
    return ASTAR_OK;
}

/* A decoded map of large units: every member position (steps[]) has its
 * k x k cells in the grid, each with a finite entry cost (costs[]). In
 * O(cells): scratch (at least (width + 1) * (height + 1) entries, the map's
 * origin array before it is filled) holds the count of cells without one
 * above and left of each corner. */
static int sized_members_fit(const AstarDistanceHeader *hd, const Sections *sc,
                             uint32_t *scratch)
{
    const size_t w = hd->width, h = hd->height, k = hd->size, row = w + 1;
    size_t x, y;

    for (x = 0; x <= w; x++)
        scratch[x] = 0;
    for (y = 0; y < h; y++) {
        uint32_t run = 0;
        scratch[(y + 1) * row] = 0;
        for (x = 0; x < w; x++) {
            double c = section_cost(sc, y * w + x);
            run += !(c > 0 && c < HUGE_VAL);
            scratch[(y + 1) * row + x + 1] = scratch[y * row + x + 1] + run;
        }
    }
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            if (sc->steps[y * w + x] == ASTAR_STEP_NONE)
                continue;
            if (x + k > w || y + k > h)
                return 0;
            if (scratch[(y + k) * row + x + k] - scratch[y * row + x + k]
                - scratch[(y + k) * row + x] + scratch[y * row + x] != 0)
                return 0;
        }
    return 1;
}

/* The steps of an encoding: its members, and its link steps (step 9). */
static void count_steps(const unsigned char *steps, uint64_t cells, uint64_t *members,
                        uint64_t *links)
{
    uint64_t k;
    *members = *links = 0;
    for (k = 0; k < cells; k++) {
        *members += steps[k] != ASTAR_STEP_NONE;
        *links += steps[k] == ASTAR_STEP_LINK;
    }
}

/* The sections of an encoding whose header checked (its fixed part fits):
 * 0 when the cost section (version 2) does not fit the length. The values
 * end at sc->end, where the moves section starts (the checksum when none). */
static int find_sections(const unsigned char *p, size_t length, const AstarDistanceHeader *hd,
                         Sections *sc)
{
    const uint64_t cells = (uint64_t)hd->width * hd->height;
    uint64_t at = DM_HEADER + (hd->size > 1 ? 4 : 0) + 16 * (uint64_t)hd->nsources;
    unsigned k;

    sc->version = p[8];
    sc->width = sc->version == 1 ? 4 : p[9];
    sc->steps = p + at;
    count_steps(sc->steps, cells, &sc->members, &sc->links);
    at += cells;
    sc->npalette = 0;
    sc->palette = NULL;
    if (sc->version == 1) {
        sc->costs = p + at;
        sc->values = sc->costs + 8 * cells;
        sc->origins = sc->values + 8;
        sc->value_stride = sc->origin_stride = 12;
        sc->end = at + 8 * cells + 12 * sc->members;
        return 1;
    }
    sc->npalette = (unsigned)p[at] | (unsigned)p[at + 1] << 8;
    if (sc->npalette > DM_PALETTE || at + costs_size(sc->npalette, cells) + 4 > length)
        return 0;
    sc->palette = p + at + 2;
    sc->costs = sc->npalette ? sc->palette + 8 * (size_t)sc->npalette : sc->palette;
    for (k = 0; k < sc->npalette; k++)
        sc->pal[k] = get_f64(sc->palette + 8 * k);
    at += costs_size(sc->npalette, cells);
    sc->values = p + at;
    sc->value_stride = 8;
    sc->origins = sc->values + 8 * sc->members;
    sc->origin_stride = sc->width;
    sc->end = at + (8 + sc->width) * sc->members;
    return 1;
}

/* Where the moves section of an encoding with ASTAR_DISTANCE_MOVES starts
 * (*at) and its counts, each read only when the length holds it: 0 when
 * the section does not fit before the checksum. */
static int moves_counts(const unsigned char *p, size_t length, const Sections *sc, uint64_t *at,
                        uint64_t *n, uint64_t *l)
{
    *at = sc->end;
    if (*at + 8 + 4 > length)
        return 0;
    *n = get_u32(p + *at);
    if (*at + 8 + DM_MOVE * *n + 4 > length)
        return 0;
    *l = get_u32(p + *at + 4 + DM_MOVE * *n);
    return *at + 8 + DM_MOVE * *n + DM_LINK * *l + 4 <= length;
}

AstarError astar_distance_decode_moves(const void *data, size_t length,
                                       const AstarDistanceHeader *header, size_t *bytes,
                                       int *linked, char *message, size_t message_size)
{
    uint64_t at, n, l, cells = ((uint64_t)header->width + 2) * ((uint64_t)header->height + 2);
    Sections sc;

    *bytes = 0;
    *linked = 0;
    if (!(header->flags & ASTAR_DISTANCE_MOVES))
        return ASTAR_OK;
    if (!find_sections((const unsigned char *)data, length, header, &sc)
        || !moves_counts((const unsigned char *)data, length, &sc, &at, &n, &l))
        return parse_error(message, message_size, "truncated");
    *bytes = astar_moves_flat_bytes((size_t)cells, (size_t)n, (size_t)l);
    if (*bytes == 0)
        return parse_error(message, message_size, "too large");
    *linked = l > 0;
    return ASTAR_OK;
}

/* Is the move out of bordered cell i in direction d one to a cell of m's
 * board (one of the six on a hex map)? */
static int move_on_board(const AstarDistanceMap *m, size_t i, unsigned d)
{
    const long x = (long)(i % m->stride) - 1 + BOARD_DX[d];
    const long y = (long)(i / m->stride) - 1 + BOARD_DY[d];
    unsigned dirs[6];
    int k;

    if (x < 0 || y < 0 || x >= (long)m->width || y >= (long)m->height)
        return 0;
    if (!m->hex)
        return 1;
    board_hex_dirs((AstarHexLayout)(m->hex - 1), m->stride, i, dirs);
    for (k = 0; k < 6; k++)
        if (dirs[k] == d)
            return 1;
    return 0;
}

/* Builds m's snapshot in memory from the section at q (its length checked). */
static AstarError decode_snapshot(AstarDistanceMap *m, const unsigned char *q, void *memory,
                                  char *message, size_t message_size)
{
    const uint64_t cells = (uint64_t)m->width * m->height;
    uint64_t n = get_u32(q), l, k, last = 0;
    struct AstarMoves *mv;

    l = get_u32(q + 4 + DM_MOVE * n);
    if (n + l == 0)
        return parse_error(message, message_size, "moves flag set but no moves or links");
    mv = astar_moves_flat(memory, m->cells, (size_t)n, (size_t)l);
    q += 4;
    for (k = 0; k < n; k++, q += DM_MOVE) {
        uint64_t cell = get_u32(q), key = cell * 8 + q[4];
        double cost = get_f64(q + 5);
        if (cell >= cells || q[4] > 7 || !move_on_board(m, bordered_of(m, cell), q[4]))
            return parse_error(message, message_size, "bad move");
        if (k > 0 && key <= last)
            return parse_error(message, message_size, "moves out of order");
        if (!(cost == 0 || (cost > 0 && cost <= ASTAR_MAX_COST)))
            return parse_error(message, message_size, "bad move cost");
        last = key;
        astar_moves_flat_set(mv, bordered_of(m, cell), q[4], cost == 0 ? INFINITY : cost);
    }
    q += 4;
    for (k = 0; k < l; k++, q += DM_LINK) {
        uint64_t from = get_u32(q), to = get_u32(q + 4), key = from * cells + to;
        double cost = get_f64(q + 8);
        if (from >= cells || to >= cells || from == to)
            return parse_error(message, message_size, "bad link");
        if (k > 0 && key <= last)
            return parse_error(message, message_size, "links out of order");
        if (!(cost > 0 && cost <= ASTAR_MAX_COST))
            return parse_error(message, message_size, "bad link cost");
        last = key;
        astar_moves_flat_link(mv, (uint32_t)bordered_of(m, from), (uint32_t)bordered_of(m, to),
                              cost);
    }
    astar_moves_flat_finish(mv);
    m->moves = mv;
    return ASTAR_OK;
}

/* Bordered cell i's link step to cell number t: t in the map, and a link
 * from i to it kept. */
static int link_step_ok(const AstarDistanceMap *m, const unsigned char *steps, size_t i,
                        uint64_t t)
{
    const MovesLink *link;
    size_t n, k, to;

    if (t >= (uint64_t)m->width * m->height || steps[t] == ASTAR_STEP_NONE)
        return 0;
    to = bordered_of(m, t);
    n = astar_moves_links(m->moves, i, 0, &link);
    for (k = 0; k < n; k++)
        if (link[k].to == to)
            return 1;
    return 0;
}

AstarError astar_distance_decode(const void *data, size_t length, AstarDistanceMap *m,
                                 AstarDistanceSource *sources, void *moves_memory,
                                 char *message, size_t message_size)
{
    const unsigned char *p = (const unsigned char *)data, *steps;
    const unsigned char *targets = NULL;
    AstarDistanceHeader hd;
    Sections sc;
    uint64_t cells, at = 0, n = 0, l = 0, expected, member = 0;
    uint32_t x, y;
    size_t k;

    if (astar_distance_decode_header(data, length, &hd, message, message_size) != ASTAR_OK)
        return ASTAR_EPARSE;
    m->hex = hd.hex;
    m->size = hd.size;
    m->moves = NULL;
    cells = (uint64_t)hd.width * hd.height;
    p += DM_HEADER + (hd.size > 1 ? 4 : 0);
    for (k = 0; k < hd.nsources; k++, p += 16) {
        sources[k].x = get_u32(p);
        sources[k].y = get_u32(p + 4);
        sources[k].value = get_f64(p + 8);
        if (sources[k].x >= hd.width || sources[k].y >= hd.height
            || !(sources[k].value > -HUGE_VAL && sources[k].value < HUGE_VAL))
            return parse_error(message, message_size, "bad source");
    }
    steps = p;
    for (k = 0; k < cells; k++)
        if (steps[k] != ASTAR_STEP_NONE && steps[k] > ASTAR_STEP_END
            && !(steps[k] == ASTAR_STEP_LINK && (hd.flags & ASTAR_DISTANCE_MOVES)))
            return parse_error(message, message_size, "bad step");
    if (!find_sections((const unsigned char *)data, length, &hd, &sc))
        return parse_error(message, message_size, "bad length");
    expected = sc.end + 4;
    if (hd.flags & ASTAR_DISTANCE_MOVES) {
        if (!moves_counts((const unsigned char *)data, length, &sc, &at, &n, &l))
            return parse_error(message, message_size, "bad length");
        expected += 8 + DM_MOVE * n + DM_LINK * l + 4 * sc.links;
    }
    if (expected != length)
        return parse_error(message, message_size, "bad length");
    for (k = 0; sc.npalette && k < cells; k++)
        if (sc.costs[k] >= sc.npalette)
            return parse_error(message, message_size, "bad cost");
    if (hd.size > 1 && !sized_members_fit(&hd, &sc, m->origin))
        return parse_error(message, message_size, "bad position");
    if ((hd.flags & ASTAR_DISTANCE_MOVES)) {
        if (decode_snapshot(m, (const unsigned char *)data + at, moves_memory, message,
                            message_size) != ASTAR_OK) {
            m->moves = NULL;
            return ASTAR_EPARSE;
        }
        targets = (const unsigned char *)data + at + 8 + DM_MOVE * n + DM_LINK * l;
    }
    m->reached = 0;
    m->grid_costs = 0;                      /* the costs as written */
    for (y = 0; y < hd.height; y++)
        for (x = 0; x < hd.width; x++) {
            size_t i = ((size_t)y + 1) * m->stride + x + 1, c = (size_t)y * hd.width + x;
            unsigned st = steps[c];
            double cost = section_cost(&sc, c);

            int start = cost == -INFINITY && hd.size == 1;   /* a start cell */

            if (!(cost > 0) && cost == cost && !start)
                return parse_error(message, message_size, "bad cost");
            m->cost[i] = start ? INFINITY : cost;
            if (start)
                m->step[i] = ASTAR_STEP_START | ASTAR_STEP_NONE;
            if (st == ASTAR_STEP_NONE)
                continue;
            if (!(cost > 0 && cost < HUGE_VAL) && !start)
                return parse_error(message, message_size, "bad cost");
            if (st == ASTAR_STEP_END && start)
                return parse_error(message, message_size, "bad step");
            if (st == ASTAR_STEP_LINK) {
                uint64_t t = get_u32(targets);
                targets += 4;
                if (!link_step_ok(m, steps, i, t))
                    return parse_error(message, message_size, "bad link step");
                m->via[i] = (uint32_t)bordered_of(m, t);
            } else if (st < 8) {
                long nx = (long)x + BOARD_DX[st], ny = (long)y + BOARD_DY[st];
                if (nx < 0 || ny < 0 || nx >= (long)hd.width || ny >= (long)hd.height
                    || steps[(size_t)ny * hd.width + (size_t)nx] == ASTAR_STEP_NONE)
                    return parse_error(message, message_size, "bad step");
                if (m->hex && st >= 4) {         /* a hex map steps to a hex neighbour */
                    unsigned dirs[6];
                    board_hex_dirs((AstarHexLayout)(m->hex - 1), m->stride, i, dirs);
                    if (st != dirs[4] && st != dirs[5])
                        return parse_error(message, message_size, "bad step");
                }
            }
            m->step[i] = (uint8_t)((start ? ASTAR_STEP_START : ASTAR_STEP_MEMBER) | st);
            m->dist[i] = section_value(&sc, member);
            m->origin[i] = section_origin(&sc, member);
            member++;
            if (!(m->dist[i] > -HUGE_VAL && m->dist[i] < HUGE_VAL)
                || m->origin[i] >= ((hd.flags & ASTAR_DISTANCE_DERIVED) ? cells : hd.nsources))
                return parse_error(message, message_size, "bad value");
            m->reached += !start;
        }
    return ASTAR_OK;
}
