/*
 * The ownership rules of lua_grid.h: lending scratch, temporary scratch,
 * closing a grid that queries still read, and telling the collector about
 * memory allocated outside the Lua heap.
 */
#include <limits.h>
#include <string.h>

#include "lua_grid.h"

#define SCRATCH_TYPE "astar.Scratch"

/* ---- temporary scratch: a userdata the collector frees ------------------- */

typedef struct {
    AstarSearch *search;
    AstarRange *range;
} Scratch;

static int scratch_gc(lua_State *L)
{
    Scratch *s = (Scratch *)luaL_checkudata(L, 1, SCRATCH_TYPE);
    astar_search_free(s->search);
    astar_range_free(s->range);
    s->search = NULL;
    s->range = NULL;
    return 0;
}

void set_type_metatable(lua_State *L, const char *tname, const luaL_Reg *methods,
                        lua_CFunction tostring)
{
    lua_getfield(L, LUA_REGISTRYINDEX, tname);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 3);
        lua_newtable(L);
        compat_setfuncs(L, methods);
        lua_setfield(L, -2, "__index");
        lua_pushcfunction(L, tostring);
        lua_setfield(L, -2, "__tostring");
        lua_pushstring(L, tname);
        lua_setfield(L, -2, "__name");
        /* nothing from here on runs the collector: a finalizer may have
         * registered one while this one was made */
        lua_getfield(L, LUA_REGISTRYINDEX, tname);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_setfield(L, LUA_REGISTRYINDEX, tname);
        } else {
            lua_remove(L, -2);
        }
    }
    lua_setmetatable(L, -2);
}

