/*
 * Movement ranges for turn-based games: a 4- or 8-direction Dijkstra that
 * stops at a cost budget, and the attack area around a set of cells.
 *
 * Scratch per cell (over the bordered grid of grid_layout.h): g, the entry
 * cost the rule gave, the cell's position in the result, and a stamp holding
 * the query's generation, state bits and the direction the cell was entered
 * from. A new query bumps the generation instead of clearing memory, so it
 * costs only the cells it touches, and the rule runs at most once per cell.
 * Layer 6 (queries).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dijkstra.h"   /* its open lists; the loop is included below with the hooks */
#include "grid_layout.h"
#include "heap.h"
#include "moves.h"
#include "range_internal.h"

#define ST_RULE_MASK 3u          /* ASTAR_RANGE_* bits from the rule */
#define ST_HAS_G 4u              /* g holds a cost of this query */
#define ST_CLOSED 8u             /* settled: in the result */
#define ST_DIR_SHIFT 4           /* 4 bits: 0-7 a direction, 8 the start */
#define ST_DIR_MASK 15u
#define ST_START 8u
#define ST_LINK 9u               /* entered by a link: the parent is via[] */
#define ST_LOOKED (1u << 8)      /* large units: the cell's entry and rule bits are set */
#define ST_POS_ZOC (1u << 9)     /* large units: a covered cell ends the move */
#define ST_POS_NO_STOP (1u << 10) /* large units: a covered cell may not be stopped on */
#define ST_GEN_SHIFT 11
#define ST_GEN_LIMIT (1u << (32 - ST_GEN_SHIFT))
/* A trait of the loop beside dijkstra.h's: one-cell queries without a rule
 * (every entry cost is the grid's), which skip entry_cost's bookkeeping. */
#define RANGE_NO_RULE 16u


struct AstarRange {
    double *g, *entry;
    uint32_t *stamp, *slot, *order;
    size_t capacity, count;
    uint32_t generation;
    AstarOpenScratch open;   /* the open lists' storage, lent to distance maps too */
    const AstarGrid *grid;   /* the grid of the last query */
    uint32_t size;           /* the unit's size in the last movement query (1: one cell) */
    long offset[8];
    /* Moves and links (issue 19): the move rule of the next movement query
     * (astar_range_move_rule), and the cell each cell entered by a link was
     * entered from. */
    AstarMoveRule move_rule;
    void *move_user;
    uint32_t *via;
    size_t via_capacity;
};

void astar_range_move_rule(AstarRange *r, AstarMoveRule rule, void *user)
{
    r->move_rule = rule;
    r->move_user = user;
}

AstarRange *astar_range_new(void)
{
    return calloc(1, sizeof(AstarRange));
}

void astar_range_free(AstarRange *r)
{
    if (!r)
        return;
    free(r->g);
    free(r->entry);
    free(r->stamp);
    free(r->slot);
    free(r->order);
    free(r->via);
    astar_open_scratch_free(&r->open);
    free(r);
}

static AstarError reserve(AstarRange *r, size_t cells)
{
    double *g, *entry;
    uint32_t *stamp, *slot, *order;

    if (cells <= r->capacity)
        return ASTAR_OK;
    g = malloc(cells * sizeof *g);
    entry = malloc(cells * sizeof *entry);
    stamp = calloc(cells, sizeof *stamp);
    slot = malloc(cells * sizeof *slot);
    order = malloc(cells * sizeof *order);
    if (!g || !entry || !stamp || !slot || !order) {
        free(g);
        free(entry);
        free(stamp);
        free(slot);
        free(order);
        return ASTAR_ENOMEM;
    }
    free(r->g);
    free(r->entry);
    free(r->stamp);
    free(r->slot);
    free(r->order);
    r->g = g;
    r->entry = entry;
    r->stamp = stamp;
    r->slot = slot;
    r->order = order;
    r->capacity = cells;
    r->generation = 0;
    return ASTAR_OK;
}

