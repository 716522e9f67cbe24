/*
 * The Lua binding: module astar.core. It checks arguments, calls the core and
 * turns results into Lua values; nothing else. Errors read like lauxlib's,
 * but are formatted here so every Lua version prints the same text, with
 * arguments counted as in a method call (self is not counted).
 */
#include <math.h>
#include <string.h>

#include "lua_hex.h"
#include "../core/astar_hex.h"
#include "points.h"
#include "query_options.h"

/* ---- the Grid userdata ------------------------------------------------- */

LuaGrid *check_grid(lua_State *L, const char *fname)
{
    LuaGrid *g = (LuaGrid *)compat_testudata(L, 1, GRID_TYPE);
    if (!g)
        raise_error(L, "calling '%s' on bad self (" GRID_TYPE " expected, got %s)", fname,
                   luaL_typename(L, 1));
    else
        check_open(L, g);
    return g;
}

void check_open(lua_State *L, const LuaGrid *g)
{
    if (g->closed)
        raise_error(L, "attempt to use a closed " GRID_TYPE);
}

Arg method_arg(const char *fname, int n)
{
    Arg a;
    a.index = n + 1;
    a.number = n;
    a.fname = fname;
    return a;
}

/* Pushes an empty Grid userdata that owns nothing yet, so that whatever the
 * core allocates next is freed by __gc even if an error follows. Scratch is
 * made by the first query that needs it. */
LuaGrid *push_grid(lua_State *L)
{
    LuaGrid *g = (LuaGrid *)lua_newuserdata(L, sizeof *g);
    memset(g, 0, sizeof *g);
    g->diagonal = ASTAR_DIAGONAL_NO_OBSTACLES;
    g->heuristic = ASTAR_HEURISTIC_OCTILE;
    g->weight = 1.0;
    luaL_getmetatable(L, GRID_TYPE);
    lua_setmetatable(L, -2);
    return g;
}

int grid_created(lua_State *L, LuaGrid *g)
{
    AstarHexLayout layout;
    g->width = astar_grid_width(g->grid);
    g->height = astar_grid_height(g->grid);
    g->hex = astar_grid_hex(g->grid, &layout) ? 1u + (unsigned)layout : 0u;
    return gc_note_growth(L, g, 0, 1);
}

static int grid_new(lua_State *L)
{
    Arg aw = {1, 1, "new"}, ah = {2, 2, "new"};
    uint32_t w = check_index(L, aw, "width", ASTAR_MAX_SIDE) + 1;
    uint32_t h = check_index(L, ah, "height", ASTAR_MAX_SIDE) + 1;
    LuaGrid *g;

    if ((uint64_t)w * h > ASTAR_MAX_CELLS)
        return arg_error(L, 2, "new", NULL, "width * height exceeds the maximum of %u cells",
                         (unsigned)ASTAR_MAX_CELLS);
    g = push_grid(L);
    if (astar_grid_new(&g->grid, w, h) != ASTAR_OK)
        return raise_error(L, "not enough memory for a %ux%u grid", (unsigned)w, (unsigned)h);
    return grid_created(L, g);
}

typedef AstarError (*TextLoader)(AstarGrid **, const char *, size_t, char *, size_t);

static int load_text(lua_State *L, const char *fname, TextLoader load)
{
    Arg a = {1, 1, NULL};
    char message[128];
    size_t length;
    const char *text;
    LuaGrid *g;
    AstarError e;

    a.fname = fname;
    if (lua_type(L, 1) != LUA_TSTRING)
        type_error(L, a, NULL, "string");
    text = lua_tolstring(L, 1, &length);
    g = push_grid(L);
    e = load(&g->grid, text, length, message, sizeof message);
    if (e == ASTAR_EPARSE)
        return arg_error(L, 1, fname, NULL, "%s", message);
    if (e != ASTAR_OK)
        return raise_error(L, "not enough memory");
    return grid_created(L, g);
}

static int grid_from_string(lua_State *L) { return load_text(L, "fromString", astar_grid_from_text); }
static int grid_from_movingai(lua_State *L) { return load_text(L, "fromMovingAI", astar_grid_from_movingai); }

static int grid_get_width(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_grid(L, "getWidth")->width);
    return 1;
}

