/*
 * Distance maps repaired in place (issue 24): map:update after a few edits
 * of the grid of the map's last run.
 *
 * With positive step prices a map's values are the one fixed point of
 * v(c) = min over c's moves of fl(v(next) + price) (a source's own value
 * too), rounding being monotone; its steps and origins follow from the
 * values by the flood's rules (the first direction among the moves that
 * give the value exactly; a source keeps itself on a tie; the origin is
 * the step's). So after a few edits, an update needs only:
 * - R: the cells whose walk went through an edited cell (into it, or by a
 *   diagonal past its corner), and the cells whose step leads into R: they
 *   leave the map;
 * - a flood seeded with the cells beside R and beside the edited cells
 *   (their values stand: their walks are intact) and the sources in R: it
 *   gives R its values, and lowers any cell an edit made cheaper to reach;
 * - the steps again of every cell the flood settled and of their
 *   neighbours, and the origins of those cells and of the cells below any
 *   whose origin changed;
 * - around every cell that left, was settled, was edited or changed its
 *   origin: the start cells (the walls a run looks at: beside members, or
 *   sources), valued again; the entry costs are the grid's (a plain map's,
 *   m->grid_costs: its encoding derives the cells looked at).
 * Everything else is as a new run leaves it. Layer 6 (queries): the
 * flood is distance.c's (distance_internal.h).
 */

#include <math.h>
#include <string.h>

#include "distance_internal.h"
#include "grid_layout.h"
#include "range_internal.h"

#define REPAIR_MAX_CHANGES 16u

/* The bordered offset of direction d. */
static inline long dir_offset(const AstarDistanceMap *m, unsigned d)
{
    return (long)BOARD_DY[d] * (long)m->stride + BOARD_DX[d];
}

/* Does member w's step go to u? */
static inline int steps_to(const AstarDistanceMap *m, size_t w, size_t u)
{
    const unsigned st = m->step[w], d = st & ASTAR_STEP_MASK;
    return (st & ASTAR_STEP_MEMBER) && d < 8 && (size_t)((long)w + dir_offset(m, d)) == u;
}

/* Takes w out of the map onto list r, the cells to compute again. */
static AstarError unset(AstarDistanceMap *m, AstarCellList *r, size_t w)
{
    m->dist[w] = INFINITY;
    m->step[w] = ASTAR_STEP_NONE;
    m->origin[w] = 0;
    return astar_cell_list_push(r, (uint32_t)w);
}

/* R (list r): the members whose walk enters edited cell c or passes its
 * corner by a diagonal, then every member whose step leads into R. */
static AstarError repair_region(AstarDistanceMap *m, const AstarGrid *grid, AstarCellList *r)
{
    uint64_t v;
    size_t k;
    unsigned d;

    for (v = m->synced_version + 1; v <= grid->version; v++) {
        const size_t c = grid->changes[v % ASTAR_CHANGE_LOG];
        if ((m->step[c] & ASTAR_STEP_MEMBER) && unset(m, r, c) != ASTAR_OK)
            return ASTAR_ENOMEM;
        for (d = 0; d < 4; d++) {
            const size_t w = (size_t)((long)c + dir_offset(m, d));
            const unsigned st = m->step[w], s = st & ASTAR_STEP_MASK;
            if (!(st & ASTAR_STEP_MEMBER) || s < 4 || s >= 8)
                continue;
            if ((size_t)((long)w + dir_offset(m, BOARD_CORNER_X[s])) == c
                || (size_t)((long)w + dir_offset(m, BOARD_CORNER_Y[s])) == c)
                if (unset(m, r, w) != ASTAR_OK)
                    return ASTAR_ENOMEM;
        }
    }
    for (k = 0; k < r->size; k++)
        for (d = 0; d < 8; d++) {
            const size_t w = (size_t)((long)r->cell[k] + dir_offset(m, d));
            if (steps_to(m, w, r->cell[k]) && unset(m, r, w) != ASTAR_OK)
                return ASTAR_ENOMEM;
        }
    return ASTAR_OK;
}

