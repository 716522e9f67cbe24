/*
 * grid:smoothPath(path [, opts]) (issue 20, docs/paths.md): any walk,
 * smoothed over the grid's walls and costs as they are, by the core's
 * smooth.c. The walk is read into a buffer the call allocates first (a
 * userdata: the collector owns it), checked point by point, smoothed in
 * place and pushed as findPath pushes a path.
 */
#include <math.h>
#include <string.h>

#include "../core/astar_geometry.h"
#include "lua_hex.h"
#include "query_options.h"

static const char *const SMOOTH_PATH_OPTIONS[] = {"smooth", "diagonal", "flat", "into", NULL};

typedef struct {
    AstarSmooth smooth;
    AstarDiagonal diagonal;
    PathOutput out;
    int flat_given;        /* else the path comes back in the form it came in */
} SmoothOptions;

/* The value of option `name` of table t, pushed (raw: nothing runs). */
static int option_value(lua_State *L, int t, const char *name)
{
    lua_pushstring(L, name);
    lua_rawget(L, t);
    return lua_gettop(L);
}

/* smoothPath's options (argument a): a bad name first (the same one
 * whatever order the table is walked in), then the values in the order
 * diagonal, flat, into, smooth, as the pure backend reads them. */
static void read_smooth_options(lua_State *L, Arg a, const LuaGrid *g, SmoothOptions *o)
{
    int worst, hex = grid_is_hex(g);
    Arg v = a;

    o->smooth = hex ? ASTAR_SMOOTH_CORNERS : ASTAR_SMOOTH_SIGHT;
    o->diagonal = g->diagonal;
    o->flat_given = 0;
    memset(&o->out, 0, sizeof o->out);
    if (lua_isnoneornil(L, a.index))
        return;
    if (!lua_istable(L, a.index))
        type_error(L, a, NULL, "table");
    lua_pushnil(L);
    worst = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, a.index)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING
            && find_name(L, lua_gettop(L), SMOOTH_PATH_OPTIONS) >= 0)
            continue;
        if (option_key_worse(L, lua_gettop(L), lua_isnil(L, worst) ? 0 : worst)) {
            lua_pushvalue(L, -1);
            lua_replace(L, worst);
        }
    }
    if (!lua_isnil(L, worst))
        option_key_error(L, a, worst);
    if (!lua_isnil(L, v.index = option_value(L, a.index, "diagonal")))
        o->diagonal = check_diagonal(L, v, "opts.diagonal: ", hex);
    if (!lua_isnil(L, v.index = option_value(L, a.index, "flat"))) {
        o->out.flat = check_boolean(L, v, "opts.flat: ");
        o->flat_given = 1;
    }
    if (!lua_isnil(L, v.index = option_value(L, a.index, "into"))) {
        if (!lua_istable(L, v.index))
            type_error(L, v, "opts.into: ", "table");
        o->out.into = v.index;      /* the slot stays pushed */
    }
    if (!lua_isnil(L, v.index = option_value(L, a.index, "smooth"))) {
        o->smooth = check_smooth(L, v);
        if (o->smooth == ASTAR_SMOOTH_THETA)
            smooth_cannot(L, a, o->smooth, "needs a search (findPath or newSearch)");
        if (o->smooth == ASTAR_SMOOTH_SIGHT && hex)
            smooth_cannot(L, a, o->smooth, "needs a square board");
        if (o->smooth == ASTAR_SMOOTH_NONE)
            o->smooth = ASTAR_SMOOTH_CORNERS;   /* false: the walk's corners */
    }
}

/* Whether (x, y) is a cell of the grid: whole numbers in range. */
static int on_grid(const LuaGrid *g, double x, double y)
{
    return x == floor(x) && y == floor(y) && x >= 1 && y >= 1 && x <= g->width && y <= g->height;
}

