/*
 * The one reader of query options (query_options.h). The first pass walks
 * the table with lua_next, checking every name and parking the rules and
 * opts.into in their slots: nothing allocates, so no finalizer can run while
 * lua_next walks the table. Then the values are checked in a fixed order,
 * OPT_*'s, whatever order the table is walked in: the other options, which
 * allocate nothing, then the rules, the only reads that allocate (a list of
 * points becomes a table).
 */
#include <math.h>
#include <string.h>

#include "lua_hex.h"
#include "query_options.h"

/* By OPT_*. */
static const char *const OPTION_NAMES[OPT_COUNT + 1] = {
    "blocked", "cost", "occupied", "zoc", "move", "diagonal", "maxCost", "size", "heuristic",
    "weight", "partial", "flat", "into", "algorithm", "near", "smooth", "cells", "seconds", NULL};

/* By AstarAlgorithm. */
static const char *const ALGORITHM_NAMES[] = {"auto", "astar", "jps", NULL};

/* By AstarSmooth, from ASTAR_SMOOTH_CORNERS. */
static const char *const SMOOTH_NAMES[] = {"corners", "sight", "theta", NULL};

AstarSmooth check_smooth(lua_State *L, Arg v)
{
    if (lua_isnoneornil(L, v.index) || (lua_type(L, v.index) == LUA_TBOOLEAN && !lua_toboolean(L, v.index)))
        return ASTAR_SMOOTH_NONE;
    return (AstarSmooth)(1 + check_name(L, v, "opts.smooth: ", "smoothing", SMOOTH_NAMES,
                                        "corners, sight or theta"));
}

void smooth_cannot(lua_State *L, Arg a, AstarSmooth smooth, const char *why)
{
    arg_error(L, a.number, a.fname, NULL, "opts.smooth: '%s' %s", SMOOTH_NAMES[smooth - 1], why);
}

void smooth_needs_grid(lua_State *L, Arg a, AstarSmooth smooth)
{
    if (smooth == ASTAR_SMOOTH_THETA)
        smooth_cannot(L, a, smooth, "needs a search (findPath or newSearch)");
    if (smooth == ASTAR_SMOOTH_SIGHT)
        smooth_cannot(L, a, smooth, "needs the grid: use grid:smoothPath");
}

/* The OPT_* of the string at stack index key, or -1. */
static int option_of(lua_State *L, int key)
{
    return lua_type(L, key) == LUA_TSTRING ? find_name(L, key, OPTION_NAMES) : -1;
}

/* Whether key (a name not accepted) should be the one reported rather than
 * the worst found so far (stack index worst, 0: none): a key that is not a
 * string before one that is, then the least type name or the least string,
 * so the message does not depend on the order next visits the keys in (two
 * equal tables can be walked in two orders). */
int option_key_worse(lua_State *L, int key, int worst)
{
    int ks = lua_type(L, key) == LUA_TSTRING, ws;
    size_t kl, wl;
    const char *k, *w;
    int c;

    if (!worst)
        return 1;
    ws = lua_type(L, worst) == LUA_TSTRING;
    if (ks != ws)
        return !ks;
    if (!ks)
        return strcmp(luaL_typename(L, key), luaL_typename(L, worst)) < 0;
    k = lua_tolstring(L, key, &kl);
    w = lua_tolstring(L, worst, &wl);
    c = memcmp(k, w, kl < wl ? kl : wl);
    return c < 0 || (c == 0 && kl < wl);
}

/* Raises the error for option name key (not accepted). */
int option_key_error(lua_State *L, Arg a, int key)
{
    char buf[48];
    size_t len;
    const char *s;
    if (lua_type(L, key) != LUA_TSTRING)
        return arg_error(L, a.number, a.fname, NULL, "option names must be strings, got %s",
                         luaL_typename(L, key));
    s = lua_tolstring(L, key, &len);
    return arg_error(L, a.number, a.fname, NULL, "unknown option '%s'",
                     quoted(buf, sizeof buf, s, len));
}

/* opts.near: a whole number >= 0 (math.huge: anywhere), as far as a cell can be. */
static uint32_t check_near(lua_State *L, Arg v, uint32_t far)
{
    double n = check_number(L, v, "opts.near: ");
    char buf[32];
    if (!(n >= 0) || (n != floor(n) && !isinf(n)))
        arg_error(L, v.number, v.fname, NULL, "opts.near must be a whole number >= 0, got %s",
                  number_text(buf, sizeof buf, n));
    return n >= (double)far ? far : (uint32_t)n;
}

static double check_max_cost(lua_State *L, Arg v, int any)
{
    double m = check_number(L, v, "opts.maxCost: ");
    char buf[32];
    if (any && m != m)
        arg_error(L, v.number, v.fname, "opts.maxCost: ", "number expected, got nan");
    if (!any && !(m >= 0))
        arg_error(L, v.number, v.fname, NULL, "opts.maxCost must be a number >= 0, got %s",
                  number_text(buf, sizeof buf, m));
    return m;
}

/* A build's budget (issue 24): opts.cells a whole number >= 1, opts.seconds
 * a number > 0; math.huge is no limit. */
static double check_budget(lua_State *L, Arg v, int seconds)
{
    double n = check_number(L, v, seconds ? "opts.seconds: " : "opts.cells: ");
    char buf[32];
    if (seconds && !(n > 0))
        arg_error(L, v.number, v.fname, NULL, "opts.seconds must be a number > 0, got %s",
                  number_text(buf, sizeof buf, n));
    if (!seconds && (!(n >= 1) || (n != floor(n) && !isinf(n))))
        arg_error(L, v.number, v.fname, NULL, "opts.cells must be a whole number >= 1, got %s",
                  number_text(buf, sizeof buf, n));
    return n;
}