/* Starts a query on grid: scratch sized, a fresh generation, empty result. */
static AstarError begin(AstarRange *r, const AstarGrid *grid)
{
    int d;

    r->count = 0;
    heap_clear(&r->open.heap);
    if (reserve(r, grid->cells) != ASTAR_OK)
        return ASTAR_ENOMEM;
    if (++r->generation == ST_GEN_LIMIT) {
        memset(r->stamp, 0, r->capacity * sizeof *r->stamp);
        r->generation = 1;
    }
    r->grid = grid;
    r->size = 1;
    for (d = 0; d < 8; d++)
        r->offset[d] = BOARD_DY[d] * (long)grid->stride + BOARD_DX[d];
    return ASTAR_OK;
}

static int fresh(const AstarRange *r, uint32_t cell)
{
    return (r->stamp[cell] >> ST_GEN_SHIFT) == r->generation;
}

static uint32_t stamp_of(const AstarRange *r, uint32_t bits)
{
    return (r->generation << ST_GEN_SHIFT) | bits;
}

static uint32_t cell_x(const AstarRange *r, uint32_t cell) { return cell % r->grid->stride - 1; }
static uint32_t cell_y(const AstarRange *r, uint32_t cell) { return cell / r->grid->stride - 1; }

/* Looks cell up for this query: runs the rule the first time. Returns the
 * entry cost (INFINITY: impassable), or NAN when the rule aborted. inline:
 * both loops call it, and the 4-direction one is only as fast as before
 * when it stays inlined there. */
static inline double entry_cost(AstarRange *r, uint32_t cell, AstarRangeRule rule, void *user)
{
    double grid_cost = r->grid->cost ? r->grid->cost[cell] : 1.0;
    unsigned flags = 0;
    double c;

    if (fresh(r, cell))
        return r->entry[cell];
    c = rule ? rule(user, cell_x(r, cell), cell_y(r, cell), grid_cost, &flags) : grid_cost;
    if (c != c)
        return c;
    r->entry[cell] = c;
    r->stamp[cell] = stamp_of(r, flags & ST_RULE_MASK);
    return c;
}

/* ---- large units (issue 14, clearance.c) -------------------------------- */

/* A cell no unit may stop on (an ally): no position covering it is a stop
 * for a unit of size r->size. Marked once, when the cell is first looked
 * up, on the k x k positions whose square holds it (allies are few). */
static void mark_no_stop(AstarRange *r, uint32_t cell)
{
    const uint32_t k = r->size, x = cell_x(r, cell), y = cell_y(r, cell);
    const uint32_t x0 = x >= k - 1 ? x - (k - 1) : 0, y0 = y >= k - 1 ? y - (k - 1) : 0;
    uint32_t px, py;
    for (py = y0; py <= y; py++)
        for (px = x0; px <= x; px++) {
            uint32_t p = (uint32_t)astar_index(r->grid, px, py);
            r->stamp[p] = (fresh(r, p) ? r->stamp[p] : stamp_of(r, 0)) | ST_POS_NO_STOP;
        }
}

/* Looks covered cell `cell` up for a large unit's query: the rule the first
 * time (asked about walkable cells only: the layer says the position fits).
 * The cell's bits (ST_LOOKED, rule bits) share the stamp with the bits of the
 * position whose top-left cell it is, so those are kept. */
static double large_cell(AstarRange *r, const AstarGrid *grid, uint32_t cell,
                         AstarRangeRule rule, void *user, unsigned *flags)
{
    uint32_t st = r->stamp[cell];
    double c;

    if (fresh(r, cell) && (st & ST_LOOKED)) {
        *flags = st & ST_RULE_MASK;
        return r->entry[cell];
    }
    *flags = 0;
    c = grid->cost ? grid->cost[cell] : 1.0;
    if (rule)
        c = rule(user, cell_x(r, cell), cell_y(r, cell), c, flags);
    if (c != c)
        return c;
    *flags &= ST_RULE_MASK;
    r->entry[cell] = c;
    r->stamp[cell] = (fresh(r, cell) ? st : stamp_of(r, 0)) | ST_LOOKED | *flags;
    if (*flags & ASTAR_RANGE_NO_STOP)
        mark_no_stop(r, cell);
    return c;
}

