/*
 * Hex boards in the binding: astar.newHex and the shape getters. Everything
 * else is the Grid's own methods, which run the hex loop on a hex grid
 * (src/core/hex.c).
 */
#include "lua_hex.h"

#include "../core/astar_hex.h"

/* By AstarHexLayout. */
static const char *const LAYOUT_NAMES[] = {"odd-r", "even-r", "odd-q", "even-q", NULL};

unsigned grid_hex_code(const LuaGrid *g)
{
    return g->hex;
}

int grid_is_hex(const LuaGrid *g)
{
    return g->hex != 0;
}

int astar_lua_new_hex(lua_State *L)
{
    Arg aw = {1, 1, "newHex"}, ah = {2, 2, "newHex"}, al = {3, 3, "newHex"};
    uint32_t w = check_index(L, aw, "width", ASTAR_MAX_SIDE) + 1;
    uint32_t h = check_index(L, ah, "height", ASTAR_MAX_SIDE) + 1;
    AstarHexLayout layout = ASTAR_HEX_ODD_R;
    LuaGrid *g;

    if (!lua_isnoneornil(L, 3))
        layout = (AstarHexLayout)check_name(L, al, NULL, "layout", LAYOUT_NAMES,
                                            "odd-r, even-r, odd-q or even-q");
    if ((uint64_t)w * h > ASTAR_MAX_CELLS)
        return arg_error(L, 2, "newHex", NULL, "width * height exceeds the maximum of %u cells",
                         (unsigned)ASTAR_MAX_CELLS);
    lua_settop(L, 0);
    g = push_grid(L);
    g->diagonal = ASTAR_DIAGONAL_NEVER;   /* the sides: what the rules' messages assume */
    if (astar_grid_new_hex(&g->grid, w, h, layout) != ASTAR_OK)
        return raise_error(L, "not enough memory for a %ux%u grid", (unsigned)w, (unsigned)h);
    return grid_created(L, g);
}

int astar_lua_get_shape(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getShape");
    lua_pushstring(L, grid_is_hex(g) ? "hex" : "square");
    return 1;
}

int astar_lua_get_layout(lua_State *L)
{
    LuaGrid *g = check_grid(L, "getLayout");
    if (g->hex)
        lua_pushstring(L, LAYOUT_NAMES[g->hex - 1]);
    else
        lua_pushnil(L);
    return 1;
}