/* Queues the members around cell c (their values stand) for the flood. */
static AstarError seed_around(AstarDistanceMap *m, Heap *heap, size_t c)
{
    unsigned d;
    for (d = 0; d < 8; d++) {
        const size_t u = (size_t)((long)c + dir_offset(m, d));
        if ((m->step[u] & ASTAR_STEP_MEMBER) && heap_push(heap, m->dist[u], (uint32_t)u) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    return ASTAR_OK;
}

/* Member w's step from the values, as the flood leaves it: a source
 * keeps itself; else the first move to a member u of lower value with
 * fl(dist(u) + price) exactly dist(w). */
static void derive_step(AstarDistanceMap *m, const Board *b, const BoardKind kind, size_t w)
{
    const int n = kind == BOARD_SQUARE4 ? 4 : 8;
    int side[4], k;

    if (!(m->step[w] & ASTAR_STEP_MEMBER) || (m->step[w] & ASTAR_STEP_MASK) == ASTAR_STEP_END)
        return;
    for (k = 0; k < 4; k++)
        side[k] = m->cost[(long)w + b->off[k]] != INFINITY;
    for (k = 0; k < n; k++) {
        const size_t u = (size_t)((long)w + b->off[k]);
        if (!(m->step[u] & ASTAR_STEP_MEMBER) || !(m->dist[u] < m->dist[w]))
            continue;
        if (k >= 4 && !board_corner_ok(b, k, side))
            continue;
        if (m->dist[u] + board_step(kind, (unsigned)k, m->cost[u]) == m->dist[w]) {
            m->step[w] = (uint8_t)(ASTAR_STEP_MEMBER | (unsigned)k);
            return;
        }
    }
}

/* The steps of c and its neighbours again; with several sources, those
 * cells queued on heap for their origins. */
static AstarError rederive_around(AstarDistanceMap *m, const Board *b, const BoardKind kind,
                                  Heap *heap, size_t c, size_t nsources)
{
    unsigned d;

    for (d = 0; d <= 8; d++) {
        const size_t w = d < 8 ? (size_t)((long)c + b->off[d]) : c;
        derive_step(m, b, kind, w);
        if (nsources < 2 || !(m->step[w] & ASTAR_STEP_MEMBER))
            continue;
        m->step[w] |= ST_CLOSED;             /* marked: its children are looked at */
        if (heap_push(heap, m->dist[w], (uint32_t)w) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    return ASTAR_OK;
}

/* The steps again around the cells the flood settled and the edited
 * cells; with several sources, the origins of those cells and of their
 * children (the flood's ties may have set a neighbour's origin already,
 * so a marked cell's children are looked at even when its origin stays),
 * and below every other cell whose origin changed (in order of value:
 * parents first). */
static AstarError repair_steps(AstarDistanceMap *m, const AstarGrid *grid, AstarRange *scratch,
                               const AstarCellList *settled, size_t nsources,
                               AstarCellList *moved)
{
    const BoardKind kind = astar_distance_kind(m);
    Heap *heap = &astar_range_open(scratch)->heap;
    Board b;
    uint64_t v;
    size_t k;
    unsigned d;

    board_init(&b, m->stride, m->diagonal, ASTAR_HEX_ODD_R, 1);
    heap_clear(heap);
    for (k = 0; k < settled->size; k++)
        if (rederive_around(m, &b, kind, heap, settled->cell[k], nsources) != ASTAR_OK)
            return ASTAR_ENOMEM;
    for (v = m->synced_version + 1; v <= grid->version; v++)
        if (rederive_around(m, &b, kind, heap, grid->changes[v % ASTAR_CHANGE_LOG], nsources)
            != ASTAR_OK)
            return ASTAR_ENOMEM;
    while (heap->size > 0) {
        const size_t w = heap_pop(heap).cell;
        const unsigned s = m->step[w] & ASTAR_STEP_MASK, marked = m->step[w] & ST_CLOSED;
        m->step[w] &= (uint8_t)~ST_CLOSED;
        if (s < 8) {                        /* else a source: its own origin */
            const uint32_t o = m->origin[(long)w + b.off[s]];
            if (o == m->origin[w] && !marked)
                continue;
            if (o != m->origin[w] && astar_cell_list_push(moved, (uint32_t)w) != ASTAR_OK)
                return ASTAR_ENOMEM;
            m->origin[w] = o;
        } else if (!marked) {
            continue;
        }
        for (d = 0; d < 8; d++) {
            const size_t child = (size_t)((long)w + b.off[d]);
            if (steps_to(m, child, w) && heap_push(heap, m->dist[child], (uint32_t)child) != ASTAR_OK)
                return ASTAR_ENOMEM;
        }
    }
    return ASTAR_OK;
}

/* Does a run look at bordered cell z: a member, a source (ST_SOURCE) or a
 * neighbour of a member? */
static int looked_at(const AstarDistanceMap *m, const Board *b, int ndir, size_t z)
{
    int d;

    if (m->step[z] & (ASTAR_STEP_MEMBER | ST_SOURCE))
        return 1;
    for (d = 0; d < ndir; d++)
        if (m->step[(long)z + b->off[d]] & ASTAR_STEP_MEMBER)
            return 1;
    return 0;
}

/* Cell c and its neighbours as a run leaves them besides the members'
 * values: the grid's entry cost, and a wall looked at a start cell,
 * valued (distance.c). */
static void refresh_around(AstarDistanceMap *m, const AstarGrid *grid, const Board *b, int ndir,
                           size_t c, double max_cost)
{
    unsigned d;

    for (d = 0; d <= 8; d++) {
        const size_t z = d < 8 ? (size_t)((long)c + b->off[d]) : c;
        const size_t x = z % m->stride, y = z / m->stride;
        const uint8_t mark = (uint8_t)(m->step[z] & ST_SOURCE);
        int looked;

        if (x < 1 || x > m->width || y < 1 || y > m->height)
            continue;                        /* the border: never written */
        looked = looked_at(m, b, ndir, z);
        m->cost[z] = !grid->open[z] ? INFINITY : grid->cost ? grid->cost[z] : 1.0;
        if (m->step[z] & ASTAR_STEP_MEMBER)
            continue;
        m->dist[z] = INFINITY;
        m->origin[z] = 0;
        m->step[z] = (uint8_t)(mark | ASTAR_STEP_NONE);
        if (looked && !grid->open[z]) {
            m->step[z] = ASTAR_STEP_START | ASTAR_STEP_NONE;
            astar_distance_start(m, z, max_cost);
            m->step[z] |= mark;
        }
    }
}

/* The entry costs and start cells around what the repair changed: the
 * cells that left (r), were settled or changed their origin (moved), and
 * the edited cells. */
static void refresh_starts(AstarDistanceMap *m, const AstarGrid *grid,
                           const AstarDistanceSource *sources, size_t n, double max_cost,
                           const AstarCellList *r, const AstarCellList *settled,
                           const AstarCellList *moved)
{
    const AstarCellList *lists[3];
    const int ndir = m->diagonal == ASTAR_DIAGONAL_NEVER ? 4 : 8;
    Board b;
    uint64_t v;
    size_t k, j;

    lists[0] = r;
    lists[1] = settled;
    lists[2] = moved;
    board_init(&b, m->stride, m->diagonal, ASTAR_HEX_ODD_R, 1);
    for (k = 0; k < n; k++)                  /* as a run marks them (an edit cleared some) */
        m->step[astar_index(grid, sources[k].x, sources[k].y)] |= ST_SOURCE;
    for (j = 0; j < 3; j++)
        for (k = 0; k < lists[j]->size; k++)
            refresh_around(m, grid, &b, ndir, lists[j]->cell[k], max_cost);
    for (v = m->synced_version + 1; v <= grid->version; v++)
        refresh_around(m, grid, &b, ndir, grid->changes[v % ASTAR_CHANGE_LOG], max_cost);
}

/* Repairs m after the grid's logged changes; 0 when it will not (a run
 * is then due: too much to repair). */
static AstarError repair(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                         const AstarDistanceSource *sources, size_t n, double max_cost,
                         int *done)
{
    AstarOpenScratch *os = astar_range_open(scratch);
    AstarCellList *r = &os->bucket[0], *settled = &os->bucket[1], *moved = &os->bucket[2];
    const int track = max_cost < INFINITY;
    uint32_t box[4];
    OpenList open;
    uint64_t v;
    size_t k;
    AstarError e;

    *done = 0;
    r->size = settled->size = moved->size = 0;
    for (v = m->synced_version + 1; v <= grid->version; v++) {
        const size_t c = grid->changes[v % ASTAR_CHANGE_LOG];
        m->cost[c] = !grid->open[c] ? INFINITY : grid->cost ? grid->cost[c] : 1.0;
        if (!(m->step[c] & ASTAR_STEP_MEMBER)) {   /* a start cell no more, till refreshed */
            m->step[c] = ASTAR_STEP_NONE;
            m->dist[c] = INFINITY;
        }
    }
    if (repair_region(m, grid, r) != ASTAR_OK)
        return ASTAR_ENOMEM;
    if (r->size > m->reached / 4 + 64)
        return ASTAR_OK;                    /* a run costs about as much */
    open_heap(&open, &os->heap);
    for (k = 0; k < r->size; k++)
        if (seed_around(m, open.heap, r->cell[k]) != ASTAR_OK)
            return ASTAR_ENOMEM;
    for (v = m->synced_version + 1; v <= grid->version; v++)
        if (seed_around(m, open.heap, grid->changes[v % ASTAR_CHANGE_LOG]) != ASTAR_OK)
            return ASTAR_ENOMEM;
    for (k = 0; k < n; k++) {               /* the sources, as a run offers them */
        const size_t c = astar_index(grid, sources[k].x, sources[k].y);
        const double value = sources[k].value;
        if (m->cost[c] == INFINITY || !(value <= max_cost) || !(value < m->dist[c]))
            continue;
        m->dist[c] = value;
        m->step[c] = ASTAR_STEP_END;
        m->origin[c] = (uint32_t)k;
        if (heap_push(open.heap, value, (uint32_t)c) != ASTAR_OK)
            return ASTAR_ENOMEM;
    }
    memcpy(box, m->box, sizeof box);
    m->box[0] = m->box[1] = UINT32_MAX;
    m->box[2] = m->box[3] = 0;
    e = astar_distance_flood(m, grid, &open, max_cost, track, settled);
    if (e != ASTAR_OK)
        return e;
    if (track) {                            /* what this run wrote and what the last did */
        m->box[0] = box[0] < m->box[0] ? box[0] : m->box[0];
        m->box[1] = box[1] < m->box[1] ? box[1] : m->box[1];
        m->box[2] = box[2] > m->box[2] ? box[2] : m->box[2];
        m->box[3] = box[3] > m->box[3] ? box[3] : m->box[3];
    }
    e = repair_steps(m, grid, scratch, settled, n, moved);
    if (e != ASTAR_OK)
        return e;
    refresh_starts(m, grid, sources, n, max_cost, r, settled, moved);
    m->reached = 0;
    {
        uint32_t x, y;
        for (y = m->box[1]; y <= m->box[3]; y++)
            for (x = m->box[0]; x <= m->box[2]; x++)
                m->reached += (m->step[(size_t)y * m->stride + x] & ASTAR_STEP_MEMBER) != 0;
    }
    m->synced_version = grid->version;
    *done = 1;
    return ASTAR_OK;
}

AstarError astar_distance_update(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                                 const AstarDistanceSource *sources, size_t n, double max_cost,
                                 AstarCellRule rule, void *user, AstarMoveRule move_rule,
                                 void *move_user, int *aborted)
{
    const uint64_t changes = grid->version - m->synced_version;
    int done = 0;

    *aborted = 0;
    if (m->synced == grid && !m->synced_rule && !rule && !move_rule && !m->moves
        && !astar_moves_any(grid) && m->size == 1 && !m->hex && changes <= REPAIR_MAX_CHANGES) {
        AstarError e = changes ? repair(scratch, grid, m, sources, n, max_cost, &done) : ASTAR_OK;
        if (e != ASTAR_OK) {
            astar_distance_forget(m);
            return e;
        }
        if (done || !changes)
            return ASTAR_OK;
    }
    return astar_distance_run_moves(scratch, grid, m, sources, n, max_cost, rule, user, move_rule,
                                    move_user, aborted);
}
