/*
 * Binding for the tactics layer (lua/astar/tactics.lua): movement ranges and
 * attack areas, on the core's range.c.
 *
 * Each grid gets one AstarRange scratch, held in a weak-keyed registry table
 * so it lives exactly as long as the grid; a query made from inside another
 * query's callback gets a temporary scratch of its own. Lua callbacks run
 * under lua_pcall: an error aborts the core's query, which leaves the scratch
 * consistent, and is then raised again unchanged. The result, an
 * astar.Range, is one userdata block (no malloc, nothing to leak).
 */
#include <math.h>
#include <string.h>

#include "lua_grid.h"

#define RANGE_TYPE "astar.Range"
#define SCRATCH_TYPE "astar.RangeScratch"
#define SCRATCH_KEY "astar.rangeScratches"

/* ---- scratch ------------------------------------------------------------ */

typedef struct {
    AstarRange *range;
    int busy;                  /* a query is running on it (we are in a callback) */
} Scratch;

static int scratch_gc(lua_State *L)
{
    Scratch *s = (Scratch *)luaL_checkudata(L, 1, SCRATCH_TYPE);
    astar_range_free(s->range);
    s->range = NULL;
    return 0;
}

static Scratch *new_scratch(lua_State *L)
{
    Scratch *s = (Scratch *)lua_newuserdata(L, sizeof *s);
    s->range = NULL;
    s->busy = 0;
    if (luaL_newmetatable(L, SCRATCH_TYPE)) {
        lua_pushcfunction(L, scratch_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    s->range = astar_range_new();
    if (!s->range)
        raise_error(L, "not enough memory");
    return s;
}

/* Pushes the scratch of the grid at stack index 1 and returns it: the grid's
 * own one, or a temporary one when that is busy (a query from a callback). */
static Scratch *push_scratch(lua_State *L)
{
    Scratch *s;

    luaL_checkstack(L, 12, NULL);
    lua_getfield(L, LUA_REGISTRYINDEX, SCRATCH_KEY);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, SCRATCH_KEY);
    }
    lua_pushvalue(L, 1);
    lua_rawget(L, -2);                          /* table, scratch or nil */
    s = (Scratch *)lua_touserdata(L, -1);
    if (s && !s->busy) {
        lua_remove(L, -2);
        return s;
    }
    if (s) {                                    /* busy: a temporary one */
        lua_pop(L, 2);
        return new_scratch(L);
    }
    lua_pop(L, 1);
    s = new_scratch(L);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);                          /* table[grid] = scratch */
    lua_remove(L, -2);
    return s;
}

/* ---- the rule: Lua callbacks or tables ------------------------------------ */

enum { R_BLOCKED, R_COST, R_OCCUPIED, R_ZOC, R_COUNT };
static const char *const RULE_NAMES[R_COUNT + 1] = {"blocked", "cost", "occupied", "zoc", NULL};

typedef struct {
    lua_State *L;
    int index[R_COUNT];        /* stack index of the function or table; 0: none */
    uint32_t width;
    Arg opts;                  /* for messages */
} Rule;

/* Pushes the value the rule `which` gives for (x, y); 0 if a callback raised
 * an error (left on the stack). */
static int rule_value(Rule *r, int which, uint32_t x, uint32_t y)
{
    lua_State *L = r->L;
    int i = r->index[which];

    if (lua_type(L, i) == LUA_TTABLE) {
        lua_rawgeti(L, i, (int)((lua_Integer)y * r->width + x + 1));
        return 1;
    }
    lua_pushvalue(L, i);
    lua_pushinteger(L, (lua_Integer)x + 1);
    lua_pushinteger(L, (lua_Integer)y + 1);
    return lua_pcall(L, 2, 1, 0) == 0;
}

static int rule_flag(Rule *r, int which, uint32_t x, uint32_t y, int *failed)
{
    int on;
    if (!r->index[which])
        return 0;
    if (!rule_value(r, which, x, y)) {
        *failed = 1;
        return 0;
    }
    on = lua_toboolean(r->L, -1);
    lua_pop(r->L, 1);
    return on;
}

