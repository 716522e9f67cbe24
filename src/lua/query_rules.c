/*
 * The rules of one path query (README, Units on the board): opts.cost,
 * blocked and occupied as a function (x, y), a table by cell number, or a
 * list of points. A list is turned into a table by cell number once, before
 * the search (so it is asked like the table form, raw, with no Lua code
 * running); a function is called at most once per cell, by the core.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lua_hex.h"
#include "points.h"
#include "query_rules.h"
#include "../core/astar_hex.h"

const char *const RULE_NAMES[QR_COUNT] = {"blocked", "cost", "occupied", "zoc", "move"};
static const char *const RULE_LABELS[QR_COUNT] = {"opts.blocked", "opts.cost", "opts.occupied",
                                                  "opts.zoc", "opts.move"};

void query_rules_init_at(lua_State *L, QueryRules *r, const char *fname, int argn, int first)
{
    int i;
    memset(r, 0, sizeof *r);
    r->L = L;
    r->fname = fname;
    for (i = 0; i < QR_COUNT; i++) {
        r->index[i] = -(first + i);          /* the slot, negative while unused */
        r->argn[i] = argn;
        r->label[i] = RULE_LABELS[i];
    }
}

void query_rules_init(lua_State *L, QueryRules *r, const char *fname, int argn)
{
    int i, first = lua_gettop(L) + 1;
    for (i = 0; i < QR_COUNT; i++)
        lua_pushnil(L);
    query_rules_init_at(L, r, fname, argn, first);
}

int query_rules_which(const char *name)
{
    int i;
    for (i = 0; i < QR_COUNT; i++)
        if (strcmp(name, RULE_NAMES[i]) == 0)
            return i;
    return -1;
}

/* Where a rule's messages point: "bad argument #argn to 'fname' (label...)". */
typedef struct {
    const char *fname;
    int argn;
    const char *label;       /* "opts.blocked", "enemies[2].cost" */
} RuleName;

static int rule_error(lua_State *L, const RuleName *n, const char *fmt, const char *a,
                      const char *b)
{
    char message[160];
    snprintf(message, sizeof message, fmt, a, b);
    return arg_error(L, n->argn, n->fname, NULL, "%s%s", n->label, message);
}

/* A whole coordinate in 1..max of point t (at stack index t), field name. */
static uint32_t point_coordinate(lua_State *L, const RuleName *r, int t, lua_Integer i,
                                 const char *name, uint32_t max)
{
    char where[48], buf[32];
    double v;
    snprintf(where, sizeof where, "[%ld].%s", (long)i, name);
    lua_pushstring(L, name);
    lua_rawget(L, t);
    if (lua_type(L, -1) != LUA_TNUMBER)
        rule_error(L, r, "%s: number expected, got %s", where, luaL_typename(L, -1));
    v = (double)lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!(v >= 1 && v <= max) || v != floor(v)) {
        char range[64];
        snprintf(range, sizeof range, "1..%u, got %s", (unsigned)max,
                 number_text(buf, sizeof buf, v));
        rule_error(L, r, "%s out of range %s", where, range);
    }
    return (uint32_t)v - 1;
}

/* A key of a list that is not 1..n, for the message. */
static const char *key_text(lua_State *L, int k, char *buf, size_t size)
{
    switch (lua_type(L, k)) {
    case LUA_TSTRING: {
        char text[48];
        size_t len;
        const char *str = lua_tolstring(L, k, &len);
        snprintf(buf, size, "'%s'", quoted(text, sizeof text, str, len));
        return buf;
    }
    case LUA_TNUMBER: return number_text(buf, size, (double)lua_tonumber(L, k));
    case LUA_TBOOLEAN: return lua_toboolean(L, k) ? "true" : "false";
    default: return lua_typename(L, lua_type(L, k));
    }
}

/* The size of unit p (entry i) at 0-based (x, y), its optional field size:
 * a whole number with which the k x k square from (x, y) stays on the grid
 * (1 when absent); only 1 on a hex grid. */