/* Looks up every cell of position p, row by row: NAN when the rule
 * aborted, INFINITY at the first impassable one, else 0; *zoc is set when a
 * cell looked up ends the move. */
static double large_footprint(AstarRange *r, const AstarGrid *grid, uint32_t p,
                              AstarRangeRule rule, void *user, int *zoc)
{
    const size_t stride = grid->stride, k = r->size;
    size_t row, i;
    for (row = p; row < p + k * stride; row += stride)
        for (i = row; i < row + k; i++) {
            unsigned flags;
            double v = large_cell(r, grid, (uint32_t)i, rule, user, &flags);
            if (v != v || v == INFINITY)
                return v;
            if (flags & ASTAR_RANGE_ENDS_MOVE)
                *zoc = 1;
        }
    return 0.0;
}

/* The cost of moving the unit from position c by direction d (bordered
 * cells): the highest entry cost among the cells it newly covers, INFINITY
 * when the new position does not fit or covers an impassable cell, NAN when
 * the rule aborted; *zoc: one of its cells ends the move. Every cell of an
 * entered position is looked up (row by row; those seen before are
 * remembered): from a position c other than the start, c's were looked up
 * when it was entered, and none of them ends the move (c was expanded), so
 * the cells it newly covers are all there is to look at. */
static double large_step(AstarRange *r, const AstarGrid *grid, const AstarGrid *fit, uint32_t c,
                         int d, int from_start, AstarRangeRule rule, void *user, int *zoc)
{
    const uint32_t n = (uint32_t)((long)c + r->offset[d]);
    AstarNewCells cells;
    size_t cell;
    double worst = 0.0;

    *zoc = 0;
    if (!fit->open[n])
        return INFINITY;
    if (from_start) {
        double v = large_footprint(r, grid, n, rule, user, zoc);
        if (v != 0.0)
            return v;
    }
    astar_new_cells(&cells, n, BOARD_DX[d], BOARD_DY[d], r->size, grid->stride);
    while (astar_new_cell(&cells, &cell)) {
        unsigned flags;
        double v = large_cell(r, grid, (uint32_t)cell, rule, user, &flags);
        if (v != v || v == INFINITY)
            return v;
        if (flags & ASTAR_RANGE_ENDS_MOVE)
            *zoc = 1;
        if (v > worst)
            worst = v;
    }
    return worst;
}

/* ---- the searches: dijkstra.h's loop with range hooks ------------------- */

/* One movement query: what the hooks read besides the scratch. */
typedef struct {
    AstarRange *r;
    const AstarGrid *grid;
    const AstarGrid *fit;    /* BOARD_LARGE: the positions where the unit fits */
    uint32_t start;
    AstarRangeRule rule;
    void *user;
    int zoc;                 /* BOARD_LARGE: the step dk_look priced ends the move */
    const struct AstarMoves *moves;   /* the grid's overrides and links (NULL: none) */
    AstarMoveRule move_rule;
    void *move_user;
} RangeQuery;

/* Settles u into the result; a cell that ends the move (other than the
 * start) is not expanded: a zone of control. */
static inline int dk_settle(RangeQuery *q, const BoardKind kind, uint32_t u, double *g)
{
    AstarRange *r = q->r;
    uint32_t st = r->stamp[u];

    if (st & ST_CLOSED)
        return 0;                                      /* a stale duplicate */
    r->stamp[u] = st | ST_CLOSED;
    r->slot[u] = (uint32_t)r->count;
    r->order[r->count++] = u;
    *g = r->g[u];
    return u == q->start || !(st & (kind == BOARD_LARGE ? ST_POS_ZOC : ASTAR_RANGE_ENDS_MOVE));
}

/* A step walking away from the start is priced by what it enters: the
 * cell's entry cost, or for a large unit the highest of its new cells'. */
