/*
 * Queries: preparing a search, choosing A* or jump point search, checking
 * the goal, restarting after changes, running the kernels (kernels.h) and
 * feeding the component labels. Layer 6 (queries): the loops (layer 5)
 * write the record (search_record.c, layer 4), described in
 * search_internal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "clearance.h"
#include "components.h"
#include "jumps.h"
#include "kernels.h"
#include "moves.h"
#include "search_internal.h"
#include "smooth.h"
#include "terrain.h"

AstarSearch *astar_search_new(void)
{
    AstarSearch *search = calloc(1, sizeof *search);
    if (search) {
        search->status = ASTAR_NO_PATH;
        search->ran = ASTAR_ALGORITHM_ASTAR;
    }
    return search;
}

void astar_search_free(AstarSearch *search)
{
    if (!search)
        return;
    free(search->g);
    free(search->stamp);
    heap_free(&search->open);
    free(search->ties);
    free(search->recorded);
    free(search->rule_cost);
    free(search->rule_stamp);
    free(search->target);
    free(search->via);
    free(search->parent);
    free(search->goal_list);
    free(search->wall_list);
    free(search->walls_closed);
    free(search->large_closed);
    free(search->walk);
    free(search->walk_w);
    free(search);
}

static void free_general(AstarSearch *search)
{
    free(search->rule_cost);
    free(search->rule_stamp);
    free(search->target);
    search->rule_cost = NULL;
    search->rule_stamp = search->target = NULL;
    search->general_capacity = 0;
}

static AstarError reserve_scratch(AstarSearch *search, size_t cells)
{
    double *g;
    uint16_t *stamp;

    if (cells <= search->capacity)
        return ASTAR_OK;
    g = malloc(cells * sizeof *g);
    stamp = calloc(cells, sizeof *stamp);
    if (!g || !stamp) {
        free(g);
        free(stamp);
        return ASTAR_ENOMEM;
    }
    free(search->g);
    free(search->stamp);
    free_general(search);            /* its stamps belong to the old generations */
    search->g = g;
    search->stamp = stamp;
    search->capacity = cells;
    search->generation = 0;
    return ASTAR_OK;
}

/* The general variants' scratch (search_internal.h), sized like the rest. */
static AstarError reserve_general(AstarSearch *search)
{
    size_t cells = search->capacity;
    if (search->general_capacity >= cells)
        return ASTAR_OK;
    free_general(search);
    search->rule_cost = malloc(cells * sizeof *search->rule_cost);
    search->rule_stamp = calloc(cells, sizeof *search->rule_stamp);
    search->target = calloc(cells, sizeof *search->target);
    if (!search->rule_cost || !search->rule_stamp || !search->target) {
        free_general(search);
        return ASTAR_ENOMEM;
    }
    search->general_capacity = cells;
    return ASTAR_OK;
}

/* A query with moves: via[] for every cell (search_internal.h). */
static AstarError reserve_via(AstarSearch *search)
{
    if (search->via_capacity >= search->capacity)
        return ASTAR_OK;
    free(search->via);
    search->via = malloc(search->capacity * sizeof *search->via);
    search->via_capacity = search->via ? search->capacity : 0;
    return search->via ? ASTAR_OK : ASTAR_ENOMEM;
}

/* An any-angle query: parent[] for every cell (search_internal.h). */
static AstarError reserve_parent(AstarSearch *search)
{
    if (search->parent_capacity >= search->capacity)
        return ASTAR_OK;
    free(search->parent);
    search->parent = malloc(search->capacity * sizeof *search->parent);
    search->parent_capacity = search->parent ? search->capacity : 0;
    return search->parent ? ASTAR_OK : ASTAR_ENOMEM;
}

/* Does the query run any-angle search (AstarOptions.smooth THETA)? Only where
 * straight lines between cell centres are its moves: a square board, one
 * cell, diagonal moves, no overrides, links or move rule (s->moved). */
static int runs_theta(const AstarSearch *s, const AstarOptions *o)
{
    return o->smooth == ASTAR_SMOOTH_THETA && !s->grid->hex && s->size == 1 && !s->moved
           && o->diagonal != ASTAR_DIAGONAL_NEVER;
}

