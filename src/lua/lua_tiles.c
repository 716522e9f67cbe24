/*
 * Grids from tile ids, as tile editors give them: astar.fromTiles(tiles,
 * rule) and grid:setTiles(tiles, rule [, x, y]). The tiles are rows,
 * tiles[y][x], or a tile layer as Tiled's Lua export and STI give it:
 * {width =, height =, data =}, data one flat array of gids (row after row)
 * or, when data[1] is a table, rows (STI, whose cells are tiles, tables with
 * a gid field, and nil where a cell is empty). In a layer an empty cell is
 * id 0, Tiled's "no tile". Every whole-number id from 2^28 to 2^32 - 1 loses
 * Tiled's flip and rotation bits (the top four).
 *
 * The rule maps a tile id to a cost: a table {[id] = cost | false}, read
 * raw, with rule.default for ids it has no entry for (no entry and no
 * default is an error naming the id and the cell), or a function
 * (id, x, y) -> cost | false | nil. A number in (0, 1e15] is a walkable
 * cell with that cost; false, nil and math.huge are walls; anything else is
 * an error naming the tile and the cell.
 *
 * Everything is read and checked before anything is written, so an error
 * (a bad table, a bad answer, the rule's own error) leaves the grid as it
 * was. A rule function is Lua code: it runs under lua_pcall with the grid
 * entered (lease.c), so closing the grid only detaches it (setTiles then
 * raises "grid closed during setTiles"); its errors come out unchanged; a
 * yield is Lua's error for a yield across a C call. setTiles keeps the
 * answers in a userdata (the collector frees it whatever happens) and
 * writes them only when every answer is in, to the grid as it is then.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lua_grid.h"
#include "points.h"

/* What one call paints, and where it reports. */
typedef struct {
    lua_State *L;
    const char *fname;
    int tiles, rule;            /* stack indices of the arguments */
    int data;                   /* a layer: the stack index of its data; 0: rows */
    int flat;                   /* a layer whose data is one flat array (Tiled) */
    uint32_t w, h;              /* the tiles' columns and rows */
    uint32_t x0, y0;            /* the grid cell of the top left tile, 0-based */
    LuaGrid *g;                 /* setTiles: the grid a rule may close; else NULL */
} Paint;

#define WALL INFINITY
#define GID_FLAGS 268435456.0   /* 2^28: Tiled's four flip and rotation bits lie above */
#define GID_LIMIT 4294967296.0  /* 2^32: a gid is a 32-bit number */

/* The id at the top of the stack, as messages show it. */
static const char *id_text(lua_State *L, char *buf, size_t size)
{
    size_t len;
    const char *s;
    switch (lua_type(L, -1)) {
    case LUA_TSTRING:
        s = lua_tolstring(L, -1, &len);
        buf[0] = '\'';
        quoted(buf + 1, size - 2, s, len);
        strcat(buf, "'");
        return buf;
    case LUA_TNUMBER:
        return number_text(buf, size, (double)lua_tonumber(L, -1));
    case LUA_TBOOLEAN:
        return lua_toboolean(L, -1) ? "true" : "false";
    default:
        return luaL_typename(L, -1);
    }
}

/* Pushes what holds row y (0-based), or raises: the row (a table) of rows
 * or of a layer's rows; a flat layer's data itself. */
static void push_row(const Paint *p, uint32_t y)
{
    lua_State *L = p->L;
    if (p->flat) {
        lua_pushvalue(L, p->data);
        return;
    }
    lua_rawgeti(L, p->data ? p->data : p->tiles, (int)y + 1);
    if (!lua_istable(L, -1))
        arg_error(L, 1, p->fname, NULL, "%s[%u]: table expected, got %s",
                  p->data ? "tiles.data" : "tiles", (unsigned)y + 1, luaL_typename(L, -1));
}

/* A layer's cell at the top of the stack as the gid it stands for: nil (an
 * empty cell, as STI gives it) is 0, an STI tile (a table) its gid field. */
static void layer_gid(lua_State *L)
{
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushinteger(L, 0);
    } else if (lua_istable(L, -1)) {
        lua_pushliteral(L, "gid");
        lua_rawget(L, -2);
        if (lua_type(L, -1) == LUA_TNUMBER)
            lua_replace(L, -2);
        else
            lua_pop(L, 1);
    }
}

/* A gid with Tiled's flip bits (a whole number from 2^28 to 2^32 - 1) at the
 * top of the stack becomes the gid without them, an integer. */
static void drop_flip_bits(lua_State *L)
{
    double v;
    if (lua_type(L, -1) != LUA_TNUMBER)
        return;
    v = (double)lua_tonumber(L, -1);
    if (v >= GID_FLAGS && v < GID_LIMIT && v == floor(v)) {
        lua_pop(L, 1);
        lua_pushinteger(L, (lua_Integer)fmod(v, GID_FLAGS));
    }
}