static inline int dk_look(RangeQuery *q, const Board *b, const BoardKind kind,
                          const unsigned traits, uint32_t u, uint32_t v, unsigned d,
                          double *price)
{
    AstarRange *r = q->r;
    double c;

    (void)b;
    if (kind != BOARD_LARGE && (traits & RANGE_NO_RULE)) {
        /* no rule: the grid's cost, nothing to remember; a stamp of an
         * older query is no stamp (dk_relax reads it so too) */
        const uint32_t st = r->stamp[v];
        if (!q->grid->open[v])
            return DK_BLOCKED;
        if ((st >> ST_GEN_SHIFT) == r->generation && (st & ST_CLOSED))
            return DK_PASS;                    /* entered, or the start: as entry_cost's */
        c = q->grid->cost ? q->grid->cost[v] : 1.0;
        if (c == INFINITY)
            return DK_BLOCKED;
        *price = c;
        return DK_OPEN;
    }
    if (kind == BOARD_LARGE) {
        int zoc;
        c = large_step(r, q->grid, q->fit, u, (int)d, u == q->start, q->rule, q->user, &zoc);
        q->zoc = zoc;
    } else {
        if (!q->grid->open[v])
            return DK_BLOCKED;
        c = entry_cost(r, v, q->rule, q->user);
    }
    if (c != c)
        return DK_ABORT;
    if (c == INFINITY)
        return DK_BLOCKED;                     /* impassable, even with an infinite budget */
    if (r->stamp[v] & ST_CLOSED)
        return DK_PASS;
    *price = c;
    return DK_OPEN;
}

/* A link from u to v is taken when v can be entered: for a large unit,
 * when it fits at v, every cell it covers there looked up. */
static inline int dk_look_link(RangeQuery *q, const Board *b, const BoardKind kind, uint32_t u,
                               uint32_t v)
{
    AstarRange *r = q->r;
    double c;

    (void)b;
    (void)u;
    if (kind == BOARD_LARGE) {
        int zoc = 0;
        c = q->fit->open[v] ? large_footprint(r, q->grid, v, q->rule, q->user, &zoc) : INFINITY;
        q->zoc = zoc;
    } else {
        c = q->grid->open[v] ? entry_cost(r, v, q->rule, q->user) : INFINITY;
    }
    if (c != c)
        return DK_ABORT;
    if (c == INFINITY)
        return DK_BLOCKED;
    return r->stamp[v] & ST_CLOSED ? DK_PASS : DK_OPEN;
}

/* The first cheapest way in wins: a later equal one keeps the parent. */
static inline int dk_relax(RangeQuery *q, uint32_t u, uint32_t v, unsigned d, double g)
{
    AstarRange *r = q->r;
    uint32_t st = r->stamp[v];

    if ((st >> ST_GEN_SHIFT) != r->generation)
        st = 0;                   /* RANGE_NO_RULE: not looked up in this query */
    else if ((st & ST_HAS_G) && g >= r->g[v])
        return 0;
    r->g[v] = g;
    if (d == DK_LINK) {
        d = ST_LINK;
        r->via[v] = u;
    }
    r->stamp[v] = (st & (ST_RULE_MASK | ST_LOOKED | ST_POS_NO_STOP)) | ST_HAS_G | (q->zoc ? ST_POS_ZOC : 0)
                  | (d << ST_DIR_SHIFT) | stamp_of(r, 0);
    return 1;
}

#define DK_QUERY RangeQuery
#define DK_CORNER_FIRST 1   /* a diagonal cell cut off by the corner rule is not asked */
#include "dijkstra.h"

/* The loop compiled for each board kind: without moves (inlined into
 * range_search, as it was before moves existed), and with them, kept apart
 * so that range_search's own code stays what the compiler inlines whole. */
static inline int range_loop(RangeQuery *q, const Board *b, const BoardKind kind, OpenList *open,
                             double budget)
{
    if (!q->rule && kind == BOARD_SQUARE4)
        return dijkstra_loop(q, b, BOARD_SQUARE4, open, OPEN_HEAP, RANGE_NO_RULE, budget);
    if (!q->rule && kind == BOARD_SQUARE8)
        return dijkstra_loop(q, b, BOARD_SQUARE8, open, OPEN_HEAP, RANGE_NO_RULE, budget);
    switch (kind) {
    case BOARD_SQUARE4:
        return dijkstra_loop(q, b, BOARD_SQUARE4, open, OPEN_HEAP, 0, budget);
    case BOARD_SQUARE8:
        return dijkstra_loop(q, b, BOARD_SQUARE8, open, OPEN_HEAP, 0, budget);
    case BOARD_HEX:
        return dijkstra_loop(q, b, BOARD_HEX, open, OPEN_HEAP, 0, budget);
    default:
        return dijkstra_loop(q, b, BOARD_LARGE, open, OPEN_HEAP, 0, budget);
    }
}