/* Copies the query's goals (at least one) into the search. */
static AstarError keep_goals(AstarSearch *s, const AstarOptions *o, uint32_t gx, uint32_t gy)
{
    size_t n = o->goal_count ? o->goal_count : 1;
    if (n > s->goal_capacity) {
        uint32_t *list;
        if (n > ((size_t)-1) / (2 * sizeof *list))
            return ASTAR_ENOMEM;
        list = (uint32_t *)realloc(s->goal_list, 2 * n * sizeof *list);
        if (!list)
            return ASTAR_ENOMEM;
        s->goal_list = list;
        s->goal_capacity = n;
    }
    if (o->goal_count) {
        if (o->goals != s->goal_list)      /* a restart passes the search's own copy */
            memcpy(s->goal_list, o->goals, 2 * n * sizeof *s->goal_list);
    } else {
        s->goal_list[0] = gx;
        s->goal_list[1] = gy;
    }
    s->ngoals = n;
    return ASTAR_OK;
}

/* Copies the query's own walls into the search (a restart passes its own copy). */
static AstarError keep_walls(AstarSearch *s, const AstarOptions *o)
{
    size_t n = o->wall_count;
    if (n > s->walls_capacity) {
        uint32_t *list = (uint32_t *)realloc(s->wall_list, 2 * n * sizeof *list);
        if (!list)
            return ASTAR_ENOMEM;
        s->wall_list = list;
        list = (uint32_t *)realloc(s->walls_closed, n * sizeof *list);
        if (!list)
            return ASTAR_ENOMEM;
        s->walls_closed = list;
        s->walls_capacity = n;
    }
    if (n && o->walls != s->wall_list)
        memcpy(s->wall_list, o->walls, 2 * n * sizeof *s->wall_list);
    s->nwalls = n;
    s->nclosed = 0;
    return ASTAR_OK;
}

/* Is bordered cell one of the query's own walls? O(walls), once a query. */
static int wall_listed(const AstarSearch *s, uint32_t cell)
{
    size_t i;
    if (s->size > 1)
        return astar_large_wall_listed(s, cell);
    for (i = 0; i < s->nwalls; i++)
        if (astar_index(s->grid, s->wall_list[2 * i], s->wall_list[2 * i + 1]) == cell)
            return cell != s->start;
    return 0;
}

/* Writes the query's walls into the grid for one step (the start stays as
 * it is), remembering which cells it closed; walls_off writes them back.
 * Between the two no Lua code runs (the binding gives walls only to queries
 * whose rules are tables), so no one else sees them. */
static void walls_on(AstarSearch *s)
{
    AstarGrid *grid = (AstarGrid *)s->grid;   /* a grid is never const: see AstarOptions.walls */
    size_t i;
    if (s->size > 1) {
        astar_large_walls_on(s);
        return;
    }
    s->nclosed = 0;
    for (i = 0; i < s->nwalls; i++) {
        uint32_t cell = (uint32_t)astar_index(grid, s->wall_list[2 * i], s->wall_list[2 * i + 1]);
        if (grid->open[cell] && cell != s->start) {
            astar_grid_put_open(grid, cell, 0);
            s->walls_closed[s->nclosed++] = cell;
        }
    }
}

static void walls_off(AstarSearch *s)
{
    AstarGrid *grid = (AstarGrid *)s->grid;
    const uint32_t *closed = s->size > 1 ? s->large_closed : s->walls_closed;
    while (s->nclosed > 0)
        astar_grid_put_open(grid, closed[--s->nclosed], 1);
}

/* Uniform costs: every cell holds the lowest cost, known exactly. */
int astar_jps_supported(const AstarGrid *grid, AstarDiagonal diagonal)
{
    return (diagonal == ASTAR_DIAGONAL_NEVER || diagonal == ASTAR_DIAGONAL_NO_OBSTACLES)
           && !grid->min_stale && grid->min_count == (size_t)grid->width * grid->height;
}

/* Does jump point search with costs (jps.c) run here: where it pays
 * (terrain.h, terrain_pays), in 8 directions with its stop lines built and
 * not with a query's own walls (the stop lines are kept by setWalkable and
 * setCost, not by those)? */
static int weighted_jps_pays(const AstarGrid *grid, const AstarOptions *o)
{
    const struct AstarTerrain *t = grid->terrain;
    if (!t)
        return 0;
    if (o->diagonal == ASTAR_DIAGONAL_NO_OBSTACLES)
        return o->wall_count == 0 && t->row_stops[0] && terrain_pays(t, 0);
    return o->diagonal == ASTAR_DIAGONAL_NEVER && terrain_pays(t, 1);
}

