/*
 * Binding for the tactics layer (lua/astar/tactics.lua): movement ranges and
 * attack areas, on the core's range.c.
 *
 * Queries follow the ownership rules of lua_grid.h: the grid's range scratch
 * is lent to a query while its Lua callbacks run (a query made from a
 * callback gets temporary scratch); callbacks run under lua_pcall, and after
 * each one the query stops if the grid was closed (an error) or changed (the
 * query starts again on the grid as it is now, at most MAX_RESTARTS times).
 * A callback's error is raised again unchanged once the core has returned.
 * The result, an astar.Range, is one userdata block (no malloc, nothing to
 * leak), copied out of the scratch after it is allocated.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lua_hex.h"
#include "../core/astar_hex.h"
#include "points.h"
#include "query_options.h"

#define RANGE_TYPE "astar.Range"
#define MAX_RESTARTS 3

/* ---- the rules: query_rules.c, in every form ------------------------------ */

static const char *const METRIC_NAMES[] = {"manhattan", "chebyshev", "euclidean", NULL};

/* Names for messages: fname (default `fallback`) and, from the optional
 * `where` table at stack index w ({cost = {argn, label}, ...}), per rule. */
static void read_names(lua_State *L, QueryRules *names, char labels[QR_COUNT][48],
                       int fname_index, int w)
{
    int i;
    if (lua_type(L, fname_index) == LUA_TSTRING)
        names->fname = lua_tostring(L, fname_index);
    if (lua_type(L, w) != LUA_TTABLE)
        return;
    for (i = 0; i < QR_COUNT; i++) {
        lua_pushstring(L, RULE_NAMES[i]);
        lua_rawget(L, w);
        if (lua_type(L, -1) == LUA_TTABLE) {
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            if (lua_type(L, -2) == LUA_TNUMBER)
                names->argn[i] = (int)lua_tonumber(L, -2);
            if (lua_type(L, -1) == LUA_TSTRING) {
                snprintf(labels[i], 48, "%s", lua_tostring(L, -1));
                names->label[i] = labels[i];
            }
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
    }
}

/* ---- the Range userdata --------------------------------------------------- */

typedef struct {
    uint32_t width, height;            /* of the grid it was made on */
    uint32_t bx, by, bw, bh;           /* bounding box of the cells */
    size_t n;                          /* cells; cells[0] is the start */
    size_t stops;                      /* cells a move may end on */
    uint32_t size;                     /* the unit's (cells are top-left positions) */
    unsigned hex;                      /* the board's shape: grid_hex_code */
    AstarDiagonal diagonal;            /* the mode it ran with ("never" on a hex board) */
} RangeHeader;

#define CELLS_OFFSET ((sizeof(RangeHeader) + 15) / 16 * 16)

static AstarRangeCell *range_cells(RangeHeader *h)
{
    return (AstarRangeCell *)(void *)((char *)h + CELLS_OFFSET);
}

/* lookup[(y - by) * bw + (x - bx)] = 1 + index of the cell, 0 if absent */
static uint32_t *range_lookup(RangeHeader *h)
{
    return (uint32_t *)(void *)(range_cells(h) + h->n);
}

static RangeHeader *check_range(lua_State *L, Arg a)
{
    RangeHeader *h = (RangeHeader *)compat_testudata(L, a.index, RANGE_TYPE);
    if (!h)
        type_error(L, a, NULL, RANGE_TYPE);
    return h;
}

static RangeHeader *check_self(lua_State *L, const char *fname)
{
    RangeHeader *h = (RangeHeader *)compat_testudata(L, 1, RANGE_TYPE);
    if (!h)
        raise_error(L, "calling '%s' on bad self (" RANGE_TYPE " expected, got %s)", fname,
                   luaL_typename(L, 1));
    return h;
}

/* The cell at (x, y) (method arguments 1 and 2), or NULL. Coordinates must be
 * numbers; any number outside the range (or not whole) is simply absent. */
static AstarRangeCell *find_cell(lua_State *L, RangeHeader *h, const char *fname)
{
    double x = check_number(L, method_arg(fname, 1), NULL) - 1;
    double y = check_number(L, method_arg(fname, 2), NULL) - 1;
    uint32_t k;

    if (!(x >= h->bx && x < (double)h->bx + h->bw && y >= h->by && y < (double)h->by + h->bh)
        || x != floor(x) || y != floor(y))
        return NULL;
    k = range_lookup(h)[((uint32_t)y - h->by) * h->bw + ((uint32_t)x - h->bx)];
    return k ? &range_cells(h)[k - 1] : NULL;
}

/* The start's flags are always 0: the unit stands there. */
static int is_stop(const AstarRangeCell *c) { return !(c->flags & ASTAR_RANGE_NO_STOP); }

static int range_contains(lua_State *L)
{
    RangeHeader *h = check_self(L, "contains");
    AstarRangeCell *c = find_cell(L, h, "contains");
    lua_pushboolean(L, c && is_stop(c));
    return 1;
}

static int range_cost_to(lua_State *L)
{
    RangeHeader *h = check_self(L, "costTo");
    AstarRangeCell *c = find_cell(L, h, "costTo");
    if (c)
        lua_pushnumber(L, (lua_Number)c->cost);
    else
        lua_pushnil(L);
    return 1;
}

static const char *const PATH_OPTIONS[] = {"flat", "into", "smooth", NULL};

/* pathTo's and pathFrom's options (argument a): flat and into, as findPath's
 * (into is left in a stack slot pushed here; *into: its index, 0 when not
 * given), and smooth: "corners" only, since a range or a map keeps no grid
 * for the segment model (docs/paths.md). */
void read_path_options(lua_State *L, Arg a, int *flat, int *into, int *corners)
{
    int slot;

    *flat = 0;
    *into = 0;
    *corners = 0;
    if (!lua_isnoneornil(L, a.index) && lua_type(L, a.index) != LUA_TTABLE)
        type_error(L, a, NULL, "table");
    lua_pushnil(L);
    slot = lua_gettop(L);
    if (!lua_istable(L, a.index))
        return;
    lua_pushnil(L);
    while (lua_next(L, a.index)) {
        Arg v = a;
        AstarSmooth smooth;
        v.index = lua_gettop(L);
        switch (check_option_name(L, a, v.index - 1, PATH_OPTIONS)) {
        case 0:
            *flat = check_boolean(L, v, "opts.flat: ");
            break;
        case 1:
            if (!lua_istable(L, v.index))
                type_error(L, v, "opts.into: ", "table");
            lua_pushvalue(L, v.index);
            lua_replace(L, slot);
            *into = slot;
            break;
        default:
            smooth = check_smooth(L, v);
            smooth_needs_grid(L, a, smooth);
            *corners = smooth == ASTAR_SMOOTH_CORNERS;
        }
        lua_pop(L, 1);
    }
}

/* The coordinates of cells[k]. */
static void range_point(const AstarRangeCell *cells, size_t k, uint32_t p[2])
{
    p[0] = cells[k].x;
    p[1] = cells[k].y;
}

/* The points of the path ending at cells[k], all of them or with corners
 * the turns (docs/paths.md), read from the goal back to the start (cells[0]).
 * Counts them (pl NULL), or writes them into pl as points len, len - 1,
 * ..., 1 (len: what counting gave). */
static size_t path_points(const PointList *pl, const RangeHeader *h,
                          const AstarRangeCell *cells, size_t k, size_t len, int corners)
{
    uint32_t after[2], here[2], before[2];
    size_t kept = 0;
    int first = 1;

    for (;;) {
        int keep = 1;
        if (corners && !first && k != 0) {
            range_point(cells, k, here);
            range_point(cells, cells[k].parent, before);
            keep = astar_path_turns(h->hex, before, here, after);
        }
        if (keep) {
            kept++;
            if (pl)
                point_list_set(pl, len + 1 - kept, (lua_Integer)cells[k].x + 1,
                               (lua_Integer)cells[k].y + 1);
        }
        if (k == 0)
            return kept;
        range_point(cells, k, after);
        first = 0;
        k = cells[k].parent;
    }
}

static int range_path_to(lua_State *L)
{
    RangeHeader *h = check_self(L, "pathTo");
    AstarRangeCell *c = find_cell(L, h, "pathTo"), *cells = range_cells(h);
    size_t len;
    int flat, into, corners;
    PointList pl;

    lua_settop(L, 4);
    read_path_options(L, method_arg("pathTo", 3), &flat, &into, &corners);
    if (!c || !is_stop(c)) {
        lua_pushnil(L);                 /* into is not touched */
        return 1;
    }
    /* a range's cells are its own: a finalizer cannot change them */
    len = path_points(NULL, h, cells, (size_t)(c - cells), 0, corners);
    point_list_open(L, &pl, len, flat, into, 0);
    path_points(&pl, h, cells, (size_t)(c - cells), len, corners);
    point_list_close(&pl, len);
    return 1;
}

static int range_cells_method(lua_State *L)
{
    RangeHeader *h = check_self(L, "cells");
    AstarRangeCell *cells = range_cells(h);
    Arg a = method_arg("cells", 1);
    int into = !lua_isnoneornil(L, a.index);
    size_t k, i = 0;
    PointList pl;

    if (into && !lua_istable(L, a.index))
        type_error(L, a, NULL, "table");
    point_list_open(L, &pl, h->stops, 0, into ? a.index : 0, 1);
    for (k = 0; k < h->n; k++)
        if (is_stop(&cells[k]))
            point_list_set_cost(&pl, ++i, (lua_Integer)cells[k].x + 1,
                                (lua_Integer)cells[k].y + 1, (lua_Number)cells[k].cost);
    point_list_close(&pl, i);
    return 1;
}

static int range_size(lua_State *L)
{
    RangeHeader *h = check_self(L, "size");
    lua_pushinteger(L, (lua_Integer)h->stops);
    return 1;
}

static int range_get_start(lua_State *L)
{
    RangeHeader *h = check_self(L, "getStart");
    return push_cell(L, range_cells(h)[0].x, range_cells(h)[0].y);
}

static int range_get_grid_dimensions(lua_State *L)
{
    RangeHeader *h = check_self(L, "getGridDimensions");
    lua_pushinteger(L, (lua_Integer)h->width);
    lua_pushinteger(L, (lua_Integer)h->height);
    return 2;
}

static int range_get_diagonal(lua_State *L)
{
    RangeHeader *h = check_self(L, "getDiagonal");
    lua_pushstring(L, DIAGONAL_NAMES[h->diagonal]);
    return 1;
}

static int range_tostring(lua_State *L)
{
    RangeHeader *h = check_self(L, "__tostring");
    lua_pushfstring(L, RANGE_TYPE " (%d cells from %d,%d)", (int)h->n,
                    (int)range_cells(h)[0].x + 1, (int)range_cells(h)[0].y + 1);
    return 1;
}

static const luaL_Reg RANGE_METHODS[] = {
    {"contains", range_contains},
    {"costTo", range_cost_to},
    {"pathTo", range_path_to},
    {"cells", range_cells_method},
    {"size", range_size},
    {"getStart", range_get_start},
    {"getGridDimensions", range_get_grid_dimensions},
    {"getDiagonal", range_get_diagonal},
    {NULL, NULL}};

/* Copies the result in lease's scratch into a new astar.Range on the stack;
 * 0 (nothing pushed) when the scratch was used by someone else or the grid
 * closed while the block was allocated. */
static int push_range(lua_State *L, const Lease *lease, uint32_t width, uint32_t height,
                      uint32_t size, AstarDiagonal diagonal, unsigned hex)
{
    const AstarRange *r = lease->range;
    size_t n = astar_range_count(r), k;
    uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
    AstarRangeCell c, *cells;
    RangeHeader *h;
    uint32_t *lookup;

    for (k = 0; k < n; k++) {
        astar_range_get(r, k, &c);
        x0 = c.x < x0 ? c.x : x0;
        y0 = c.y < y0 ? c.y : y0;
        x1 = c.x > x1 ? c.x : x1;
        y1 = c.y > y1 ? c.y : y1;
    }
    h = (RangeHeader *)lua_newuserdata(
        L, CELLS_OFFSET + n * sizeof(AstarRangeCell)
               + (size_t)(x1 - x0 + 1) * (y1 - y0 + 1) * sizeof(uint32_t));
    if (!lease_valid(lease)) {
        lua_pop(L, 1);
        return 0;
    }
    h->width = width;
    h->height = height;
    h->bx = x0;
    h->by = y0;
    h->bw = x1 - x0 + 1;
    h->bh = y1 - y0 + 1;
    h->n = n;
    h->stops = 0;
    h->size = size;
    h->diagonal = diagonal;
    h->hex = hex;
    cells = range_cells(h);
    lookup = range_lookup(h);
    memset(lookup, 0, (size_t)h->bw * h->bh * sizeof *lookup);
    for (k = 0; k < n; k++) {
        astar_range_get(r, k, &cells[k]);
        lookup[(cells[k].y - y0) * h->bw + (cells[k].x - x0)] = (uint32_t)k + 1;
        h->stops += (size_t)is_stop(&cells[k]);
    }
    set_type_metatable(L, RANGE_TYPE, RANGE_METHODS, range_tostring);
    return 1;
}

/* ---- entry points (hidden module functions, wrapped by astar.tactics) ----- */

/* The steps every query with callbacks takes; run(q) calls the core. */
typedef struct RangeQuery {
    LuaGrid *g;
    QueryRules rule;           /* the rules, and the names messages use */
    int callbacks;             /* Lua code runs inside the query */
    AstarError (*run)(struct RangeQuery *q, AstarRange *scratch);
    int (*push)(lua_State *L, struct RangeQuery *q, const Lease *lease);
    /* the query's own arguments */
    uint32_t x, y;
    double move;
    AstarDiagonal diagonal;
    uint32_t size;             /* the unit's (movement), the range's (attack) */
    AstarMetric metric;
    const AstarRangeCell *from;
    size_t nfrom;
    uint32_t lo, hi;
    int sight;                 /* stack index of the sight function; 0: built in or none */
    int has_sight;
    char labels[QR_COUNT][48]; /* the rules' labels a caller gave (read_names) */
} RangeQuery;

/* Runs q until it completes: with lent or temporary scratch, again from the
 * start when a callback changed the grid (MAX_RESTARTS times at most) or
 * when the scratch was reused while the result was copied (temporary scratch
 * from the third try on). Leaves the result on the stack. */
static int run_query(lua_State *L, RangeQuery *q)
{
    LuaGrid *g = q->g;
    int base = lua_gettop(L), restarts = 0, attempt;

    for (attempt = 0;; attempt++) {
        Lease lease;
        AstarError e;
        size_t before;

        lua_settop(L, base);
        lease_take(L, g, LENT_RANGE, attempt >= 2, q->callbacks, &lease);
        if (g->closed)
            return raise_error(L, "grid closed during %s", q->rule.fname);
        q->rule.L = L;
        q->rule.version = astar_grid_version(g->grid);
        q->rule.stop = QR_STOP_NONE;
        before = astar_range_memory(lease.range);
        grid_enter(g);
        e = q->run(q, lease.range);
        grid_leave(g);                 /* frees the grid if a callback closed it */
        lease_return(&lease);
        if (q->rule.stop == QR_STOP_CHANGED && !g->closed && ++restarts <= MAX_RESTARTS)
            continue;
        if (q->rule.stop != QR_STOP_NONE)
            return query_rules_raise(L, &q->rule, q->rule.fname);
        if (g->closed)
            return raise_error(L, "grid closed during %s", q->rule.fname);
        if (e != ASTAR_OK)
            return raise_error(L, "not enough memory");
        before = astar_range_memory(lease.range) - before;
        if (!q->push(L, q, &lease)) {
            if (g->closed)
                return raise_error(L, "grid closed during %s", q->rule.fname);
            continue;
        }
        gc_note(L, lease.own ? before : astar_range_memory(lease.range));
        return 1;
    }
}

static AstarError run_movement(RangeQuery *q, AstarRange *scratch)
{
    int aborted;
    AstarError e;

    if (q->rule.index[QR_MOVE])
        astar_range_move_rule(scratch, query_rules_move, &q->rule);
    e = q->size > 1
                       ? astar_range_run_large(scratch, q->g->grid, q->x, q->y, q->size, q->move,
                                               q->diagonal,
                                               q->rule.cells ? query_rules_cell : NULL,
                                               &q->rule, &aborted)
                   : grid_is_hex(q->g)
                       ? astar_range_run_hex(scratch, q->g->grid, q->x, q->y, q->move,
                                             q->rule.cells ? query_rules_cell : NULL, &q->rule,
                                             &aborted)
                       : astar_range_run_diagonal(scratch, q->g->grid, q->x, q->y, q->move,
                                                  q->diagonal,
                                                  q->rule.cells ? query_rules_cell : NULL,
                                                  &q->rule, &aborted);
    if (aborted && q->rule.stop == QR_STOP_NONE)
        q->rule.stop = QR_STOP_ERROR;
    return e;
}

static int push_movement(lua_State *L, RangeQuery *q, const Lease *lease)
{
    return push_range(L, lease, q->g->width, q->g->height, q->size, q->diagonal,
                      grid_hex_code(q->g));
}

/* movementRange(grid, x, y, move [, opts [, fname [, where]]]) -> astar.Range.
 * fname names the caller in messages (dangerZone); where labels the rules. */
int astar_lua_movement_range(lua_State *L)
{
    const char *fname = lua_type(L, 6) == LUA_TSTRING ? lua_tostring(L, 6) : "movementRange";
    LuaGrid *g = check_grid(L, fname);
    uint32_t x = check_index(L, method_arg(fname, 1), "x", g->width);
    uint32_t y = check_index(L, method_arg(fname, 2), "y", g->height);
    Arg am = method_arg(fname, 3);
    double move = check_number(L, am, NULL);
    RangeQuery q;
    QueryOptions o;
    char buf[32];

    if (!(move >= 0))
        arg_error(L, am.number, am.fname, NULL, "move must be a number >= 0, got %s",
                  number_text(buf, sizeof buf, move));
    memset(&q, 0, sizeof q);
    lua_settop(L, 7);
    query_rules_init(L, &q.rule, "movementRange", 4);
    read_names(L, &q.rule, q.labels, 6, 7);
    memset(&o, 0, sizeof o);
    o.diagonal = ASTAR_DIAGONAL_NEVER;    /* tactics: 4 directions unless asked */
    o.size = 1;
    read_query_options(L, method_arg(fname, 4), OPTS_RANGE, g, &o, &q.rule);
    check_open(L, g);                  /* reading may have run finalizers */
    query_rules_finish(&q.rule, g->grid);
    q.rule.g = g;
    q.callbacks = q.rule.used;
    q.diagonal = o.diagonal;
    q.size = o.size;
    q.g = g;
    q.x = x;
    q.y = y;
    q.move = move;
    q.run = run_movement;
    q.push = push_movement;
    return run_query(L, &q);
}

static int lua_sight(void *user, uint32_t fx, uint32_t fy, uint32_t tx, uint32_t ty)
{
    RangeQuery *q = (RangeQuery *)user;
    lua_State *L = q->rule.L;
    int ok;

    if (!q->sight)
        return grid_is_hex(q->g) ? astar_hex_line_of_sight(q->g->grid, fx, fy, tx, ty)
                                     : astar_line_of_sight(q->g->grid, fx, fy, tx, ty);
    lua_pushvalue(L, q->sight);
    push_cell(L, fx, fy);
    push_cell(L, tx, ty);
    if (lua_pcall(L, 4, 1, 0) != 0) {
        q->rule.stop = QR_STOP_ERROR;
        return -1;
    }
    ok = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return query_rules_disturbed(&q->rule) ? -1 : ok;
}

static AstarError run_attack(RangeQuery *q, AstarRange *scratch)
{
    int aborted;
    AstarError e = q->size > 1
                       ? astar_range_attack_large(scratch, q->g->grid, q->from, q->nfrom, q->size,
                                                  q->lo, q->hi, q->metric,
                                                  q->has_sight ? lua_sight : NULL, q, &aborted)
                   : grid_is_hex(q->g)
                       ? astar_range_attack_hex(scratch, q->g->grid, q->from, q->nfrom, q->lo,
                                                q->hi, q->has_sight ? lua_sight : NULL, q,
                                                &aborted)
                       : astar_range_attack_metric(scratch, q->g->grid, q->from, q->nfrom,
                                                   q->lo, q->hi, q->metric,
                                                   q->has_sight ? lua_sight : NULL, q,
                                                   &aborted);
    if (aborted && q->rule.stop == QR_STOP_NONE)
        q->rule.stop = QR_STOP_ERROR;
    return e;
}

/* An array of cell numbers (y - 1) * width + x. */
static int push_attack(lua_State *L, RangeQuery *q, const Lease *lease)
{
    uint32_t w = q->rule.width;
    size_t n = astar_range_count(lease->range), k;

    lua_createtable(L, (int)n, 0);
    if (!lease_valid(lease)) {
        lua_pop(L, 1);
        return 0;
    }
    for (k = 0; k < n; k++) {
        AstarRangeCell c;
        astar_range_get(lease->range, k, &c);
        lua_pushinteger(L, (lua_Integer)c.y * w + c.x + 1);
        lua_rawseti(L, -2, (int)k + 1);
    }
    return 1;
}

/* A distance in 0..max: larger numbers (2^32, math.huge) reach as far as
 * any cell can be. */
static uint32_t clamp_distance(double d, uint32_t max)
{
    return !(d > 0) ? 0 : d >= (double)max ? max : (uint32_t)d;
}

/* _attackCells(grid, range, min, max, sight, fname [, metric]) -> array of
 * cell numbers (y - 1) * width + x. The Lua wrapper has checked min, max
 * (whole numbers >= 0), sight (nil, true or a function) and metric (nil:
 * manhattan, or a name); fname names the caller. */
int astar_lua_attack_cells(lua_State *L)
{
    const char *fname = luaL_checkstring(L, 6);
    LuaGrid *g = check_grid(L, fname);
    RangeHeader *h = check_range(L, method_arg(fname, 1));
    uint32_t w = g->width, far = w + g->height;
    double lo = luaL_checknumber(L, 3), hi = luaL_checknumber(L, 4);
    AstarRangeCell *cells = range_cells(h), *from;
    RangeQuery q;
    size_t k;

    if (h->width != w || h->height != g->height)
        return arg_error(L, 1, fname, NULL, "range was made on another grid");
    memset(&q, 0, sizeof q);
    lua_settop(L, 7);
    if (!lua_isnil(L, 7) && grid_is_hex(g))
        arg_error(L, 4, fname, NULL, "opts.metric: not supported on hex grids");
    if (!lua_isnil(L, 7))
        q.metric = (AstarMetric)check_name(L, method_arg(fname, 6), "opts.metric: ", "metric",
                                           METRIC_NAMES, "manhattan, chebyshev or euclidean");
    /* sources: the stop cells, copied (the range is the caller's) */
    from = (AstarRangeCell *)lua_newuserdata(L, h->n * sizeof *from + 1);
    for (k = 0; k < h->n; k++)
        if (is_stop(&cells[k]))
            from[q.nfrom++] = cells[k];
    check_open(L, g);                  /* the allocation may have run finalizers */
    q.rule.fname = fname;
    q.rule.L = L;
    q.rule.g = g;
    q.rule.width = w;
    q.g = g;
    q.from = from;
    q.size = h->size;
    q.lo = clamp_distance(lo, far);
    q.hi = clamp_distance(hi, far);
    q.has_sight = lua_toboolean(L, 5);
    q.sight = lua_isfunction(L, 5) ? 5 : 0;
    q.callbacks = q.sight != 0;
    q.run = run_attack;
    q.push = push_attack;
    return run_query(L, &q);
}

/* _cellSet(grid, cells) -> {[(y - 1) * width + x] = true}: every cell of
 * each unit {x =, y = [, size =]} of the list, read as the rules' lists are
 * (query_rules.c rule_points_table). */
int astar_lua_cell_set(lua_State *L)
{
    LuaGrid *g = check_grid(L, "cellSet");
    Arg a = method_arg("cellSet", 1);
    if (!lua_istable(L, a.index))
        type_error(L, a, NULL, "table");
    lua_settop(L, 2);
    rule_points_table(L, 2, RULE_POINTS_FLAG, g, 0, "cellSet", 1, "cells");
    return 1;
}

/* _lineOfSight(grid, x0, y0, x1, y1) -> boolean: the built-in rule. */
int astar_lua_line_of_sight(lua_State *L)
{
    LuaGrid *g = check_grid(L, "lineOfSight");
    uint32_t w = g->width, h = g->height;
    uint32_t x0 = check_index(L, method_arg("lineOfSight", 1), "x1", w);
    uint32_t y0 = check_index(L, method_arg("lineOfSight", 2), "y1", h);
    uint32_t x1 = check_index(L, method_arg("lineOfSight", 3), "x2", w);
    uint32_t y1 = check_index(L, method_arg("lineOfSight", 4), "y2", h);
    lua_pushboolean(L, grid_is_hex(g) ? astar_hex_line_of_sight(g->grid, x0, y0, x1, y1)
                                          : astar_line_of_sight(g->grid, x0, y0, x1, y1));
    return 1;
}
