/*
 * Searches spread over frames: grid:newSearch(sx, sy, gx, gy [, opts]) ->
 * Search; search:step(n) expands at most n nodes; search:result() returns
 * what findPath would; search:getExpanded() lists the cells expanded so far.
 *
 * A Search owns its scratch (allocated when it is created, freed by __gc) and
 * keeps its Grid alive through its uservalue, so dropping the grid while the
 * search lives is safe. Changing the grid while a search runs is an error at
 * the next step ("grid changed during search"); closing it (<close>) too.
 */
#include <math.h>
#include <string.h>

#include "lua_grid.h"

#define SEARCH_TYPE "astar.Search"

#if LUA_VERSION_NUM >= 502
#define set_grid_ref lua_setuservalue
#define get_grid_ref lua_getuservalue
#else
#define set_grid_ref lua_setfenv
#define get_grid_ref lua_getfenv
#endif

typedef struct {
    AstarSearch *search;      /* NULL once released */
    LuaGrid *owner;           /* the Grid userdata, kept alive by the uservalue */
    AstarGrid *grid;          /* owner->grid when the search began */
    int partial;
    int flat;                 /* opts.flat: the path as {x1, y1, x2, y2, ...} */
    int grid_changed;         /* the grid changed under it: every call fails */
    AstarStatus status;
} LuaSearch;

static LuaSearch *check_search(lua_State *L, const char *fname)
{
    LuaSearch *s = (LuaSearch *)compat_testudata(L, 1, SEARCH_TYPE);
    if (!s)
        raise_error(L, "calling '%s' on bad self (" SEARCH_TYPE " expected, got %s)", fname,
                   luaL_typename(L, 1));
    else if (!s->search)
        raise_error(L, "attempt to use a released " SEARCH_TYPE);
    return s;
}

/* The core reads the grid on every step and to walk the path back; a closed
 * grid has been freed. A search whose grid changed stays failed. */
static void check_grid_alive(lua_State *L, const LuaSearch *s)
{
    if (s->owner->grid != s->grid)
        raise_error(L, "attempt to use a closed " GRID_TYPE);
    if (s->grid_changed)
        raise_error(L, "grid changed during search");
}

static const char *status_name(AstarStatus status)
{
    switch (status) {
    case ASTAR_SEARCHING: return "searching";
    case ASTAR_FOUND: return "found";
    default: return "unreachable";
    }
}

int grid_new_search(lua_State *L)
{
    Query q;
    LuaGrid *g = check_query(L, "newSearch", &q);
    LuaSearch *s;

    s = (LuaSearch *)lua_newuserdata(L, sizeof *s);
    memset(s, 0, sizeof *s);
    luaL_getmetatable(L, SEARCH_TYPE);
    lua_setmetatable(L, -2);
    lua_createtable(L, 1, 0);          /* {grid}: keeps the grid alive */
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    set_grid_ref(L, -2);
    s->owner = g;
    s->grid = g->grid;
    s->partial = q.options.partial;
    s->flat = q.output.flat;
    s->search = astar_search_new();
    if (!s->search)
        return raise_error(L, "not enough memory");
    if (astar_search_begin(s->search, g->grid, q.sx, q.sy, q.gx, q.gy, &q.options) != ASTAR_OK)
        return raise_error(L, "not enough memory");
    s->status = astar_search_status(s->search);
    return 1;
}

/* search:step(n): n is a whole number >= 1, or math.huge for no limit. */
static int search_step(lua_State *L)
{
    LuaSearch *s = check_search(L, "step");
    Arg a = method_arg("step", 1);
    double n = check_number(L, a, NULL);
    size_t budget;
    AstarError error;
    char buf[32];

    if (!(n >= 1) || (n != floor(n) && !isinf(n)))
        return arg_error(L, a.number, a.fname, NULL,
                         "n must be a whole number >= 1 or math.huge, got %s",
                         number_text(buf, sizeof buf, n));
    budget = n >= (double)((size_t)-1) ? 0 : (size_t)n;   /* 0: no limit */
    if (s->status == ASTAR_SEARCHING || s->grid_changed) {
        check_grid_alive(L, s);
        s->status = astar_search_step(s->search, budget, &error);
        if (error == ASTAR_EGRIDCHANGED) {
            s->grid_changed = 1;
            return raise_error(L, "grid changed during search");
        }
        if (error != ASTAR_OK)
            return raise_error(L, "not enough memory");
    }
    lua_pushstring(L, status_name(s->status));
    return 1;
}