static int grid_get_height(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_grid(L, "getHeight")->height);
    return 1;
}

static int grid_get_dimensions(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getDimensions");
    lua_pushinteger(L, (lua_Integer)g->width);
    lua_pushinteger(L, (lua_Integer)g->height);
    return 2;
}

/* Reads the (x, y) of method fname at arguments 1 and 2. */
static LuaGrid *check_cell(lua_State *L, const char *fname, uint32_t *x, uint32_t *y)
{
    LuaGrid *g = check_grid(L, fname);
    *x = check_index(L, method_arg(fname, 1), "x", g->width);
    *y = check_index(L, method_arg(fname, 2), "y", g->height);
    return g;
}

static int grid_set_walkable(lua_State *L)
{
    uint32_t x, y;
    LuaGrid *g = check_cell(L, "setWalkable", &x, &y);
    astar_grid_set_walkable(g->grid, x, y, check_boolean(L, method_arg("setWalkable", 3), NULL));
    return 0;
}

static int grid_is_walkable(lua_State *L)
{
    uint32_t x, y;
    LuaGrid *g = check_cell(L, "isWalkable", &x, &y);
    lua_pushboolean(L, astar_grid_walkable(g->grid, x, y));
    return 1;
}

static int grid_set_cost(lua_State *L)
{
    uint32_t x, y;
    LuaGrid *g = check_cell(L, "setCost", &x, &y);
    Arg a = method_arg("setCost", 3);
    double cost = check_number(L, a, NULL);
    size_t before = grid_external_memory(g);
    char buf[32];

    if (!(cost > 0 && cost <= ASTAR_MAX_COST))
        return arg_error(L, a.number, a.fname, NULL,
                         "cost must be a positive finite number up to 1e15, got %s",
                         number_text(buf, sizeof buf, cost));
    if (astar_grid_set_cost(g->grid, x, y, cost) != ASTAR_OK)
        return raise_error(L, "not enough memory");
    return gc_note_growth(L, g, before, 0);   /* the first cost other than 1: a layer */
}

static int grid_get_cost(lua_State *L)
{
    uint32_t x, y;
    LuaGrid *g = check_cell(L, "getCost", &x, &y);
    lua_pushnumber(L, (lua_Number)astar_grid_cost(g->grid, x, y));
    return 1;
}

static int grid_set_diagonal(lua_State *L)
{
    LuaGrid *g = check_grid(L, "setDiagonal");
    g->diagonal = check_diagonal(L, method_arg("setDiagonal", 1), NULL, grid_is_hex(g));
    return 0;
}

static int grid_get_diagonal(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getDiagonal");
    /* a hex board moves to its sides: "never", whatever bytes it was decoded from */
    lua_pushstring(L, DIAGONAL_NAMES[grid_is_hex(g) ? ASTAR_DIAGONAL_NEVER : g->diagonal]);
    return 1;
}

/* The heuristic in effect for a diagonal mode, given the grid's choice. */
static AstarHeuristic effective_heuristic(const LuaGrid *g, AstarDiagonal diagonal)
{
    if (g->heuristic_chosen)
        return g->heuristic;
    return diagonal == ASTAR_DIAGONAL_NEVER ? ASTAR_HEURISTIC_MANHATTAN
                                            : ASTAR_HEURISTIC_OCTILE;
}

static int grid_set_heuristic(lua_State *L)
{
    LuaGrid *g = check_grid(L, "setHeuristic");
    AstarHeuristic h = check_heuristic(L, method_arg("setHeuristic", 1), NULL);
    double w = lua_isnoneornil(L, 3) ? 1.0 : check_weight(L, method_arg("setHeuristic", 2), NULL);
    g->heuristic = h;
    g->weight = w;
    g->heuristic_chosen = 1;
    return 0;
}

static int grid_get_heuristic(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getHeuristic");
    AstarHeuristic h = effective_heuristic(g, g->diagonal);
    if (grid_is_hex(g) && h != ASTAR_HEURISTIC_ZERO)
        lua_pushliteral(L, "hex");            /* hex distance, whatever the name set */
    else
        lua_pushstring(L, HEURISTIC_NAMES[h]);
    lua_pushnumber(L, (lua_Number)g->weight);
    return 2;
}

