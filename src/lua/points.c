/*
 * Lists of points handed to Lua (points.h). A point table costs two
 * allocations (the table and its hash slots) and their collection: Lua's
 * floor, and most of what the default path form costs over the flat one
 * (docs/performance.md, "The default path form"). What is added to it here
 * is kept small: the keys are pushed once per list and set raw, and every
 * table is made at its final size.
 */
#include "points.h"

#include "compat.h"

void point_list_open(lua_State *L, PointList *pl, size_t n, int flat, int into, int with_cost)
{
    luaL_checkstack(L, 8, NULL);
    pl->L = L;
    pl->flat = flat;
    pl->into = into != 0;
    pl->with_cost = with_cost;
    lua_pushliteral(L, "x");
    pl->keys = lua_gettop(L);
    lua_pushliteral(L, "y");
    lua_pushliteral(L, "cost");
    if (into)
        lua_pushvalue(L, into);
    else
        lua_createtable(L, (int)(flat ? 2 * n : n), 0);
    pl->list = lua_gettop(L);
}

/* t[key] = v, t the table on top, key the stack slot of its name. */
static void set_integer(lua_State *L, int key, lua_Integer v)
{
    lua_pushvalue(L, key);
    lua_pushinteger(L, v);
    lua_rawset(L, -3);
}

/* Pushes point table k: the caller's at k, else a new one; 1 when new. */
static int push_point(const PointList *pl, size_t k)
{
    lua_State *L = pl->L;

    if (pl->into) {
        lua_rawgeti(L, pl->list, (int)k);
        if (lua_istable(L, -1))
            return 0;
        lua_pop(L, 1);
    }
    lua_createtable(L, 0, pl->with_cost ? 3 : 2);
    return 1;
}

/* Stores the point table on top as point k (a new one), or drops it. */
static void store_point(const PointList *pl, size_t k, int fresh)
{
    if (fresh)
        lua_rawseti(pl->L, pl->list, (int)k);
    else
        lua_pop(pl->L, 1);
}

int point_list_set(const PointList *pl, size_t k, lua_Integer x, lua_Integer y)
{
    lua_State *L = pl->L;
    int fresh;

    if (pl->flat) {
        lua_pushinteger(L, x);
        lua_rawseti(L, pl->list, (int)(2 * k - 1));
        lua_pushinteger(L, y);
        lua_rawseti(L, pl->list, (int)(2 * k));
        return 0;
    }
    fresh = push_point(pl, k);
    set_integer(L, pl->keys, x);
    set_integer(L, pl->keys + 1, y);
    store_point(pl, k, fresh);
    return fresh;
}

void point_list_set_flat(const PointList *pl, size_t k, const uint32_t *xy, size_t count)
{
    lua_State *L = pl->L;
    int list = pl->list, at = (int)(2 * k);
    size_t j;

    for (j = 0; j < count; j++, at -= 2) {
        lua_pushinteger(L, (lua_Integer)xy[2 * j] + 1);
        lua_rawseti(L, list, at - 1);
        lua_pushinteger(L, (lua_Integer)xy[2 * j + 1] + 1);
        lua_rawseti(L, list, at);
    }
}

int point_list_set_cost(const PointList *pl, size_t k, lua_Integer x, lua_Integer y,
                        lua_Number cost)
{
    lua_State *L = pl->L;
    int fresh = push_point(pl, k);

    set_integer(L, pl->keys, x);
    set_integer(L, pl->keys + 1, y);
    lua_pushvalue(L, pl->keys + 2);
    lua_pushnumber(L, cost);
    lua_rawset(L, -3);
    store_point(pl, k, fresh);
    return fresh;
}

void point_list_close(const PointList *pl, size_t n)
{
    lua_State *L = pl->L;

    if (pl->into) {
        size_t i, len = (size_t)compat_rawlen(L, pl->list);
        for (i = (pl->flat ? 2 * n : n) + 1; i <= len; i++) {
            lua_pushnil(L);
            lua_rawseti(L, pl->list, (int)i);
        }
    }
    lua_replace(L, pl->keys);      /* the list where the keys began */
    lua_settop(L, pl->keys);
}
