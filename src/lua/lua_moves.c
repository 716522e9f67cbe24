/*
 * The grid's moves and links (issue 19): setMove, getMove, setWallBetween,
 * link, unlink and getLinks. Arguments are checked here, the storage is the
 * core's (moves.c). A move is named by its two cells; the core's direction
 * code is found here from their offset.
 */
#include <math.h>

#include "../core/astar_hex.h"
#include "lua_hex.h"

/* The direction code (astar.h) of the move from (x1, y1) to (x2, y2), or -1
 * when (x2, y2) is not a board neighbour: one of the 8 around on a square
 * grid (orthogonal only: the 4), one of the 6 on a hex grid. */
static int direction_of(const LuaGrid *g, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2,
                        int orthogonal)
{
    static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1}, DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
    long dx = (long)x2 - (long)x1, dy = (long)y2 - (long)y1;
    int d, k;

    for (d = 0; d < 8; d++)
        if (DX[d] == dx && DY[d] == dy)
            break;
    if (d == 8 || (orthogonal && !g->hex && d >= 4))
        return -1;
    if (g->hex) {
        int hx[6], hy[6];
        astar_hex_neighbours((AstarHexLayout)(g->hex - 1), x1, y1, hx, hy);
        for (k = 0; k < 6; k++)
            if (hx[k] == dx && hy[k] == dy)
                return d;
        return -1;
    }
    return d;
}

/* Reads (x1, y1, x2, y2) of method fname, the second cell a neighbour of
 * the first; returns its direction code. */
static int check_move(lua_State *L, const char *fname, LuaGrid **g, uint32_t *x1, uint32_t *y1,
                      int orthogonal)
{
    uint32_t x2, y2;
    int d;

    *g = check_grid(L, fname);
    *x1 = check_index(L, method_arg(fname, 1), "x1", (*g)->width);
    *y1 = check_index(L, method_arg(fname, 2), "y1", (*g)->height);
    x2 = check_index(L, method_arg(fname, 3), "x2", (*g)->width);
    y2 = check_index(L, method_arg(fname, 4), "y2", (*g)->height);
    d = direction_of(*g, *x1, *y1, x2, y2, orthogonal);
    if (d < 0)
        arg_error(L, 3, fname, NULL, "(%u, %u) is not %s neighbour of (%u, %u)",
                  (unsigned)x2 + 1, (unsigned)y2 + 1,
                  orthogonal && !(*g)->hex ? "an orthogonal" : "a", (unsigned)*x1 + 1,
                  (unsigned)*y1 + 1);
    return d;
}

/* A cost argument: a number in (0, 1e15]; with `or_false`, also false
 * (INFINITY: no move) and nil (0: the default). */
static double check_move_cost(lua_State *L, Arg a, int or_false)
{
    char buf[32];
    double cost;

    if (or_false && lua_isnoneornil(L, a.index))
        return 0.0;
    if (or_false && lua_type(L, a.index) == LUA_TBOOLEAN && !lua_toboolean(L, a.index))
        return INFINITY;
    if (lua_type(L, a.index) != LUA_TNUMBER)
        return type_error(L, a, NULL, or_false ? "number, false or nil" : "number");
    cost = (double)lua_tonumber(L, a.index);
    if (!(cost > 0 && cost <= ASTAR_MAX_COST))
        arg_error(L, a.number, a.fname, NULL,
                  "cost must be a positive finite number up to 1e15%s, got %s",
                  or_false ? ", false or nil" : "", number_text(buf, sizeof buf, cost));
    return cost;
}

static int set_move(lua_State *L, LuaGrid *g, uint32_t x, uint32_t y, int d, double cost)
{
    size_t before = grid_external_memory(g);
    if (astar_grid_set_move(g->grid, x, y, (unsigned)d, cost) != ASTAR_OK)
        return raise_error(L, "not enough memory");
    return gc_note_growth(L, g, before, 0);
}

static int grid_set_move(lua_State *L)
{
    LuaGrid *g;
    uint32_t x, y;
    int d = check_move(L, "setMove", &g, &x, &y, 0);
    double cost = check_move_cost(L, method_arg("setMove", 5), 1);
    return set_move(L, g, x, y, d, cost);
}

static int grid_get_move(lua_State *L)
{
    LuaGrid *g;
    uint32_t x, y;
    int d = check_move(L, "getMove", &g, &x, &y, 0);
    double cost = astar_grid_get_move(g->grid, x, y, (unsigned)d);

    if (cost == 0)
        lua_pushnil(L);
    else if (cost == INFINITY)
        lua_pushboolean(L, 0);
    else
        lua_pushnumber(L, (lua_Number)cost);
    return 1;
}

/* A thin wall between two neighbours: both moves false, or both back to
 * the default. */