/* Pushes the id of cell x of row y (what push_row pushed is at the top of
 * the stack), or raises: a nil in rows is an error, in a layer an empty cell. */
static void push_id(const Paint *p, uint32_t x, uint32_t y)
{
    lua_State *L = p->L;
    lua_rawgeti(L, -1, p->flat ? (int)(y * p->w + x) + 1 : (int)x + 1);
    if (p->data)
        layer_gid(L);
    else if (lua_isnil(L, -1))
        arg_error(L, 1, p->fname, NULL, "tiles[%u][%u] is nil; expected a tile id",
                  (unsigned)y + 1, (unsigned)x + 1);
    drop_flip_bits(L);
}

/* A layer's width or height: a whole number from 1 to 65535. */
static uint32_t layer_side(const Paint *p, const char *name)
{
    lua_State *L = p->L;
    char buf[32];
    double v;

    lua_pushstring(L, name);
    lua_rawget(L, p->tiles);
    if (lua_type(L, -1) != LUA_TNUMBER)
        arg_error(L, 1, p->fname, NULL, "tiles.%s: number expected, got %s", name,
                  luaL_typename(L, -1));
    v = (double)lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!(v >= 1 && v <= (double)ASTAR_MAX_SIDE) || v != floor(v))
        arg_error(L, 1, p->fname, NULL, "tiles.%s must be a whole number from 1 to %u, got %s",
                  name, (unsigned)ASTAR_MAX_SIDE, number_text(buf, sizeof buf, v));
    return (uint32_t)v;
}

/* A Tiled layer (tiles.data is there): the shape from width and height; the
 * data is pushed and kept (p->data), flat unless data[1] is a row (STI). */
static void read_layer(Paint *p)
{
    lua_State *L = p->L;

    p->w = layer_side(p, "width");
    p->h = layer_side(p, "height");
    lua_pushliteral(L, "data");
    lua_rawget(L, p->tiles);
    if (!lua_istable(L, -1))
        arg_error(L, 1, p->fname, NULL, "tiles.data: table expected, got %s",
                  luaL_typename(L, -1));
    p->data = lua_gettop(L);
    lua_rawgeti(L, p->data, 1);
    p->flat = !lua_istable(L, -1);
    lua_pop(L, 1);
}

/* Reads the shape (p->w, p->h): of a layer, or from the row count and the
 * first row; no Lua code runs. */
static void read_size(Paint *p)
{
    lua_State *L = p->L;
    size_t h, w;

    lua_pushliteral(L, "data");
    lua_rawget(L, p->tiles);
    h = lua_isnil(L, -1) ? 0 : 1;
    lua_pop(L, 1);
    if (h) {
        read_layer(p);
        return;
    }
    h = (size_t)compat_rawlen(L, p->tiles);
    if (h == 0)
        arg_error(L, 1, p->fname, NULL, "tiles is empty; expected rows (tiles[y][x]) or a "
                  "layer (width, height, data)");
    if (h > ASTAR_MAX_SIDE)
        arg_error(L, 1, p->fname, NULL, "#tiles is %lu; at most %u rows", (unsigned long)h,
                  (unsigned)ASTAR_MAX_SIDE);
    push_row(p, 0);
    w = (size_t)compat_rawlen(L, -1);
    lua_pop(L, 1);
    if (w == 0)
        arg_error(L, 1, p->fname, NULL, "tiles[1] is empty");
    if (w > ASTAR_MAX_SIDE)
        arg_error(L, 1, p->fname, NULL, "#tiles[1] is %lu; at most %u columns", (unsigned long)w,
                  (unsigned)ASTAR_MAX_SIDE);
    p->w = (uint32_t)w;
    p->h = (uint32_t)h;
}

/* Raises when table t holds a value at n + 1: more than the layer says.
 * where names t, limit the layer's field that n comes from. */
static void check_no_more(const Paint *p, int t, uint32_t n, const char *where, const char *limit)
{
    lua_State *L = p->L;
    lua_rawgeti(L, t, (int)n + 1);
    if (!lua_isnil(L, -1))
        arg_error(L, 1, p->fname, NULL, "%s[%u] is past %s = %u", where, (unsigned)n + 1, limit,
                  (unsigned)n);
    lua_pop(L, 1);
}

/* A layer's data holds no more than its width and height say, and each of
 * its rows is a table; no Lua code runs. Empty cells may be anywhere. */
static void check_layer(const Paint *p)
{
    char where[40];
    uint32_t y;

    if (p->flat) {
        check_no_more(p, p->data, p->w * p->h, "tiles.data", "width * height");
        return;
    }
    check_no_more(p, p->data, p->h, "tiles.data", "height");
    for (y = 0; y < p->h; y++) {
        push_row(p, y);
        snprintf(where, sizeof where, "tiles.data[%u]", (unsigned)y + 1);
        check_no_more(p, lua_gettop(p->L), p->w, where, "width");
        lua_pop(p->L, 1);
    }
}