ASTAR_NOINLINE static int range_loop_moves(RangeQuery *q, const Board *b, const BoardKind kind,
                                           OpenList *open, double budget)
{
    switch (kind) {
    case BOARD_SQUARE4:
        return dijkstra_loop(q, b, BOARD_SQUARE4, open, OPEN_HEAP, DK_MOVES, budget);
    case BOARD_SQUARE8:
        return dijkstra_loop(q, b, BOARD_SQUARE8, open, OPEN_HEAP, DK_MOVES, budget);
    case BOARD_HEX:
        return dijkstra_loop(q, b, BOARD_HEX, open, OPEN_HEAP, DK_MOVES, budget);
    default:
        return dijkstra_loop(q, b, BOARD_LARGE, open, OPEN_HEAP, DK_MOVES, budget);
    }
}

/* A movement range from bordered cell start (the scratch begun on q's grid). */
static AstarError range_search(const RangeQuery *query, const Board *board,
                               const BoardKind kind, double budget, int *aborted)
{
    const int moves = query->moves != NULL || query->move_rule != NULL;
    RangeQuery query_copy = *query, *q = &query_copy;   /* locals: kept in registers */
    Board board_copy = *board, *b = &board_copy;
    AstarRange *r = q->r;
    OpenList open;
    int done;

    *aborted = 0;
    r->g[q->start] = 0.0;
    r->entry[q->start] = 0.0;
    r->stamp[q->start] = stamp_of(r, ST_HAS_G | (ST_START << ST_DIR_SHIFT));
    open_heap(&open, &r->open.heap);
    if (heap_push(&r->open.heap, 0.0, q->start) != ASTAR_OK)
        return ASTAR_ENOMEM;
    done = moves ? range_loop_moves(q, b, kind, &open, budget)
                 : range_loop(q, b, kind, &open, budget);
    if (done == DK_ABORTED) {
        r->count = 0;
        *aborted = 1;
    }
    return done == DK_NOMEM ? ASTAR_ENOMEM : ASTAR_OK;
}

/* Begins a query from (sx, sy) of grid on the board of the given kind; a
 * large unit (size > 1) moves over fit, the positions where it fits. */
static AstarError range_query(AstarRange *r, const AstarGrid *grid, uint32_t sx, uint32_t sy,
                              BoardKind kind, AstarDiagonal diagonal, const AstarGrid *fit,
                              uint32_t size, double budget, AstarRangeRule rule, void *user,
                              int *aborted)
{
    RangeQuery q;
    Board b;
    AstarHexLayout layout = ASTAR_HEX_ODD_R;

    *aborted = 0;
    if (begin(r, grid) != ASTAR_OK)
        return ASTAR_ENOMEM;
    r->size = size;
    astar_grid_hex(grid, &layout);
    board_init(&b, grid->stride, diagonal, layout, size);
    q.r = r;
    q.grid = grid;
    q.fit = fit;
    q.start = (uint32_t)astar_index(grid, sx, sy);
    q.rule = rule;
    q.user = user;
    q.zoc = 0;
    /* moves and links: the grid's, and the rule set for this query */
    q.move_rule = r->move_rule;
    q.move_user = r->move_user;
    r->move_rule = NULL;
    q.moves = NULL;
    if (astar_moves_any(grid)) {
        q.moves = grid->moves;
        if (grid->moves->nlinks && r->via_capacity < r->capacity) {
            free(r->via);
            r->via = malloc(r->capacity * sizeof *r->via);
            r->via_capacity = r->via ? r->capacity : 0;
            if (!r->via)
                return ASTAR_ENOMEM;
        }
    }
    return range_search(&q, &b, kind, budget, aborted);
}