static double lua_rule(void *user, uint32_t x, uint32_t y, double grid_cost, unsigned *flags)
{
    Rule *r = (Rule *)user;
    lua_State *L = r->L;
    int failed = 0;
    double cost = grid_cost;

    if (rule_flag(r, R_BLOCKED, x, y, &failed))
        return INFINITY;
    if (failed)
        return NAN;
    if (r->index[R_COST]) {
        if (!rule_value(r, R_COST, x, y))
            return NAN;
        if (lua_isnil(L, -1) || (lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
            cost = INFINITY;
        } else {
            cost = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
            if (!((cost > 0 && cost <= ASTAR_MAX_COST) || cost == INFINITY)) {
                char buf[32];
                const char *got = lua_type(L, -1) == LUA_TNUMBER
                                      ? number_text(buf, sizeof buf, cost)
                                      : luaL_typename(L, -1);
                lua_pushfstring(L, "bad argument #%d to '%s' (opts.cost gave %s for (%d, %d); "
                                "expected a positive number up to 1e15, nil, false or math.huge)",
                                r->opts.number, r->opts.fname, got, (int)x + 1, (int)y + 1);
                return NAN;
            }
        }
        lua_pop(L, 1);
        if (cost == INFINITY)
            return cost;
    }
    if (rule_flag(r, R_OCCUPIED, x, y, &failed))
        *flags |= ASTAR_RANGE_NO_STOP;
    if (failed)
        return NAN;
    if (rule_flag(r, R_ZOC, x, y, &failed))
        *flags |= ASTAR_RANGE_ENDS_MOVE;
    return failed ? NAN : cost;
}

/* Reads the options table at a into rule->index; unknown names are errors. */
static int read_rule(lua_State *L, Arg a, Rule *rule)
{
    int used = 0, i;

    for (i = 0; i < R_COUNT; i++)
        rule->index[i] = 0;
    if (lua_isnoneornil(L, a.index))
        return 0;
    if (lua_type(L, a.index) != LUA_TTABLE)
        type_error(L, a, NULL, "table");
    lua_pushnil(L);
    while (lua_next(L, a.index)) {
        check_option_name(L, a, lua_gettop(L) - 1, RULE_NAMES);
        lua_pop(L, 1);
    }
    for (i = 0; i < R_COUNT; i++) {
        int t;
        lua_getfield(L, a.index, RULE_NAMES[i]);
        t = lua_type(L, -1);
        if (t == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (t != LUA_TFUNCTION && t != LUA_TTABLE)
            arg_error(L, a.number, a.fname, NULL, "opts.%s: function or table expected, got %s",
                      RULE_NAMES[i], luaL_typename(L, -1));
        rule->index[i] = lua_gettop(L);        /* stays on the stack for the query */
        used = 1;
    }
    return used;
}

/* ---- the Range userdata --------------------------------------------------- */

typedef struct {
    uint32_t width, height;            /* of the grid it was made on */
    uint32_t bx, by, bw, bh;           /* bounding box of the cells */
    size_t n;                          /* cells; cells[0] is the start */
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

static void push_point(lua_State *L, const AstarRangeCell *c, int with_cost)
{
    lua_createtable(L, 0, with_cost ? 3 : 2);
    lua_pushinteger(L, (lua_Integer)c->x + 1);
    lua_setfield(L, -2, "x");
    lua_pushinteger(L, (lua_Integer)c->y + 1);
    lua_setfield(L, -2, "y");
    if (with_cost) {
        lua_pushnumber(L, (lua_Number)c->cost);
        lua_setfield(L, -2, "cost");
    }
}

static int range_path_to(lua_State *L)
{
    RangeHeader *h = check_self(L, "pathTo");
    AstarRangeCell *c = find_cell(L, h, "pathTo"), *cells = range_cells(h);
    size_t k, len = 1;
    int i;

    if (!c || !is_stop(c)) {
        lua_pushnil(L);
        return 1;
    }
    for (k = (size_t)(c - cells); k != 0; k = cells[k].parent)
        len++;
    lua_createtable(L, (int)len, 0);
    k = (size_t)(c - cells);
    for (i = (int)len; i >= 1; i--) {
        push_point(L, &cells[k], 0);
        lua_rawseti(L, -2, i);
        k = cells[k].parent;
    }
    return 1;
}

static int range_cells_method(lua_State *L)
{
    RangeHeader *h = check_self(L, "cells");
    AstarRangeCell *cells = range_cells(h);
    size_t k;
    int i = 0;

    lua_createtable(L, (int)h->n, 0);
    for (k = 0; k < h->n; k++) {
        if (!is_stop(&cells[k]))
            continue;
        push_point(L, &cells[k], 1);
        lua_rawseti(L, -2, ++i);
    }
    return 1;
}

static int range_get_start(lua_State *L)
{
    RangeHeader *h = check_self(L, "getStart");
    lua_pushinteger(L, (lua_Integer)range_cells(h)[0].x + 1);
    lua_pushinteger(L, (lua_Integer)range_cells(h)[0].y + 1);
    return 2;
}

static int range_get_grid_dimensions(lua_State *L)
{
    RangeHeader *h = check_self(L, "getGridDimensions");
    lua_pushinteger(L, (lua_Integer)h->width);
    lua_pushinteger(L, (lua_Integer)h->height);
    return 2;
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
    {"getStart", range_get_start},
    {"getGridDimensions", range_get_grid_dimensions},
    {NULL, NULL}};

/* Copies the scratch's result into a new astar.Range on the stack. */
static void push_range(lua_State *L, const AstarRange *r, const AstarGrid *grid)
{
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
    h->width = astar_grid_width(grid);
    h->height = astar_grid_height(grid);
    h->bx = x0;
    h->by = y0;
    h->bw = x1 - x0 + 1;
    h->bh = y1 - y0 + 1;
    h->n = n;
    cells = range_cells(h);
    lookup = range_lookup(h);
    memset(lookup, 0, (size_t)h->bw * h->bh * sizeof *lookup);
    for (k = 0; k < n; k++) {
        astar_range_get(r, k, &cells[k]);
        lookup[(cells[k].y - y0) * h->bw + (cells[k].x - x0)] = (uint32_t)k + 1;
    }
    if (luaL_newmetatable(L, RANGE_TYPE)) {
        lua_newtable(L);
        compat_setfuncs(L, RANGE_METHODS);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, range_tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushliteral(L, RANGE_TYPE);
        lua_setfield(L, -2, "__name");
    }
    lua_setmetatable(L, -2);
}

/* ---- entry points (hidden module functions, wrapped by astar.tactics) ----- */

/* movementRange(grid, x, y, move [, opts]) -> astar.Range */
int astar_lua_movement_range(lua_State *L)
{
    LuaGrid *g = check_grid(L, "movementRange");
    uint32_t x = check_index(L, method_arg("movementRange", 1), "x", astar_grid_width(g->grid));
    uint32_t y = check_index(L, method_arg("movementRange", 2), "y", astar_grid_height(g->grid));
    Arg am = method_arg("movementRange", 3);
    double move = check_number(L, am, NULL);
    Rule rule;
    Scratch *s;
    AstarError e;
    int aborted, used;
    char buf[32];

    if (!(move >= 0))
        arg_error(L, am.number, am.fname, NULL, "move must be a number >= 0, got %s",
                  number_text(buf, sizeof buf, move));
    rule.L = L;
    rule.width = astar_grid_width(g->grid);
    rule.opts = method_arg("movementRange", 4);
    used = read_rule(L, rule.opts, &rule);
    s = push_scratch(L);
    s->busy = 1;
    e = astar_range_run(s->range, g->grid, x, y, move, used ? lua_rule : NULL, &rule, &aborted);
    s->busy = 0;
    if (aborted)
        return lua_error(L);            /* the callback's error, unchanged */
    if (e != ASTAR_OK)
        return raise_error(L, "not enough memory");
    push_range(L, s->range, g->grid);
    return 1;
}

typedef struct {
    lua_State *L;
    const AstarGrid *grid;
    int function;              /* stack index of a Lua rule, 0 for the built-in one */
} Sight;

static int lua_sight(void *user, uint32_t fx, uint32_t fy, uint32_t tx, uint32_t ty)
{
    Sight *s = (Sight *)user;
    lua_State *L = s->L;
    int ok;

    if (!s->function)
        return astar_line_of_sight(s->grid, fx, fy, tx, ty);
    lua_pushvalue(L, s->function);
    lua_pushinteger(L, (lua_Integer)fx + 1);
    lua_pushinteger(L, (lua_Integer)fy + 1);
    lua_pushinteger(L, (lua_Integer)tx + 1);
    lua_pushinteger(L, (lua_Integer)ty + 1);
    if (lua_pcall(L, 4, 1, 0) != 0)
        return -1;
    ok = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return ok;
}

/* _attackCells(grid, range, min, max, sight, fname) -> array of cell numbers
 * (y - 1) * width + x. The Lua wrapper has checked min, max and sight (nil,
 * true or a function); fname names the caller in messages. */
int astar_lua_attack_cells(lua_State *L)
{
    const char *fname = luaL_checkstring(L, 6);
    LuaGrid *g = check_grid(L, fname);
    RangeHeader *h = check_range(L, method_arg(fname, 1));
    uint32_t lo = (uint32_t)luaL_checknumber(L, 3), hi = (uint32_t)luaL_checknumber(L, 4);
    uint32_t w = astar_grid_width(g->grid);
    AstarRangeCell *cells = range_cells(h);
    Sight sight;
    Scratch *s;
    AstarError e;
    size_t n, k;
    int aborted;

    if (h->width != w || h->height != astar_grid_height(g->grid))
        return arg_error(L, 1, fname, NULL, "range was made on another grid");
    sight.L = L;
    sight.grid = g->grid;
    sight.function = lua_isfunction(L, 5) ? 5 : 0;
    /* sources: the stop cells, moved to the front of a copy on the stack */
    n = 0;
    {
        AstarRangeCell *from = (AstarRangeCell *)lua_newuserdata(L, h->n * sizeof *from);
        for (k = 0; k < h->n; k++)
            if (is_stop(&cells[k]))
                from[n++] = cells[k];
        s = push_scratch(L);
        s->busy = 1;
        e = astar_range_attack(s->range, g->grid, from, n, lo, hi,
                               lua_toboolean(L, 5) ? lua_sight : NULL, &sight, &aborted);
        s->busy = 0;
    }
    if (aborted)
        return lua_error(L);
    if (e != ASTAR_OK)
        return raise_error(L, "not enough memory");
    n = astar_range_count(s->range);
    lua_createtable(L, (int)n, 0);
    for (k = 0; k < n; k++) {
        AstarRangeCell c;
        astar_range_get(s->range, k, &c);
        lua_pushinteger(L, (lua_Integer)c.y * w + c.x + 1);
        lua_rawseti(L, -2, (int)k + 1);
    }
    return 1;
}

/* _lineOfSight(grid, x0, y0, x1, y1) -> boolean: the built-in rule. */
int astar_lua_line_of_sight(lua_State *L)
{
    LuaGrid *g = check_grid(L, "lineOfSight");
    uint32_t w = astar_grid_width(g->grid), h = astar_grid_height(g->grid);
    uint32_t x0 = check_index(L, method_arg("lineOfSight", 1), "x1", w);
    uint32_t y0 = check_index(L, method_arg("lineOfSight", 2), "y1", h);
    uint32_t x1 = check_index(L, method_arg("lineOfSight", 3), "x2", w);
    uint32_t y1 = check_index(L, method_arg("lineOfSight", 4), "y2", h);
    lua_pushboolean(L, astar_line_of_sight(g->grid, x0, y0, x1, y1));
    return 1;
}
