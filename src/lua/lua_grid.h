/* The Grid userdata and the ownership rules shared by the binding's files. */
#ifndef ASTAR_LUA_GRID_H
#define ASTAR_LUA_GRID_H

#include "args.h"

#define GRID_TYPE "astar.Grid"
#define POOL_SIZE 4           /* scratch of finished stepped searches kept for reuse */

/*
 * Who owns what while a C function runs. Any Lua call may run Lua code: a
 * callback (rules, line of sight) or, at any allocation, a collection step
 * and so finalizers. That code may query, change or close the same grid. So:
 *
 * 1. A query whose callbacks run owns its scratch: the grid's own scratch is
 *    lent to one query at a time (lent bits); a query that finds it lent
 *    gets temporary scratch owned by a userdata on its stack (lease.c).
 * 2. Closing a grid while queries are inside callbacks (running > 0) only
 *    detaches it: every method then raises, and the memory is freed when the
 *    last of those queries returns.
 * 3. Results are copied out of scratch between allocations; after each
 *    allocation the copier checks its lease (serial, closed) and starts the
 *    query again if the scratch was used by someone else meanwhile.
 * 4. Memory the core allocates is told to the collector (gc_note) at the end
 *    of the call, so dropped grids and searches are collected in time.
 */
typedef struct {
    AstarGrid *grid;          /* the cells; NULL once freed */
    /* The shape, copied when the cells are made (a grid never changes
     * shape): readable at any time, after a close too, so that reading a
     * query's arguments never needs the cells (docs/robustness.md). */
    uint32_t width, height;
    unsigned hex;             /* 0: square; 1 + AstarHexLayout: a hex board */
    int closed;               /* __close or __gc ran: every method raises */
    unsigned running;         /* queries inside a callback, still reading grid */
    unsigned lent;            /* LENT_* bits: scratch held by a query in a callback */
    uint64_t serial;          /* bumped when a query starts on own scratch, and on close */
    AstarSearch *search;      /* findPath's scratch (created on first use) */
    AstarRange *range;        /* the tactics layer's scratch (created on first use) */
    AstarSearch *pool[POOL_SIZE];   /* scratch returned by finished searches */
    unsigned pooled;
    AstarDiagonal diagonal;
    AstarHeuristic heuristic;
    int heuristic_chosen;     /* 0: the heuristic follows the diagonal mode */
    double weight;
} LuaGrid;

#define LENT_SEARCH 1u
#define LENT_RANGE 2u

/* Argument 1 as an open Grid, or an error naming method fname. */
LuaGrid *check_grid(lua_State *L, const char *fname);
/* Raises "attempt to use a closed astar.Grid" when g was closed meanwhile
 * (after reading arguments, which may have run Lua code). */
void check_open(lua_State *L, const LuaGrid *g);
/* Argument n of method fname (stack index n + 1). */
Arg method_arg(const char *fname, int n);

/* ---- lease.c: scratch, closing, the collector ---------------------------- */

/* What a query holds while it runs: scratch, and how to tell it is still its. */
typedef struct {
    LuaGrid *g;
    unsigned kind;            /* LENT_SEARCH or LENT_RANGE */
    int own;                  /* the grid's own scratch (else a temporary one) */
    uint64_t serial;
    AstarSearch *search;
    AstarRange *range;
} Lease;

/* Takes scratch of `kind` for a query on g: the grid's own when it is free
 * and temp is 0, else temporary scratch owned by a userdata it pushes. The
 * push may run Lua: check_open after it. Marks own scratch as lent when
 * `callbacks` is set (Lua code will run inside the query). */
void lease_take(lua_State *L, LuaGrid *g, unsigned kind, int temp, int callbacks, Lease *lease);
/* Pushes temporary range scratch owned by a new userdata (a query without
 * a grid: distance maps rescanned by flee and blend). */
AstarRange *scratch_range_push(lua_State *L);
/* Ends the lent state (after the query's callbacks have all returned). */
void lease_return(Lease *lease);
/* Nonzero while the scratch still holds this query's result and the grid is
 * open: called after every allocation made while reading a result. */
int lease_valid(const Lease *lease);

/* Query phases with callbacks: while running, closing only detaches. */
void grid_enter(LuaGrid *g);
void grid_leave(LuaGrid *g);
/* __close / __gc: detaches, and frees now when no query is inside a callback. */
void grid_close(LuaGrid *g);
/* Takes an AstarSearch from g's pool (NULL when empty), or gives one back
 * (freed when g is closed or the pool is full). */
AstarSearch *pool_take(LuaGrid *g);
void pool_give(LuaGrid *g, AstarSearch *search);
/* Bytes g owns outside the Lua heap. */
size_t grid_external_memory(const LuaGrid *g);
/* Tells the collector that `bytes` were allocated outside the Lua heap, so
 * that it runs as if Lua had allocated them. May run finalizers: call it
 * last, with the results already on the stack. */
