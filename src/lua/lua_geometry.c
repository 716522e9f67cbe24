/*
 * Board geometry (issue 20): cellCentre, cellAt, neighbours and distance.
 * Arguments are checked here; the geometry and the moves are the core's
 * (board_geometry.c, astar_geometry.h). Coordinates are 1-based in Lua.
 */
#include <math.h>

#include "lua_hex.h"
#include "points.h"
#include "../core/astar_geometry.h"

#define MOVES_ON_STACK 32    /* a cell's board moves and a few links */

/* size: a positive finite number. */
static double check_size(lua_State *L, Arg a)
{
    char buf[32];
    double size = check_number(L, a, NULL);
    if (!(size > 0 && size < HUGE_VAL))
        arg_error(L, a.number, a.fname, NULL, "size must be a positive finite number, got %s",
                  number_text(buf, sizeof buf, size));
    return size;
}

/* A pixel coordinate: a finite number. */
static double check_pixel(lua_State *L, Arg a, const char *name)
{
    char buf[32];
    double v = check_number(L, a, NULL);
    if (!(v > -HUGE_VAL && v < HUGE_VAL))
        arg_error(L, a.number, a.fname, NULL, "%s must be a finite number, got %s", name,
                  number_text(buf, sizeof buf, v));
    return v;
}

/* grid:cellCentre(x, y, size) -> px, py */
static int grid_cell_centre(lua_State *L)
{
    LuaGrid *g = check_grid(L, "cellCentre");
    uint32_t x = check_index(L, method_arg("cellCentre", 1), "x", g->width);
    uint32_t y = check_index(L, method_arg("cellCentre", 2), "y", g->height);
    double size = check_size(L, method_arg("cellCentre", 3)), px, py;

    astar_cell_centre(g->grid, x, y, size, &px, &py);
    lua_pushnumber(L, (lua_Number)px);
    lua_pushnumber(L, (lua_Number)py);
    return 2;
}

/* grid:cellAt(px, py, size) -> x, y, or nil off the board */
static int grid_cell_at(lua_State *L)
{
    LuaGrid *g = check_grid(L, "cellAt");
    double px = check_pixel(L, method_arg("cellAt", 1), "px");
    double py = check_pixel(L, method_arg("cellAt", 2), "py");
    double size = check_size(L, method_arg("cellAt", 3));
    uint32_t x, y;

    if (!astar_cell_at(g->grid, px, py, size, &x, &y)) {
        lua_pushnil(L);
        return 1;
    }
    return push_cell(L, x, y);
}

/* grid:distance(x1, y1, x2, y2): hex steps, Manhattan in mode "never",
 * else octile; a whole number is returned as an integer. */
static int grid_distance(lua_State *L)
{
    LuaGrid *g = check_grid(L, "distance");
    uint32_t x1 = check_index(L, method_arg("distance", 1), "x1", g->width);
    uint32_t y1 = check_index(L, method_arg("distance", 2), "y1", g->height);
    uint32_t x2 = check_index(L, method_arg("distance", 3), "x2", g->width);
    uint32_t y2 = check_index(L, method_arg("distance", 4), "y2", g->height);
    AstarDiagonal diagonal = grid_is_hex(g) ? ASTAR_DIAGONAL_NEVER : g->diagonal;
    double d = astar_cell_distance(g->grid, diagonal, x1, y1, x2, y2);

    if (grid_is_hex(g) || diagonal == ASTAR_DIAGONAL_NEVER)
        lua_pushinteger(L, (lua_Integer)d);
    else
        lua_pushnumber(L, (lua_Number)d);
    return 1;
}

/* opts of neighbours: nil, or a table whose one option is diagonal. */
static AstarDiagonal neighbours_diagonal(lua_State *L, const LuaGrid *g)
{
    static const char *const NAMES[] = {"diagonal", NULL};
    Arg a = method_arg("neighbours", 3), v = {6, 3, "neighbours"};   /* the value next gave */
    AstarDiagonal diagonal = grid_is_hex(g) ? ASTAR_DIAGONAL_NEVER : g->diagonal;

    if (lua_isnoneornil(L, a.index))
        return diagonal;
    if (!lua_istable(L, a.index))
        type_error(L, a, NULL, "table");
    lua_settop(L, a.index);
    lua_pushnil(L);
    while (lua_next(L, a.index)) {   /* (nothing allocates while next walks) */
        check_option_name(L, a, -2, NAMES);
        diagonal = check_diagonal(L, v, "opts.diagonal: ", grid_is_hex(g));
        lua_pop(L, 1);
    }
    return diagonal;
}

/* grid:neighbours(x, y [, opts]) -> {{x =, y =, cost =}, ...}: the core's
 * list is made in C memory first, so the tables made after it (which may
 * run finalizers) cannot see a grid half changed. */
static int grid_neighbours(lua_State *L)
{
    LuaGrid *g = check_grid(L, "neighbours");
    uint32_t x = check_index(L, method_arg("neighbours", 1), "x", g->width);
    uint32_t y = check_index(L, method_arg("neighbours", 2), "y", g->height);
    AstarDiagonal diagonal = neighbours_diagonal(L, g);
    AstarCellMove stack[MOVES_ON_STACK], *moves = stack;
    size_t n, cap = MOVES_ON_STACK, k;

    check_open(L, g);
    while ((n = astar_cell_moves(g->grid, diagonal, x, y, moves, cap)) > cap) {
        cap = n;
        moves = (AstarCellMove *)lua_newuserdata(L, n * sizeof *moves);
        check_open(L, g);   /* the allocation may have run a finalizer */
    }
    lua_createtable(L, (int)n, 0);
    for (k = 0; k < n; k++) {
        lua_createtable(L, 0, 3);
        lua_pushinteger(L, (lua_Integer)moves[k].x + 1);
        lua_setfield(L, -2, "x");
        lua_pushinteger(L, (lua_Integer)moves[k].y + 1);
        lua_setfield(L, -2, "y");
        lua_pushnumber(L, (lua_Number)moves[k].cost);
        lua_setfield(L, -2, "cost");
        lua_rawseti(L, -2, (int)k + 1);
    }
    return 1;
}

const luaL_Reg GEOMETRY_METHODS[] = {
    {"cellCentre", grid_cell_centre},
    {"cellAt", grid_cell_at},
    {"neighbours", grid_neighbours},
    {"distance", grid_distance},
    {NULL, NULL}
};
