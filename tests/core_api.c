/*
 * The C core used from C alone, no Lua: the calls a C or C++ game would make,
 * including the ones the Lua binding never needs (versions, memory reports,
 * walking a path by hand). `make valgrind` runs it under memcheck, so every
 * public C function is covered there. Expected values are worked out by hand
 * in the comments, not taken from the library.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

static int failures;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                      \
        }                                                                    \
    } while (0)

static const char MAP[] =
    "....#\n"
    "..#.#\n"
    "..#..\n"
    ".....\n";

int main(void)
{
    char message[128];
    AstarGrid *grid;
    AstarSearch *search;
    AstarRange *range;
    AstarOptions options;
    AstarError error;
    AstarStatus status;
    uint64_t version;
    uint32_t cell, x, y;
    size_t cells = 0;
    int aborted = 0;

    if (astar_grid_from_text(&grid, MAP, strlen(MAP), message, sizeof message) != ASTAR_OK) {
        fprintf(stderr, "core_api: the test map does not load: %s\n", message);
        return 1;
    }
    CHECK(astar_grid_width(grid) == 5 && astar_grid_height(grid) == 4);

    /* Every change bumps the version (a running search uses it to notice). */
    version = astar_grid_version(grid);
    astar_grid_set_walkable(grid, 0, 3, 0);
    CHECK(astar_grid_version(grid) > version);
    astar_grid_set_walkable(grid, 0, 3, 1);
    CHECK(astar_grid_set_cost(grid, 1, 3, 2.5) == ASTAR_OK);
    CHECK(astar_grid_cost(grid, 1, 3) == 2.5);

    /* 4 directions from (0,0) to (4,3): down the left side and along the
     * bottom row, 6 steps of 1 and (1,3) at 2.5, costs 8.5; along the top
     * and down the right, (1,0) (2,0) (3,0) (3,1) (3,2) (4,2) (4,3), costs 7
     * in 8 cells. */
    search = astar_search_new();
    CHECK(search != NULL);
    memset(&options, 0, sizeof options);
    options.diagonal = ASTAR_DIAGONAL_NEVER;
    options.heuristic = ASTAR_HEURISTIC_MANHATTAN;
    options.weight = 1.0;
    astar_grid_prepare(grid);
    status = astar_search_run(search, grid, 0, 0, 4, 3, &options, &error);
    CHECK(error == ASTAR_OK && status == ASTAR_FOUND);
    CHECK(fabs(astar_search_cost(search) - 7.0) < 1e-12);
    CHECK(astar_search_length(search) == 8);

    /* Walk the path back by hand: each step moves to a 4-neighbour. */
    for (cell = astar_search_end(search); cell != astar_search_start(search);) {
        uint32_t prev = astar_search_parent(search, cell);
        long dx = (long)astar_cell_x(search, cell) - (long)astar_cell_x(search, prev);
        long dy = (long)astar_cell_y(search, cell) - (long)astar_cell_y(search, prev);
        CHECK(labs(dx) + labs(dy) == 1);
        cells++;
        cell = prev;
    }
    CHECK(cells + 1 == astar_search_length(search));
    CHECK(astar_cell_x(search, cell) == 0 && astar_cell_y(search, cell) == 0);
    {   /* the cursor walks the same cells with the same coordinates */
        AstarPathCursor at;
        size_t k;
        astar_path_end(search, &at);
        cell = astar_search_end(search);
        for (k = 1; k < astar_search_length(search); k++) {
            CHECK(at.cell == cell && at.x == astar_cell_x(search, cell)
                  && at.y == astar_cell_y(search, cell));
            astar_path_back(search, &at);
            cell = astar_search_parent(search, cell);
        }
        CHECK(at.cell == astar_search_start(search) && at.x == 0 && at.y == 0);
    }
    CHECK(astar_search_expanded(search) > 0);
    CHECK(astar_search_touched(search) >= astar_search_expanded(search));
    for (y = 0, cells = 0; y < 4; y++)
        for (x = 0; x < 5; x++)
            cells += (size_t)astar_search_expanded_cell(search, x, y);
    CHECK(cells == astar_search_expanded(search));
    CHECK(astar_grid_memory(grid) > 0 && astar_search_memory(search) > 0);

    /* A wall goal, and a stepped search of one node at a time. */
    status = astar_search_run(search, grid, 0, 0, 4, 0, &options, &error);
    CHECK(status == ASTAR_GOAL_BLOCKED);
    CHECK(astar_search_begin(search, grid, 0, 0, 4, 3, &options) == ASTAR_OK);
    while ((status = astar_search_step(search, 1, &error)) == ASTAR_SEARCHING)
        ;
    CHECK(status == ASTAR_FOUND && fabs(astar_search_cost(search) - 7.0) < 1e-12);

    /* A movement range of budget 2 from (0,0): (1,0) (0,1) cost 1, (2,0)
     * (1,1) (0,2) cost 2: six cells with the start. */
    range = astar_range_new();
    CHECK(range != NULL);
    CHECK(astar_range_run(range, grid, 0, 0, 2.0, NULL, NULL, &aborted) == ASTAR_OK);
    CHECK(!aborted && astar_range_count(range) == 6);
    CHECK(astar_range_memory(range) > 0);

    astar_range_free(range);
    astar_search_free(search);
    astar_grid_free(grid);

    /* Parse errors name the problem; nothing is allocated. */
    CHECK(astar_grid_from_text(&grid, "..\n.x\n", 6, message, sizeof message) == ASTAR_EPARSE);
    CHECK(grid == NULL && strstr(message, "row 2, column 2") != NULL);

    if (failures) {
        fprintf(stderr, "core_api: %d checks failed\n", failures);
        return 1;
    }
    printf("core_api: all checks passed\n");
    return 0;
}