/* ---- reading a finished search's path --------------------------------- */

static void search_cell(PathReader *r, size_t i, uint32_t *x, uint32_t *y)
{
    if (i < r->n)
        astar_path_back((const AstarSearch *)r->source, &r->at);
    *x = r->at.x;
    *y = r->at.y;
}

static void search_cells(PathReader *r, size_t i, size_t count, uint32_t *xy)
{
    const AstarSearch *s = (const AstarSearch *)r->source;
    if (i < r->n)
        astar_path_back(s, &r->at);
    astar_path_take(s, &r->at, xy, count);
}

static int search_valid(PathReader *r)
{
    return lease_valid(r->lease);
}

void path_reader_search(PathReader *r, const AstarSearch *search, const Lease *lease)
{
    r->n = astar_search_length(search);
    r->cell = search_cell;
    r->cells = search_cells;
    r->valid = search_valid;
    r->source = search;
    r->lease = lease;
    astar_path_end(search, &r->at);      /* reads the grid: before any allocation */
}

/* Pushes the path, 1-based: an array of {x =, y =}, or with out.flat
 * {x1, y1, x2, y2, ...}; with out.into that table, filled in place (its
 * point tables reused). A cell is read only after the reader said its
 * source outlived the last allocation that could run the collector (points.h). */
#define FLAT_BLOCK 64

/* cells i, i - 1, ... (count <= FLAT_BLOCK of them) into xy, by the reader's
 * block read where it has one */
static void read_cells(PathReader *r, size_t i, size_t count, uint32_t *xy)
{
    size_t k;
    if (r->cells) {
        r->cells(r, i, count, xy);
        return;
    }
    for (k = 0; k < count; k++)
        r->cell(r, i - k, &xy[2 * k], &xy[2 * k + 1]);
}

/* The flat form: no table per point, so nothing after the open allocates
 * and the source is checked once; cells are read a block at a time. */
static int push_flat_path(lua_State *L, PathReader *r, PathOutput out)
{
    size_t n = r->n, i = n;
    uint32_t xy[2 * FLAT_BLOCK];
    PointList pl;
    int top = lua_gettop(L);

    point_list_open(L, &pl, n, 1, out.into, 0);
    if (!r->valid(r)) {
        lua_settop(L, top);
        return 0;
    }
    while (i >= 1) {
        size_t count = i < FLAT_BLOCK ? i : FLAT_BLOCK;
        read_cells(r, i, count, xy);
        point_list_set_flat(&pl, i, xy, count);
        i -= count;
    }
    point_list_close(&pl, n);
    return 1;
}

int push_path(lua_State *L, PathReader *r, PathOutput out)
{
    size_t n = r->n, i;
    int top = lua_gettop(L), collected = 1;   /* opening the list allocates */
    uint32_t x, y;
    PointList pl;

    if (out.flat)
        return push_flat_path(L, r, out);
    point_list_open(L, &pl, n, out.flat, out.into, 0);
    for (i = n; i >= 1; i--) {
        if (collected && !r->valid(r)) {
            lua_settop(L, top);
            return 0;
        }
        r->cell(r, i, &x, &y);
        collected = point_list_set(&pl, i, (lua_Integer)x + 1, (lua_Integer)y + 1);
    }
    point_list_close(&pl, n);
    return 1;
}

int push_outcome(lua_State *L, AstarStatus status, double cost, int partial)
{
    switch (status) {
    case ASTAR_FOUND:
    case ASTAR_PARTIAL:
        lua_pushnumber(L, (lua_Number)cost);
        if (!partial)
            return 2;
        lua_pushboolean(L, status == ASTAR_FOUND);
        return 3;
    case ASTAR_GOAL_BLOCKED:
        lua_pushnil(L);
        lua_pushliteral(L, "goal is blocked");
        return 2;
    default:
        lua_pushnil(L);
        lua_pushliteral(L, "no path");
        return 2;
    }
}

int push_goal_outcome(lua_State *L, AstarStatus status, double cost, size_t index)
{
    if (status != ASTAR_FOUND && status != ASTAR_PARTIAL)
        return push_outcome(L, status, cost, 0);
    lua_pushnumber(L, (lua_Number)cost);
    if (status == ASTAR_FOUND && index != (size_t)-1)
        lua_pushinteger(L, (lua_Integer)index + 1);
    else
        lua_pushboolean(L, 0);
    return 3;
}