/* Would JPS give the same answer as A* here? */
static AstarAlgorithm choose(const AstarGrid *grid, const AstarOptions *o)
{
    int admissible = o->heuristic != ASTAR_HEURISTIC_MANHATTAN
                     || o->diagonal == ASTAR_DIAGONAL_NEVER;

    if (o->algorithm == ASTAR_ALGORITHM_ASTAR || grid->hex
        || (!astar_jps_supported(grid, o->diagonal) && !weighted_jps_pays(grid, o))
        || o->rule || o->goal_count > SEARCH_JPS_MAX_GOALS || o->bounded)
        return ASTAR_ALGORITHM_ASTAR;
    /* With an inadmissible heuristic (a weight above 1, Manhattan in 8
     * directions) the path found may cross itself, and a crossing cell
     * cannot hold the direction of both of its jump lines: A*, always. */
    if (o->weight != 1.0 || !admissible)
        return ASTAR_ALGORITHM_ASTAR;
    return o->algorithm == ASTAR_ALGORITHM_JPS || !o->partial ? ASTAR_ALGORITHM_JPS
                                                              : ASTAR_ALGORITHM_ASTAR;
}

/* The jump tables serve jump point search to one goal cell on the grid's
 * own cells (kernels.h: jps.c reads them when they are up to date). */
void astar_grid_prepare_jumps(AstarGrid *grid, const AstarOptions *o)
{
    if (grid->hex || o->size > 1 || o->goal_count || o->near || o->rule || o->move_rule
        || astar_moves_any(grid)
        || (o->smooth == ASTAR_SMOOTH_THETA && o->diagonal != ASTAR_DIAGONAL_NEVER)
        || choose(grid, o) != ASTAR_ALGORITHM_JPS)
        return;
    astar_jumps_refresh(grid);   /* on ENOMEM the query scans as plain jump point search */
}

/* Is bordered (x, y) within the query's distance `near` of goal i? */
static int in_region(const AstarSearch *s, size_t i, long x, long y)
{
    long dx = x - (long)s->goal_list[2 * i] - 1, dy = y - (long)s->goal_list[2 * i + 1] - 1;
    long n = (long)s->options.near;
    if (s->grid->hex)
        return astar_hex_in_region(s, i, x, y);
    dx = dx < 0 ? -dx : dx;
    dy = dy < 0 ? -dy : dy;
    if (s->options.diagonal == ASTAR_DIAGONAL_NEVER)
        return dx + dy <= n;
    return dx <= n && dy <= n;
}

/* Marks the cells that end the path (every goal's region, in the grid) for
 * the current generation. */
static void mark_targets(AstarSearch *s)
{
    const AstarGrid *grid = s->grid;
    uint16_t gen = (uint16_t)search_gen(s);
    long n = (long)s->options.near;
    size_t i;

    for (i = 0; i < s->ngoals; i++) {
        long gx = (long)s->goal_list[2 * i] + 1, gy = (long)s->goal_list[2 * i + 1] + 1;
        long x0 = gx - n < 1 ? 1 : gx - n, x1 = gx + n > (long)grid->width ? (long)grid->width : gx + n;
        long y0 = gy - n < 1 ? 1 : gy - n, y1 = gy + n > (long)grid->height ? (long)grid->height : gy + n;
        long x, y;
        for (y = y0; y <= y1; y++)
            for (x = x0; x <= x1; x++)
                if (in_region(s, i, x, y))
                    s->target[(size_t)y * grid->stride + (size_t)x] = gen;
    }
}

/* The heuristic's boxes around the goals (search_box_distance): one per
 * goal, or one around them all past SEARCH_MAX_BOXES goals. */
static void set_boxes(AstarSearch *s)
{
    int n = (int)s->options.near, one = s->ngoals > SEARCH_MAX_BOXES;
    size_t i;

    s->nboxes = 0;
    for (i = 0; i < s->ngoals; i++) {
        int gx = (int)s->goal_list[2 * i] + 1, gy = (int)s->goal_list[2 * i + 1] + 1;
        int b[4];
        b[0] = gx - n;
        b[1] = gx + n;
        b[2] = gy - n;
        b[3] = gy + n;
        if (one && i > 0) {
            int *u = s->box[0];
            u[0] = b[0] < u[0] ? b[0] : u[0];
            u[1] = b[1] > u[1] ? b[1] : u[1];
            u[2] = b[2] < u[2] ? b[2] : u[2];
            u[3] = b[3] > u[3] ? b[3] : u[3];
        } else {
            memcpy(s->box[s->nboxes++], b, sizeof b);
        }
    }
}