void gc_note(lua_State *L, size_t bytes);
/* gc_note for what g owns beyond `before`; returns nresults. */
int gc_note_growth(lua_State *L, const LuaGrid *g, size_t before, int nresults);
/* Pushes a userdata of measure(L, object) bytes, for a copy of `what` (an
 * encoding, a list read from Lua). The allocation may run finalizers that
 * change what is measured (a grid's cost layer, a map updated, a list
 * grown), so it is measured again after each one and allocated again until
 * the size holds (MEASURE_TRIES times at most, then "<what> changed during
 * <fname>"). measure raises when the object is no longer usable and returns
 * 0 when the size does not fit in a size_t ("<what> too large to encode on
 * this platform"). No Lua runs between the last measure and the return: the
 * caller fills *size bytes without an allocation in between. */
#define MEASURE_TRIES 4
unsigned char *push_measured(lua_State *L, size_t (*measure)(lua_State *L, const void *object),
                             const void *object, const char *what, const char *fname,
                             size_t *size);
/* A temporary scratch userdata (astar.Scratch) is registered by luaopen. */
void register_scratch(lua_State *L);
/* Sets the metatable of type tname on the value on top of the stack: methods
 * as __index, tostring as __tostring. The first call makes it, and registers
 * it only once it is complete: making it allocates, and a finalizer that runs
 * meanwhile and makes an object of the type must not get a half-made one (it
 * makes its own; the first one registered is kept). */
void set_type_metatable(lua_State *L, const char *tname, const luaL_Reg *methods,
                        lua_CFunction tostring);

/* ---- shared with lua_encode.c and lua_search.c --------------------------- */

/* Pushes an empty Grid userdata (owning nothing yet). */
LuaGrid *push_grid(lua_State *L);
/* After the cells of a pushed grid were made: records its shape and tells
 * the collector; returns 1 (the grid, on the stack). */
int grid_created(lua_State *L, LuaGrid *g);
/* How a path is handed back: a new array of {x =, y =} by default; flat
 * gives {x1, y1, x2, y2, ...}; into (a stack index, 0 for none) is a table
 * the caller owns, filled in place (findPath's opts.into). */
typedef struct {
    int flat;
    int into;
} PathOutput;

/* A path query's arguments: start, goal (0-based) and options. With a list
 * of goals (argument 3 a table), goals holds their x, y pairs (in a
 * userdata on the stack) and the results say which one was reached. */
typedef struct {
    uint32_t sx, sy, gx, gy;
    AstarOptions options;
    PathOutput output;
    int goal_list;
    int opts_arg;             /* the options' argument number: 5, or 4 with goals */
} Query;

/* check_query (findPath and newSearch arguments): query_rules.h */

/* A path being copied into Lua: n cells read from the last to the first by
 * cell(reader, i, &x, &y) for i = n .. 1 (0-based coordinates); valid(reader)
 * is asked after every allocation (0: the source is gone, stop). */
typedef struct PathReader {
    size_t n;
    void (*cell)(struct PathReader *r, size_t i, uint32_t *x, uint32_t *y);
    /* cells i, i - 1, ... (count of them) as (x, y) pairs, read in that order
     * as cell would; NULL when the reader has only cell */
    void (*cells)(struct PathReader *r, size_t i, size_t count, uint32_t *xy);
    int (*valid)(struct PathReader *r);
    const void *source;
    AstarPathCursor at;
    const Lease *lease;
} PathReader;

/* A reader over a finished search's scratch, guarded by lease. */
void path_reader_search(PathReader *r, const AstarSearch *search, const Lease *lease);
/* Pushes the path in the form out asks for; 0 (and nothing pushed) when the
 * reader's source went away meanwhile. */
int push_path(lua_State *L, PathReader *reader, PathOutput out);
/* Pushes what findPath returns after the path was pushed (or for a status
 * without one): cost [, reached], or nil and the reason; returns the count. */
int push_outcome(lua_State *L, AstarStatus status, double cost, int partial);
/* The same for a query with a list of goals: cost and the index (1-based)
 * of the goal reached, or false (a partial path that reached none). */
int push_goal_outcome(lua_State *L, AstarStatus status, double cost, size_t index);
/* Pushes {expanded =, touched = [, algorithm =]} (algorithm NULL: none). */
int push_stats(lua_State *L, size_t expanded, size_t touched, const char *algorithm);
/* "astar" or "jps": the names of opts.algorithm. */
const char *algorithm_name(AstarAlgorithm algorithm);

/* pathTo's and pathFrom's options (argument a): flat and into, as findPath's;
 * into is left in a stack slot pushed here (*into: its index, 0 if none). */
void read_path_options(lua_State *L, Arg a, int *flat, int *into, int *corners);

int grid_encode(lua_State *L);       /* grid:encode() */
int grid_decode(lua_State *L);       /* astar.decode(s) */
int grid_new_search(lua_State *L);   /* grid:newSearch(sx, sy, gx, gy [, opts]) */
void register_search(lua_State *L);  /* the astar.Search metatable */

#endif