static int grid_set_wall_between(lua_State *L)
{
    LuaGrid *g;
    uint32_t x, y;
    int d = check_move(L, "setWallBetween", &g, &x, &y, 1), wall;
    static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1}, DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
    static const int BACK[8] = {1, 0, 3, 2, 7, 6, 5, 4};
    size_t before = grid_external_memory(g);
    double cost;
    Arg a = method_arg("setWallBetween", 5);

    wall = lua_isnoneornil(L, a.index) ? 0 : check_boolean(L, a, NULL);
    cost = wall ? INFINITY : 0.0;
    if (astar_grid_set_move(g->grid, x, y, (unsigned)d, cost) != ASTAR_OK
        || astar_grid_set_move(g->grid, (uint32_t)((int)x + DX[d]), (uint32_t)((int)y + DY[d]),
                               (unsigned)BACK[d], cost) != ASTAR_OK)
        return raise_error(L, "not enough memory");
    return gc_note_growth(L, g, before, 0);
}

/* Reads (x1, y1, x2, y2) of link or unlink: two different cells. */
static LuaGrid *check_link_ends(lua_State *L, const char *fname, uint32_t xy[4])
{
    LuaGrid *g = check_grid(L, fname);
    xy[0] = check_index(L, method_arg(fname, 1), "x1", g->width);
    xy[1] = check_index(L, method_arg(fname, 2), "y1", g->height);
    xy[2] = check_index(L, method_arg(fname, 3), "x2", g->width);
    xy[3] = check_index(L, method_arg(fname, 4), "y2", g->height);
    if (xy[0] == xy[2] && xy[1] == xy[3])
        arg_error(L, 3, fname, NULL, "a link joins two different cells, got (%u, %u) twice",
                  (unsigned)xy[0] + 1, (unsigned)xy[1] + 1);
    return g;
}

static int grid_link(lua_State *L)
{
    uint32_t xy[4];
    LuaGrid *g = check_link_ends(L, "link", xy);
    double cost = check_move_cost(L, method_arg("link", 5), 0);
    Arg a = method_arg("link", 6);
    int oneway = lua_isnoneornil(L, a.index) ? 0 : check_boolean(L, a, NULL);
    size_t before = grid_external_memory(g);

    if (astar_grid_link(g->grid, xy[0], xy[1], xy[2], xy[3], cost) != ASTAR_OK
        || (!oneway && astar_grid_link(g->grid, xy[2], xy[3], xy[0], xy[1], cost) != ASTAR_OK))
        return raise_error(L, "not enough memory");
    return gc_note_growth(L, g, before, 0);
}

static int grid_unlink(lua_State *L)
{
    uint32_t xy[4];
    LuaGrid *g = check_link_ends(L, "unlink", xy);
    astar_grid_unlink(g->grid, xy[0], xy[1], xy[2], xy[3]);
    astar_grid_unlink(g->grid, xy[2], xy[3], xy[0], xy[1]);
    return 0;
}

/* The links leaving (x, y) as a new list of {x =, y =, cost =}. Making each
 * entry allocates, and a finalizer may then edit or close the grid: the
 * links are read after every allocation, and an edit meanwhile raises. */
static int grid_get_links(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getLinks");
    uint32_t x = check_index(L, method_arg("getLinks", 1), "x", g->width);
    uint32_t y = check_index(L, method_arg("getLinks", 2), "y", g->height);
    uint64_t version = astar_grid_version(g->grid);
    size_t n = astar_grid_links(g->grid, x, y), k;

    lua_createtable(L, (int)n, 0);
    for (k = 0; k < n; k++) {
        uint32_t tx, ty;
        double cost;
        lua_createtable(L, 0, 3);
        if (g->closed)
            return raise_error(L, "grid closed during getLinks");
        if (astar_grid_version(g->grid) != version)
            return raise_error(L, "grid changed during getLinks");
        astar_grid_link_at(g->grid, x, y, k, &tx, &ty, &cost);
        lua_pushinteger(L, (lua_Integer)tx + 1);
        lua_setfield(L, -2, "x");
        lua_pushinteger(L, (lua_Integer)ty + 1);
        lua_setfield(L, -2, "y");
        lua_pushnumber(L, (lua_Number)cost);
        lua_setfield(L, -2, "cost");
        lua_rawseti(L, -2, (int)k + 1);
    }
    return 1;
}

const luaL_Reg MOVE_METHODS[] = {
    {"setMove", grid_set_move},
    {"getMove", grid_get_move},
    {"setWallBetween", grid_set_wall_between},
    {"link", grid_link},
    {"unlink", grid_unlink},
    {"getLinks", grid_get_links},
    {NULL, NULL}
};
