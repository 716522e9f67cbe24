/*
 * Cells and lists of points handed to Lua: the path forms of findPath, a stepped
 * search's result, smooth, pathFrom and pathTo, and the cells() lists.
 * A list is {{x =, y = [, cost =]}, ...}, or with flat {x1, y1, x2, y2, ...};
 * new, or written into a caller's table (opts.into), whose point tables are
 * reused.
 *
 * Opening a list and making a point table may run the collector, so
 * finalizers, which may close or change what the caller reads the points
 * from: point_list_set says when it made one, and the caller checks its
 * source before it reads the next cell (it hands over copies). Raw sets into
 * tables that exist never step the collector: a flat list or reused point
 * tables need no check after the open.
 */
#ifndef ASTAR_POINTS_H
#define ASTAR_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include <lua.h>

typedef struct {
    lua_State *L;
    int list;           /* stack slot of the list */
    int keys;           /* stack slot of "x"; "y" and "cost" follow */
    int flat;
    int into;           /* the list is a caller's table */
    int with_cost;
} PointList;

/* Pushes the list for n points: into (the stack slot of a caller's table)
 * or, into 0, a new table of exactly that size; with with_cost the point
 * tables get room for a cost field too. */
void point_list_open(lua_State *L, PointList *pl, size_t n, int flat, int into, int with_cost);
/* Point k (1-based) is (x, y), as Lua sees them (1-based): a new point table,
 * or the one a caller's table holds at k (its other fields are kept).
 * Returns 1 when it made a table (the collector may have run). */
int point_list_set(const PointList *pl, size_t k, lua_Integer x, lua_Integer y);
/* Points k, k - 1, ... (count of them) of a flat list, from 0-based (x, y)
 * pairs: xy[0], xy[1] is point k. Never allocates. */
void point_list_set_flat(const PointList *pl, size_t k, const uint32_t *xy, size_t count);
/* The same with a cost field (not for a flat list). */
int point_list_set_cost(const PointList *pl, size_t k, lua_Integer x, lua_Integer y,
                        lua_Number cost);
/* A cell as Lua sees it: pushes 0-based (x, y) as two 1-based integers;
 * returns 2, the count a method returning them gives back. */
static inline int push_cell(lua_State *L, uint32_t x, uint32_t y)
{
    lua_pushinteger(L, (lua_Integer)x + 1);
    lua_pushinteger(L, (lua_Integer)y + 1);
    return 2;
}

/* Ends a list of n points: a caller's table loses its entries past them.
 * Leaves the list on top of the stack. */
void point_list_close(const PointList *pl, size_t n);

#endif
