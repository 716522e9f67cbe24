/* A query's rules (opts.cost, blocked, occupied of findPath and newSearch;
 * also zoc for movementRange and dangerZone), read once from the options and
 * asked by the core, cell by cell, through query_rules_cell (an
 * AstarCellRule). */
#ifndef ASTAR_LUA_QUERY_RULES_H
#define ASTAR_LUA_QUERY_RULES_H

#include "lua_grid.h"

/* The cell rules, then the move rule (opts.move, a function of a move:
 * issue 19), which the core asks through query_rules_move. */
enum { QR_BLOCKED, QR_COST, QR_OCCUPIED, QR_ZOC, QR_MOVE, QR_COUNT };
extern const char *const RULE_NAMES[QR_COUNT];   /* the options' names, by QR_* */

/* Why a query with rules stopped early; the error is raised after the core
 * returned (query_rules_raise). */
enum { QR_STOP_NONE, QR_STOP_ERROR, QR_STOP_CLOSED, QR_STOP_CHANGED, QR_STOP_BAD_COST,
       QR_STOP_BAD_FORM, QR_STOP_BAD_MOVE };

/* A rule's answer that stopped the query: its Lua type, the number when it
 * is one, and where, (x, y) or a move's (x, y) -> (tx, ty). */
typedef struct {
    int type;
    double number;
    uint32_t x, y, tx, ty;
} QrAnswer;

typedef struct {
    lua_State *L;
    LuaGrid *g;
    uint64_t version;          /* the grid's version when the query (re)started */
    int index[QR_COUNT];       /* stack slot of the function or table; 0: none */
    int points[QR_COUNT];      /* the table was made from a list of points */
    uint32_t width;
    int used;                  /* some rule was given */
    int cells;                 /* some cell rule was given (not only opts.move) */
    int callbacks;             /* a function rule: Lua code runs inside the query */
    double min_cost;           /* lowest entry cost the rules give (0: unknown) */
    const char *fname;
    int argn[QR_COUNT];        /* per rule, where messages point: argument number */
    const char *label[QR_COUNT];   /* and field: "opts.cost", or a string the caller
                                    * keeps alive for the call ("enemies[2].cost") */
    int stop;                  /* QR_STOP_* */
    int bad_rule;              /* QR_STOP_BAD_FORM: the rule whose table is mixed */
    QrAnswer bad;              /* what stopped it, for query_rules_raise */
} QueryRules;

/* Reads self, sx, sy, gx, gy and opts (arguments 1-5 of method fname), or
 * self, sx, sy, goals and opts, as findPath and newSearch take them, and
 * prepares the grid for a search. The rules (opts.cost, blocked, occupied)
 * go into `rules`, whose stack slots stay pushed. */
LuaGrid *check_query(lua_State *L, const char *fname, Query *q, QueryRules *rules);
/* The same for grid g, open, whatever argument 1 is (search:restart). */
void read_query(lua_State *L, LuaGrid *g, const char *fname, Query *q, QueryRules *rules);

/* Empties r and reserves QR_COUNT stack slots (from the top + 1) for the
 * rules; messages name fname, argument argn and "opts.<rule>". */
void query_rules_init(lua_State *L, QueryRules *r, const char *fname, int argn);
/* The same over QR_COUNT slots already on the stack from `first`. */
void query_rules_init_at(lua_State *L, QueryRules *r, const char *fname, int argn, int first);
/* Option name -> QR_* (or -1). */
int query_rules_which(const char *name);
/* Reads rule `which` from the value at stack index v (a function, a table by
 * cell number, or a list of points turned into such a table; an empty table
 * is no rule at all; for zoc also
 * {around = units}) of a query on g with diagonal moves or not (diagonal:
 * nonzero for any mode but never; it says which cells are next to a unit). */
void query_rules_read(lua_State *L, QueryRules *r, int which, int v, const LuaGrid *g,
                      int diagonal);
/* What rule_points_table makes of a list: flags, costs, or the cells next
 * to each unit (zoc's around). */
enum { RULE_POINTS_FLAG, RULE_POINTS_COST, RULE_POINTS_AROUND };
/* Turns the list of points at stack index v into a table by cell number,
 * pushed. Each point is a unit {x =, y = [, size =]}: the size x size cells
 * from (x, y) (size: a whole number, 1 when absent, the square on the grid;
 * only 1 on a hex grid). kind RULE_POINTS_FLAG: true on each; _COST: the
 * point's cost (or false) on each ({x =, y =, cost =}); _AROUND: true on the
 * cells next to each square (its sides, and corners when diagonal; a cell's
 * six neighbours on a hex grid). Errors name fname, argument argn and label
 * ("opts.blocked[2]: point expected, got number"). Returns the lowest finite
 * cost listed (0 if none). */
double rule_points_table(lua_State *L, int v, int kind, const LuaGrid *g, int diagonal,
                         const char *fname, int argn, const char *label);
/* After every option is read: the lowest cost the rules can give. */
void query_rules_finish(QueryRules *r, const AstarGrid *grid);
/* A blocked table (a list of points, or a table by cell number holding no
 * table) with no function rule becomes the query's own walls (o->walls, in
 * a userdata that takes the rule's stack slot): the core then runs its plain
 * loops, jump point search included, instead of asking a rule cell by cell.
 * Call after query_rules_finish, before query_rules_apply. */
void query_rules_take_walls(QueryRules *r, AstarOptions *o, uint32_t width, uint32_t height);
/* Sets the core's rule (when some rule was given) into the options. */
void query_rules_apply(QueryRules *r, AstarOptions *o);
/* After a callback: sets r->stop and returns nonzero when it (or a
 * finalizer) closed or changed the grid. */
int query_rules_disturbed(QueryRules *r);
/* The core's AstarCellRule. Runs no Lua code itself but the callbacks
 * (under lua_pcall); table lookups are raw. */
double query_rules_cell(void *user, uint32_t x, uint32_t y, double grid_cost, unsigned *flags);
/* The core's AstarMoveRule: calls opts.move (fx, fy, tx, ty, cost), 1-based. */
double query_rules_move(void *user, uint32_t fx, uint32_t fy, uint32_t tx, uint32_t ty,
                        double cost);
/* Raises the error the query stopped with; `fname` names the call. */
int query_rules_raise(lua_State *L, const QueryRules *r, const char *fname);

#endif
