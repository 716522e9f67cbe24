/*
 * astar core: grid storage and A* search on 4/8-direction grids.
 * Layer 1: declarations only, of every layer's public functions.
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
/* Cap of the heuristic's scale, weight * lowest cost: with it h (at most
 * about 1e5 times the scale on the largest grid) and f = g + h stay finite,
 * never inf or NaN, whatever the weight. Below the cap whenever weight is 1. */
#define ASTAR_MAX_H_SCALE 1e300

typedef enum {
    ASTAR_OK = 0,
    ASTAR_ENOMEM,        /* an allocation failed; nothing was changed */
    ASTAR_ETOOBIG,       /* width/height/cells exceed the limits above */
    ASTAR_EGRIDCHANGED,  /* no longer returned (a search restarts instead: astar_search_step) */
    ASTAR_EPARSE,        /* map text could not be parsed */
    ASTAR_EABORTED       /* a query's rule asked to stop (AstarRangeRule gave NAN) */
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

/* Which search runs a query. AUTO (0, so a zeroed AstarOptions picks it) runs
 * jump point search whenever it gives the same answer as A*: uniform costs,
 * diagonal NEVER or NO_OBSTACLES, weight 1, an admissible heuristic and no
 * partial result; A* otherwise. On a grid whose costs differ, once
 * astar_grid_terrain has run, also jump point search with costs where few
 * walkable cells have a walkable neighbour of another cost: at most 25% in
 * NO_OBSTACLES (and not with the query's own walls), 4% in NEVER (terrain.h).
 * JPS asked for where it is not supported (see
 * astar_jps_supported) runs A*; with partial set and the goal unreachable, it
 * hands over to A* to find the closest cell. Unknown values mean AUTO. */
typedef enum {
    ASTAR_ALGORITHM_AUTO = 0,
    ASTAR_ALGORITHM_ASTAR,
    ASTAR_ALGORITHM_JPS
} AstarAlgorithm;

/* How a path comes back (docs/paths.md): the walk; its start, its goal and
 * the cells where its direction changes; string pulling under the segment
 * model; an any-angle search (Theta*). */
typedef enum {
    ASTAR_SMOOTH_NONE = 0,
    ASTAR_SMOOTH_CORNERS,
    ASTAR_SMOOTH_SIGHT,
    ASTAR_SMOOTH_THETA
} AstarSmooth;

/* A per-query rule over the grid's cells, shared with the tactics layer
 * (AstarRangeRule below). */
/* A query's rule about moves (issue 19): asked about the move (fx, fy) ->
 * (tx, ty) (0-based) that the grid prices at cost; returns the move's cost
 * (> 0), INFINITY when the move is impossible, or NAN to stop the query. */
typedef double (*AstarMoveRule)(void *user, uint32_t fx, uint32_t fy, uint32_t tx, uint32_t ty,
                                double cost);

typedef double (*AstarCellRule)(void *user, uint32_t x, uint32_t y, double grid_cost,
                                unsigned *flags);

typedef struct {
    AstarDiagonal diagonal;
    AstarHeuristic heuristic;
    double weight;               /* >= 1; f = g + weight * h */
    int partial;                 /* nonzero: on failure, end at the closest reached cell */
    AstarAlgorithm algorithm;    /* see above; zero is AUTO */

    /* What a unit may do, for this query only (all zero: the grid alone).
     * rule is asked at most once per cell per query, only about walkable
     * cells other than the start, when the search first needs the cell
     * (entering it, or the corner rule of a diagonal step next to it): it
     * returns the cost of entering the cell (> 0), INFINITY for impassable
     * (such a cell also counts as a wall for the corner rule), or NAN to
     * stop the query (astar_search_step then reports ASTAR_EABORTED); it
     * may set ASTAR_RANGE_NO_STOP in *flags: the path may cross the cell
     * but not end on it. */
    AstarCellRule rule;
    void *rule_user;
    /* With a rule: a lower bound of the entry costs it gives of its own
     * (INFINITY when it only passes the grid's costs on); the heuristic is
     * scaled by the lower of it and the grid's lowest cost, so 0 (unknown)
     * turns the heuristic off: a Dijkstra search, still exact. */
    double rule_min_cost;
    /* Several goals: goal_count cells, goals[2i] = x, goals[2i + 1] = y
     * (0-based), replacing (gx, gy) when goal_count > 0. Copied by
     * astar_search_begin. */
    const uint32_t *goals;
    size_t goal_count;
    /* Cells that are walls for this query only (other units on the
     * board): wall_count cells, walls[2i] = x, walls[2i + 1] = y (0-based,
     * in range; the start is never one). Copied by astar_search_begin.
     * Unlike a rule they keep the specialised loops, jump point search
     * included: each astar_search_step writes them into the grid's walkable
     * bits (not its version) and writes the cells back before it returns,
     * so nothing else may read the grid during that call. */
    const uint32_t *walls;
    size_t wall_count;
    /* The path may end on any cell within this distance of a goal
     * (Manhattan with ASTAR_DIAGONAL_NEVER, Chebyshev otherwise, hex steps on
     * a hex grid, astar_hex.h); the goal
     * itself need not be walkable. */
    uint32_t near;
    /* bounded nonzero: cells whose cost from the start exceeds max_cost are
     * never entered. */
    int bounded;
    double max_cost;
    /* Large units (clearance.c, large.c): the unit covers the size x size cells whose
     * top-left cell is the path cell (0 or 1: one cell, as without it). A
     * position is allowed when every cell it covers is in the grid, walkable,
     * not one of the query's walls and not impassable by the rule (the
     * start's own cells are not checked); entering it costs the highest entry
     * cost (grid or rule) among the cells it newly covers, SQRT2 times that
     * diagonally; the corner rule applies to the positions beside a diagonal
     * step. Goals and near are about the top-left cell; the path never ends
     * on a position covering a cell with ASTAR_RANGE_NO_STOP.
     * The first query of a size builds the grid's layer for it (see
     * astar_grid_size_layer); while it runs, any change of the grid starts a
     * stepped query again. */
    uint32_t size;
    /* A rule about every move the search relaxes, links included (NULL:
     * none). The heuristic is then off: no bound on what it answers. */
    AstarMoveRule move_rule;
    void *move_user;
    /* What the path comes back as (issue 20, docs/paths.md): the walk
     * (NONE), or smoothed when the search ends (astar_search_length, the
     * path cursor and astar_search_cost then read the smoothed points).
     * SIGHT and THETA need a square board, a one-cell unit, a diagonal mode
     * other than NEVER and no moves (no overrides or links on the grid, no
     * move_rule); elsewhere they give CORNERS. THETA is an any-angle search
     * (Theta*, theta.c): a cell may also be reached by a straight segment
     * from its predecessor's parent (legal, priced at its length times the
     * highest entry cost among the cells it passes through, its first
     * excepted); the estimate is Euclidean (times weight and the lowest
     * cost) whatever heuristic says (partial results still rank cells by
     * heuristic); the path is the waypoints, each joined to the next by a
     * legal segment, astar_search_cost their costs added from the start.
     * Any change of the grid starts a stepped THETA query again (its
     * segments read cells it never touched). */
    AstarSmooth smooth;
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
 * time a cost other than 1 is set (ASTAR_ENOMEM leaves the grid unchanged).
 * O(1) amortized, whatever the order of writes. The grid's lowest cost
 * (which scales the heuristic) is kept exactly, with the second lowest to
 * take its place when the last cell holding it is raised, so rewriting a
 * uniform grid to another uniform cost, or raising a cell and lowering it
 * back, keeps it exact. When both have been raised away since the last
 * recount, it stays a lower bound of every cost (searches stay exact, jump
 * point search is not offered) until astar_grid_refresh_min_cost, a cost at
 * or below the bound, or the write that completes cells / 16 cost changes
 * since the last recount (one O(cells) recount) makes it exact again. */
AstarError astar_grid_set_cost(AstarGrid *grid, uint32_t x, uint32_t y, double cost);

/* Grows by one on every change: lets a search detect a grid changed under it.
 * A write that changes nothing (setting a cell's walkability or cost to what
 * it is) is not a change and leaves it as it is. The grid also remembers
 * which cells its last 64 changes wrote, for the searches (see
 * astar_search_step); only the writers write it. */
uint64_t astar_grid_version(const AstarGrid *grid);

/* The lowest cost as the grid knows it: *exact (when not NULL) is 1 when it
 * is the lowest cost of any cell, 0 when it is only a lower bound of every
 * cell's cost (see astar_grid_set_cost). */
double astar_grid_min_cost(const AstarGrid *grid, int *exact);
/* Makes the lowest cost exact: O(cells) when it is a lower bound, O(1) when
 * it is exact already. Call it before queries (not concurrently with
 * searches, which only read it) so that they use the exact lowest cost and
 * jump point search is offered whenever the costs are uniform. */
void astar_grid_refresh_min_cost(AstarGrid *grid);

/* Large units (clearance.c): makes sure the grid keeps the layer of the
 * positions where a size x size unit fits (size >= 2), built in O(cells *
 * size / 64) word operations the first time and then kept up to date by
 * astar_grid_set_walkable in O(size^2) per change; the grid owns it (freed
 * with it, counted by astar_grid_memory). A query with options.size builds
 * it itself; call this first when several threads will search the grid.
 * ASTAR_ENOMEM leaves the grid as it was. */
AstarError astar_grid_size_layer(AstarGrid *grid, uint32_t size);

/* ---- moves and links (moves.c, issue 19) ------------------------------- */

/* Directions of a move to a neighbour: 0 E (+1, 0), 1 W (-1, 0), 2 S (0, +1),
 * 3 N (0, -1), 4 SE, 5 SW, 6 NE, 7 NW (y grows south). A hex cell's six
 * neighbours are six of them (astar_hex_neighbours gives their offsets). */
/* Overrides the move from (x, y) in direction d, in that direction only: a
 * cost in (0, ASTAR_MAX_COST] replaces the entered cell's cost times the
 * step length, INFINITY forbids the move, 0 removes the override. The caller
 * checks that the neighbour is in the grid. ASTAR_ENOMEM changes nothing. */
AstarError astar_grid_set_move(AstarGrid *grid, uint32_t x, uint32_t y, unsigned d, double cost);
/* The override of that move: a cost, INFINITY, or 0 when there is none. */
double astar_grid_get_move(const AstarGrid *grid, uint32_t x, uint32_t y, unsigned d);
/* The directions out of (x, y) that have an override, as bits 0-7. */
unsigned astar_grid_moves_set(const AstarGrid *grid, uint32_t x, uint32_t y);
/* Adds the one-way link (x1, y1) -> (x2, y2) (distinct cells) costing cost in
 * (0, ASTAR_MAX_COST], or sets the cost of that link. */
AstarError astar_grid_link(AstarGrid *grid, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2,
                           double cost);
/* Removes the one-way link (x1, y1) -> (x2, y2): 1, or 0 when there was none. */
int astar_grid_unlink(AstarGrid *grid, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2);
/* The links leaving (x, y): how many, and the k-th (ordered by target cell
 * y * width + x). */
size_t astar_grid_links(const AstarGrid *grid, uint32_t x, uint32_t y);
void astar_grid_link_at(const AstarGrid *grid, uint32_t x, uint32_t y, size_t k, uint32_t *tx,
                        uint32_t *ty, double *cost);
/* How many overrides and one-way links the grid holds. */
size_t astar_grid_move_count(const AstarGrid *grid);
size_t astar_grid_link_count(const AstarGrid *grid);

/* ---- searches (search.c; results: search_record.c) --------------------- */

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
 * stands. *error is set to ASTAR_ENOMEM if the open list could not grow; the
 * search is then over and returns ASTAR_NO_PATH.
 *
 * The grid may change between two steps (not during one); the answer always
 * describes the grid as it is when the search finishes:
 * - a write that changes nothing is not a change;
 * - a change the search has not reached leaves it alone. For A* a changed
 *   cell is reached when it or one of its 8 neighbours has been touched
 *   (given a cost so far) by the query: a wall opened or closed beside an
 *   expanded cell, the side cell of a diagonal move, a cost changed on a
 *   touched cell. A query with one goal cell (no near, no partial result)
 *   has also read its goal when it began (whether it is blocked, the rule's
 *   answer there): a change of the goal cell reaches it, however far;
 * - otherwise, or when the grid's lowest cost (which scales the heuristic)
 *   changed, or when the query runs jump point search (which reads whole
 *   lines: any change), or when more than 64 changes happened since the last
 *   step (older ones are not remembered), the step first starts the query
 *   again from scratch on the grid as it is now, with the same ends and
 *   options, and counts a restart (astar_search_restarts). The algorithm is
 *   chosen again, except that a query that ran jump point search runs A*
 *   from then on (the same optimal cost, perhaps another of the equally
 *   cheap paths), so that changes every step cannot keep it from finishing.
 *   The recorded cells are then those of the new run; the counters
 *   (astar_search_expanded, astar_search_touched) go on adding up;
 * - a query with one goal cell whose goal the component labels prove cut off
 *   from its start (see astar_search_prepare_step) also starts again, which
 *   answers ASTAR_NO_PATH at once, as astar_search_begin does.
 * A query whose reached cells change more often than it can finish never
 * finishes. Checking costs O(changes since the last step), at most 64 x 9
 * stamps, and allocates nothing. A query that has finished keeps its result whatever
 * changes later.
 * ASTAR_EGRIDCHANGED is no longer returned. */
AstarStatus astar_search_step(AstarSearch *search, size_t max_expansions,
                              AstarError *error);

/* Call before each astar_search_step of a query spread over frames, as
 * astar_grid_prepare before a query (not concurrently with searches of the
 * grid): makes the lowest cost exact, and counts the expansions the query did
 * while the grid's component labels were stale (a wall closed since they were
 * built) and could have answered its goal as failed queries' expansions
 * (astar_grid_note_no_path), which rebuilds the labels once they reach about
 * cells / 16. A step whose goal the labels then prove cut off (a goal walled
 * off while the query ran) starts it again, which answers ASTAR_NO_PATH at
 * once as a new query would. */
void astar_search_prepare_step(AstarSearch *search, AstarGrid *grid);

/* Runs a whole query: begin + step until done. */
AstarStatus astar_search_run(AstarSearch *search, const AstarGrid *grid,
                             uint32_t sx, uint32_t sy, uint32_t gx, uint32_t gy,
                             const AstarOptions *options, AstarError *error);

AstarStatus astar_search_status(const AstarSearch *search);

/* After ASTAR_FOUND or ASTAR_PARTIAL: the path's last cell, its cost and its
 * number of cells (start and end included; of waypoints for a THETA
 * query; of points for a smoothed one, which the path cursor below reads).
 * Walk a walk backwards with
 * astar_search_parent from astar_search_end until astar_search_start. Cells
 * are identified by astar_cell(), decoded by astar_cell_x / astar_cell_y. */
uint32_t astar_search_end(const AstarSearch *search);
uint32_t astar_search_start(const AstarSearch *search);
double astar_search_cost(const AstarSearch *search);
size_t astar_search_length(const AstarSearch *search);
uint32_t astar_search_parent(const AstarSearch *search, uint32_t cell);
uint32_t astar_cell_x(const AstarSearch *search, uint32_t cell);
uint32_t astar_cell_y(const AstarSearch *search, uint32_t cell);
/* The row length of those ids: cell = (y + 1) * stride + x + 1 for 0-based
 * (x, y), so a list of them sorted is in row order (a copy of them decodes
 * without the search). */
uint32_t astar_search_stride(const AstarSearch *search);

/* The same walk with the coordinates kept up to date step by step, with no
 * division per cell: astar_path_end puts the cursor on the path's last cell,
 * each astar_path_back moves it one cell towards the start (call it
 * astar_search_length - 1 times at most). x and y are 0-based. */
typedef struct {
    uint32_t cell, x, y;
    size_t index;          /* of a smoothed path's point */
} AstarPathCursor;
void astar_path_end(const AstarSearch *search, AstarPathCursor *at);
void astar_path_back(const AstarSearch *search, AstarPathCursor *at);
/* count cells of the walk at once, as 0-based (x, y) pairs into xy: the
 * cursor's cell, then count - 1 astar_path_back steps (the cursor ends on
 * the last one written). The same cells, without a call per cell. */
void astar_path_take(const AstarSearch *search, AstarPathCursor *at, uint32_t *xy,
                     size_t count);

/* Counters of the last query: nodes expanded, cells whose cost was set; all
 * its work, the runs that astar_search_step started again included. */
size_t astar_search_expanded(const AstarSearch *search);
size_t astar_search_touched(const AstarSearch *search);
/* How often astar_search_step started the current or last query again
 * because the grid changed under it; 0 after astar_search_begin. */
size_t astar_search_restarts(const AstarSearch *search);

/* Nonzero when the current or last query expanded (closed) cell (x, y),
 * 0-based, so far: while it is stepped and after it ends, until the next
 * astar_search_begin. O(1), no allocation; 0 outside the grid. For a query
 * that ran jump point search the expanded cells are its jump points; a
 * partial JPS query that fell back to A* reports only A*'s cells (while
 * astar_search_expanded counts both). The grid must still exist. */
int astar_search_expanded_cell(const AstarSearch *search, uint32_t x, uint32_t y);

/* Recording the expanded cells of a query, off by default. When on (any
 * nonzero on; it applies from the next astar_search_begin), every cell the
 * query expands, exactly the cells astar_search_expanded_cell reports, is
 * appended in expansion order to a list in the search's scratch, reused by
 * later queries and counted by astar_search_memory. Growing it may fail with
 * ASTAR_ENOMEM, which ends the query like any other ENOMEM. */
void astar_search_record(AstarSearch *search, int on);
/* The recorded cells of the current or last query, so far: returns their
 * number and points *cells (when cells is not NULL) at their ids, decoded by
 * astar_cell_x / astar_cell_y (0-based). 0 for a query that did not record.
 * The list is valid until the next astar_search_begin, astar_search_step or
 * astar_search_free. */
size_t astar_search_recorded(const AstarSearch *search, const uint32_t **cells);

/* After ASTAR_FOUND (or ASTAR_PARTIAL at a goal): the index (0-based) of the
 * first goal whose region (astar_search_begin's options: goals, near)
 * holds the path's end; (size_t)-1 when none does. */
size_t astar_search_goal_index(const AstarSearch *search);

/* The algorithm the last query ran: ASTAR_ALGORITHM_ASTAR or _JPS. JPS runs
 * only where it gives A*'s cost: equal costs, no rule, no budget, at most 16
 * goals (near and the query's own walls are fine). */
AstarAlgorithm astar_search_algorithm(const AstarSearch *search);

/* Nonzero when jump point search can run on this grid in this diagonal mode:
 * every cell (walls included) has the same cost, and the mode is NEVER or
 * NO_OBSTACLES. Exact while the lowest cost is (astar_grid_min_cost); while
 * it is a lower bound this is 0, and A* answers. (search.c) */
int astar_jps_supported(const AstarGrid *grid, AstarDiagonal diagonal);

/* Jump tables (jumps.c, issue 22). Call before a query (after
 * astar_grid_prepare, not concurrently with searches of the grid): when the
 * query would run jump point search to one goal cell (no goal list, near,
 * rule, size, moves or links; THETA off), the grid builds its jump tables
 * the first time, O(cells) once, about 2 bytes a cell, and from then on
 * applies the astar_grid_set_walkable calls made since (each costs the runs
 * of the rows and columns through its cell that lead to it; past cells /
 * 256 changes, one rebuild). Jump point search then reads where its diagonal
 * (4 directions: vertical) jumps stop from them instead of scanning from
 * every cell on the way; answers are the same with or without them, and a
 * search never writes them (a query with its own walls, or run before the
 * changes are applied, scans as before). The grid owns them (freed with it,
 * counted by astar_grid_memory). On ENOMEM the grid keeps none. */
void astar_grid_prepare_jumps(AstarGrid *grid, const AstarOptions *options);

/* ---- connected components (components.c) ------------------------------ */

/* A grid can keep connected-component labels so that a query whose goal lies
 * in another region than the start is answered without a search. Opening a
 * wall merges labels at once; closing one only marks them stale: stale labels
 * still never separate cells that are connected, so answers stay exact, but a
 * split is only seen after a rebuild. Searches read the labels, never write
 * them (a grid may still be searched by several threads at once). Labels
 * serve NEVER, ONE_OBSTACLE and NO_OBSTACLES (which all connect exactly the
 * 4-connected regions); ALWAYS searches. */

/* Builds or rebuilds the labels: O(cells); ASTAR_ENOMEM leaves none. */
AstarError astar_grid_label_components(AstarGrid *grid);
/* Call before a query (not concurrently with searches): labels the grid the
 * first time, O(cells) once, and does nothing after that. Without it the
 * answers are the same, only unreachable goals cost a search. It also makes
 * the lowest cost exact (astar_grid_refresh_min_cost). */
void astar_grid_prepare(AstarGrid *grid);
/* On a square grid with costs: builds what lets AUTO run jump point search
 * there (terrain.c: O(cells) once, kept current by set_walkable and
 * set_cost in O(1) a change; the grid owns it). Call before queries, not
 * concurrently with searches. Without it, or on ASTAR_ENOMEM, A* answers
 * them, with the same costs. */
AstarError astar_grid_terrain(AstarGrid *grid);
/* Nonzero when labels exist and no wall was added since they were built. */
int astar_grid_components_fresh(const AstarGrid *grid);
/* Call after a query that ended in ASTAR_NO_PATH after searching: rebuilds
 * stale labels once failed searches since the last rebuild have done about
 * cells / 16 expansions' worth of work (a jump point counts as a scanned
 * line), so relabelling costs about what it saves. */
void astar_grid_note_no_path(AstarGrid *grid, const AstarSearch *search);

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

/* ---- movement ranges and attack areas (range.c, tactics layer) --------- */

/* A bounded 4- or 8-direction Dijkstra from one cell: every cell whose cheapest
 * path costs <= budget, with its cost and parent. Per-query rules override
 * the grid (units, terrain for one kind of unit). The scratch is reused by
 * every query, so a warm AstarRange allocates nothing. */
typedef struct AstarRange AstarRange;

#define ASTAR_RANGE_NO_STOP 1u      /* may be crossed, not ended on (allies) */
#define ASTAR_RANGE_ENDS_MOVE 2u    /* entering ends the move (zone of control) */

/* Called at most once per cell per query, only for walkable cells other than
 * the start, with the grid's cost of the cell. Returns the cost of entering
 * it for this query (> 0), INFINITY for impassable, or NAN to abort the
 * query; may set ASTAR_RANGE_* bits in *flags (0 on entry). */
typedef AstarCellRule AstarRangeRule;

/* Called for a candidate (from, to) pair of an attack area: 1 when to can be
 * hit from from, 0 when not, -1 to abort. */
typedef int (*AstarSightRule)(void *user, uint32_t fx, uint32_t fy, uint32_t tx,
                              uint32_t ty);

typedef struct {
    uint32_t x, y;
    double cost;        /* cheapest cost from the start */
    uint32_t parent;    /* index of the previous cell in the result; the start's is itself */
    unsigned flags;     /* ASTAR_RANGE_* bits the rule gave (0 for the start) */
} AstarRangeCell;

AstarRange *astar_range_new(void);
void astar_range_free(AstarRange *range);

/* Runs one query from (sx, sy), in range. rule may be NULL (grid costs).
 * Returns ASTAR_ENOMEM if scratch could not grow; *aborted is set nonzero
 * when the rule aborted (the result is then empty). */
AstarError astar_range_run(AstarRange *range, const AstarGrid *grid, uint32_t sx,
                           uint32_t sy, double budget, AstarRangeRule rule, void *user,
                           int *aborted);

/* The same in 8 directions (diagonal other than NEVER, which is
 * astar_range_run): a diagonal step costs SQRT2 times the entered cell's
 * cost, as in searches. For the corner rule a cell is a wall when the grid
 * or the rule (INFINITY) makes it impassable; the rule is asked about a
 * diagonal cell only when the corner rule lets the step through. */
AstarError astar_range_run_diagonal(AstarRange *range, const AstarGrid *grid, uint32_t sx,
                                    uint32_t sy, double budget, AstarDiagonal diagonal,
                                    AstarRangeRule rule, void *user, int *aborted);

/* The result of the last run (cells in order of cost, start first, parents
 * before children) or of the last attack (cells in the order found). */
size_t astar_range_count(const AstarRange *range);
void astar_range_get(const AstarRange *range, size_t i, AstarRangeCell *out);

/* Marks every in-bounds cell whose Manhattan distance from one of the n
 * cells in from[] is in [min_distance, max_distance] and (when sight is not
 * NULL) that sight allows from that cell; each cell once. Results as above
 * (cost = 0, parent = the index in from[] of a cell it is hit from). */
AstarError astar_range_attack(AstarRange *range, const AstarGrid *grid,
                              const AstarRangeCell *from, size_t n,
                              uint32_t min_distance, uint32_t max_distance,
                              AstarSightRule sight, void *user, int *aborted);

/* Smoothing a walk handed in (docs/paths.md): the n cells in xy (0-based
 * x, y pairs, each step a board move or, for CORNERS, a link) are rewritten
 * in place; returns the new count. CORNERS needs only the board's shape:
 * width and hex (0, or 1 + AstarHexLayout). */
size_t astar_path_corners(uint32_t width, unsigned hex, uint32_t *xy, size_t n);
/* Whether "corners" keeps point b of a walk a, b, c (0-based x, y): the
 * direction changes there, or a step is not a board move. For copying a
 * walk out point by point, with no buffer. */
int astar_path_turns(unsigned hex, const uint32_t a[2], const uint32_t b[2], const uint32_t c[2]);
/* CORNERS or SIGHT of a walk over the grid's walls and costs under mode
 * diagonal (a square grid; every cell in it, every step between
 * neighbours): w is scratch for n doubles; *cost the polyline's cost under
 * the segment model (CORNERS: the walk's, step by step). Returns the new
 * count; when step *bad (from point *bad - 1 to point *bad, 0-based) is not
 * a move the mode allows, xy is left as it was. */
size_t astar_path_smooth(const AstarGrid *grid, AstarDiagonal diagonal, AstarSmooth mode,
                         uint32_t *xy, size_t n, double *w, double *cost, size_t *bad);

/* 1 when the segment between the centres of the two cells passes through
 * the inside of no wall cell other than the two ends (grazing a corner is
 * not blocked); symmetric. */
int astar_line_of_sight(const AstarGrid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                        uint32_t y1);

/* Distances of attack areas: |dx| + |dy|, max(|dx|, |dy|), or the
 * Euclidean one (compared squared, exactly: lo^2 <= dx^2 + dy^2 <= hi^2). */
typedef enum {
    ASTAR_METRIC_MANHATTAN,
    ASTAR_METRIC_CHEBYSHEV,
    ASTAR_METRIC_EUCLIDEAN
} AstarMetric;

/* astar_range_attack with another distance (min and max up to 65535 * 2). */
AstarError astar_range_attack_metric(AstarRange *range, const AstarGrid *grid,
                                     const AstarRangeCell *from, size_t n,
                                     uint32_t min_distance, uint32_t max_distance,
                                     AstarMetric metric, AstarSightRule sight, void *user,
                                     int *aborted);

/* Large units (issue 14; AstarOptions.size): a movement range of a unit of
 * size x size cells whose top-left cell is (sx, sy); the result's cells are
 * top-left positions. A position is allowed when its cells are all in the
 * grid, walkable and not impassable by the rule; entering it costs the
 * highest entry cost among the cells it newly covers (SQRT2 times that
 * diagonally); the corner rule applies to the positions beside a diagonal
 * step; the start is not checked. The rule is asked about covered cells (the
 * start's too), at most once per cell per query; a position's
 * ASTAR_RANGE_NO_STOP and ASTAR_RANGE_ENDS_MOVE are those of any cell it
 * covers (a unit may pass over an ally, not stop with any cell on one). Reads the grid's layer for size (built the first
 * time: astar_grid_size_layer). size <= 1 is astar_range_run_diagonal; square
 * grids only (a hex grid runs astar_range_run_hex, size ignored). */
/* The move rule (issue 19) of the next movement query run on range (any of
 * the astar_range_run functions; it is forgotten after it): asked about
 * every move and link the flood relaxes, as AstarOptions.move_rule. */
void astar_range_move_rule(AstarRange *range, AstarMoveRule rule, void *user);
AstarError astar_range_run_large(AstarRange *range, AstarGrid *grid, uint32_t sx, uint32_t sy,
                                 uint32_t size, double budget, AstarDiagonal diagonal,
                                 AstarRangeRule rule, void *user, int *aborted);

/* The attack area of units of size x size cells on the top-left positions
 * from[]: a cell's distance from a position is its distance from the
 * position's nearest covered cell, and sight is asked from that cell. */
AstarError astar_range_attack_large(AstarRange *range, const AstarGrid *grid,
                                    const AstarRangeCell *from, size_t n, uint32_t size,
                                    uint32_t min_distance, uint32_t max_distance,
                                    AstarMetric metric, AstarSightRule sight, void *user,
                                    int *aborted);

size_t astar_range_memory(const AstarRange *range);

/* ---- encoding grids as bytes (encode.c, issue 4) ---------------------- */

/* The per-grid defaults of the Lua binding, carried by an encoded grid so a
 * decoded one behaves the same; the core stores them and nothing more. */
typedef struct {
    AstarDiagonal diagonal;
    AstarHeuristic heuristic;
    int heuristic_chosen;        /* 0: the heuristic follows the diagonal mode */
    double weight;               /* finite, >= 1 */
} AstarGridSettings;

#define ASTAR_ENCODE_VERSION 1

/* Receives the encoding in order, in pieces of at most 4 KB. */
typedef void (*AstarWriter)(void *user, const void *bytes, size_t length);

/* Bytes astar_grid_encode produces (0 if that does not fit in a size_t). */
size_t astar_grid_encoded_size(const AstarGrid *grid);

/* Writes walls, costs (bit for bit) and settings in the format described in
 * encode.c. Allocates nothing, so the writer may longjmp out. */
void astar_grid_encode(const AstarGrid *grid, const AstarGridSettings *settings,
                       AstarWriter write, void *user);

/* Rebuilds a grid from astar_grid_encode's bytes. Malformed input (bad magic,
 * truncated, trailing bytes, checksum, out-of-range fields or sizes) gives
 * ASTAR_EPARSE and a message; never reads outside data[0..length). */
AstarError astar_grid_decode(AstarGrid **out, AstarGridSettings *settings, const void *data,
                             size_t length, char *message, size_t message_size);

/* ---- distance maps (distance.c, issue 13) ------------------------------ */

/* A multi-source Dijkstra map ("Dijkstra map", flow field): for every cell,
 * the cost of the cheapest walk from it to a source (the cells entered on the
 * way, the source included, counted as searches count them: a diagonal step
 * costs SQRT2 times the entered cell's cost) plus that source's value,
 * minimised over the sources. The map's arrays live in memory the caller
 * gives (astar_distance_layout), laid out as the grid's cells, border
 * included (astar_index), so the map outlives the grid: it is a snapshot. */
typedef struct {
    uint32_t x, y;       /* 0-based, in range */
    double value;        /* finite */
} AstarDistanceSource;

#define ASTAR_STEP_END 8u     /* step[]: the walk ends here (a source, a start) */
#define ASTAR_STEP_NONE 15u   /* step[]: not in the map */
#define ASTAR_STEP_MASK 15u
#define ASTAR_STEP_MEMBER 32u /* step[]: in the map (set with a direction or END) */
#define ASTAR_STEP_LINK 9u    /* step[]: the first step is a link, to via[cell] (issue 19) */
#define ASTAR_STEP_START 64u  /* step[]: a start cell (issue 21): closed by the run's rule
                                 (INFINITY), no wall, not in the map, in a map of one-cell
                                 units; with a direction or a link its walk starts there
                                 (dist: the best over its moves into the map of value plus
                                 step price), with ASTAR_STEP_NONE it has none */

struct AstarMoves;            /* a grid's move overrides and links (moves.h) */

typedef struct {
    uint32_t width, height, stride;   /* stride = width + 2 */
    size_t cells;                     /* stride * (height + 2) */
    AstarDiagonal diagonal;
    double *dist;        /* the value; INFINITY outside the map */
    double *cost;        /* entry cost: INFINITY can't be entered (border, wall, rule); NAN not asked */
    uint32_t *origin;    /* the start entry the walk from the cell ends at (0-based) */
    uint8_t *step;       /* direction of the first step (0-7: E W S N SE SW NE NW) | flags */
    size_t reached;      /* cells in the map */
    unsigned hex;        /* 0: square; 1 + AstarHexLayout: a hex board's map (astar_hex.h;
                            set after astar_distance_layout; diagonal is then NEVER) */
    uint32_t size;       /* large units (issue 14): the map is over the top-left cells of
                            size x size units; 1 (astar_distance_layout's) is one cell.
                            Set after astar_distance_layout; square maps only. A position
                            is in the map when its cells all can be entered; a step
                            from p to q costs the highest entry cost among the cells q
                            covers and p does not (SQRT2 times that for a diagonal),
                            the corner rule applying to whole positions. */
    /* Moves and links (issue 19): the snapshot of the grid's overrides and
     * links the map follows (astar_distance_moves_copy; NULL: none, the
     * board's moves alone), and with links, per bordered cell whose step is
     * ASTAR_STEP_LINK the link's target (bordered index): memory the caller
     * gives (astar_distance_via_bytes), set after astar_distance_layout
     * (which sets both NULL). A run, a rescan and a descent all follow the
     * snapshot, never the grid's moves: a map made with moves keeps them. */
    const struct AstarMoves *moves;
    uint32_t *via;
    /* What a run may keep from the last one (issue 24): the arrays hold a
     * cleared map of `synced` as it was at version synced_version (costs
     * from the grid, or NAN to ask with synced_rule bit 1 set; bit 2: the
     * run followed moves or a move rule)
     * everywhere but in the rectangle box (bordered x0, y0, x1, y1,
     * inclusive), the cells the last run wrote. A run on the same grid then
     * clears the box and the cells the grid's change log names, not every
     * cell. NULL: the next run clears all (astar_distance_layout, _clear,
     * _forget). */
    const AstarGrid *synced;
    uint64_t synced_version;
    int synced_rule;
    uint32_t box[4];
    /* 1 after a plain run (no rule, moves or move rule; one-cell units):
     * cost holds the grid's entry cost in every cell, as the run found
     * them, where a run with rules records only the cells its flood looked
     * at (NAN for the others). Encoding and derived maps see the recorded
     * costs either way: the cells looked at (members, their neighbours,
     * sources, start cells) follow from the steps. */
    int grid_costs;
} AstarDistanceMap;

/* Bytes of the arrays of a width x height map (0 if that overflows). */
size_t astar_distance_bytes(uint32_t width, uint32_t height);
/* Points m's arrays into memory (astar_distance_bytes of it, 8-aligned) and
 * empties the map. */
void astar_distance_layout(AstarDistanceMap *m, void *memory, uint32_t width, uint32_t height,
                           AstarDiagonal diagonal);
/* The same layout, the arrays left as they are (memory need not be
 * initialised): for a map run at once (astar_distance_run*, whose first
 * clearing then writes every cell), which spares a pass over the memory.
 * Nothing may read the map before that run succeeds. */
void astar_distance_layout_unfilled(AstarDistanceMap *m, void *memory, uint32_t width,
                                    uint32_t height, AstarDiagonal diagonal);
/* Empties the map, its costs too, keeping its layout, shape and size. */
void astar_distance_clear(AstarDistanceMap *m);
/* Copies from's entry costs into to (a map of the same size) as from
 * recorded them (NAN for the cells its last run did not look at): the
 * costs of a map derived from from (flee, blend). */
void astar_distance_copy_costs(AstarDistanceMap *to, const AstarDistanceMap *from);
/* Forgets which grid m was last run on: the next run clears every cell. A
 * caller that keeps a map across runs calls it when the grid it last ran
 * on may have been freed (another grid could then have its address). */
void astar_distance_forget(AstarDistanceMap *m);
/* Fills m (made for grid's size) from the n sources, in m->diagonal's mode,
 * up to max_cost (cells whose value is above it are left out). Cells that
 * cannot be entered (walls, rule INFINITY) are never in the map; sources on
 * them are ignored. Run again on the grid it last ran on (m->synced), a
 * map bounded by max_cost costs in proportion to the cells it reaches, the
 * last run's and this one's. rule (may be NULL) is asked at most once per walkable
 * cell; NAN aborts (*aborted set, the map is then empty). The heap is the
 * range scratch's (no allocation once warm). Ties: among equally cheap
 * first steps the first in the order E W S N SE SW NE NW; a source keeps
 * itself when reaching another costs the same; two sources on one cell:
 * the lower value, then the first. */
AstarError astar_distance_run(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                               const AstarDistanceSource *sources, size_t n, double max_cost,
                               AstarCellRule rule, void *user, int *aborted);
/* astar_distance_run over moves and links (issue 19): the walks take the
 * board's moves as m->moves overrides them (a move set impossible is never
 * taken, a priced one costs its price instead of the entered cell's cost
 * times the step length; a large unit's move is impossible when any cell
 * its footprint covers has it so) and the links of m->moves (from a cell to
 * the link's target, costing the link's cost, when the walk's cell can be
 * in the map: its footprint fits), and move_rule (may be NULL) is asked
 * about each move a walk may take, in walking direction, with the price
 * the grid gives it: its answer is the move's cost (INFINITY: not taken;
 * NAN: stop, as rule's). Steps by a link are ASTAR_STEP_LINK, the target in
 * m->via. Ties: the board's directions first (E W S N SE SW NE NW), then
 * the links by target cell. astar_distance_run is this without a move
 * rule (it follows m->moves too). */
AstarError astar_distance_run_moves(AstarRange *scratch, const AstarGrid *grid,
                                     AstarDistanceMap *m, const AstarDistanceSource *sources,
                                     size_t n, double max_cost, AstarCellRule rule, void *user,
                                     AstarMoveRule move_rule, void *move_user, int *aborted);
/* astar_distance_run_moves with the sources, max_cost and rules of m's last
 * run (map:update): when that run was on grid, without rules or moves, for
 * one-cell units on a square board, and the grid has changed at most 16
 * cells since (its change log), an exact repair of the cells the changes
 * reach (issue 24: the values, steps and origins a run gives, to the bit);
 * else a run. */
AstarError astar_distance_update(AstarRange *scratch, const AstarGrid *grid, AstarDistanceMap *m,
                                 const AstarDistanceSource *sources, size_t n, double max_cost,
                                 AstarCellRule rule, void *user, AstarMoveRule move_rule,
                                 void *move_user, int *aborted);
/* A map built a slice at a time (distance_slice.c, issue 24): the pending
 * build's second arrays and open list, in memory the caller gives
 * (astar_distance_slice_bytes of it, 8-aligned), laid out as map `like`
 * (its size, diagonal mode, board and unit size); astar_distance_slice_free
 * frees the open list. A build: _begin on a grid (replacing any pending
 * one), then _run with the sources, max_cost and rule (the same every call)
 * for at most `cells` settled cells a call, until it answers 1; then
 * _finish swaps the values into m. A grid whose version changed between
 * two runs is seeded again (the build starts over on the grid as it is).
 * Moves, links and move rules are not followed: a caller builds those
 * maps whole. The rule's NAN stops the run (*aborted; the build then
 * starts over on the next run), as does *e. */
typedef struct AstarDistanceSlice AstarDistanceSlice;
size_t astar_distance_slice_bytes(uint32_t width, uint32_t height);
AstarDistanceSlice *astar_distance_slice_init(void *memory, const AstarDistanceMap *like);
void astar_distance_slice_free(AstarDistanceSlice *s);
size_t astar_distance_slice_memory(const AstarDistanceSlice *s);
int astar_distance_slice_pending(const AstarDistanceSlice *s);
void astar_distance_slice_begin(AstarDistanceSlice *s, const AstarGrid *grid);
void astar_distance_slice_cancel(AstarDistanceSlice *s);
int astar_distance_slice_run(AstarDistanceSlice *s, const AstarDistanceSource *sources,
                             size_t n, double max_cost, AstarCellRule rule, void *user,
                             size_t cells, int *aborted, AstarError *e);
void astar_distance_slice_finish(AstarDistanceSlice *s, AstarDistanceMap *m);
/* Bytes of a snapshot of grid's overrides and links (0: it has none). */
size_t astar_distance_moves_bytes(const AstarGrid *grid);
/* Copies grid's overrides and links into memory (astar_distance_moves_bytes
 * of it, 8-aligned): the snapshot, for m->moves. */
const struct AstarMoves *astar_distance_moves_copy(const AstarGrid *grid, void *memory);
/* Does the snapshot hold links (the map then needs m->via)? */
int astar_distance_moves_linked(const struct AstarMoves *moves);
/* Bytes of m->via: a uint32_t per bordered cell. */
size_t astar_distance_via_bytes(const AstarDistanceMap *m);
/* Rescans m in place: the values of its cells are taken as starting values
 * and replaced by min over cells u of the map (start(u) + cost of the
 * cheapest walk from the cell to u through cells of the map), the entry
 * costs, diagonal mode and moves (m->moves: overrides, links) being m's (a
 * move rule is not asked again). origin becomes the cell number
 * y * width + x of u. */
AstarError astar_distance_rescan(AstarRange *scratch, AstarDistanceMap *m);
/* Recomputes the steps of m from its values without a search (a blend that
 * is not rescanned): step(v) is the first neighbour u (in the order above,
 * the corner rule applied; then the targets of m->moves' links leaving v,
 * by target cell) minimising dist(u) + step cost (the move's price after
 * m->moves' overrides; a move set impossible is skipped), when that is
 * lower than dist(v); otherwise the walk ends at v. */
void astar_distance_descend(AstarDistanceMap *m);
/* 1 and the neighbour's (or the link target's) 0-based coordinates when
 * the map holds a step from (x, y) (a cell of the map or a start cell); 0
 * at the end of a walk or outside the map. */
int astar_distance_next(const AstarDistanceMap *m, uint32_t x, uint32_t y, uint32_t *nx,
                        uint32_t *ny);

/* A walk down the map under the walker's own limits (issue 21: pathFrom's
 * maxCost, near and blocked). closed (may be NULL) says which cells the
 * walk may not enter now (0-based; nonzero: closed); it must not change
 * the map. */
typedef struct {
    double max_cost;             /* the walk's budget; INFINITY: none */
    int has_near;                /* stop within `near` of a source */
    uint32_t near;
    const AstarDistanceSource *sources;   /* for near */
    size_t nsources;
    int (*closed)(void *user, uint32_t x, uint32_t y);
    void *user;
} AstarDistanceWalk;

/* The walk's next cell from (x, y) (0-based, a cell of the map or a start
 * cell) after `spent` so far: the map's step when the cells it enters are
 * open, else the first move (in nextStep's order) to a cell of the map of
 * lower value whose entered cells are open, minimising value + price. Moves
 * are priced by the map's entry costs and moves (board_step, overrides,
 * links' costs); for a map of large units a step enters the cells it newly
 * covers. Returns 1 with *nx, *ny and the step's *price; 0 when the walk
 * ends at (x, y): within w->near of a source, no open step, or spent + the
 * price above w->max_cost. */
int astar_distance_walk_next(const AstarDistanceMap *m, const AstarDistanceWalk *w, uint32_t x,
                             uint32_t y, double spent, uint32_t *nx, uint32_t *ny,
                             double *price);

/* Encoding a map as bytes (distance.c; format in distance.c): flags bit 0 =
 * made by flee or blend, bit 1 = made with rules (kept by the binding). */
typedef struct {
    uint32_t width, height;
    size_t nsources;
    AstarDiagonal diagonal;
    unsigned flags;
    double max_cost;
    unsigned hex;        /* decoded: 0 square, 1 + AstarHexLayout (flag ASTAR_DISTANCE_HEX) */
    uint32_t size;       /* decoded: the unit size (1: one cell; flag ASTAR_DISTANCE_SIZED when > 1) */
} AstarDistanceHeader;

#define ASTAR_DISTANCE_DERIVED 1u
#define ASTAR_DISTANCE_RULES 2u
#define ASTAR_DISTANCE_HEX 4u      /* a hex map: the layout in the diagonal byte */
#define ASTAR_DISTANCE_SIZED 8u    /* a map of large units: the size after the header */
#define ASTAR_DISTANCE_MOVES 16u   /* the map keeps overrides or links (issue 19) */

/* The most bytes the encoding takes, room to write it in (0 if that does
 * not fit in a size_t). */
size_t astar_distance_encoded_size(const AstarDistanceMap *m, size_t nsources);
/* Writes the encoding to out (astar_distance_encoded_size bytes of room);
 * returns its length. */
size_t astar_distance_encode(const AstarDistanceMap *m, const AstarDistanceHeader *header,
                             const AstarDistanceSource *sources, unsigned char *out);
/* Reads and checks the header and the length: ASTAR_EPARSE and a message
 * when the bytes are no map (nothing else is read). */
AstarError astar_distance_decode_header(const void *data, size_t length,
                                        AstarDistanceHeader *header, char *message,
                                        size_t message_size);
/* With flag ASTAR_DISTANCE_MOVES: the bytes of the snapshot the map keeps
 * (*bytes; 0 without the flag) and whether it holds links (*linked: m->via
 * is then needed), reading the section's counts (ASTAR_EPARSE and a message
 * when they do not fit the length). */
AstarError astar_distance_decode_moves(const void *data, size_t length,
                                       const AstarDistanceHeader *header, size_t *bytes,
                                       int *linked, char *message, size_t message_size);
/* Then fills m (laid out for the header's size; m->via set when *linked)
 * and sources (nsources), checking every field; with flag
 * ASTAR_DISTANCE_MOVES the snapshot is built in moves_memory (the bytes
 * above) and m->moves points to it. ASTAR_EPARSE and a message on bad
 * input. */
AstarError astar_distance_decode(const void *data, size_t length, AstarDistanceMap *m,
                                 AstarDistanceSource *sources, void *moves_memory,
                                 char *message, size_t message_size);

#endif