/* Point k (x, y) must be a cell of the grid. */
static void check_point(lua_State *L, Arg a, const LuaGrid *g, size_t k, double x, double y)
{
    char bx[32], by[32];
    if (on_grid(g, x, y))
        return;
    arg_error(L, a.number, a.fname, NULL, "point %lu (%s, %s) is outside the %lux%lu grid",
                               (unsigned long)k, number_text(bx, sizeof bx, x),
                               number_text(by, sizeof by, y), (unsigned long)g->width,
                               (unsigned long)g->height);
}

/* The number at stack top, or an error naming where it was read. */
static double read_number(lua_State *L, Arg a, const char *where, size_t i, const char *field)
{
    if (lua_type(L, -1) != LUA_TNUMBER) {
        if (field)
            return arg_error(L, a.number, a.fname, NULL, "%s[%lu].%s: number expected, got %s",
                             where, (unsigned long)i, field, luaL_typename(L, -1));
        return arg_error(L, a.number, a.fname, NULL, "%s[%lu]: number expected, got %s", where,
                         (unsigned long)i, luaL_typename(L, -1));
    }
    return lua_tonumber(L, -1);
}

/* Point k (1-based) of the path at a, in the form it has (flat: x1, y1,
 * x2, ...; else {x =, y =} tables), as numbers, or the error naming the
 * value that is not one. Raw reads: nothing runs, nothing is allocated. */
static void read_point(lua_State *L, Arg a, int flat, size_t k, double *x, double *y)
{
    if (flat) {
        lua_rawgeti(L, a.index, (int)(2 * k - 1));
        *x = read_number(L, a, "path", 2 * k - 1, NULL);
        lua_rawgeti(L, a.index, (int)(2 * k));
        *y = read_number(L, a, "path", 2 * k, NULL);
        lua_pop(L, 2);
        return;
    }
    lua_rawgeti(L, a.index, (int)k);
    if (!lua_istable(L, -1))
        arg_error(L, a.number, a.fname, NULL, "path[%lu]: point expected, got %s",
                  (unsigned long)k, luaL_typename(L, -1));
    lua_pushliteral(L, "x");
    lua_rawget(L, -2);
    *x = read_number(L, a, "path", k, "x");
    lua_pushliteral(L, "y");
    lua_rawget(L, -3);
    *y = read_number(L, a, "path", k, "y");
    lua_pop(L, 3);
}

/* The form of the path at a (a table): whether it is flat (its first value
 * a number), and its number of points; an empty path or a flat one of odd
 * length is an error. */
static size_t read_form(lua_State *L, Arg a, int *flat)
{
    size_t len;
    if (!lua_istable(L, a.index))
        type_error(L, a, NULL, "table");
    len = (size_t)compat_rawlen(L, a.index);
    if (len == 0)
        arg_error(L, a.number, a.fname, NULL, "path is empty");
    lua_rawgeti(L, a.index, 1);
    *flat = lua_type(L, -1) == LUA_TNUMBER;
    lua_pop(L, 1);
    if (*flat && len % 2)
        arg_error(L, a.number, a.fname, NULL, "flat path has an odd length %lu",
                  (unsigned long)len);
    return *flat ? len / 2 : len;
}

/* Reads the n points of the path at a into xy (0-based pairs), checking each
 * is in the grid and walkable (the first excepted); the core checks the
 * steps. */
static void read_walk(lua_State *L, Arg a, const LuaGrid *g, int flat, size_t n, uint32_t *xy)
{
    size_t k;
    for (k = 1; k <= n; k++) {
        double x, y;
        read_point(L, a, flat, k, &x, &y);
        check_point(L, a, g, k, x, y);
        xy[2 * k - 2] = (uint32_t)x - 1;
        xy[2 * k - 1] = (uint32_t)y - 1;
        if (k > 1 && !astar_grid_walkable(g->grid, xy[2 * k - 2], xy[2 * k - 1]))
            arg_error(L, a.number, a.fname, NULL, "point %lu (%.0f, %.0f) is not walkable",
                      (unsigned long)k, x, y);
    }
}

static void buffer_cell(PathReader *r, size_t i, uint32_t *x, uint32_t *y)
{
    const uint32_t *xy = (const uint32_t *)r->source;
    *x = xy[2 * i - 2];
    *y = xy[2 * i - 1];
}