/* Starts the open list from the start cell with the chosen algorithm. */
static AstarError restart(AstarSearch *s, AstarAlgorithm algorithm)
{
    if (++s->generation == STAMP_GEN_LIMIT) {
        memset(s->stamp, 0, s->capacity * sizeof *s->stamp);
        if (s->general_capacity) {
            memset(s->rule_stamp, 0, s->general_capacity * sizeof *s->rule_stamp);
            memset(s->target, 0, s->general_capacity * sizeof *s->target);
        }
        s->generation = 1;
    }
    if (s->general) {
        mark_targets(s);
    }
    if (s->general && s->size == 1) {
        /* never ask the rule about the start: the grid's cost stands there */
        s->rule_cost[s->start] = s->grid->cost ? s->grid->cost[s->start] : 1.0;
        s->rule_stamp[s->start] = (uint16_t)search_gen(s);
    }
    s->ran = algorithm;
    s->smoothed = 0;
    heap_clear(&s->open);
    s->ties_size = 0;
    s->ties_f = -1.0;
    s->recorded_size = 0;            /* a fallback to A* records A*'s cells only */
    s->g[s->start] = 0.0;
    s->stamp[s->start] = (uint16_t)search_gen(s);
    s->best = s->start;
    s->best_distance = astar_search_closeness(s, s->start);
    s->best_g = 0.0;
    return heap_push(&s->open, 0.0, s->start);
}

/* weight * the lowest entry cost a query can meet (the grid's, or with a
 * rule the lower of the grid's and the rule's own bound), capped so that h
 * and f stay finite, never inf or NaN. */
static double heuristic_scale(const AstarGrid *grid, const AstarOptions *o)
{
    double lowest = grid->min_cost, scale;
    if (o->rule && o->rule_min_cost < lowest)
        lowest = o->rule_min_cost;
    if (grid->moves && grid->moves->min_ratio < lowest)
        lowest = grid->moves->min_ratio;     /* an override cheaper than its step */
    if (o->move_rule)
        lowest = 0.0;                        /* it may price a move at anything */
    scale = o->weight * lowest;
    return scale < ASTAR_MAX_H_SCALE ? scale : ASTAR_MAX_H_SCALE;
}

/* Would the component labels, when they prove it, answer this query's goal
 * unreachable without a search? Only a query whose start checks its one goal
 * cell (check_goal), in a mode the labels serve, on a square grid. */
static int labels_answer(const AstarSearch *s)
{
    return s->goal_checked && s->size == 1 && !s->grid->hex
           && s->options.diagonal != ASTAR_DIAGONAL_ALWAYS;
}

static int labels_cut_off(const AstarSearch *s)
{
    return labels_answer(s)
           && !astar_components_maybe_reachable(s->grid, s->start, s->goal, s->options.diagonal);
}

/* The start-of-query checks of a query with one goal cell (no near, no
 * partial result), the same for findPath, a stepped search's start and its
 * restarts: the goal blocked (a wall, one of the query's walls, impassable or
 * not to be ended on by its rule, no room for a large unit), else cut off
 * from the start by the component labels, else searching. ASTAR_EABORTED
 * when the rule stopped the query. */
static AstarError check_goal(AstarSearch *s, AstarStatus *verdict)
{
    double e = INFINITY;
    if (s->grid->open[s->goal] && !wall_listed(s, s->goal))
        e = s->large ? astar_large_goal(s)
            : s->options.rule ? astar_search_ask_rule(s, s->goal) : 1.0;
    if (e != e)
        return ASTAR_EABORTED;
    *verdict = e == INFINITY || e < 0 ? ASTAR_GOAL_BLOCKED
               : labels_cut_off(s)   ? ASTAR_NO_PATH     /* known without a search */
                                     : ASTAR_SEARCHING;
    return ASTAR_OK;
}

/* The rest of astar_search_begin for a query of the general variants. */
static AstarError begin_general(AstarSearch *s)
{
    AstarStatus verdict = ASTAR_SEARCHING;
    set_boxes(s);
    if (restart(s, s->ran) != ASTAR_OK)   /* JPS for a short goal list on a plain grid */
        return ASTAR_ENOMEM;
    if (s->target[s->start] == (uint16_t)search_gen(s)) {   /* already there */
        astar_search_finish(s, ASTAR_FOUND, s->start);
        return ASTAR_OK;
    }
    if (s->goal_checked && check_goal(s, &verdict) != ASTAR_OK)
        return ASTAR_EABORTED;
    s->status = verdict;
    return ASTAR_OK;
}