static uint32_t unit_size(lua_State *L, const RuleName *r, int p, lua_Integer i, uint32_t x,
                          uint32_t y, const LuaGrid *g)
{
    char where[48], buf[32], range[64];
    uint32_t max = g->width - x < g->height - y ? g->width - x : g->height - y;
    double v;
    snprintf(where, sizeof where, "[%ld].size", (long)i);
    lua_pushliteral(L, "size");
    lua_rawget(L, p);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 1;
    }
    if (lua_type(L, -1) != LUA_TNUMBER)
        rule_error(L, r, "%s: number expected, got %s", where, luaL_typename(L, -1));
    v = (double)lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (grid_is_hex(g) && v > 1 && v == floor(v))
        rule_error(L, r, "%s: large units need a square grid%s", where, "");
    if (!(v >= 1 && v <= max) || v != floor(v)) {
        snprintf(range, sizeof range, "1..%u, got %s", (unsigned)max,
                 number_text(buf, sizeof buf, v));
        rule_error(L, r, "%s out of range %s", where, range);
    }
    return (uint32_t)v;
}

/* Sets t[cell] = the value on top of the stack for every cell of the k x k
 * square from 0-based (x, y); pops the value. */
static void set_square(lua_State *L, int t, uint32_t x, uint32_t y, uint32_t k, uint32_t width)
{
    uint32_t cx, cy;
    for (cy = y; cy < y + k; cy++)
        for (cx = x; cx < x + k; cx++) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, t, (int)((lua_Integer)cy * width + cx + 1));
        }
    lua_pop(L, 1);
}

static int on_grid(long x, long y, const LuaGrid *g)
{
    return x >= 0 && y >= 0 && x < (long)g->width && y < (long)g->height;
}

/* Marks t[cell] = true for every cell next to the unit's k x k square from
 * 0-based (x, y) (outside it), by the query's moves: its four sides, the
 * four corners too with diagonal moves, a cell's six neighbours on a hex
 * grid (k is 1 there). */
static void mark_around(lua_State *L, int t, uint32_t x, uint32_t y, uint32_t k,
                        const LuaGrid *g, int diagonal)
{
    long lo = -1, hi = (long)k, i, j;
    if (grid_is_hex(g)) {
        int dx[6], dy[6], d;
        /* the layout from the binding's copy: a finalizer run by an
         * allocation of the reading may have closed the grid */
        astar_hex_neighbours((AstarHexLayout)(grid_hex_code(g) - 1), x, y, dx, dy);
        for (d = 0; d < 6; d++) {
            long nx = (long)x + dx[d], ny = (long)y + dy[d];
            if (on_grid(nx, ny, g)) {
                lua_pushboolean(L, 1);
                lua_rawseti(L, t, (int)(ny * (long)g->width + nx + 1));
            }
        }
        return;
    }
    for (j = lo; j <= hi; j++)
        for (i = lo; i <= hi; i++) {
            int side = (i == lo || i == hi) + (j == lo || j == hi);
            long nx = (long)x + i, ny = (long)y + j;
            if (side == 0 || (side == 2 && !diagonal) || !on_grid(nx, ny, g))
                continue;
            lua_pushboolean(L, 1);
            lua_rawseti(L, t, (int)(ny * (long)g->width + nx + 1));
        }
}