/* Every row a table of w ids, none nil (rows), or a well-formed layer; no
 * Lua code runs. */
static void check_rows(const Paint *p)
{
    lua_State *L = p->L;
    uint32_t x, y;

    if (p->data) {
        check_layer(p);
        return;
    }
    for (y = 0; y < p->h; y++) {
        size_t n;
        push_row(p, y);
        n = (size_t)compat_rawlen(L, -1);
        if (n != p->w)
            arg_error(L, 1, p->fname, NULL, "#tiles[%u] is %lu, #tiles[1] is %u: every row must have "
                      "the same length", (unsigned)y + 1, (unsigned long)n, (unsigned)p->w);
        for (x = 0; x < p->w; x++) {
            push_id(p, x, y);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
}

/* The rule's answer for the id at the top of the stack, at grid cell
 * (gx, gy): a cost, or WALL. Pops nothing. */
static double answer(const Paint *p, uint32_t gx, uint32_t gy)
{
    lua_State *L = p->L;
    char idbuf[48], numbuf[32];
    const char *given;
    double cost;
    int t;

    if (lua_istable(L, p->rule)) {
        lua_pushvalue(L, -1);
        lua_rawget(L, p->rule);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_pushliteral(L, "default");
            lua_rawget(L, p->rule);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                return arg_error(L, 2, p->fname, NULL,
                                 "rule has no entry for tile %s at (%u, %u), and no default",
                                 id_text(L, idbuf, sizeof idbuf), (unsigned)gx + 1,
                                 (unsigned)gy + 1);
            }
        }
    } else {
        int failed;
        lua_pushvalue(L, p->rule);
        lua_pushvalue(L, -2);
        push_cell(L, gx, gy);
        if (p->g)
            grid_enter(p->g);
        failed = lua_pcall(L, 3, 1, 0);
        if (p->g) {
            grid_leave(p->g);           /* frees the grid if the rule closed it */
            if (failed)
                lua_error(L);           /* the rule's error, unchanged */
            if (p->g->closed)
                raise_error(L, "grid closed during %s", p->fname);
        } else if (failed) {
            lua_error(L);
        }
    }
    t = lua_type(L, -1);
    cost = t == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1)) || cost == WALL) {
        lua_pop(L, 1);
        return WALL;
    }
    if (cost > 0 && cost <= ASTAR_MAX_COST) {
        lua_pop(L, 1);
        return cost;
    }
    given = t == LUA_TNUMBER ? number_text(numbuf, sizeof numbuf, cost)
            : t == LUA_TBOOLEAN ? "true" : luaL_typename(L, -1);
    lua_pop(L, 1);
    return arg_error(L, 2, p->fname, NULL,
                     "rule gave %s for tile %s at (%u, %u); expected a positive number up to "
                     "1e15, false, nil or math.huge",
                     given, id_text(L, idbuf, sizeof idbuf), (unsigned)gx + 1,
                     (unsigned)gy + 1);
}

/* After out was sized from the shape and Lua ran (finalizers at its
 * allocation, the rule): the tiles still have that shape, or an error. */
static void check_shape(const Paint *p)
{
    lua_State *L = p->L;
    size_t n;
    uint32_t y;

    if (p->data)
        return;                         /* a layer's shape is read once, its cells as they are */
    n = (size_t)compat_rawlen(L, p->tiles);
    if (n != p->h)
        arg_error(L, 1, p->fname, NULL, "tiles changed while they were read: #tiles is %lu, was %u",
                  (unsigned long)n, (unsigned)p->h);
    for (y = 0; y < p->h; y++) {
        push_row(p, y);
        n = (size_t)compat_rawlen(L, -1);
        if (n != p->w)
            arg_error(L, 1, p->fname, NULL,
                      "tiles changed while they were read: #tiles[%u] is %lu, was %u",
                      (unsigned)y + 1, (unsigned long)n, (unsigned)p->w);
        lua_pop(L, 1);
    }
}

/* Asks the rule about every tile, row by row, into out[w * y + x]. The rule
 * may have changed the tiles meanwhile: they are checked again as read, and
 * their shape once every answer is in. */
