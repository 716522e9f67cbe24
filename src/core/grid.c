/* Grid storage: walkability, entry costs, and the lowest cost for the heuristic. */
#include <stdlib.h>
#include <string.h>

#include "grid_layout.h"

AstarError astar_grid_new(AstarGrid **out, uint32_t width, uint32_t height)
{
    AstarGrid *grid;
    uint32_t y;

    *out = NULL;
    if (width < 1 || height < 1 || width > ASTAR_MAX_SIDE || height > ASTAR_MAX_SIDE
        || (uint64_t)width * height > ASTAR_MAX_CELLS)
        return ASTAR_ETOOBIG;

    grid = malloc(sizeof *grid);
    if (!grid)
        return ASTAR_ENOMEM;
    grid->width = width;
    grid->height = height;
    grid->stride = width + 2;
    grid->cells = (size_t)grid->stride * (height + 2);
    grid->cost = NULL;
    grid->min_cost = 1.0;
    grid->min_count = (size_t)width * height;
    grid->version = 0;
    grid->open = calloc(grid->cells, 1);
    if (!grid->open) {
        free(grid);
        return ASTAR_ENOMEM;
    }
    for (y = 0; y < height; y++)
        memset(grid->open + astar_index(grid, 0, y), 1, width);
    *out = grid;
    return ASTAR_OK;
}

void astar_grid_free(AstarGrid *grid)
{
    if (!grid)
        return;
    free(grid->open);
    free(grid->cost);
    free(grid);
}

uint32_t astar_grid_width(const AstarGrid *grid) { return grid->width; }
uint32_t astar_grid_height(const AstarGrid *grid) { return grid->height; }
uint64_t astar_grid_version(const AstarGrid *grid) { return grid->version; }

int astar_grid_walkable(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    return grid->open[astar_index(grid, x, y)];
}

void astar_grid_set_walkable(AstarGrid *grid, uint32_t x, uint32_t y, int walkable)
{
    grid->open[astar_index(grid, x, y)] = walkable ? 1 : 0;
    grid->version++;
}

double astar_grid_cost(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    return grid->cost ? grid->cost[astar_index(grid, x, y)] : 1.0;
}

/* Recounts the lowest cost after its last holder was raised. This is O(cells),
 * but only happens when the cheapest terrain disappears entirely. */
static void recount_min_cost(AstarGrid *grid)
{
    uint32_t x, y;
    double lowest = ASTAR_MAX_COST;
    size_t count = 0;

    for (y = 0; y < grid->height; y++) {
        const double *row = grid->cost + astar_index(grid, 0, y);
        for (x = 0; x < grid->width; x++) {
            if (row[x] < lowest) {
                lowest = row[x];
                count = 1;
            } else if (row[x] == lowest) {
                count++;
            }
        }
    }
    grid->min_cost = lowest;
    grid->min_count = count;
}

AstarError astar_grid_set_cost(AstarGrid *grid, uint32_t x, uint32_t y, double cost)
{
    size_t i = astar_index(grid, x, y);
    double old;

    if (!grid->cost) {
        size_t k;
        if (cost == 1.0)
            return ASTAR_OK;
        grid->cost = malloc(grid->cells * sizeof *grid->cost);
        if (!grid->cost)
            return ASTAR_ENOMEM;
        for (k = 0; k < grid->cells; k++)
            grid->cost[k] = 1.0;
    }
    old = grid->cost[i];
    grid->cost[i] = cost;
    grid->version++;
    if (cost == old)
        return ASTAR_OK;
    if (cost < grid->min_cost) {
        grid->min_cost = cost;
        grid->min_count = 1;
    } else if (cost == grid->min_cost) {
        grid->min_count++;
    }
    if (old == grid->min_cost && --grid->min_count == 0)
        recount_min_cost(grid);
    return ASTAR_OK;
}

size_t astar_grid_memory(const AstarGrid *grid)
{
    return sizeof *grid + grid->cells * (sizeof *grid->open
                                         + (grid->cost ? sizeof *grid->cost : 0));
}