AstarError astar_search_begin(AstarSearch *s, const AstarGrid *grid,
                              uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                              const AstarOptions *options)
{
    int d;

    s->status = ASTAR_NO_PATH;
    s->smoothed = 0;                /* an earlier query's points are not this one's */
    s->theta = 0;                              /* until its scratch is there */
    s->expanded = s->touched = 0;
    s->restarts = 0;
    s->earlier_expanded = s->earlier_touched = 0;
    s->stale_work = 0;
    s->recording = s->record_next;
    s->recorded_size = 0;
    if (reserve_scratch(s, grid->cells) != ASTAR_OK)
        return ASTAR_ENOMEM;
    s->base = grid;
    s->size = 1;
    s->large = 0;
    if (options->size > 1) {
        /* a large unit: the query runs on the layer where it fits (clearance.c),
         * built here the first time (a grid is never const: see walls) */
        AstarGrid *layer;
        uint32_t used;
        if (astar_grid_layer((AstarGrid *)grid, options->size, &layer, &used) != ASTAR_OK)
            return ASTAR_ENOMEM;
        grid = layer;
        s->size = used;
        s->large = s->base->cost != NULL || options->rule != NULL || astar_moves_any(s->base)
                   || options->move_rule != NULL;
    }
    s->moved = astar_moves_any(s->base) || options->move_rule != NULL;
    s->h_links = NAN;
    s->link_edits = s->base->moves ? s->base->moves->link_edits : 0;
    s->grid = grid;
    s->grid_version = grid->version;
    s->options = *options;
    if ((unsigned)s->options.algorithm > ASTAR_ALGORITHM_JPS)
        s->options.algorithm = ASTAR_ALGORITHM_AUTO;
    if (s->options.near > grid->width + grid->height)
        s->options.near = grid->width + grid->height;   /* as far as any cell is */
    s->general = options->rule || options->goal_count || options->near || options->bounded
                 || s->large
                 || grid->hex                  /* hex boards: hex A* (hex.c) */
                 || runs_theta(s, options);    /* one loop, the general goal test */
    if (keep_goals(s, options, gx, gy) != ASTAR_OK || keep_walls(s, options) != ASTAR_OK
        || (s->general && reserve_general(s) != ASTAR_OK)
        || (s->moved && reserve_via(s) != ASTAR_OK)
        || (runs_theta(s, options) && reserve_parent(s) != ASTAR_OK)
        || (s->size > 1 && astar_large_reserve_walls(s) != ASTAR_OK))
        return ASTAR_ENOMEM;
    s->theta = runs_theta(s, options);
    s->options.goals = s->goal_list;          /* copied: the caller's may go */
    s->options.walls = s->wall_list;
    if (options->goal_count) {
        gx = s->goal_list[0];
        gy = s->goal_list[1];
    }
    for (d = 0; d < 8; d++)
        s->offset[d] = ASTAR_DIR_DY[d] * (long)grid->stride + ASTAR_DIR_DX[d];
    s->start = (uint32_t)astar_index(grid, sx, sy);
    s->goal = (uint32_t)astar_index(grid, gx, gy);
    s->goal_x = (int)gx + 1;
    s->goal_y = (int)gy + 1;
    s->h_scale = heuristic_scale(s->base, options);
    s->inv_stride = 1.0 / (double)grid->stride;
    s->bound = options->bounded ? options->max_cost * (1.0 + BOUND_SLACK) : INFINITY;
    /* jump point search knows no overrides, links or segments: A* */
    s->ran = s->large || s->moved || s->theta ? ASTAR_ALGORITHM_ASTAR : choose(grid, &s->options);
    s->end = s->start;
    s->length = 1;
    s->cost = 0.0;
    s->touched = 1;                            /* the start */
    s->goal_checked = s->ngoals == 1 && s->options.near == 0 && !options->partial;

    if (s->general)
        return begin_general(s);
    if (s->start == s->goal) {
        s->g[s->start] = 0.0;
        s->status = ASTAR_FOUND;
        return ASTAR_OK;
    }
    if (s->goal_checked) {
        AstarStatus verdict = ASTAR_SEARCHING;
        check_goal(s, &verdict);               /* no rule here: never aborted */
        if (verdict != ASTAR_SEARCHING) {
            s->status = verdict;
            return ASTAR_OK;
        }
    }
    if (restart(s, s->ran) != ASTAR_OK)
        return ASTAR_ENOMEM;
    s->status = ASTAR_SEARCHING;
    return ASTAR_OK;
}