int push_stats(lua_State *L, size_t expanded, size_t touched, const char *algorithm)
{
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, (lua_Integer)expanded);
    lua_setfield(L, -2, "expanded");
    lua_pushinteger(L, (lua_Integer)touched);
    lua_setfield(L, -2, "touched");
    if (algorithm) {
        lua_pushstring(L, algorithm);
        lua_setfield(L, -2, "algorithm");
    }
    return 1;
}

const char *algorithm_name(AstarAlgorithm algorithm)
{
    return algorithm == ASTAR_ALGORITHM_JPS ? "jps" : "astar";
}

/* The bytes of the x, y pairs of the goal list (argument 3, stack index 4)
 * of function `fname`: its length checked. */
static size_t goal_bytes(lua_State *L, const void *fname)
{
    size_t n = (size_t)compat_rawlen(L, 4);

    if (n == 0)
        arg_error(L, 3, (const char *)fname, NULL, "goals: empty list");
    if (n > ASTAR_MAX_CELLS)
        arg_error(L, 3, (const char *)fname, NULL, "goals: more than %u goals",
                  (unsigned)ASTAR_MAX_CELLS);
    return 2 * n * sizeof(uint32_t);
}

/* A goal list (argument 3, stack index 4) into x, y pairs (0-based) in a
 * userdata left on the stack. The keys are pushed before it: from its
 * allocation on, nothing runs Lua, so the list read is the one measured. */