AstarError astar_range_run(AstarRange *r, const AstarGrid *grid, uint32_t sx, uint32_t sy,
                           double budget, AstarRangeRule rule, void *user, int *aborted)
{
    return range_query(r, grid, sx, sy, BOARD_SQUARE4, ASTAR_DIAGONAL_NEVER, NULL, 1, budget,
                       rule, user, aborted);
}

AstarError astar_range_run_diagonal(AstarRange *r, const AstarGrid *grid, uint32_t sx,
                                    uint32_t sy, double budget, AstarDiagonal diagonal,
                                    AstarRangeRule rule, void *user, int *aborted)
{
    return range_query(r, grid, sx, sy,
                       diagonal == ASTAR_DIAGONAL_NEVER ? BOARD_SQUARE4 : BOARD_SQUARE8,
                       diagonal, NULL, 1, budget, rule, user, aborted);
}

/* A movement range on a hex board: the six hex neighbours (astar_hex_neighbours'
 * order), each step the entered cell's cost. Every hex step is one of the
 * eight directions, so parents and astar_range_get work unchanged. */
AstarError astar_range_run_hex(AstarRange *r, const AstarGrid *grid, uint32_t sx, uint32_t sy,
                               double budget, AstarRangeRule rule, void *user, int *aborted)
{
    return range_query(r, grid, sx, sy, BOARD_HEX, ASTAR_DIAGONAL_NEVER, NULL, 1, budget, rule,
                       user, aborted);
}

/* A large unit with costs or a rule runs over the top-left positions, each
 * step priced by large_step; the corner rule looks at the positions beside a
 * diagonal step (the orthogonal ones, priced first). */
AstarError astar_range_run_large(AstarRange *r, AstarGrid *grid, uint32_t sx, uint32_t sy,
                                 uint32_t size, double budget, AstarDiagonal diagonal,
                                 AstarRangeRule rule, void *user, int *aborted)
{
    uint32_t used;
    AstarGrid *fit;
    AstarError e;

    if (size <= 1 || grid->hex)
        return grid->hex ? astar_range_run_hex(r, grid, sx, sy, budget, rule, user, aborted)
                         : astar_range_run_diagonal(r, grid, sx, sy, budget, diagonal, rule,
                                                    user, aborted);
    *aborted = 0;
    if ((e = astar_grid_layer(grid, size, &fit, &used)) != ASTAR_OK)
        return e;
    if (!rule && !grid->cost && !astar_moves_any(grid) && !r->move_rule) {
        /* every position costs 1 to enter: a one-cell range on the layer */
        e = astar_range_run_diagonal(r, fit, sx, sy, budget, diagonal, NULL, NULL, aborted);
        r->grid = grid;
        r->size = used;
        return e;
    }
    return range_query(r, grid, sx, sy, BOARD_LARGE, diagonal, fit, used, budget, rule, user,
                       aborted);
}


size_t astar_range_count(const AstarRange *r) { return r->count; }

void astar_range_get(const AstarRange *r, size_t i, AstarRangeCell *out)
{
    uint32_t cell = r->order[i], st = r->stamp[cell];
    uint32_t dir = (st >> ST_DIR_SHIFT) & ST_DIR_MASK;

    out->x = cell_x(r, cell);
    out->y = cell_y(r, cell);
    out->cost = r->g[cell];
    out->flags = st & ST_RULE_MASK;
    if (r->size > 1)                  /* the position's: any cell it covers */
        out->flags = (st & ST_POS_NO_STOP ? ASTAR_RANGE_NO_STOP : 0)
                     | (st & ST_POS_ZOC ? ASTAR_RANGE_ENDS_MOVE : 0);
    if (dir == ST_START) {
        out->flags = 0;
        out->parent = (uint32_t)i;
    } else if (dir == ST_LINK)
        out->parent = r->slot[r->via[cell]];
    else
        out->parent = r->slot[(uint32_t)((long)cell - r->offset[dir])];
}