static AstarStatus fail(AstarSearch *s, AstarError reason, AstarError *error)
{
    if (error)
        *error = reason;
    s->status = ASTAR_NO_PATH;
    heap_clear(&s->open);
    s->ties_size = 0;
    return s->status;
}

/* Nonzero when a change to the grid since the search last looked may alter
 * what it has read, so that going on could give an answer for neither grid.
 * A* reads, for each cell it expands, the walls and costs of the cell and its
 * 8 neighbours (the sides of a diagonal move included), and every cell it
 * expands has been touched (given a g value); so a changed cell with no
 * touched cell among itself and its 8 neighbours was never read, and the
 * search is exactly the one a new query would have run so far on the grid as
 * it is now. The heuristic reads the lowest cost, through h_scale. Jump point
 * search reads whole lines without touching the cells: any change. The start
 * of a query with one goal cell also read that cell (check_goal), and kept
 * its rule's answer: a change there, however far. When more changes happened
 * than the grid remembers, they cannot be checked. An any-angle query's
 * segments read cells it never touched: any change. O(changes), 9 stamps per
 * change, at most ASTAR_CHANGE_LOG changes. */
static int disturbed(const AstarSearch *s)
{
    const AstarGrid *grid = s->grid;
    uint64_t v, now = grid->version;
    unsigned gen = search_gen(s);
    long w = (long)grid->stride, dy, dx;

    if (s->size > 1 || s->theta)
        return 1;   /* a large unit: its layer and its costs are read cell by cell */
    if (s->ran == ASTAR_ALGORITHM_JPS || now - s->grid_version > ASTAR_CHANGE_LOG
        || heuristic_scale(grid, &s->options) != s->h_scale)
        return 1;
    /* moves or links came or went, or a link changed (the links' bound) */
    if ((astar_moves_any(grid) || s->options.move_rule) != s->moved
        || (grid->moves && grid->moves->link_edits != s->link_edits))
        return 1;
    for (v = s->grid_version + 1; v <= now; v++) {
        long cell = (long)grid->changes[v % ASTAR_CHANGE_LOG];
        if (cell == (long)s->goal && s->goal_checked)
            return 1;   /* the start's checks read it (check_goal), the rule's answer too */
        for (dy = -w; dy <= w; dy += w)
            for (dx = -1; dx <= 1; dx++)
                if ((s->stamp[cell + dy + dx] & STAMP_GEN_MASK) == gen)
                    return 1;
    }
    return 0;
}

/* Starts the query again from scratch on the grid as it is now, with the
 * same ends and options, keeping whether it records its expanded cells, and
 * counts the restart and the work done so far (astar_search_expanded). A query that ran jump point search runs A* from then
 * on: any change restarts jump point search, so on a grid changed between
 * every two steps it could never finish, while A* goes on through changes
 * it has not reached (same optimal cost; A* may pick another path among
 * equally cheap ones). Otherwise the algorithm is chosen again. */
static AstarError restart_query(AstarSearch *s)
{
    AstarOptions options = s->options;
    const AstarGrid *grid = s->base;    /* not a large unit's layer */
    size_t restarts = s->restarts, stale_work = s->stale_work;
    size_t expanded = astar_search_expanded(s), touched = astar_search_touched(s);
    int record_next = s->record_next;
    AstarError e;

    if (s->ran == ASTAR_ALGORITHM_JPS)
        options.algorithm = ASTAR_ALGORITHM_ASTAR;
    s->record_next = s->recording;
    e = astar_search_begin(s, grid, astar_cell_x(s, s->start), astar_cell_y(s, s->start),
                           astar_cell_x(s, s->goal), astar_cell_y(s, s->goal), &options);
    s->record_next = record_next;
    s->restarts = restarts + 1;
    s->stale_work = stale_work;
    s->earlier_expanded = expanded;
    s->earlier_touched = touched;
    return e;
}