double rule_points_table(lua_State *L, int v, int kind, const LuaGrid *g, int diagonal,
                         const char *fname, int argn, const char *label)
{
    RuleName names, *r = &names;
    double min_cost = 0;
    lua_Integer n = (lua_Integer)compat_rawlen(L, v), i, count = 0;
    uint32_t width = g->width, height = g->height;
    int t, is_cost = kind == RULE_POINTS_COST;
    char buf[64];

    names.fname = fname;
    names.argn = argn;
    names.label = label;
    lua_pushnil(L);
    while (lua_next(L, v)) {              /* only 1..n: no other key */
        int bad = 1;
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TNUMBER) {
            double k = (double)lua_tonumber(L, -1);
            bad = !(k >= 1 && k <= (double)n && k == floor(k));
        }
        if (bad)
            rule_error(L, r, ": a list of points cannot also have key %s%s",
                       key_text(L, lua_gettop(L), buf, sizeof buf), "");
        count++;
    }
    lua_createtable(L, 0, (int)count);
    t = lua_gettop(L);
    for (i = 1; i <= n; i++) {
        uint32_t x, y, k;
        int p;
        lua_rawgeti(L, v, (int)i);
        p = lua_gettop(L);
        if (!lua_istable(L, p)) {
            snprintf(buf, sizeof buf, "[%ld]", (long)i);
            rule_error(L, r, "%s: point expected, got %s", buf, luaL_typename(L, p));
        }
        x = point_coordinate(L, r, p, i, "x", width);
        y = point_coordinate(L, r, p, i, "y", height);
        k = unit_size(L, r, p, i, x, y, g);
        if (kind == RULE_POINTS_AROUND) {
            mark_around(L, t, x, y, k, g, diagonal);
            lua_pop(L, 1);                /* the unit */
            continue;
        }
        if (is_cost) {
            double c;
            lua_pushliteral(L, "cost");
            lua_rawget(L, p);
            c = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
            if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1))
                c = INFINITY;
            if (!((c > 0 && c <= ASTAR_MAX_COST) || c == INFINITY)) {
                char where[32], num[32];
                snprintf(where, sizeof where, "[%ld].cost", (long)i);
                rule_error(L, r, "%s: expected a positive number up to 1e15, false or "
                                        "math.huge, got %s", where,
                           lua_type(L, -1) == LUA_TNUMBER ? number_text(num, sizeof num, c)
                                                          : luaL_typename(L, -1));
            }
            lua_pop(L, 1);
            if (c == INFINITY)
                lua_pushboolean(L, 0);
            else
                lua_pushnumber(L, (lua_Number)c);
            if (c != INFINITY && (min_cost == 0 || c < min_cost))
                min_cost = c;
        } else {
            lua_pushboolean(L, 1);
        }
        set_square(L, t, x, y, k, width);
        lua_pop(L, 1);                    /* the point */
    }
    return min_cost;
}

/* Whether the table at v has no key at all (read raw). */
static int table_is_empty(lua_State *L, int v)
{
    lua_pushnil(L);
    if (!lua_next(L, v))
        return 1;
    lua_pop(L, 2);
    return 0;
}

/* Whether rule table v (at a positive index) is zoc's {around = units}:
 * around a table, and no other key. */
static int zoc_around(lua_State *L, const QueryRules *r, int v)
{
    char buf[64];
    lua_pushliteral(L, "around");
    lua_rawget(L, v);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, -1))
        arg_error(L, r->argn[QR_ZOC], r->fname, NULL, "%s.around: table expected, got %s",
                  r->label[QR_ZOC], luaL_typename(L, -1));
    lua_pop(L, 1);
    lua_pushnil(L);
    while (lua_next(L, v)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING || strcmp(lua_tostring(L, -1), "around") != 0)
            arg_error(L, r->argn[QR_ZOC], r->fname, NULL,
                      "%s: {around = units} cannot also have key %s", r->label[QR_ZOC],
                      key_text(L, lua_gettop(L), buf, sizeof buf));
    }
    return 1;
}