/* Marks (x, y) as hit from source number from; returns -1 on abort. */
static int try_mark(AstarRange *r, const AstarRangeCell *src, size_t from, long x, long y,
                    AstarSightRule sight, void *user)
{
    uint32_t cell = (uint32_t)astar_index(r->grid, (uint32_t)x, (uint32_t)y);
    int seen;

    if (fresh(r, cell))
        return 0;
    if (sight) {
        seen = sight(user, src->x, src->y, (uint32_t)x, (uint32_t)y);
        if (seen <= 0)
            return seen;
    }
    r->stamp[cell] = stamp_of(r, ST_HAS_G | ST_CLOSED | (ST_START << ST_DIR_SHIFT));
    r->g[cell] = 0.0;
    r->slot[cell] = (uint32_t)from;
    r->order[r->count++] = cell;
    return 0;
}

/* floor(sqrt(v)) exactly, for v >= 0 (a double's sqrt may be one off). */
static int64_t isqrt(int64_t v)
{
    int64_t s = (int64_t)sqrt((double)v);
    while (s > 0 && s * s > v)
        s--;
    while ((s + 1) * (s + 1) <= v)
        s++;
    return s;
}

/* Row dy (|dy| <= hi) of the area around a cell: the cells dx with
 * |dx| <= *rem are within hi, and those with |dx| < *gap closer than lo. */
static void attack_row(AstarMetric metric, int64_t lo, int64_t hi, int64_t ady, long *rem,
                       long *gap)
{
    int64_t inner;

    switch (metric) {
    case ASTAR_METRIC_CHEBYSHEV:
        *rem = (long)hi;
        *gap = ady >= lo ? 0 : (long)lo;
        return;
    case ASTAR_METRIC_EUCLIDEAN:
        *rem = (long)isqrt(hi * hi - ady * ady);
        inner = lo * lo - ady * ady;           /* dx^2 >= inner */
        *gap = inner <= 0 ? 0 : (long)(isqrt(inner - 1) + 1);
        return;
    default:
        *rem = (long)(hi - ady);
        *gap = (long)(lo - ady);
    }
}

AstarError astar_range_attack_metric(AstarRange *r, const AstarGrid *grid,
                                     const AstarRangeCell *from, size_t n,
                                     uint32_t min_distance, uint32_t max_distance,
                                     AstarMetric metric, AstarSightRule sight, void *user,
                                     int *aborted)
{
    return astar_range_attack_large(r, grid, from, n, 1, min_distance, max_distance, metric,
                                    sight, user, aborted);
}

AstarError astar_range_attack(AstarRange *r, const AstarGrid *grid, const AstarRangeCell *from,
                              size_t n, uint32_t min_distance, uint32_t max_distance,
                              AstarSightRule sight, void *user, int *aborted)
{
    return astar_range_attack_metric(r, grid, from, n, min_distance, max_distance,
                                     ASTAR_METRIC_MANHATTAN, sight, user, aborted);
}

/* The attack area of units of size x size cells standing on the positions
 * from[] (top-left cells): a target's distance from a position is its
 * distance from the nearest covered cell (the target clamped into the
 * square), sight is asked from that cell. Row by row over the square grown
 * by max_distance; size 1 is astar_range_attack_metric. */
