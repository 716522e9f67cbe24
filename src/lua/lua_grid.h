/* The Grid userdata, shared by the binding's files. */
#ifndef ASTAR_LUA_GRID_H
#define ASTAR_LUA_GRID_H

#include "args.h"

#define GRID_TYPE "astar.Grid"

typedef struct {
    AstarGrid *grid;          /* NULL once closed */
    AstarSearch *search;      /* scratch for findPath */
    AstarDiagonal diagonal;
    AstarHeuristic heuristic;
    int heuristic_chosen;     /* 0: the heuristic follows the diagonal mode */
    double weight;
} LuaGrid;

/* Argument 1 as an open Grid, or an error naming method fname. */
LuaGrid *check_grid(lua_State *L, const char *fname);
/* Argument n of method fname (stack index n + 1). */
Arg method_arg(const char *fname, int n);

/* ---- shared with lua_encode.c and lua_search.c (issue 4) ---------------- */

/* Pushes an empty Grid userdata (owning nothing yet but its findPath scratch). */
LuaGrid *push_grid(lua_State *L);
/* How a path is handed back: a new array of {x =, y =} by default; flat
 * gives {x1, y1, x2, y2, ...}; into (a stack index, 0 for none) is a table
 * the caller owns, filled in place (findPath's opts.into). */
typedef struct {
    int flat;
    int into;
} PathOutput;

/* A path query's arguments: start, goal (0-based) and options. */
typedef struct {
    uint32_t sx, sy, gx, gy;
    AstarOptions options;
    PathOutput output;
} Query;

/* Reads self, sx, sy, gx, gy and opts (arguments 1-5 of method fname), as
 * findPath and newSearch take them, and prepares the grid for a search. */
LuaGrid *check_query(lua_State *L, const char *fname, Query *q);
/* Pushes the path of a finished search in the form out asks for. */
void push_path(lua_State *L, const AstarSearch *s, PathOutput out);
/* Pushes what findPath returns for a finished search; returns the count. */
int push_result(lua_State *L, const AstarSearch *search, AstarStatus status, int partial,
                PathOutput out);
/* Pushes {expanded =, touched =} for a search. */
int push_stats(lua_State *L, const AstarSearch *search);

int grid_encode(lua_State *L);       /* grid:encode() */
int grid_decode(lua_State *L);       /* astar.decode(s) */
int grid_new_search(lua_State *L);   /* grid:newSearch(sx, sy, gx, gy [, opts]) */
void register_search(lua_State *L);  /* the astar.Search metatable */

#endif
