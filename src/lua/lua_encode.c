/*
 * grid:encode() -> string and astar.decode(s) -> Grid: a grid crosses Lua
 * states (love.thread channels, save files) as a string. The format is the
 * core's (src/core/encode.c); the Grid's settings travel with it.
 */
#include "lua_grid.h"

static void add_bytes(void *user, const void *bytes, size_t length)
{
    luaL_addlstring((luaL_Buffer *)user, (const char *)bytes, length);
}

int grid_encode(lua_State *L)
{
    LuaGrid *g = check_grid(L, "encode");
    AstarGridSettings settings;
    luaL_Buffer b;

    if (astar_grid_encoded_size(g->grid) == 0)
        return raise_error(L, "grid too large to encode on this platform");
    settings.diagonal = g->diagonal;
    settings.heuristic = g->heuristic;
    settings.heuristic_chosen = g->heuristic_chosen;
    settings.weight = g->weight;
    luaL_buffinit(L, &b);
    astar_grid_encode(g->grid, &settings, add_bytes, &b);
    luaL_pushresult(&b);
    return 1;
}

int grid_decode(lua_State *L)
{
    Arg a = {1, 1, "decode"};
    AstarGridSettings settings;
    char message[128];
    const char *data;
    size_t length;
    LuaGrid *g;
    AstarError e;

    if (lua_type(L, 1) != LUA_TSTRING)
        type_error(L, a, NULL, "string");
    data = lua_tolstring(L, 1, &length);
    g = push_grid(L);
    e = astar_grid_decode(&g->grid, &settings, data, length, message, sizeof message);
    if (e == ASTAR_EPARSE)
        return arg_error(L, 1, "decode", NULL, "not an astar grid: %s", message);
    if (e != ASTAR_OK)
        return raise_error(L, "not enough memory");
    g->diagonal = settings.diagonal;
    g->heuristic = settings.heuristic;
    g->heuristic_chosen = settings.heuristic_chosen;
    g->weight = settings.weight;
    return 1;
}