static int buffer_valid(PathReader *r)
{
    (void)r;
    return 1;                          /* the buffer is this call's own */
}

int astar_lua_smooth_path(lua_State *L)
{
    LuaGrid *g = check_grid(L, "smoothPath");
    Arg pa = method_arg("smoothPath", 1), oa = method_arg("smoothPath", 2);
    SmoothOptions o;
    PathReader reader;
    size_t n, kept, bad;
    uint32_t *xy;
    double cost = 0.0;
    int flat;

    lua_settop(L, 3);
    if (!lua_istable(L, pa.index))
        type_error(L, pa, NULL, "table");
    read_smooth_options(L, oa, g, &o);
    n = read_form(L, pa, &flat);
    if (!o.flat_given)
        o.out.flat = flat;
    xy = (uint32_t *)lua_newuserdata(L, n * (2 * sizeof *xy + sizeof(double)));
    check_open(L, g);                  /* the allocation may have run finalizers */
    read_walk(L, pa, g, flat, n, xy);
    if (o.smooth == ASTAR_SMOOTH_SIGHT
        && astar_grid_move_count(g->grid) + astar_grid_link_count(g->grid) > 0)
        smooth_cannot(L, oa, o.smooth, "needs a grid without move overrides or links");
    kept = astar_path_smooth(g->grid, o.diagonal, o.smooth, xy, n,
                             (double *)(void *)(xy + 2 * n), &cost, &bad);
    if (bad)
        return arg_error(L, pa.number, pa.fname, NULL,
                         "point %lu (%lu, %lu) is not a move from point %lu (%lu, %lu)",
                         (unsigned long)bad + 1, (unsigned long)xy[2 * bad] + 1,
                         (unsigned long)xy[2 * bad + 1] + 1, (unsigned long)bad,
                         (unsigned long)xy[2 * bad - 2] + 1, (unsigned long)xy[2 * bad - 1] + 1);
    memset(&reader, 0, sizeof reader);
    reader.n = kept;
    reader.cell = buffer_cell;
    reader.cells = NULL;
    reader.valid = buffer_valid;
    reader.source = xy;
    push_path(L, &reader, o.out);
    lua_pushnumber(L, (lua_Number)cost);
    return 2;
}

/* grid:firstBlocked(path [, from]) (issue 24): the index of the first cell
 * of path, from cell `from` on (default 1), that a unit can no longer enter
 * (astar_cell_enterable from the cell before it, in the grid's diagonal
 * mode; a point off the grid is blocked; the first cell: its own wall), or
 * nil. Reads the points it checks, one by one, and nothing past the first
 * blocked one: raw reads, no allocation, so nothing else runs meanwhile. */
int astar_lua_first_blocked(lua_State *L)
{
    LuaGrid *g = check_grid(L, "firstBlocked");
    Arg pa = method_arg("firstBlocked", 1), fa = method_arg("firstBlocked", 2);
    size_t n, k, from = 1;
    double px = 0, py = 0;
    int flat;

    n = read_form(L, pa, &flat);
    if (!lua_isnoneornil(L, fa.index))
        from = (size_t)check_index(L, fa, "from", n < UINT32_MAX ? (uint32_t)n + 1 : UINT32_MAX) + 1;
    if (from > 1)
        read_point(L, pa, flat, from - 1, &px, &py);
    for (k = from; k <= n; k++) {
        double x, y;
        int before = k > 1 && on_grid(g, px, py);
        read_point(L, pa, flat, k, &x, &y);
        if (!on_grid(g, x, y))
            break;
        if (before ? !astar_cell_enterable(g->grid, g->diagonal, (uint32_t)px - 1,
                                           (uint32_t)py - 1, (uint32_t)x - 1, (uint32_t)y - 1)
                   : !astar_grid_walkable(g->grid, (uint32_t)x - 1, (uint32_t)y - 1))
            break;
        px = x;
        py = y;
    }
    if (k > n)
        lua_pushnil(L);
    else
        lua_pushinteger(L, (lua_Integer)k);
    return 1;
}
