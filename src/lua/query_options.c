/*
 * The one reader of query options (query_options.h). Two passes: the first
 * walks the table with lua_next, checking every name and every value that
 * needs no allocation, and parks each rule in its slot: nothing allocates, so
 * no finalizer can run while lua_next walks the table. The second reads the
 * rules, in QR_* order: only it allocates (a list of points becomes a table).
 */
#include <math.h>
#include <string.h>

#include "lua_hex.h"
#include "query_options.h"

/* By OPT_*. */
static const char *const OPTION_NAMES[OPT_COUNT + 1] = {
    "blocked", "cost", "occupied", "zoc", "diagonal", "maxCost", "size", "heuristic",
    "weight", "partial", "flat", "into", "algorithm", "near", NULL};

/* By AstarAlgorithm. */
static const char *const ALGORITHM_NAMES[] = {"auto", "astar", "jps", NULL};

/* The key at stack index `key` as an OPT_* in `accepted`; any other is an
 * error ("unknown option 'x'"). */
static int option_id(lua_State *L, Arg a, int key, unsigned accepted)
{
    int id = check_option_name(L, a, key, OPTION_NAMES);
    char buf[48];
    size_t len;
    const char *s;

    if (accepted & OPT(id))
        return id;
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

/* Checks the value of option id (not a rule), at stack index v.index, into
 * o. Allocates nothing (but the message of an error). */
static void check_value(lua_State *L, Arg v, int id, const LuaGrid *g, QueryOptions *o)
{
    switch (id) {
    case OPT_DIAGONAL:
        if (grid_is_hex(g))
            arg_error(L, v.number, v.fname, NULL, "opts.diagonal: not supported on hex grids");
        o->diagonal = check_diagonal(L, v, "opts.diagonal: ");
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
        if (strcmp(v.fname, "findPath") != 0)
            arg_error(L, v.number, v.fname, NULL, "opts.into: only findPath fills a table");
        if (!lua_istable(L, v.index))
            type_error(L, v, "opts.into: ", "table");
        o->into = v.index;
        break;
    case OPT_ALGORITHM:
        o->algorithm = (AstarAlgorithm)check_name(L, v, "opts.algorithm: ", "algorithm",
                                                  ALGORITHM_NAMES, "auto, astar or jps");
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
    int id, into;

    o->given = 0;
    if (lua_isnoneornil(L, a.index))
        return;
    if (lua_type(L, a.index) != LUA_TTABLE)
        type_error(L, a, NULL, "table");
    lua_pushnil(L);
    into = lua_gettop(L);              /* opts.into's slot */
    lua_pushnil(L);
    while (lua_next(L, a.index)) {
        Arg v = a;
        id = option_id(L, a, lua_gettop(L) - 1, accepted);
        o->given |= OPT(id);
        if (id < QR_COUNT) {
            lua_replace(L, rule_slot(rules, id));   /* read below */
            continue;
        }
        if (id == OPT_INTO) {
            lua_pushvalue(L, -1);
            lua_replace(L, into);
        }
        v.index = id == OPT_INTO ? into : lua_gettop(L);
        check_value(L, v, id, g, o);
        lua_pop(L, 1);
    }
    for (id = 0; id < QR_COUNT; id++)
        if (o->given & OPT(id))
            query_rules_read(L, rules, id, rule_slot(rules, id), g->width, g->height);
}
