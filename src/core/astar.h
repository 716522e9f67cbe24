/*
 * astar core: grid storage and A* search on 4/8-direction grids.
 *
 * Pure C99; knows nothing of Lua. Coordinates here are 0-based (x = column,
 * y = row); the Lua binding converts from 1-based.
 *
 * Ownership: every object is created by an astar_*_new function and released
 * by the matching astar_*_free, which accepts NULL. The core keeps no global
 * state, so independent grids may be used from different threads at once; a
 * grid may be read by several searches at once as long as nobody changes it.
 */
#ifndef ASTAR_H
#define ASTAR_H

#include <stddef.h>
#include <stdint.h>

#define ASTAR_MAX_SIDE 65535u          /* widest / tallest grid */
#define ASTAR_MAX_CELLS (1u << 28)     /* most cells in one grid */
#define ASTAR_MAX_COST 1e15            /* highest cell cost (keeps sums finite) */

typedef enum {
    ASTAR_OK = 0,
    ASTAR_ENOMEM,        /* an allocation failed; nothing was changed */
    ASTAR_ETOOBIG,       /* width/height/cells exceed the limits above */
    ASTAR_EGRIDCHANGED,  /* a search was stepped after its grid changed */
    ASTAR_EPARSE         /* map text could not be parsed */
} AstarError;

typedef enum {
    ASTAR_DIAGONAL_NEVER,        /* 4 directions */
    ASTAR_DIAGONAL_ALWAYS,       /* 8 directions, may squeeze between walls */
    ASTAR_DIAGONAL_ONE_OBSTACLE, /* 8, unless both orthogonal neighbours are walls */
    ASTAR_DIAGONAL_NO_OBSTACLES  /* 8, only when both orthogonal neighbours are open */
} AstarDiagonal;

typedef enum {
    ASTAR_HEURISTIC_MANHATTAN,
    ASTAR_HEURISTIC_OCTILE,
    ASTAR_HEURISTIC_EUCLIDEAN,
    ASTAR_HEURISTIC_CHEBYSHEV,
    ASTAR_HEURISTIC_ZERO         /* Dijkstra */
} AstarHeuristic;

typedef struct {
    AstarDiagonal diagonal;
    AstarHeuristic heuristic;
    double weight;               /* >= 1; f = g + weight * h */
    int partial;                 /* nonzero: on failure, end at the closest reached cell */
} AstarOptions;

typedef enum {
    ASTAR_SEARCHING,             /* step again */
    ASTAR_FOUND,                 /* reached the goal */
    ASTAR_PARTIAL,               /* goal unreachable; path ends at the closest cell */
    ASTAR_GOAL_BLOCKED,          /* goal is a wall (and not partial) */
    ASTAR_NO_PATH                /* goal unreachable (and not partial) */
} AstarStatus;

/* ---- grids (grid.c) ---------------------------------------------------- */

typedef struct AstarGrid AstarGrid;

/* Creates a width x height grid, all walkable, all costs 1. Returns
 * ASTAR_ETOOBIG or ASTAR_ENOMEM (and *out = NULL) on failure. */
AstarError astar_grid_new(AstarGrid **out, uint32_t width, uint32_t height);
void astar_grid_free(AstarGrid *grid);

uint32_t astar_grid_width(const AstarGrid *grid);
uint32_t astar_grid_height(const AstarGrid *grid);

/* Cell accessors. The caller guarantees x < width and y < height. */
int astar_grid_walkable(const AstarGrid *grid, uint32_t x, uint32_t y);
void astar_grid_set_walkable(AstarGrid *grid, uint32_t x, uint32_t y, int walkable);
double astar_grid_cost(const AstarGrid *grid, uint32_t x, uint32_t y);
/* cost must be in (0, ASTAR_MAX_COST]. May allocate the cost layer the first
 * time a cost other than 1 is set (ASTAR_ENOMEM leaves the grid unchanged). */
AstarError astar_grid_set_cost(AstarGrid *grid, uint32_t x, uint32_t y, double cost);

/* Grows by one on every change: lets a search detect a grid changed under it. */
uint64_t astar_grid_version(const AstarGrid *grid);

/* ---- searches (search.c) ----------------------------------------------- */

/* A search owns its scratch memory (costs so far, parents, open list), sized
 * to the largest grid it has searched and reused by every later query, so a
 * warm search allocates nothing. One search runs one query at a time. */
typedef struct AstarSearch AstarSearch;

AstarSearch *astar_search_new(void);
void astar_search_free(AstarSearch *search);

/* Prepares a query from (sx, sy) to (gx, gy); coordinates must be in range.
 * Returns ASTAR_ENOMEM if scratch could not grow. The start cell's own
 * walkability is not checked. */
AstarError astar_search_begin(AstarSearch *search, const AstarGrid *grid,
                              uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                              const AstarOptions *options);

/* Expands at most max_expansions nodes (0 means no limit) on the grid given
 * to astar_search_begin, which must still exist, and reports where the search
 * stands. *error is set to ASTAR_ENOMEM if the open list could not grow, or
 * ASTAR_EGRIDCHANGED if the grid changed since astar_search_begin; in both
 * cases the search is over and returns ASTAR_NO_PATH. */
AstarStatus astar_search_step(AstarSearch *search, size_t max_expansions,
                              AstarError *error);

/* Runs a whole query: begin + step until done. */
AstarStatus astar_search_run(AstarSearch *search, const AstarGrid *grid,
                             uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                             const AstarOptions *options, AstarError *error);

AstarStatus astar_search_status(const AstarSearch *search);

/* After ASTAR_FOUND or ASTAR_PARTIAL: the path's last cell, its cost and its
 * number of cells (start and end included). Walk it backwards with
 * astar_search_parent from astar_search_end until astar_search_start. Cells
 * are identified by astar_cell(), decoded by astar_cell_x / astar_cell_y. */
uint32_t astar_search_end(const AstarSearch *search);
uint32_t astar_search_start(const AstarSearch *search);
double astar_search_cost(const AstarSearch *search);
size_t astar_search_length(const AstarSearch *search);
uint32_t astar_search_parent(const AstarSearch *search, uint32_t cell);
uint32_t astar_cell_x(const AstarSearch *search, uint32_t cell);
uint32_t astar_cell_y(const AstarSearch *search, uint32_t cell);

/* Counters of the last query: nodes expanded, cells whose cost was set. */
size_t astar_search_expanded(const AstarSearch *search);
size_t astar_search_touched(const AstarSearch *search);

/* Bytes of scratch the search holds now (for memory reports). */
size_t astar_search_memory(const AstarSearch *search);
size_t astar_grid_memory(const AstarGrid *grid);

/* ---- loading maps (mapload.c) ------------------------------------------ */

/* Parse rows of '.', '#', '1'..'9' (walkable with that cost), or the text of
 * a Moving AI .map file. On failure *out is NULL and the error names the
 * problem in message (a NUL-terminated string of at most message_size). */
AstarError astar_grid_from_text(AstarGrid **out, const char *text, size_t length,
                                char *message, size_t message_size);
AstarError astar_grid_from_movingai(AstarGrid **out, const char *text, size_t length,
                                    char *message, size_t message_size);

#endif