void query_rules_read(lua_State *L, QueryRules *r, int which, int v, const LuaGrid *g,
                      int diagonal)
{
    int slot = r->index[which] < 0 ? -r->index[which] : r->index[which];
    int t = lua_type(L, v);

    if (which == QR_MOVE && t != LUA_TFUNCTION)
        arg_error(L, r->argn[which], r->fname, NULL, "%s: function expected, got %s",
                  r->label[which], luaL_typename(L, v));
    if (t != LUA_TFUNCTION && t != LUA_TTABLE)
        arg_error(L, r->argn[which], r->fname, NULL, "%s: function or table expected, got %s",
                  r->label[which], luaL_typename(L, v));
    r->points[which] = 0;
    if (t == LUA_TTABLE && table_is_empty(L, v)) {
        /* no rule: an empty list of points, not a cell table that makes
         * every cell impassable; the query runs as without the option */
        lua_pushnil(L);
        lua_replace(L, slot);
        r->index[which] = -slot;
        return;
    }
    if (t == LUA_TTABLE && which == QR_ZOC && zoc_around(L, r, v)) {
        char label[64];
        snprintf(label, sizeof label, "%s.around", r->label[QR_ZOC]);
        lua_pushliteral(L, "around");
        lua_rawget(L, v);
        rule_points_table(L, lua_gettop(L), RULE_POINTS_AROUND, g, diagonal, r->fname,
                          r->argn[which], label);
        lua_remove(L, -2);                 /* the list of units */
        lua_replace(L, slot);
        r->index[which] = slot;
        return;
    }
    if (t == LUA_TTABLE) {
        lua_rawgeti(L, v, 1);
        r->points[which] = lua_istable(L, -1);
        lua_pop(L, 1);
    }
    if (t == LUA_TTABLE && !r->points[which]) {
        /* a table by cell number: its first key says whether it is one (a
         * point {x =, y =} given alone is the common slip) */
        lua_pushnil(L);
        if (lua_next(L, v)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) != LUA_TNUMBER) {
                char buf[64];
                arg_error(L, r->argn[which], r->fname, NULL,
                          "%s: a table by cell number or a list of points expected, got key %s",
                          r->label[which], key_text(L, lua_gettop(L), buf, sizeof buf));
            }
            lua_pop(L, 1);
        }
    }
    if (r->points[which]) {
        double lowest = rule_points_table(L, v, which == QR_COST ? RULE_POINTS_COST
                                                                 : RULE_POINTS_FLAG,
                                          g, diagonal, r->fname, r->argn[which], r->label[which]);
        if (which == QR_COST)
            r->min_cost = lowest;    /* the lowest listed; the grid's joins it later */
    } else {
        lua_pushvalue(L, v);
    }
    lua_replace(L, slot);
    r->index[which] = slot;
}

void query_rules_finish(QueryRules *r, const AstarGrid *grid)
{
    int i;
    r->width = astar_grid_width(grid);
    r->used = r->cells = r->callbacks = 0;
    for (i = 0; i < QR_COUNT; i++) {
        if (r->index[i] <= 0) {
            r->index[i] = 0;
            continue;
        }
        r->used = 1;
        if (i != QR_MOVE)
            r->cells = 1;
        if (lua_type(r->L, r->index[i]) == LUA_TFUNCTION)
            r->callbacks = 1;
    }
    /* the rules' own lowest cost; the core takes the lower of it and the
     * grid's, as the grid is when the search (re)starts */
    if (!r->index[QR_COST])
        r->min_cost = INFINITY;                 /* the grid's costs stand */
    else if (!r->points[QR_COST])
        r->min_cost = 0;                        /* any cost: the heuristic is off */
    else if (r->min_cost == 0)
        r->min_cost = INFINITY;                 /* only walls listed */
}

/* Whether the table at t holds, raw, only values that are not tables under
 * cell-number keys (any other key is ignored, as asking never reads it);
 * counts the cells it blocks. */
static int plain_flags(lua_State *L, int t, lua_Integer cells, size_t *count)
{
    *count = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_istable(L, -1)) {
            lua_pop(L, 2);
            return 0;                          /* a mix: the error comes when read */
        }
        if (lua_toboolean(L, -1) && lua_type(L, -2) == LUA_TNUMBER) {
            double k = (double)lua_tonumber(L, -2);
            if (k >= 1 && k <= (double)cells && k == floor(k))
                (*count)++;
        }
        lua_pop(L, 1);
    }
    return 1;
}