/* Must a stepped query start again before it goes on? When a change since
 * its last step reached what it read (disturbed), and when the component
 * labels now prove its goal cut off (a wall closed since, once the labels
 * were rebuilt: astar_search_prepare_step), so that a restart answers at once
 * as a new query would (check_goal). */
static int must_start_again(AstarSearch *s)
{
    if (s->grid->version != s->grid_version) {
        if (disturbed(s))
            return 1;
        s->grid_version = s->grid->version;   /* nothing it read changed */
    }
    return labels_cut_off(s);
}

/* ---- smoothing the result (issue 20, docs/paths.md) ---------------------- */

/* What a query that asked for sight or theta gets: corners where straight
 * lines mean nothing (hex, a large unit, moves, 4 directions). */
static AstarSmooth smoothing(const AstarSearch *s)
{
    AstarSmooth mode = s->options.smooth;
    if ((mode == ASTAR_SMOOTH_SIGHT || mode == ASTAR_SMOOTH_THETA)
        && (s->base->hex || s->size > 1 || s->moved
            || s->options.diagonal == ASTAR_DIAGONAL_NEVER))
        return ASTAR_SMOOTH_CORNERS;
    return mode;
}

/* The segment model's price of a cell for this query: what the kernels
 * enter it for (the query's walls are in the grid while it steps), a
 * cell the path may not end on being one it may cross. */
static double query_price(void *user, uint32_t cell)
{
    AstarSearch *s = (AstarSearch *)user;
    double c;
    if (!s->grid->open[cell])
        return INFINITY;
    if (!s->options.rule)
        return s->grid->cost ? s->grid->cost[cell] : 1.0;
    c = s->rule_stamp[cell] == (uint16_t)search_gen(s) ? s->rule_cost[cell]
                                                        : astar_search_ask_rule(s, cell);
    return c < 0 ? -c : c;
}

static AstarError reserve_walk(AstarSearch *s, size_t n)
{
    uint32_t *walk;
    double *w;
    size_t capacity;
    if (n <= s->walk_capacity)
        return ASTAR_OK;
    capacity = n < 256 ? 256 : n + n / 2;
    walk = (uint32_t *)realloc(s->walk, capacity * sizeof *walk);
    if (walk)
        s->walk = walk;
    w = walk ? (double *)realloc(s->walk_w, capacity * sizeof *w) : NULL;
    if (!w)
        return ASTAR_ENOMEM;
    s->walk_w = w;
    s->walk_capacity = capacity;
    return ASTAR_OK;
}

/* Copies the ended query's path (theta's waypoints, or the walk) into
 * s->walk, then smooths it there; from then on the readers give it. */
static AstarError smooth_result(AstarSearch *s)
{
    size_t n = s->length, i;
    AstarSmooth mode = smoothing(s);
    AstarPathCursor at;

    if (reserve_walk(s, n) != ASTAR_OK)
        return ASTAR_ENOMEM;
    astar_path_end(s, &at);
    for (i = n; i-- > 0;) {
        s->walk[i] = at.cell;
        if (i > 0)
            astar_path_back(s, &at);
    }
    s->walk_n = n;
    s->walk_cost = s->cost;
    if (mode == ASTAR_SMOOTH_CORNERS) {
        s->walk_n = smooth_corners(s->grid->stride, s->base->hex, s->walk, n);
    } else {
        SegmentModel m;
        m.grid = s->grid;
        m.diagonal = s->options.diagonal;
        m.price = s->options.rule ? query_price : NULL;  /* NULL: the same prices, */
        m.user = s;                                        /* read in place */
        if (mode == ASTAR_SMOOTH_SIGHT) {
            if (smooth_walk_costs(&m, s->walk, n, s->walk_w) < 0
                || smooth_sight(&m, s->walk, n, s->walk_w, &s->walk_n, &s->walk_cost) < 0)
                return ASTAR_EABORTED;
        } else {   /* theta's waypoints: summed as a path's is (segment.h); the
                    * search priced their lines and passed their corners */
            s->walk_cost = segment_polyline_cost(&m, s->walk, n);
            if (s->walk_cost != s->walk_cost)
                return ASTAR_EABORTED;
        }
    }
    s->smoothed = 1;
    return ASTAR_OK;
}

/* Expands up to max_expansions nodes of a searching query, with the query's
 * walls written into the grid meanwhile, and sets the status when it ends
 * (smoothing the path then, walls still on: they are the query's). */
