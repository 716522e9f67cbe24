/*
 * grid:encode() -> string and astar.decode(s) -> Grid: a grid crosses Lua
 * states (love.thread channels, save files) as a string. The format is the
 * core's (src/core/encode.c); the Grid's settings travel with it.
 */
#include <string.h>

#include "lua_grid.h"

typedef struct {
    char *at;
} Writer;

static void add_bytes(void *user, const void *bytes, size_t length)
{
    Writer *w = (Writer *)user;
    memcpy(w->at, bytes, length);
    w->at += length;
}

static size_t grid_measure(lua_State *L, const void *object)
{
    const LuaGrid *g = (const LuaGrid *)object;
    check_open(L, g);
    return astar_grid_encoded_size(g->grid);
}

/* The bytes go to a userdata allocated first, so that no Lua code (a
 * finalizer at an allocation) runs while the core reads the grid. */
int grid_encode(lua_State *L)
{
    LuaGrid *g = check_grid(L, "encode");
    AstarGridSettings settings;
    size_t size;
    Writer w;
    char *buffer;

    lua_settop(L, 1);
    buffer = (char *)push_measured(L, grid_measure, g, "grid", "encode", &size);
    settings.diagonal = g->diagonal;
    settings.heuristic = g->heuristic;
    settings.heuristic_chosen = g->heuristic_chosen;
    settings.weight = g->weight;
    w.at = buffer;
    astar_grid_encode(g->grid, &settings, add_bytes, &w);
    lua_pushlstring(L, buffer, size);
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
    return grid_created(L, g);
}