/* Checks the value of option id (not a rule), at stack index v.index, into
 * o. Allocates nothing (but the message of an error). */
static void check_value(lua_State *L, Arg v, int id, const LuaGrid *g, QueryOptions *o)
{
    switch (id) {
    case OPT_DIAGONAL:
        o->diagonal = check_diagonal(L, v, "opts.diagonal: ", grid_is_hex(g));
        break;
    case OPT_MAXCOST:
        o->max_cost = check_max_cost(L, v, o->any_max_cost);
        break;
    case OPT_SIZE:
        o->size = check_unit_size(L, v);
        if (o->size > 1 && grid_is_hex(g))
            arg_error(L, v.number, v.fname, NULL, "opts.size: large units need a square grid");
        break;
    case OPT_HEURISTIC:
        o->heuristic = check_heuristic(L, v, "opts.heuristic: ");
        break;
    case OPT_WEIGHT:
        o->weight = check_weight(L, v, "opts.weight: ");
        break;
    case OPT_PARTIAL:
        o->partial = check_boolean(L, v, "opts.partial: ");
        break;
    case OPT_FLAT:
        o->flat = check_boolean(L, v, "opts.flat: ");
        break;
    case OPT_INTO:
        /* a stepped search returns its path frames later: no table to hold */
        if (strcmp(v.fname, "newSearch") == 0 || strcmp(v.fname, "restart") == 0)
            arg_error(L, v.number, v.fname, NULL, "opts.into: only findPath fills a table");
        if (!lua_istable(L, v.index))
            type_error(L, v, "opts.into: ", "table");
        o->into = v.index;
        break;
    case OPT_ALGORITHM:
        o->algorithm = (AstarAlgorithm)check_name(L, v, "opts.algorithm: ", "algorithm",
                                                  ALGORITHM_NAMES, "auto, astar or jps");
        break;
    case OPT_SMOOTH:
        o->smooth = check_smooth(L, v);
        if (o->smooth < ASTAR_SMOOTH_SIGHT)
            break;
        if (strcmp(v.fname, "pathFrom") == 0)    /* a map keeps no grid */
            smooth_needs_grid(L, v, o->smooth);
        if (grid_is_hex(g))
            smooth_cannot(L, v, o->smooth, "needs a square board");
        if (o->size > 1)
            smooth_cannot(L, v, o->smooth, "needs a one-cell unit");
        if (o->given & OPT(OPT_MOVE))
            smooth_cannot(L, v, o->smooth, "needs a query without opts.move");
        break;
    case OPT_CELLS:
    case OPT_SECONDS:
        *(id == OPT_CELLS ? &o->cells : &o->seconds) = check_budget(L, v, id == OPT_SECONDS);
        break;
    default:
        o->near = check_near(L, v, g->width + g->height);
    }
}

/* The stack slot of rule `id` (query_rules_init: negative while unused). */
static int rule_slot(const QueryRules *rules, int id)
{
    return rules->index[id] < 0 ? -rules->index[id] : rules->index[id];
}

void read_query_options(lua_State *L, Arg a, unsigned accepted, const LuaGrid *g,
                        QueryOptions *o, QueryRules *rules)
{
    int id, into, worst;

    o->given = 0;
    if (lua_isnoneornil(L, a.index))
        return;
    if (lua_type(L, a.index) != LUA_TTABLE)
        type_error(L, a, NULL, "table");
    lua_pushnil(L);
    into = lua_gettop(L);              /* opts.into's slot */
    lua_pushnil(L);
    worst = lua_gettop(L);             /* the name to report, if any */
    lua_pushnil(L);
    while (lua_next(L, a.index)) {
        id = option_of(L, -2);
        if (id < 0 || !(accepted & OPT(id))) {
            if (option_key_worse(L, lua_gettop(L) - 1, lua_isnil(L, worst) ? 0 : worst)) {
                lua_pushvalue(L, -2);
                lua_replace(L, worst);
            }
            lua_pop(L, 1);
            continue;
        }
        o->given |= OPT(id);
        if (id < QR_COUNT || id == OPT_INTO)
            lua_replace(L, id == OPT_INTO ? into : rule_slot(rules, id));
        else
            lua_pop(L, 1);
    }
    if (!lua_isnil(L, worst))
        option_key_error(L, a, worst);
    /* the other options in OPT_* order, each as it is now (pushing its name
     * allocates nothing: the string is a key of the table) */
    for (id = QR_COUNT; id < OPT_COUNT; id++) {
        Arg v = a;
        if (!(o->given & OPT(id)))
            continue;
        if (id == OPT_INTO) {
            v.index = into;
        } else {
            lua_pushstring(L, OPTION_NAMES[id]);
            lua_rawget(L, a.index);
            v.index = lua_gettop(L);
            if (lua_isnil(L, v.index)) {   /* taken out by a finalizer meanwhile */
                o->given &= ~OPT(id);
                lua_pop(L, 1);
                continue;
            }
        }
        check_value(L, v, id, g, o);
        if (id != OPT_INTO)
            lua_pop(L, 1);
    }
    for (id = 0; id < QR_COUNT; id++)
        if (o->given & OPT(id))
            query_rules_read(L, rules, id, rule_slot(rules, id), g,
                             o->diagonal != ASTAR_DIAGONAL_NEVER);
}