void query_rules_take_walls(QueryRules *r, AstarOptions *o, uint32_t width, uint32_t height)
{
    lua_State *L = r->L;
    int t = r->index[QR_BLOCKED], i;
    lua_Integer cells = (lua_Integer)width * height;
    size_t count, again, n = 0;
    uint32_t *pairs = NULL;
    int tries;

    if (!r->cells || r->callbacks || !t)
        return;
    /* the allocation may run finalizers, which may change the table: it is
     * counted again after it; if it will not hold still, or is no longer
     * plain, the search asks it cell by cell (the same cells, maybe another
     * of the equally cheap paths) */
    for (tries = 0; tries < MEASURE_TRIES && !pairs; tries++) {
        if (!plain_flags(L, t, cells, &count))
            return;
        pairs = (uint32_t *)lua_newuserdata(L, (count ? count : 1) * 2 * sizeof *pairs);
        if (!plain_flags(L, t, cells, &again) || again != count) {
            lua_pop(L, 1);
            pairs = NULL;
        }
    }
    if (!pairs)
        return;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (n < count && lua_toboolean(L, -1) && !lua_istable(L, -1)
            && lua_type(L, -2) == LUA_TNUMBER) {
            double k = (double)lua_tonumber(L, -2);
            if (k >= 1 && k <= (double)cells && k == floor(k)) {
                lua_Integer cell = (lua_Integer)k - 1;
                pairs[2 * n] = (uint32_t)(cell % width);
                pairs[2 * n + 1] = (uint32_t)(cell / width);
                n++;
            }
        }
        lua_pop(L, 1);
    }
    lua_replace(L, t);                         /* the slot keeps the list alive */
    o->walls = pairs;
    o->wall_count = n;
    r->index[QR_BLOCKED] = 0;
    r->used = r->cells = 0;
    for (i = 0; i < QR_COUNT; i++)
        if (r->index[i]) {
            r->used = 1;
            if (i != QR_MOVE)
                r->cells = 1;
        }
}

void query_rules_apply(QueryRules *r, AstarOptions *o)
{
    if (r->index[QR_MOVE]) {
        o->move_rule = query_rules_move;
        o->move_user = r;
    }
    if (!r->cells)
        return;
    o->rule = query_rules_cell;
    o->rule_user = r;
    o->rule_min_cost = r->min_cost;
}

int query_rules_disturbed(QueryRules *r)
{
    if (r->g->closed)
        r->stop = QR_STOP_CLOSED;
    else if (astar_grid_version(r->g->grid) != r->version)
        r->stop = QR_STOP_CHANGED;
    return r->stop != QR_STOP_NONE;
}

/* Pushes what rule `which` says of (x, y); 0 when the query must stop. */
static int rule_value(QueryRules *r, int which, uint32_t x, uint32_t y)
{
    lua_State *L = r->L;
    int i = r->index[which];

    if (lua_type(L, i) == LUA_TTABLE) {
        lua_rawgeti(L, i, (int)((lua_Integer)y * r->width + x + 1));
        if (lua_istable(L, -1)) {             /* a mix of the two table forms */
            lua_pop(L, 1);
            r->stop = QR_STOP_BAD_FORM;
            r->bad_rule = which;
            r->bad = (QrAnswer){LUA_TTABLE, 0, x, y, 0, 0};
            return 0;
        }
        return 1;
    }
    lua_pushvalue(L, i);
    push_cell(L, x, y);
    if (lua_pcall(L, 2, 1, 0) != 0) {
        r->stop = QR_STOP_ERROR;
        return 0;
    }
    if (query_rules_disturbed(r)) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

static int rule_flag(QueryRules *r, int which, uint32_t x, uint32_t y, int *failed)
{
    int on;
    if (!r->index[which])
        return 0;
    if (!rule_value(r, which, x, y)) {
        *failed = 1;
        return 0;
    }
    on = lua_toboolean(r->L, -1);
    lua_pop(r->L, 1);
    return on;
}

double query_rules_cell(void *user, uint32_t x, uint32_t y, double grid_cost, unsigned *flags)
{
    QueryRules *r = (QueryRules *)user;
    lua_State *L = r->L;
    int failed = 0;
    double cost = grid_cost;

    if (rule_flag(r, QR_BLOCKED, x, y, &failed))
        return INFINITY;
    if (failed)
        return NAN;
    if (r->index[QR_COST]) {
        int t;
        if (!rule_value(r, QR_COST, x, y))
            return NAN;
        t = lua_type(L, -1);
        if (t == LUA_TNIL && r->points[QR_COST]) {
            cost = grid_cost;                 /* not listed: the grid's cost */
        } else if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
            cost = INFINITY;
        } else {
            cost = t == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
            if (!((cost > 0 && cost <= ASTAR_MAX_COST) || cost == INFINITY)) {
                r->stop = QR_STOP_BAD_COST;
                r->bad = (QrAnswer){t, cost, x, y, 0, 0};
                lua_pop(L, 1);
                return NAN;
            }
        }
        lua_pop(L, 1);
        if (cost == INFINITY)
            return cost;
    }
    if (rule_flag(r, QR_OCCUPIED, x, y, &failed))
        *flags |= ASTAR_RANGE_NO_STOP;
    if (failed)
        return NAN;
    if (rule_flag(r, QR_ZOC, x, y, &failed))
        *flags |= ASTAR_RANGE_ENDS_MOVE;
    return failed ? NAN : cost;
}

