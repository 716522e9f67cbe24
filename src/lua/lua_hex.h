/* Hex boards in the binding (lua_hex.c). */
#ifndef ASTAR_LUA_HEX_H
#define ASTAR_LUA_HEX_H

#include "lua_grid.h"

/* astar.newHex(width, height [, layout]) -> Grid */
int astar_lua_new_hex(lua_State *L);
/* grid:getShape() -> "square" | "hex"; grid:getLayout() -> layout name or nil */
int astar_lua_get_shape(lua_State *L);
int astar_lua_get_layout(lua_State *L);
/* 0 for a square grid, 1 + AstarHexLayout for a hex board. */
unsigned grid_hex_code(const LuaGrid *g);
/* Nonzero when g is a hex board. */
int grid_is_hex(const LuaGrid *g);

#endif