static void ask_rule(const Paint *p, double *out)
{
    lua_State *L = p->L;
    uint32_t x, y;

    luaL_checkstack(L, 8, NULL);
    for (y = 0; y < p->h; y++) {
        push_row(p, y);
        for (x = 0; x < p->w; x++) {
            push_id(p, x, y);
            out[(size_t)y * p->w + x] = answer(p, p->x0 + x, p->y0 + y);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    check_shape(p);
}

/* Writes the answers to grid. The one write that may allocate (the first
 * cost other than 1 on a grid without a cost layer) is made first, so
 * running out of memory leaves the grid unchanged. Writes that change
 * nothing are no change (the core keeps the version). */
static AstarError write_answers(AstarGrid *grid, const Paint *p, const double *in)
{
    size_t i, n = (size_t)p->w * p->h;
    uint32_t x, y;

    for (i = 0; i < n; i++) {
        if (in[i] != WALL && in[i] != 1.0) {
            if (astar_grid_set_cost(grid, p->x0 + (uint32_t)(i % p->w),
                                    p->y0 + (uint32_t)(i / p->w), in[i]) != ASTAR_OK)
                return ASTAR_ENOMEM;
            break;
        }
    }
    for (y = 0; y < p->h; y++) {
        for (x = 0; x < p->w; x++) {
            double c = in[(size_t)y * p->w + x];
            if (c == WALL) {
                astar_grid_set_walkable(grid, p->x0 + x, p->y0 + y, 0);
            } else {
                astar_grid_set_walkable(grid, p->x0 + x, p->y0 + y, 1);
                astar_grid_set_cost(grid, p->x0 + x, p->y0 + y, c);   /* cannot fail now */
            }
        }
    }
    return ASTAR_OK;
}

/* Checks the types of tiles (argument 1) and rule (argument 2). */
static void check_arguments(lua_State *L, Paint *p, int first)
{
    Arg tiles = {0, 1, NULL}, rule = {0, 2, NULL};

    tiles.index = first;
    tiles.fname = p->fname;
    rule.index = first + 1;
    rule.fname = p->fname;
    p->L = L;
    p->tiles = first;
    p->rule = first + 1;
    p->x0 = p->y0 = 0;
    p->data = p->flat = 0;
    p->g = NULL;
    if (!lua_istable(L, first))
        type_error(L, tiles, NULL, "table");
    if (!lua_istable(L, first + 1) && !lua_isfunction(L, first + 1))
        type_error(L, rule, NULL, "function or table");
}

/* A scratch array of n doubles owned by a userdata pushed here. */
static double *push_answers(lua_State *L, size_t n)
{
    return (double *)lua_newuserdata(L, n * sizeof(double));
}

/* astar.fromTiles(tiles, rule) */
int astar_lua_from_tiles(lua_State *L)
{
    Paint p;
    LuaGrid *g;
    double *answers;

    p.fname = "fromTiles";
    check_arguments(L, &p, 1);
    lua_settop(L, 2);
    read_size(&p);
    if ((uint64_t)p.w * p.h > ASTAR_MAX_CELLS)
        arg_error(L, 1, p.fname, NULL, "tiles is %ux%u: more than %u cells", (unsigned)p.w,
                  (unsigned)p.h, (unsigned)ASTAR_MAX_CELLS);
    check_rows(&p);
    answers = push_answers(L, (size_t)p.w * p.h);
    ask_rule(&p, answers);
    g = push_grid(L);
    if (astar_grid_new(&g->grid, p.w, p.h) != ASTAR_OK)
        return raise_error(L, "not enough memory for a %ux%u grid", (unsigned)p.w,
                           (unsigned)p.h);
    if (write_answers(g->grid, &p, answers) != ASTAR_OK)
        return raise_error(L, "not enough memory");
    return grid_created(L, g);
}

/* grid:setTiles(tiles, rule [, x, y]) */
int astar_lua_set_tiles(lua_State *L)
{
    Paint p;
    LuaGrid *g = check_grid(L, "setTiles");
    uint32_t gw = g->width, gh = g->height;
    size_t before;
    double *answers;

    p.fname = "setTiles";
    check_arguments(L, &p, 2);
    p.x0 = lua_isnoneornil(L, 4) ? 0 : check_index(L, method_arg(p.fname, 3), "x", gw);
    p.y0 = lua_isnoneornil(L, 5) ? 0 : check_index(L, method_arg(p.fname, 4), "y", gh);
    lua_settop(L, 5);
    read_size(&p);
    if (p.w > gw - p.x0 || p.h > gh - p.y0)
        arg_error(L, 1, p.fname, NULL, "%ux%u tiles at (%u, %u) do not fit in the %ux%u grid",
                  (unsigned)p.w, (unsigned)p.h, (unsigned)p.x0 + 1, (unsigned)p.y0 + 1,
                  (unsigned)gw, (unsigned)gh);
    check_rows(&p);
    answers = push_answers(L, (size_t)p.w * p.h);
    p.g = g;
    ask_rule(&p, answers);
    if (g->closed)                      /* by a finalizer */
        return raise_error(L, "grid closed during setTiles");
    before = grid_external_memory(g);
    if (write_answers(g->grid, &p, answers) != ASTAR_OK)
        return raise_error(L, "not enough memory");
    return gc_note_growth(L, g, before, 0);
}