double query_rules_move(void *user, uint32_t fx, uint32_t fy, uint32_t tx, uint32_t ty,
                        double cost)
{
    QueryRules *r = (QueryRules *)user;
    lua_State *L = r->L;
    double answer;
    int t;

    lua_pushvalue(L, r->index[QR_MOVE]);
    push_cell(L, fx, fy);
    push_cell(L, tx, ty);
    lua_pushnumber(L, (lua_Number)cost);
    if (lua_pcall(L, 5, 1, 0) != 0) {
        r->stop = QR_STOP_ERROR;
        return NAN;
    }
    if (query_rules_disturbed(r)) {
        lua_pop(L, 1);
        return NAN;
    }
    t = lua_type(L, -1);
    answer = t == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : NAN;
    if (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))
        answer = INFINITY;                    /* false: the move is impossible */
    else if (!(answer > 0 && answer <= ASTAR_MAX_COST)) {
        r->stop = QR_STOP_BAD_MOVE;
        r->bad = (QrAnswer){t, answer, fx, fy, tx, ty};
        answer = NAN;
    }
    lua_pop(L, 1);
    return answer;
}

/* A bad answer in a message: the number, else its type's name. */
static const char *answer_text(lua_State *L, const QrAnswer *a, char *buf, size_t size)
{
    return a->type == LUA_TNUMBER ? number_text(buf, size, a->number) : lua_typename(L, a->type);
}

int query_rules_raise(lua_State *L, const QueryRules *r, const char *fname)
{
    char buf[32];
    switch (r->stop) {
    case QR_STOP_ERROR:
        return lua_error(L);                  /* the callback's error, unchanged */
    case QR_STOP_CLOSED:
        return raise_error(L, "grid closed during %s", fname);
    case QR_STOP_CHANGED:
        return raise_error(L, "grid changed during %s", fname);
    case QR_STOP_BAD_MOVE:
        return arg_error(L, r->argn[QR_MOVE], r->fname, NULL,
                         "%s gave %s for (%d, %d) -> (%d, %d); expected a positive number up "
                         "to 1e15 or false", r->label[QR_MOVE],
                         answer_text(L, &r->bad, buf, sizeof buf), (int)r->bad.x + 1,
                         (int)r->bad.y + 1, (int)r->bad.tx + 1, (int)r->bad.ty + 1);
    case QR_STOP_BAD_FORM:
        return arg_error(L, r->argn[r->bad_rule], r->fname, NULL,
                         "%s: cell %ld holds a table; a list of points must start at "
                         "index 1", r->label[r->bad_rule],
                         (long)((lua_Integer)r->bad.y * r->width + r->bad.x + 1));
    default:
        return arg_error(L, r->argn[QR_COST], r->fname, NULL,
                         "%s gave %s for (%d, %d); expected a positive number up to "
                         "1e15, nil, false or math.huge", r->label[QR_COST],
                         answer_text(L, &r->bad, buf, sizeof buf), (int)r->bad.x + 1,
                         (int)r->bad.y + 1);
    }
}