static AstarStatus expand(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    AstarError e = ASTAR_OK;
    AstarStatus status;

    walls_on(s);
    for (;;) {
        status = s->ran == ASTAR_ALGORITHM_JPS ? astar_run_jps(s, max_expansions, &e)
                 : s->large                    ? astar_run_large(s, max_expansions, &e)
                 : s->theta                    ? astar_run_theta(s, max_expansions, &e)
                                               : astar_run_astar(s, max_expansions, &e);
        if (e != ASTAR_OK || status != ASTAR_NO_PATH)
            break;
        /* Out of open cells. A partial result needs the cells A* reaches. */
        if (!s->options.partial || s->ran == ASTAR_ALGORITHM_ASTAR)
            break;
        if ((e = restart(s, ASTAR_ALGORITHM_ASTAR)) != ASTAR_OK)
            break;
    }
    if (e == ASTAR_OK && status == ASTAR_NO_PATH && s->options.partial) {
        astar_search_finish(s, ASTAR_PARTIAL, s->best);
        status = ASTAR_PARTIAL;
    }
    if (e == ASTAR_OK && (status == ASTAR_FOUND || status == ASTAR_PARTIAL)
        && s->options.smooth != ASTAR_SMOOTH_NONE)
        e = smooth_result(s);
    walls_off(s);
    if (e != ASTAR_OK)
        return fail(s, e, error);
    if (status != ASTAR_NO_PATH)
        return status;
    s->status = s->general || s->grid->open[s->goal] ? ASTAR_NO_PATH : ASTAR_GOAL_BLOCKED;
    return s->status;
}

AstarStatus astar_search_step(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    AstarError e;
    AstarStatus status;
    size_t before;

    if (error)
        *error = ASTAR_OK;
    if (s->status != ASTAR_SEARCHING)
        return s->status;
    if (must_start_again(s)) {
        if ((e = restart_query(s)) != ASTAR_OK)
            return fail(s, e, error);   /* ENOMEM, or a rule stopped it */
        if (s->status != ASTAR_SEARCHING)
            return s->status;
    }
    before = s->expanded;
    status = expand(s, max_expansions, error);
    if (labels_answer(s) && !astar_grid_components_fresh(s->grid))
        s->stale_work += astar_components_work(s->grid, s->ran, s->expanded - before);
    return status;
}

void astar_search_prepare_step(AstarSearch *s, AstarGrid *grid)
{
    astar_grid_refresh_min_cost(grid);
    if (s->stale_work > 0 && s->status == ASTAR_SEARCHING && s->grid == grid) {
        astar_components_note_waste(grid, s->stale_work);
        s->stale_work = 0;
    }
}

/* The labels are the grid's cache (components.c); what a failed query read
 * is the search's, so it is read here and handed down. */
void astar_grid_note_no_path(AstarGrid *grid, const AstarSearch *search)
{
    if (search->status != ASTAR_NO_PATH || search->expanded == 0)
        return;
    astar_components_note_waste(grid, astar_components_work(grid, search->ran, search->expanded));
}

AstarStatus astar_search_run(AstarSearch *search, const AstarGrid *grid,
                             uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                             const AstarOptions *options, AstarError *error)
{
    AstarError e = astar_search_begin(search, grid, sx, sy, gx, gy, options);
    if (error)
        *error = e;
    if (e != ASTAR_OK)
        return ASTAR_NO_PATH;
    if (search->status != ASTAR_SEARCHING)
        return search->status;
    return expand(search, 0, error);   /* just begun: nothing to check */
}

size_t astar_search_goal_index(const AstarSearch *s)
{
    long x, y;
    size_t i;
    if (!s->grid || s->ngoals == 0)
        return (size_t)-1;
    x = search_cell_x(s, s->end);
    y = search_cell_y(s, s->end);
    for (i = 0; i < s->ngoals; i++)
        if (in_region(s, i, x, y))
            return i;
    return (size_t)-1;
}
size_t astar_search_memory(const AstarSearch *s)
{
    return sizeof *s + s->capacity * (sizeof *s->g + sizeof *s->stamp)
           + heap_bytes(&s->open) + s->ties_capacity * sizeof *s->ties
           + s->recorded_capacity * sizeof *s->recorded
           + s->walls_capacity * 3 * sizeof *s->wall_list
           + s->walk_capacity * (sizeof *s->walk + sizeof *s->walk_w)
           + s->parent_capacity * sizeof *s->parent;
}
