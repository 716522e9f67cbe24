/*
 * One reader for the options table of every query: findPath, newSearch,
 * movementRange (and dangerZone through it), distanceMap and the walk of a
 * map's pathFrom (on the map's shape).
 *
 * It follows the binding's rule for reading arguments (docs/robustness.md):
 * options are read into C memory and stack slots from the grid's shape (the
 * LuaGrid's copy, readable even after a close), never from its cells. Reading
 * can allocate (a list of points becomes a table by cell number), so it can
 * run finalizers that close or change the grid: the caller checks the grid
 * open after read_query_options returns, and only then takes g->grid.
 */
#ifndef ASTAR_LUA_QUERY_OPTIONS_H
#define ASTAR_LUA_QUERY_OPTIONS_H

#include "query_rules.h"

/* Every option a query may take; the rules first, in QR_* order (their
 * slots are the QueryRules'). Values are checked in this order, the rules
 * last, so one table's errors come in one order however it is walked. */
enum {
    OPT_BLOCKED = QR_BLOCKED,
    OPT_COST = QR_COST,
    OPT_OCCUPIED = QR_OCCUPIED,
    OPT_ZOC = QR_ZOC,
    OPT_MOVE = QR_MOVE,
    OPT_DIAGONAL = QR_COUNT,
    OPT_MAXCOST,
    OPT_SIZE,
    OPT_HEURISTIC,
    OPT_WEIGHT,
    OPT_PARTIAL,
    OPT_FLAT,
    OPT_INTO,
    OPT_ALGORITHM,
    OPT_NEAR,
    OPT_SMOOTH,
    OPT_CELLS,
    OPT_SECONDS,
    OPT_COUNT
};

#define OPT(id) (1u << (id))
/* What each entry point takes; any other name is "unknown option". */
#define OPTS_PATH                                                                          \
    (OPT(OPT_BLOCKED) | OPT(OPT_COST) | OPT(OPT_OCCUPIED) | OPT(OPT_DIAGONAL) |            \
     OPT(OPT_MAXCOST) | OPT(OPT_SIZE) | OPT(OPT_HEURISTIC) | OPT(OPT_WEIGHT) |             \
     OPT(OPT_PARTIAL) | OPT(OPT_FLAT) | OPT(OPT_INTO) | OPT(OPT_ALGORITHM) | OPT(OPT_NEAR) | \
     OPT(OPT_MOVE) | OPT(OPT_SMOOTH))
#define OPTS_RANGE                                                                         \
    (OPT(OPT_BLOCKED) | OPT(OPT_COST) | OPT(OPT_OCCUPIED) | OPT(OPT_ZOC) |                 \
     OPT(OPT_DIAGONAL) | OPT(OPT_SIZE) | OPT(OPT_MOVE))
#define OPTS_MAP                                                                           \
    (OPT(OPT_BLOCKED) | OPT(OPT_COST) | OPT(OPT_DIAGONAL) | OPT(OPT_MAXCOST) | OPT(OPT_SIZE) | \
     OPT(OPT_MOVE))

/* DistanceMap:pathFrom (issue 21): the walk's limits, read on the map's
 * shape (a LuaGrid whose width, height and hex alone are set). */
/* A map's build spread over calls (map:update, map:setSources: issue 24). */
#define OPTS_BUILD (OPT(OPT_CELLS) | OPT(OPT_SECONDS))
#define OPTS_WALK                                                                          \
    (OPT(OPT_BLOCKED) | OPT(OPT_MAXCOST) | OPT(OPT_NEAR) | OPT(OPT_FLAT) | OPT(OPT_INTO) |  \
     OPT(OPT_SMOOTH))

/* The values read. The caller sets each field to its default first; the
 * reader overwrites the ones given. */
typedef struct {
    unsigned given;            /* OPT(id) of every option present */
    AstarDiagonal diagonal;
    AstarHeuristic heuristic;
    double weight;
    int partial, flat;
    int into;                  /* stack slot holding opts.into; 0: none */
    AstarAlgorithm algorithm;
    uint32_t near;
    double max_cost;           /* INFINITY: no bound */
    int any_max_cost;          /* maxCost may be any number but nan (a map's) */
    uint32_t size;
    AstarSmooth smooth;
    double cells;              /* a build's budget in settled cells (HUGE_VAL: none) */
    double seconds;            /* and in seconds (HUGE_VAL: none) */
} QueryOptions;

/* Option names (query_options.c's rules, for small readers of their own):
 * whether the key at stack index key is the one to report rather than the
 * one at worst (0: none), so that the message does not depend on the order
 * lua_next walks a table in; and the error "unknown option 'x'". */
int option_key_worse(lua_State *L, int key, int worst);
int option_key_error(lua_State *L, Arg a, int key);

/* opts.smooth of a query that returns a path (docs/paths.md): false or nil
 * (none), "corners", "sight" or "theta". */
AstarSmooth check_smooth(lua_State *L, Arg v);
/* Raises when the smoothing asked (sight, theta) cannot follow what the
 * query is about: prefix "opts.smooth: 'sight' " + why. */
void smooth_cannot(lua_State *L, Arg a, AstarSmooth smooth, const char *why);
/* Raises for sight and theta where no grid or search is at hand (pathTo,
 * pathFrom, grid:smoothPath's theta): "needs the grid" / "needs a search". */
void smooth_needs_grid(lua_State *L, Arg a, AstarSmooth smooth);

/* Reads options table a (nil or absent: none) of a query on g, taking the
 * options in `accepted` (OPTS_*). The rules go into the slots of `rules`
 * (query_rules_init: their messages name what it was given), and are read
 * after every other option was checked; opts.into is kept in a slot pushed
 * here (when a is a table). Raw reads: no metamethod runs, only finalizers.
 * Errors name a.fname and a.number. */
void read_query_options(lua_State *L, Arg a, unsigned accepted, const LuaGrid *g,
                        QueryOptions *o, QueryRules *rules);

#endif