void register_scratch(lua_State *L)
{
    luaL_newmetatable(L, SCRATCH_TYPE);
    lua_pushcfunction(L, scratch_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
}

/* Creates the scratch of `kind` in *search or *range if it is missing. */
static int make_scratch(unsigned kind, AstarSearch **search, AstarRange **range)
{
    if (kind == LENT_SEARCH && !*search)
        *search = astar_search_new();
    if (kind == LENT_RANGE && !*range)
        *range = astar_range_new();
    return kind == LENT_SEARCH ? *search != NULL : *range != NULL;
}

AstarRange *scratch_range_push(lua_State *L)
{
    Scratch *s = (Scratch *)lua_newuserdata(L, sizeof *s);
    s->search = NULL;
    s->range = NULL;
    luaL_getmetatable(L, SCRATCH_TYPE);
    lua_setmetatable(L, -2);
    s->range = astar_range_new();
    if (!s->range)
        raise_error(L, "not enough memory");
    return s->range;
}

void lease_take(lua_State *L, LuaGrid *g, unsigned kind, int temp, int callbacks, Lease *lease)
{
    memset(lease, 0, sizeof *lease);
    lease->g = g;
    lease->kind = kind;
    if (!temp && !(g->lent & kind)) {
        if (!make_scratch(kind, &g->search, &g->range))
            raise_error(L, "not enough memory");
        lease->own = 1;
        lease->serial = ++g->serial;
        lease->search = g->search;
        lease->range = g->range;
        if (callbacks)
            g->lent |= kind;
        return;
    }
    {
        Scratch *s = (Scratch *)lua_newuserdata(L, sizeof *s);
        s->search = NULL;
        s->range = NULL;
        luaL_getmetatable(L, SCRATCH_TYPE);
        lua_setmetatable(L, -2);
        if (!make_scratch(kind, &s->search, &s->range))
            raise_error(L, "not enough memory");
        lease->search = s->search;
        lease->range = s->range;
    }
}

void lease_return(Lease *lease)
{
    if (lease->own)
        lease->g->lent &= ~lease->kind;
}

int lease_valid(const Lease *lease)
{
    return !lease->g->closed && (!lease->own || lease->g->serial == lease->serial);
}

unsigned char *push_measured(lua_State *L, size_t (*measure)(lua_State *L, const void *object),
                             const void *object, const char *what, const char *fname,
                             size_t *size)
{
    int base = lua_gettop(L), tries;

    *size = measure(L, object);
    for (tries = 0; tries < MEASURE_TRIES && *size != 0; tries++) {
        unsigned char *buffer;
        size_t asked = *size;

        lua_settop(L, base);
        buffer = (unsigned char *)lua_newuserdata(L, asked);
        *size = measure(L, object);
        if (*size == asked)
            return buffer;
    }
    if (*size == 0)
        raise_error(L, "%s too large to encode on this platform", what);
    raise_error(L, "%s changed during %s", what, fname);
    return NULL;
}

/* ---- closing ------------------------------------------------------------- */

static void free_memory(LuaGrid *g)
{
    unsigned i;
    astar_grid_free(g->grid);
    astar_search_free(g->search);
    astar_range_free(g->range);
    for (i = 0; i < g->pooled; i++)
        astar_search_free(g->pool[i]);
    g->grid = NULL;
    g->search = NULL;
    g->range = NULL;
    g->pooled = 0;
}

void grid_enter(LuaGrid *g)
{
    g->running++;
}

void grid_leave(LuaGrid *g)
{
    if (--g->running == 0 && g->closed)
        free_memory(g);
}

void grid_close(LuaGrid *g)
{
    g->closed = 1;
    g->serial++;
    if (g->running == 0)
        free_memory(g);
}

AstarSearch *pool_take(LuaGrid *g)
{
    return g->pooled > 0 ? g->pool[--g->pooled] : NULL;
}

void pool_give(LuaGrid *g, AstarSearch *search)
{
    if (!g->closed && g->pooled < POOL_SIZE)
        g->pool[g->pooled++] = search;
    else
        astar_search_free(search);
}

size_t grid_external_memory(const LuaGrid *g)
{
    size_t bytes = 0;
    unsigned i;
    if (g->grid)
        bytes += astar_grid_memory(g->grid);
    if (g->search)
        bytes += astar_search_memory(g->search);
    if (g->range)
        bytes += astar_range_memory(g->range);
    for (i = 0; i < g->pooled; i++)
        bytes += astar_search_memory(g->pool[i]);
    return bytes;
}

/* ---- the collector ------------------------------------------------------- */

/* Its address is the registry key of this Lua state's count of external
 * bytes noted since the last full collection (it is never written). */
static const char EXTERNAL_KEY = 'e';
#define FULL_COLLECT_MIN (32u << 20)

/* Steps the collector as if Lua had allocated `bytes`: Lua 5.2+ take the
 * step size in KB; on 5.1 and LuaJIT one step counts as about 1 KB, so as
 * many steps are made, up to the end of a cycle. That is enough for an
 * incremental collector. A generational one (Lua 5.4's default on Debian)
 * makes young collections of it, and objects that lived through two of
 * them are only freed by a major collection, which external bytes never
 * trigger: so a full collection is made whenever the bytes noted since the
 * last one exceed the Lua heap's size (and 32 MB), as Lua does for its own
 * memory. A collector stopped by the game stays stopped (except on PUC Lua
 * 5.1, which cannot tell). */
void gc_note(lua_State *L, size_t bytes)
{
    size_t kb = bytes / 1024 + 1, heap, *since;
    int steps = kb > (size_t)(INT_MAX / 2048) ? INT_MAX / 2048 : (int)kb;

    if (bytes == 0)
        return;
#ifdef LUA_GCISRUNNING
    if (!lua_gc(L, LUA_GCISRUNNING, 0))
        return;
#endif
#if LUA_VERSION_NUM >= 502
    lua_gc(L, LUA_GCSTEP, steps);
#else
    while (steps-- > 0)
        if (lua_gc(L, LUA_GCSTEP, 0))
            break;
#endif
    lua_pushlightuserdata(L, (void *)&EXTERNAL_KEY);
    lua_rawget(L, LUA_REGISTRYINDEX);
    since = (size_t *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!since) {
        since = (size_t *)lua_newuserdata(L, sizeof *since);
        *since = 0;
        lua_pushlightuserdata(L, (void *)&EXTERNAL_KEY);
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);
        lua_pop(L, 1);
    }
    *since += bytes;
    heap = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024;
    if (*since >= heap && *since >= FULL_COLLECT_MIN) {
        *since = 0;
        lua_gc(L, LUA_GCCOLLECT, 0);
    }
}

int gc_note_growth(lua_State *L, const LuaGrid *g, size_t before, int nresults)
{
    size_t now = grid_external_memory(g);
    if (now > before)
        gc_note(L, now - before);
    return nresults;
}