static int search_get_status(lua_State *L)
{
    lua_pushstring(L, status_name(check_search(L, "getStatus")->status));
    return 1;
}

/* The same results as findPath: path, cost [, reached] or nil, reason. */
static int search_result(lua_State *L)
{
    LuaSearch *s = check_search(L, "result");
    PathOutput out;

    if (s->grid_changed)
        check_grid_alive(L, s);
    if (s->status == ASTAR_SEARCHING)
        return raise_error(L, "search still running: step it until it returns "
                              "'found' or 'unreachable'");
    if (s->status == ASTAR_FOUND || s->status == ASTAR_PARTIAL)
        check_grid_alive(L, s);   /* the path is read from the grid's cells */
    out.flat = s->flat;
    out.into = 0;
    return push_result(L, s->search, s->status, s->partial, out);
}

/* {expanded =, touched =} so far, as grid:getSearchStats() for findPath. */
static int search_get_stats(lua_State *L)
{
    return push_stats(L, check_search(L, "getStats")->search);
}

/* The cells expanded so far, {x =, y =} in row order: a scan of every cell
 * of the grid (O(width * height)), for visualisations. The cells stay valid
 * if the grid changed; a closed grid has been freed. */
static int search_get_expanded(lua_State *L)
{
    LuaSearch *s = check_search(L, "getExpanded");
    uint32_t w, h, x, y;
    int n = 0;

    if (s->owner->grid != s->grid)
        return raise_error(L, "attempt to use a closed " GRID_TYPE);
    w = astar_grid_width(s->grid);
    h = astar_grid_height(s->grid);
    lua_createtable(L, (int)astar_search_expanded(s->search), 0);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (astar_search_expanded_cell(s->search, x, y)) {
                lua_createtable(L, 0, 2);
                lua_pushinteger(L, (lua_Integer)x + 1);
                lua_setfield(L, -2, "x");
                lua_pushinteger(L, (lua_Integer)y + 1);
                lua_setfield(L, -2, "y");
                lua_rawseti(L, -2, ++n);
            }
    return 1;
}

static int search_get_grid(lua_State *L)
{
    check_search(L, "getGrid");
    get_grid_ref(L, 1);
    lua_rawgeti(L, -1, 1);
    return 1;
}

static int search_tostring(lua_State *L)
{
    LuaSearch *s = (LuaSearch *)luaL_checkudata(L, 1, SEARCH_TYPE);
    lua_pushfstring(L, SEARCH_TYPE " (%s)",
                    s->search ? status_name(s->status) : "released");
    return 1;
}

/* __gc and __close: frees the scratch; safe to call twice. */
static int search_release(lua_State *L)
{
    LuaSearch *s = (LuaSearch *)luaL_checkudata(L, 1, SEARCH_TYPE);
    astar_search_free(s->search);
    s->search = NULL;
    return 0;
}

static const luaL_Reg SEARCH_METHODS[] = {
    {"step", search_step},
    {"result", search_result},
    {"getStatus", search_get_status},
    {"getStats", search_get_stats},
    {"getExpanded", search_get_expanded},
    {"getGrid", search_get_grid},
    {NULL, NULL}};

static const luaL_Reg SEARCH_META[] = {
    {"__tostring", search_tostring},
    {"__gc", search_release},
    {"__close", search_release},
    {NULL, NULL}};

void register_search(lua_State *L)
{
    luaL_newmetatable(L, SEARCH_TYPE);
    compat_setfuncs(L, SEARCH_META);
    lua_newtable(L);
    compat_setfuncs(L, SEARCH_METHODS);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, SEARCH_TYPE);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
}