static void read_goals(lua_State *L, const char *fname, Query *q, uint32_t w, uint32_t h)
{
    size_t n, i;
    uint32_t *pairs;
    int keys;
    char buf[32];

    lua_pushliteral(L, "x");
    lua_pushliteral(L, "y");
    keys = lua_gettop(L) - 1;
    pairs = (uint32_t *)push_measured(L, goal_bytes, fname, "goals", fname, &n);
    n /= 2 * sizeof *pairs;
    for (i = 0; i < n; i++) {
        int k;
        lua_rawgeti(L, 4, (int)i + 1);
        if (!lua_istable(L, -1))
            arg_error(L, 3, fname, NULL, "goals[%d]: table expected, got %s", (int)i + 1,
                      luaL_typename(L, -1));
        for (k = 0; k < 2; k++) {
            const char *name = k ? "y" : "x";
            uint32_t max = k ? h : w;
            double v;
            lua_pushvalue(L, keys + k);
            lua_rawget(L, -2);
            if (lua_type(L, -1) != LUA_TNUMBER)
                arg_error(L, 3, fname, NULL, "goals[%d].%s: number expected, got %s", (int)i + 1,
                          name, luaL_typename(L, -1));
            v = (double)lua_tonumber(L, -1);
            if (!(v >= 1 && v <= max) || v != floor(v))
                arg_error(L, 3, fname, NULL, "goals[%d].%s out of range 1..%u, got %s",
                          (int)i + 1, name, (unsigned)max, number_text(buf, sizeof buf, v));
            pairs[2 * i + k] = (uint32_t)v - 1;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_remove(L, keys);               /* the pairs stay, on top */
    lua_remove(L, keys);
    q->options.goals = pairs;
    q->options.goal_count = n;
    q->gx = pairs[0];
    q->gy = pairs[1];
}

/* Reads findPath's and newSearch's arguments, every one before the grid's
 * cells are touched (reading may run finalizers: docs/robustness.md). */
LuaGrid *check_query(lua_State *L, const char *fname, Query *q, QueryRules *rules)
{
    LuaGrid *g = check_grid(L, fname);
    read_query(L, g, fname, q, rules);
    return g;
}

/* The grid's jump tables for a query that runs jump point search (built the
 * first time, then brought up to date after setWalkable): the collector
 * hears of their memory. */
static void prepare_jumps(lua_State *L, LuaGrid *g, const AstarOptions *options)
{
    size_t before = grid_external_memory(g);
    astar_grid_prepare_jumps(g->grid, options);
    gc_note_growth(L, g, before, 0);
    check_open(L, g);                 /* the collector may have run finalizers */
}

void read_query(lua_State *L, LuaGrid *g, const char *fname, Query *q, QueryRules *rules)
{
    uint32_t w = g->width, h = g->height;
    QueryOptions o;
    Arg a;

    memset(&q->options, 0, sizeof q->options);   /* fields the options may not set */
    memset(&q->output, 0, sizeof q->output);
    q->sx = check_index(L, method_arg(fname, 1), "sx", w);
    q->sy = check_index(L, method_arg(fname, 2), "sy", h);
    q->goal_list = lua_type(L, 4) == LUA_TTABLE;
    q->opts_arg = q->goal_list ? 4 : 5;
    if (!q->goal_list) {
        q->gx = check_index(L, method_arg(fname, 3), "gx", w);
        q->gy = check_index(L, method_arg(fname, 4), "gy", h);
    }
    lua_settop(L, q->opts_arg + 1);
    query_rules_init(L, rules, fname, q->opts_arg);
    if (q->goal_list)
        read_goals(L, fname, q, w, h);
    memset(&o, 0, sizeof o);
    o.diagonal = g->diagonal;
    o.max_cost = INFINITY;
    o.size = 1;
    a = method_arg(fname, q->opts_arg);
    read_query_options(L, a, OPTS_PATH, g, &o, rules);
    q->options.diagonal = o.diagonal;
    q->options.heuristic = o.given & OPT(OPT_HEURISTIC) ? o.heuristic
                                                         : effective_heuristic(g, o.diagonal);
    q->options.weight = o.given & OPT(OPT_WEIGHT) ? o.weight
                        : o.given & OPT(OPT_HEURISTIC) ? 1.0 : g->weight;
    q->options.partial = o.partial;
    q->options.algorithm = o.algorithm;
    q->options.near = o.near;
    q->options.bounded = !isinf(o.max_cost);
    q->options.max_cost = o.max_cost;
    q->options.size = o.size;
    q->options.smooth = o.smooth;
    q->output.flat = o.flat;
    q->output.into = o.into;
    if (o.algorithm == ASTAR_ALGORITHM_JPS && grid_is_hex(g))
        arg_error(L, a.number, fname, NULL, "opts.algorithm: jps does not run on hex grids");
    check_open(L, g);                 /* reading may have run finalizers */
    if (o.smooth >= ASTAR_SMOOTH_SIGHT
        && astar_grid_move_count(g->grid) + astar_grid_link_count(g->grid) > 0)
        smooth_cannot(L, a, o.smooth, "needs a grid without move overrides or links");
    /* component labels (unreachable goals at once) and the exact lowest cost */
    astar_grid_prepare(g->grid);
    if (o.algorithm == ASTAR_ALGORITHM_AUTO && !grid_is_hex(g)
        && (o.diagonal == ASTAR_DIAGONAL_NEVER || o.diagonal == ASTAR_DIAGONAL_NO_OBSTACLES))
        astar_grid_terrain(g->grid);  /* jump point search with costs; on ENOMEM, A* */
    if (o.algorithm == ASTAR_ALGORITHM_JPS && !astar_jps_supported(g->grid, o.diagonal))
        arg_error(L, a.number, fname, NULL,
                  "opts.algorithm: jps needs uniform costs and diagonal 'never' or 'no-obstacles'");
    query_rules_finish(rules, g->grid);
    if (rules->cells && o.algorithm == ASTAR_ALGORITHM_JPS)
        arg_error(L, a.number, fname, NULL,
                  "opts.algorithm: jps does not run with rules (cost, blocked, occupied)");
    query_rules_take_walls(rules, &q->options, w, h);
    check_open(L, g);                 /* the allocation may have run finalizers */
    query_rules_apply(rules, &q->options);
    rules->g = g;
    prepare_jumps(L, g, &q->options);
}

#define MAX_RESTARTS 3

/* findPath runs on the grid's own scratch, lent while its rule callbacks run
 * (a query made from a callback gets its own). A callback that changes the
 * grid starts the query again (MAX_RESTARTS times at most); one that closes
 * it, or raises, stops it. A finalizer that runs while the path is copied out
 * may run another query on the scratch, or close the grid: the copy then
 * starts again (on temporary scratch after two tries) or raises. */
static int grid_find_path(lua_State *L)
{
    Query q;
    QueryRules rules;
    LuaGrid *g = check_query(L, "findPath", &q, &rules);
    size_t before = grid_external_memory(g), extra = 0;
    int base = lua_gettop(L), copies = 0, restarts = 0;

    for (;;) {
        Lease lease;
        PathReader reader;
        AstarError error;
        AstarStatus status;
        double cost = 0.0;
        size_t index = (size_t)-1;

        lua_settop(L, base);
        lease_take(L, g, LENT_SEARCH, copies >= 2, rules.callbacks, &lease);
        if (g->closed)
            return raise_error(L, "grid closed during findPath");
        rules.L = L;
        rules.version = astar_grid_version(g->grid);
        rules.stop = QR_STOP_NONE;
        grid_enter(g);
        status = astar_search_run(lease.search, g->grid, q.sx, q.sy, q.gx, q.gy, &q.options,
                                  &error);
        grid_leave(g);                 /* frees the grid if a callback closed it */
        lease_return(&lease);
        if (rules.stop == QR_STOP_CHANGED && !g->closed && ++restarts <= MAX_RESTARTS)
            continue;
        if (rules.stop != QR_STOP_NONE)
            return query_rules_raise(L, &rules, "findPath");
        if (g->closed)
            return raise_error(L, "grid closed during findPath");
        if (!lease.own)
            extra = astar_search_memory(lease.search);
        if (error != ASTAR_OK)
            return raise_error(L, "not enough memory");
        if (status == ASTAR_NO_PATH)
            astar_grid_note_no_path(g->grid, lease.search);   /* may label components */
        if (status == ASTAR_FOUND || status == ASTAR_PARTIAL) {
            cost = astar_search_cost(lease.search);
            index = astar_search_goal_index(lease.search);
            path_reader_search(&reader, lease.search, &lease);
            if (!push_path(L, &reader, q.output)) {
                if (g->closed)
                    return raise_error(L, "grid closed during findPath");
                copies++;
                continue;
            }
        }
        gc_note(L, extra);
        return gc_note_growth(L, g, before,
                              q.goal_list ? push_goal_outcome(L, status, cost, index)
                                          : push_outcome(L, status, cost, q.options.partial));
    }
}

static int grid_get_search_stats(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getSearchStats");
    size_t expanded = g->search ? astar_search_expanded(g->search) : 0;
    size_t touched = g->search ? astar_search_touched(g->search) : 0;
    /* the algorithm of the last query: none before the first */
    return push_stats(L, expanded, touched,
                      g->search ? algorithm_name(astar_search_algorithm(g->search)) : NULL);
}

static int grid_tostring(lua_State *L)
{
    LuaGrid *g = (LuaGrid *)luaL_checkudata(L, 1, GRID_TYPE);
    if (g->closed)
        lua_pushliteral(L, GRID_TYPE " (closed)");
    else if (grid_is_hex(g))
        lua_pushfstring(L, GRID_TYPE " (%dx%d hex)", (int)g->width,
                        (int)g->height);
    else
        lua_pushfstring(L, GRID_TYPE " (%dx%d)", (int)g->width,
                        (int)g->height);
    return 1;
}

/* _gridVersion(grid): the grid's change counter (only real changes move it),
 * for astar.tactics: dangerZone starts again when a callback or a finalizer
 * changed the grid between its enemies. A double holds it exactly far past
 * any count of writes a game makes (2^53). */
static int grid_version(lua_State *L)
{
    LuaGrid *g = check_grid(L, "_gridVersion");
    lua_pushnumber(L, (lua_Number)astar_grid_version(g->grid));
    return 1;
}

/* __gc and __close: frees everything the grid owns (once no query is inside
 * a callback, lease.c); safe to call twice. */
static int grid_release(lua_State *L)
{
    grid_close((LuaGrid *)luaL_checkudata(L, 1, GRID_TYPE));
    return 0;
}

/* Tile-id maps (lua_tiles.c). */
int astar_lua_from_tiles(lua_State *L);
int astar_lua_set_tiles(lua_State *L);
/* Distance maps (lua_distance.c). */
int astar_lua_distance_map(lua_State *L);
int astar_lua_blend(lua_State *L);
int astar_lua_decode_map(lua_State *L);

/* Moves and links (lua_moves.c). */
extern const luaL_Reg MOVE_METHODS[];
/* Smoothing a walk (lua_paths.c). */
int astar_lua_smooth_path(lua_State *L);
int astar_lua_first_blocked(lua_State *L);
/* Board geometry (lua_geometry.c). */
extern const luaL_Reg GEOMETRY_METHODS[];

static const luaL_Reg GRID_METHODS[] = {
    {"getWidth", grid_get_width},
    {"getHeight", grid_get_height},
    {"getDimensions", grid_get_dimensions},
    {"setWalkable", grid_set_walkable},
    {"isWalkable", grid_is_walkable},
    {"setCost", grid_set_cost},
    {"getCost", grid_get_cost},
    {"setDiagonal", grid_set_diagonal},
    {"getDiagonal", grid_get_diagonal},
    {"setHeuristic", grid_set_heuristic},
    {"getHeuristic", grid_get_heuristic},
    {"findPath", grid_find_path},
    {"getSearchStats", grid_get_search_stats},
    {"encode", grid_encode},            /* lua_encode.c */
    {"newSearch", grid_new_search},     /* lua_search.c */
    {"setTiles", astar_lua_set_tiles},  /* lua_tiles.c */
    {"distanceMap", astar_lua_distance_map}, /* lua_distance.c */
    {"getShape", astar_lua_get_shape},  /* lua_hex.c */
    {"getLayout", astar_lua_get_layout}, /* lua_hex.c */
    {"smoothPath", astar_lua_smooth_path}, /* lua_paths.c */
    {"firstBlocked", astar_lua_first_blocked}, /* lua_paths.c */
    {NULL, NULL}};

static const luaL_Reg GRID_META[] = {
    {"__tostring", grid_tostring},
    {"__gc", grid_release},
    {"__close", grid_release},
    {NULL, NULL}};

/* The tactics layer's primitives (lua_range.c), wrapped by astar.tactics. */
int astar_lua_movement_range(lua_State *L);
int astar_lua_attack_cells(lua_State *L);
int astar_lua_line_of_sight(lua_State *L);
int astar_lua_cell_set(lua_State *L);

static const luaL_Reg MODULE_FUNCTIONS[] = {
    {"new", grid_new},
    {"fromString", grid_from_string},
    {"fromMovingAI", grid_from_movingai},
    {"_movementRange", astar_lua_movement_range},
    {"_attackCells", astar_lua_attack_cells},
    {"_lineOfSight", astar_lua_line_of_sight},
    {"_cellSet", astar_lua_cell_set},
    {"_gridVersion", grid_version},
    {"decode", grid_decode},            /* lua_encode.c */
    {"fromTiles", astar_lua_from_tiles}, /* lua_tiles.c */
    {"blend", astar_lua_blend},         /* lua_distance.c */
    {"decodeMap", astar_lua_decode_map}, /* lua_distance.c */
    {"newHex", astar_lua_new_hex},      /* lua_hex.c */
    {NULL, NULL}};

#if defined(_WIN32)
#define ASTAR_EXPORT __declspec(dllexport)
#else
#define ASTAR_EXPORT
#endif

ASTAR_EXPORT int luaopen_astar_core(lua_State *L)
{
    lua_newtable(L);
    compat_setfuncs(L, MODULE_FUNCTIONS);
    lua_pushinteger(L, (lua_Integer)ASTAR_MAX_CELLS);
    lua_setfield(L, -2, "MAX_CELLS");
    lua_pushinteger(L, (lua_Integer)ASTAR_MAX_SIDE);
    lua_setfield(L, -2, "MAX_SIDE");

    luaL_newmetatable(L, GRID_TYPE);
    compat_setfuncs(L, GRID_META);
    lua_newtable(L);
    compat_setfuncs(L, GRID_METHODS);
    compat_setfuncs(L, MOVE_METHODS);
    compat_setfuncs(L, GEOMETRY_METHODS);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__index");
    lua_setfield(L, -3, "Grid");   /* module.Grid: the methods, for Lua helpers to extend */
    lua_pushliteral(L, GRID_TYPE);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
    register_search(L);
    register_scratch(L);
    return 1;
}