AstarError astar_range_attack_large(AstarRange *r, const AstarGrid *grid,
                                    const AstarRangeCell *from, size_t n, uint32_t size,
                                    uint32_t min_distance, uint32_t max_distance,
                                    AstarMetric metric, AstarSightRule sight, void *user,
                                    int *aborted)
{
    long w = (long)grid->width, h = (long)grid->height, hi = (long)max_distance;
    long k = (long)size;
    size_t i;

    *aborted = 0;
    if (begin(r, grid) != ASTAR_OK)
        return ASTAR_ENOMEM;
    for (i = 0; i < n; i++) {
        long px = (long)from[i].x, py = (long)from[i].y, ty;
        long qx = px + k - 1, qy = py + k - 1;           /* the bottom-right cell */
        long y0 = py - hi < 0 ? 0 : py - hi, y1 = qy + hi >= h ? h - 1 : qy + hi;

        for (ty = y0; ty <= y1; ty++) {
            long ady = ty < py ? py - ty : ty > qy ? ty - qy : 0;
            long rem, gap, tx, x0, x1;
            AstarRangeCell src = from[i];

            attack_row(metric, min_distance, max_distance, ady, &rem, &gap);
            x0 = px - rem < 0 ? 0 : px - rem;
            x1 = qx + rem >= w ? w - 1 : qx + rem;
            src.y = (uint32_t)(ty < py ? py : ty > qy ? qy : ty);
            for (tx = x0; tx <= x1; tx++) {
                if (gap > 0 && tx > px - gap && tx < qx + gap) {
                    tx = qx + gap - 1;                 /* skip the inner part */
                    continue;
                }
                src.x = (uint32_t)(tx < px ? px : tx > qx ? qx : tx);
                if (try_mark(r, &src, i, tx, ty, sight, user) < 0) {
                    r->count = 0;
                    *aborted = 1;
                    return ASTAR_OK;
                }
            }
        }
    }
    return ASTAR_OK;
}

int astar_line_of_sight(const AstarGrid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                        uint32_t y1)
{
    /* Walks the cells the segment crosses: at each step it leaves through the
     * side it meets first; through a corner when it meets both at once. */
    int64_t nx = (int64_t)x1 - x0, ny = (int64_t)y1 - y0, ix = 0, iy = 0;
    long sx = nx < 0 ? -1 : 1, sy = ny < 0 ? -1 : 1;
    long x = (long)x0, y = (long)y0;

    if (nx < 0)
        nx = -nx;
    if (ny < 0)
        ny = -ny;
    while (ix < nx || iy < ny) {
        int64_t decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if (decision == 0) {
            x += sx;
            y += sy;
            ix++;
            iy++;
        } else if (decision < 0) {
            x += sx;
            ix++;
        } else {
            y += sy;
            iy++;
        }
        if ((x != (long)x1 || y != (long)y1)
            && !grid->open[astar_index(grid, (uint32_t)x, (uint32_t)y)])
            return 0;
    }
    return 1;
}

size_t astar_range_memory(const AstarRange *r)
{
    return sizeof *r + r->capacity * (2 * sizeof(double) + 3 * sizeof(uint32_t))
           + astar_open_scratch_bytes(&r->open);
}

AstarOpenScratch *astar_range_open(AstarRange *r) { return &r->open; }

/* The attack area on a hex board: the cells at hex distance lo..hi of a
 * source (each source's bounding box scanned row by row). */
AstarError astar_range_attack_hex(AstarRange *r, const AstarGrid *grid,
                                  const AstarRangeCell *from, size_t n, uint32_t min_distance,
                                  uint32_t max_distance, AstarSightRule sight, void *user,
                                  int *aborted)
{
    long w = (long)grid->width, h = (long)grid->height, hi = (long)max_distance;
    AstarHexLayout layout = ASTAR_HEX_ODD_R;
    size_t i;

    astar_grid_hex(grid, &layout);
    *aborted = 0;
    if (begin(r, grid) != ASTAR_OK)
        return ASTAR_ENOMEM;
    for (i = 0; i < n; i++) {
        long cx = (long)from[i].x, cy = (long)from[i].y, x, y;
        long x0 = cx - hi < 0 ? 0 : cx - hi, x1 = cx + hi >= w ? w - 1 : cx + hi;
        long y0 = cy - hi < 0 ? 0 : cy - hi, y1 = cy + hi >= h ? h - 1 : cy + hi;

        for (y = y0; y <= y1; y++)
            for (x = x0; x <= x1; x++) {
                uint32_t d = astar_hex_distance(layout, (uint32_t)cx, (uint32_t)cy, (uint32_t)x,
                                                (uint32_t)y);
                if (d < min_distance || d > max_distance)
                    continue;
                if (try_mark(r, &from[i], i, x, y, sight, user) < 0) {
                    r->count = 0;
                    *aborted = 1;
                    return ASTAR_OK;
                }
            }
    }
    return ASTAR_OK;
}
