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

#endif
