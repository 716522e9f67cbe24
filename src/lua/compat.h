/*
 * The few Lua C API calls that differ between Lua 5.1 (and LuaJIT) and
 * 5.2-5.4, under names of our own so they never clash with a host's.
 */
#ifndef ASTAR_LUA_COMPAT_H
#define ASTAR_LUA_COMPAT_H

#include <lua.h>
#include <lauxlib.h>

#if LUA_VERSION_NUM >= 502
#define compat_setfuncs(L, l) luaL_setfuncs((L), (l), 0)
#define compat_testudata luaL_testudata
#define compat_rawlen lua_rawlen
#else
#define compat_rawlen lua_objlen

static inline void compat_setfuncs(lua_State *L, const luaL_Reg *l)
{
    for (; l->name; l++) {
        lua_pushcfunction(L, l->func);
        lua_setfield(L, -2, l->name);
    }
}

static inline void *compat_testudata(lua_State *L, int i, const char *tname)
{
    void *p = lua_touserdata(L, i);
    int same;
    if (!p || !lua_getmetatable(L, i))
        return NULL;
    luaL_getmetatable(L, tname);
    same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same ? p : NULL;
}
#endif

#endif
