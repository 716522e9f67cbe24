/*
 * Distance maps (issue 13; README, Distance maps): grid:distanceMap,
 * astar.blend, and the astar.DistanceMap methods, on the core's distance.c.
 *
 * A map is one userdata block: a header, the sources, then the core's arrays
 * (astar_distance_bytes), so its memory is the userdata's and nothing needs
 * freeing. The flood's open list is range scratch, lent by the grid as
 * movementRange's is (lua_grid.h): callbacks (function rules) run under
 * lua_pcall; after each one the query stops if the grid was closed and
 * starts again (MAX_RESTARTS times) if it changed. While a map is being
 * filled (distanceMap, update) its methods raise, so a callback never reads
 * half a map. The rules are kept in the map's uservalue for update.
 *
 * Moves and links (issue 19): a map made on a grid with move overrides or
 * links keeps a snapshot of them (the core's flat copy, astar_distance_
 * moves_copy) in a second userdata, and with links the targets of its link
 * steps in a third; both sit in the map's uservalue table (UV_*), which
 * keeps them alive, and the map's core struct points into them. The pointers
 * and the table's slots change together, with no Lua code between, so
 * whatever runs meanwhile (a finalizer, a callback) finds them agreeing. A
 * snapshot never changes once made: maps derived by flee and blend share
 * their source's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "lua_hex.h"
#include "points.h"
#include "query_options.h"

#define MAP_TYPE "astar.DistanceMap"
#define SLICE_TYPE "astar.DistanceSlice"
#define SLICE_CHUNK 256       /* settled cells between two looks at the clock */
#define MAX_RESTARTS 3

/* The slots of a map's uservalue table. */
#define UV_BLOCKED 1      /* the rules, for update */
#define UV_COST 2
#define UV_MOVE 3
#define UV_MOVES 4        /* the userdata holding the snapshot m.moves points to */
#define UV_VIA 5          /* the userdata m.via points to (link steps' targets) */
#define UV_GRID 6         /* the grid of the last fill: setSources' (issue 24) */
#define UV_SOURCES 7      /* the userdata h->grown points to */
#define UV_SLICE 8        /* the pending build's userdata, h->slice (made once) */
#define UV_NEXT_GRID 9    /* the pending build's grid */
#define UV_NEXT_SOURCES 10   /* the userdata h->next_list points to */
#define UV_SLOTS 10

#if LUA_VERSION_NUM >= 502
#define set_rules_ref lua_setuservalue
#define get_rules_ref lua_getuservalue
#else
#define set_rules_ref lua_setfenv
#define get_rules_ref lua_getfenv
#endif

typedef struct {
    AstarDistanceMap m;
    size_t nsources;           /* stored after the header, or in grown */
    size_t room;               /* the sources the header's space holds */
    AstarDistanceSource *grown;   /* setSources' list when it outgrew that (UV_SOURCES) */
    size_t grown_room;
    const void *grid_of;       /* the LuaGrid of the last fill (held in UV_GRID): the
                                * core's m.synced is its cells */
    double max_cost;
    int derived;               /* made by flee or blend: no sources, no update */
    int busy;                  /* being filled: every method raises */
    unsigned fills;            /* counts fills: a copy out of the map that sees it
                                * move (a finalizer's update) starts again */
    int points[2];             /* blocked, cost were lists of points */
    int ruled;                 /* made with rules */
    int rules_lost;            /* decoded from a map made with rules: no update */
    int table;                 /* has its uservalue table (UV_*) */
    /* A build a slice at a time (issue 24): its arrays and open list (UV_SLICE),
     * its grid (UV_NEXT_GRID), and with setSources its sources (next_new:
     * next_list, held in UV_NEXT_SOURCES; else the map's) */
    AstarDistanceSlice *slice;
    LuaGrid *next_grid;
    AstarDistanceSource *next_list;
    size_t next_room, next_n;
    int next_new;
} MapHeader;

#define SOURCES_OFFSET ((sizeof(MapHeader) + 15) / 16 * 16)

static AstarDistanceSource *map_sources(MapHeader *h)
{
    return h->grown ? h->grown : (AstarDistanceSource *)(void *)((char *)h + SOURCES_OFFSET);
}


/* ---- the userdata ---------------------------------------------------------- */

static void set_map_metatable(lua_State *L);

/* Pushes a new empty map of width x height with room for n sources; with
 * `to_run`, its arrays not yet cleared: the caller runs it before anything
 * can read it (the run's first clearing writes every cell). */
static MapHeader *push_map(lua_State *L, uint32_t width, uint32_t height,
                           AstarDiagonal diagonal, size_t n, int to_run)
{
    size_t bytes = astar_distance_bytes(width, height);
    MapHeader *h;

    if (!bytes || n > ((size_t)-1 - bytes - SOURCES_OFFSET) / sizeof(AstarDistanceSource))
        raise_error(L, "not enough memory");
    h = (MapHeader *)lua_newuserdata(L, SOURCES_OFFSET + n * sizeof(AstarDistanceSource) + bytes);
    memset(h, 0, sizeof *h);
    h->nsources = h->room = n;
    h->max_cost = INFINITY;
    (to_run ? astar_distance_layout_unfilled : astar_distance_layout)(&h->m, map_sources(h) + n,
                                                                      width, height, diagonal);
    set_map_metatable(L);
    return h;
}

/* Pushes the uservalue table of the map at stack index map, making it the
 * first time. Making it allocates: a finalizer may have made it meanwhile
 * (the one kept, whatever it holds, is the first set). */
static void push_map_table(lua_State *L, int map)
{
    MapHeader *h = (MapHeader *)lua_touserdata(L, map);

    if (!h->table) {
        lua_createtable(L, UV_SLOTS, 0);   /* slots 1..UV_SLOTS: setting them allocates nothing */
        if (!h->table) {
            lua_pushvalue(L, -1);
            set_rules_ref(L, map);
            h->table = 1;
            return;
        }
        lua_pop(L, 1);
    }
    get_rules_ref(L, map);
}

/* Sets the map's moves: the snapshot (the userdata at stack index snap, 0
 * for none) and the link steps' array (at via, 0 for none), in its table
 * (at stack index t; it may be 0 when both are 0 and the map has none).
 * Allocates nothing. */
static void set_map_moves(lua_State *L, MapHeader *h, int t, int snap,
                          const struct AstarMoves *moves, int via)
{
    int k;
    if (t) {
        for (k = 0; k < 2; k++) {
            int slot = k ? via : snap;
            if (slot)
                lua_pushvalue(L, slot);
            else
                lua_pushnil(L);
            lua_rawseti(L, t, k ? UV_VIA : UV_MOVES);
        }
    }
    h->m.moves = snap ? moves : NULL;
    h->m.via = via ? (uint32_t *)lua_touserdata(L, via) : NULL;
}

static MapHeader *check_self(lua_State *L, const char *fname)
{
    MapHeader *h = (MapHeader *)compat_testudata(L, 1, MAP_TYPE);
    if (!h)
        raise_error(L, "calling '%s' on bad self (" MAP_TYPE " expected, got %s)", fname,
                    luaL_typename(L, 1));
    if (h->busy)
        raise_error(L, "calling '%s' on a distance map that is being computed", fname);
    return h;
}

/* The bordered index of (x, y) (method arguments 1 and 2), or 0 when it is
 * not a cell of the map: numbers outside the grid or not whole are absent. */
static size_t find_cell(lua_State *L, const MapHeader *h, const char *fname)
{
    double x = check_number(L, method_arg(fname, 1), NULL) - 1;
    double y = check_number(L, method_arg(fname, 2), NULL) - 1;
    size_t i;

    if (!(x >= 0 && x < h->m.width && y >= 0 && y < h->m.height) || x != floor(x)
        || y != floor(y))
        return 0;
    i = ((size_t)y + 1) * h->m.stride + (size_t)x + 1;
    if (h->m.step[i] & ASTAR_STEP_MEMBER)
        return i;
    /* a start cell (closed by the rules) with a step into the map */
    return (h->m.step[i] & ASTAR_STEP_START) && h->m.dist[i] < INFINITY ? i : 0;
}

static uint32_t cell_x(const MapHeader *h, size_t i) { return (uint32_t)(i % h->m.stride); }
static uint32_t cell_y(const MapHeader *h, size_t i) { return (uint32_t)(i / h->m.stride); }

static int map_get(lua_State *L)
{
    MapHeader *h = check_self(L, "get");
    size_t i = find_cell(L, h, "get");
    if (i)
        lua_pushnumber(L, (lua_Number)h->m.dist[i]);
    else
        lua_pushnil(L);
    return 1;
}

static int map_next_step(lua_State *L)
{
    MapHeader *h = check_self(L, "nextStep");
    size_t i = find_cell(L, h, "nextStep");
    uint32_t nx, ny;

    if (!i || !astar_distance_next(&h->m, cell_x(h, i) - 1, cell_y(h, i) - 1, &nx, &ny)) {
        lua_pushnil(L);
        return 1;
    }
    return push_cell(L, nx, ny);
}

static int map_nearest(lua_State *L)
{
    MapHeader *h = check_self(L, "nearest");
    size_t i = find_cell(L, h, "nearest");
    if (i && !h->derived)
        lua_pushinteger(L, (lua_Integer)h->m.origin[i] + 1);
    else
        lua_pushnil(L);
    return 1;
}

static int map_size(lua_State *L)
{
    MapHeader *h = check_self(L, "size");
    lua_pushinteger(L, (lua_Integer)h->m.reached);
    return 1;
}

static int map_get_dimensions(lua_State *L)
{
    MapHeader *h = check_self(L, "getDimensions");
    lua_pushinteger(L, (lua_Integer)h->m.width);
    lua_pushinteger(L, (lua_Integer)h->m.height);
    return 2;
}

/* After a copy out of map h that began when it had made `fills` fills has
 * allocated (which may have run a finalizer that updated the map): 0 when
 * the map is as it was, else 1 to start the copy again, or an error after
 * MAX_RESTARTS restarts. */
static int map_moved(lua_State *L, const MapHeader *h, unsigned fills, int *restarts,
                     const char *fname)
{
    if (h->fills == fills)
        return 0;
    if (++*restarts > MAX_RESTARTS)
        raise_error(L, "distance map changed during %s", fname);
    return 1;
}

/* pathFrom's walk (issue 21): the options that limit it, and the table
 * of opts.blocked (by cell number) it reads raw, so no Lua code runs. */
typedef struct {
    AstarDistanceWalk w;
    lua_State *L;
    int blocked;               /* stack slot of the table; 0: none */
    uint32_t width;
} MapWalk;

static int walk_closed(void *user, uint32_t x, uint32_t y)
{
    MapWalk *mw = (MapWalk *)user;
    int on;
    lua_rawgeti(mw->L, mw->blocked, (int)((lua_Integer)y * mw->width + x + 1));
    on = lua_toboolean(mw->L, -1);
    lua_pop(mw->L, 1);
    return on;
}

/* The next cell of the walk from 0-based (*x, *y), moved there, the walk's
 * cost in *spent: 0 at its end. Without limits it is nextStep. */
static int walk_next(const MapHeader *h, const MapWalk *mw, uint32_t *x, uint32_t *y,
                     double *spent)
{
    uint32_t nx, ny;
    double price;

    if (!mw)
        return astar_distance_next(&h->m, *x, *y, x, y);
    if (!astar_distance_walk_next(&h->m, &mw->w, *x, *y, *spent, &nx, &ny, &price))
        return 0;
    *x = nx;
    *y = ny;
    *spent += price;
    return 1;
}

/* The number of cells of the walk from bordered cell i, and its cost. A
 * walk goes downhill, so it is at most every cell of the map and the start;
 * the bound also stops a decoded map's loop. */
static size_t walk_length(const MapHeader *h, const MapWalk *mw, size_t i, double *spent)
{
    uint32_t x = cell_x(h, i) - 1, y = cell_y(h, i) - 1;
    size_t len = 1;

    *spent = 0;
    while (len <= h->m.reached && walk_next(h, mw, &x, &y, spent))
        len++;
    return len;
}

/* The points pathFrom returns of the walk of len cells from bordered cell
 * i: all of them, or with corners those "corners" keeps (docs/paths.md).
 * Counts them (pl NULL) or writes them into pl; stops early when the map
 * moves (the caller then starts again). */
static size_t walk_points(const PointList *pl, const MapHeader *h, const MapWalk *mw, size_t i,
                          size_t len, int corners)
{
    uint32_t p[3][2];          /* the walk's last three points, the newest last */
    unsigned fills = h->fills;
    double spent = 0;
    size_t k, kept = 0;

    p[2][0] = cell_x(h, i) - 1;
    p[2][1] = cell_y(h, i) - 1;
    for (k = 1; k <= len; k++) {
        if (k > 1) {
            memcpy(p[0], p[1], sizeof p[0]);
            memcpy(p[1], p[2], sizeof p[1]);
            walk_next(h, mw, &p[2][0], &p[2][1], &spent);
        }
        /* the point before the newest is kept once the newest says it turns */
        if (corners && k > 2 && astar_path_turns(h->m.hex, p[0], p[1], p[2])) {
            if (pl)
                point_list_set(pl, kept + 1, p[1][0] + 1, p[1][1] + 1);
            kept++;
        }
        if (!corners || k == 1 || k == len) {
            if (pl)
                point_list_set(pl, kept + 1, p[2][0] + 1, p[2][1] + 1);
            kept++;
        }
        if (pl && h->fills != fills)
            break;
    }
    return kept;
}

/* The map's shape as the options reader takes it, a grid's shape alone
 * (query_options.h): width, height and hex, the grid closed. */
static void map_shape(const MapHeader *h, LuaGrid *shape)
{
    memset(shape, 0, sizeof *shape);
    shape->width = h->m.width;
    shape->height = h->m.height;
    shape->hex = h->m.hex;
    shape->closed = 1;
}

/* pathFrom's options: flat, into, and the walk's limits maxCost, near and
 * blocked, read by the queries' reader on the map's shape. *limited: some
 * limit was given (mw is then filled; opts.blocked's table in a slot). */
static void read_walk_options(lua_State *L, MapHeader *h, int *flat, int *into, int *corners,
                              MapWalk *mw, int *limited)
{
    Arg a = method_arg("pathFrom", 3);
    LuaGrid shape;
    QueryOptions o;
    QueryRules rule;

    map_shape(h, &shape);
    memset(&o, 0, sizeof o);
    o.max_cost = INFINITY;
    query_rules_init(L, &rule, "pathFrom", 3);
    read_query_options(L, a, OPTS_WALK, &shape, &o, &rule);
    if (o.given & OPT(OPT_NEAR) && h->derived)
        arg_error(L, 3, "pathFrom", NULL, "opts.near: a map made by flee or blend has no sources");
    if (rule.index[QR_BLOCKED] > 0 && lua_type(L, rule.index[QR_BLOCKED]) != LUA_TTABLE)
        arg_error(L, 3, "pathFrom", NULL,
                  "opts.blocked: a list of points or a table by cell number expected, got %s",
                  luaL_typename(L, rule.index[QR_BLOCKED]));
    *flat = o.flat;
    *into = o.into;
    *corners = o.smooth == ASTAR_SMOOTH_CORNERS;
    *limited = (o.given & (OPT(OPT_MAXCOST) | OPT(OPT_NEAR) | OPT(OPT_BLOCKED))) != 0;
    memset(mw, 0, sizeof *mw);
    mw->w.max_cost = o.max_cost;
    mw->w.has_near = (o.given & OPT(OPT_NEAR)) != 0;
    mw->w.near = o.near;
    mw->L = L;
    mw->width = h->m.width;
    mw->blocked = rule.index[QR_BLOCKED] > 0 ? rule.index[QR_BLOCKED] : 0;
    if (mw->blocked) {
        mw->w.closed = walk_closed;
        mw->w.user = mw;
    }
}

/* pathFrom(x, y [, opts]) -> path, cost: the walk of nextStep down to the
 * end, (x, y) first, and the start's value; nil where the map has no value.
 * With a limit (maxCost, near, blocked) the walk astar_distance_walk_next
 * takes, and its cost. */
static int map_path_from(lua_State *L)
{
    MapHeader *h = check_self(L, "pathFrom");
    int flat, into, corners, base, restarts = 0, limited;
    MapWalk mw;
    PointList pl;

    find_cell(L, h, "pathFrom");       /* x and y are checked before the options */
    lua_settop(L, 4);
    read_walk_options(L, h, &flat, &into, &corners, &mw, &limited);
    base = lua_gettop(L);
    for (;;) {
        unsigned fills;
        size_t i, len, n;
        double cost, spent;

        lua_settop(L, base);
        h = check_self(L, "pathFrom");   /* reading may have run finalizers */
        fills = h->fills;
        i = find_cell(L, h, "pathFrom");
        if (!i) {
            lua_pushnil(L);
            return 1;
        }
        mw.w.sources = map_sources(h);
        mw.w.nsources = h->nsources;
        cost = h->m.dist[i];
        len = walk_length(h, limited ? &mw : NULL, i, &spent);
        if (limited)
            cost = spent;
        n = corners ? walk_points(NULL, h, limited ? &mw : NULL, i, len, 1) : len;
        point_list_open(L, &pl, n, flat, into, 0);
        if (h->fills == fills)
            walk_points(&pl, h, limited ? &mw : NULL, i, len, corners);
        if (map_moved(L, h, fills, &restarts, "pathFrom"))
            continue;
        point_list_close(&pl, n);
        lua_pushnumber(L, (lua_Number)cost);
        return 2;
    }
}

/* cells([into]) -> {{x =, y =, cost =}, ...}, row by row. */
static int map_cells(lua_State *L)
{
    MapHeader *h = check_self(L, "cells");
    Arg a = method_arg("cells", 1);
    int into = !lua_isnoneornil(L, a.index), restarts = 0;
    PointList pl;

    if (into && !lua_istable(L, a.index))
        type_error(L, a, NULL, "table");
    lua_settop(L, 2);
    for (;;) {
        unsigned fills = h->fills;
        size_t i;
        int k = 0;

        lua_settop(L, 2);
        point_list_open(L, &pl, h->m.reached, 0, into ? a.index : 0, 1);
        /* the bordered cells in index order are the rows in order */
        for (i = 0; i < h->m.cells && h->fills == fills; i++)
            if (h->m.step[i] & ASTAR_STEP_MEMBER)
                point_list_set_cost(&pl, (size_t)++k, cell_x(h, i), cell_y(h, i),
                                    (lua_Number)h->m.dist[i]);
        if (map_moved(L, h, fills, &restarts, "cells"))
            continue;
        point_list_close(&pl, (size_t)k);
        return 1;
    }
}

static int map_tostring(lua_State *L)
{
    MapHeader *h = (MapHeader *)luaL_checkudata(L, 1, MAP_TYPE);
    lua_pushfstring(L, MAP_TYPE " (%d cells of %dx%d)", (int)h->m.reached, (int)h->m.width,
                    (int)h->m.height);
    return 1;
}

/* ---- filling a map: the rules, the lease, restarts ------------------------- */

/* setSources' list, read and checked, to become the map's right before the
 * flood (no Lua code between): list (n of them) on the C stack or in a
 * userdata; buffer, the stack index of a userdata of room sources that the
 * map keeps when its own space is too small (0: none was needed). */
typedef struct {
    const AstarDistanceSource *list;
    size_t n;
    int buffer;
    size_t room;
} NewSources;

/* Makes ns the map's sources (its table at stack index t). Allocates nothing. */
static void install_sources(lua_State *L, MapHeader *h, int t, const NewSources *ns)
{
    if (ns->n > h->room && ns->n > h->grown_room) {
        /* a call from a finalizer only ever grows the space: when it is still
         * too small, it was when the buffer was made */
        lua_pushvalue(L, ns->buffer);
        lua_rawseti(L, t, UV_SOURCES);
        h->grown = (AstarDistanceSource *)lua_touserdata(L, ns->buffer);
        h->grown_room = ns->room;
    }
    if (ns->n)                             /* where map_sources says: room for n */
        memcpy(map_sources(h), ns->list, ns->n * sizeof *ns->list);
    h->nsources = ns->n;
}

/* Runs the flood of h (at stack index map) on g with rules (their slots on
 * the stack) until it completes, as lua_range.c run_query does. Each try
 * first takes a snapshot of the grid's moves and links: the userdata are
 * made (which may run finalizers), then the scratch taken (the same), and
 * only then, the grid checked, are the moves copied and set, right before
 * the flood. */
static void fill(lua_State *L, LuaGrid *g, int grid, MapHeader *h, int map, QueryRules *rule,
                 const NewSources *ns, const char *fname)
{
    int base = lua_gettop(L), restarts = 0, attempt;

    for (attempt = 0;; attempt++) {
        Lease lease;
        AstarError e;
        size_t before, bytes;
        int aborted = 0, t = 0, snap = 0, via = 0, linked;

        lua_settop(L, base);
        if (g->closed)
            raise_error(L, "grid closed during %s", fname);
        bytes = astar_distance_moves_bytes(g->grid);
        linked = astar_grid_link_count(g->grid) > 0;
        push_map_table(L, map);            /* allocates the first time */
        t = lua_gettop(L);
        if (bytes) {
            lua_newuserdata(L, bytes);
            snap = lua_gettop(L);
            if (linked) {
                lua_newuserdata(L, astar_distance_via_bytes(&h->m));
                via = lua_gettop(L);
            }
        }
        lease_take(L, g, LENT_RANGE, attempt >= 2, rule->callbacks, &lease);
        if (g->closed)
            raise_error(L, "grid closed during %s", fname);
        if (astar_distance_moves_bytes(g->grid) != bytes
            || (astar_grid_link_count(g->grid) > 0) != linked) {
            lease_return(&lease);          /* a finalizer changed the moves: again */
            if (++restarts > MAX_RESTARTS)
                raise_error(L, "grid changed during %s", fname);
            continue;
        }
        set_map_moves(L, h, t, snap,
                      snap ? astar_distance_moves_copy(g->grid, lua_touserdata(L, snap)) : NULL,
                      via);
        /* the map keeps its grid (setSources); what it kept of another
         * grid's cells is forgotten: only a grid held is known by address */
        if (h->grid_of != (const void *)g)
            astar_distance_forget(&h->m);
        lua_pushvalue(L, grid);
        lua_rawseti(L, t, UV_GRID);
        h->grid_of = g;
        if (ns)
            install_sources(L, h, t, ns);
        rule->L = L;
        rule->version = astar_grid_version(g->grid);
        rule->stop = QR_STOP_NONE;
        before = astar_range_memory(lease.range);
        if (h->slice)
            astar_distance_slice_cancel(h->slice);   /* a whole build replaces it */
        h->next_new = 0;
        h->busy = 1;
        h->fills++;
        grid_enter(g);
        /* update repairs what the grid's edits reach (issue 24); setSources runs */
        e = (ns ? astar_distance_run_moves : astar_distance_update)(
            lease.range, g->grid, &h->m, map_sources(h), h->nsources, h->max_cost,
            rule->cells ? query_rules_cell : NULL, rule,
            rule->index[QR_MOVE] ? query_rules_move : NULL, rule, &aborted);
        grid_leave(g);
        lease_return(&lease);
        h->busy = 0;
        if (aborted && rule->stop == QR_STOP_NONE)
            rule->stop = QR_STOP_ERROR;
        if (rule->stop == QR_STOP_CHANGED && !g->closed && ++restarts <= MAX_RESTARTS)
            continue;
        if (rule->stop != QR_STOP_NONE) {
            astar_distance_clear(&h->m);   /* empty, never half filled */
            query_rules_raise(L, rule, fname);
        }
        if (g->closed)
            raise_error(L, "grid closed during %s", fname);
        if (e != ASTAR_OK)
            raise_error(L, "not enough memory");
        before = astar_range_memory(lease.range) - before;
        lua_settop(L, base);
        gc_note(L, lease.own ? before : 0);
        return;
    }
}

/* Sets up rule from the map's uservalue {blocked, cost, move} (pushed into
 * the rules' fresh slots from `first`). */
static void rules_from_map(lua_State *L, MapHeader *h, int map, QueryRules *rule,
                           const char *fname, LuaGrid *g)
{
    int first, i;

    query_rules_init(L, rule, fname, 1);
    first = lua_gettop(L) - QR_COUNT + 1;
    get_rules_ref(L, map);
    /* only a map made with rules has them (on Lua 5.1 a userdata's
     * environment is the globals table otherwise) */
    if (h->ruled && h->table && lua_istable(L, -1)) {
        for (i = 0; i < 2; i++) {
            lua_rawgeti(L, -1, i + 1);
            lua_replace(L, first + i);
            if (!lua_isnil(L, first + i)) {
                rule->index[i] = first + i;
                rule->points[i] = h->points[i];
            }
        }
        lua_rawgeti(L, -1, UV_MOVE);
        lua_replace(L, first + QR_MOVE);
        if (!lua_isnil(L, first + QR_MOVE))
            rule->index[QR_MOVE] = first + QR_MOVE;
    }
    lua_pop(L, 1);
    rule->g = g;
    query_rules_finish(rule, g->grid);
}

/* Checks sources[1..n] (argument 1 of fname at stack index t, a list of
 * {x =, y = [, value =]}) on a width x height grid and, when out is not
 * NULL, copies them there (room for n). n is counted once by the caller: a
 * finalizer that changes the list between two reads cannot make the second
 * overrun out. */
static void read_sources(lua_State *L, int t, uint32_t width, uint32_t height,
                         AstarDistanceSource *out, size_t n, const char *fname)
{
    size_t i;
    uint32_t max[2];
    static const char *const XY[2] = {"x", "y"};
    char buf[32];

    max[0] = width;
    max[1] = height;
    for (i = 1; i <= n; i++) {
        uint32_t c[2];
        double value = 0;
        int p, k;

        lua_rawgeti(L, t, (int)i);
        p = lua_gettop(L);
        if (!lua_istable(L, p))
            arg_error(L, 1, fname, NULL, "sources[%d]: point expected, got %s", (int)i,
                      luaL_typename(L, p));
        for (k = 0; k < 2; k++) {
            double v;
            lua_pushstring(L, XY[k]);
            lua_rawget(L, p);
            if (lua_type(L, -1) != LUA_TNUMBER)
                arg_error(L, 1, fname, NULL, "sources[%d].%s: number expected, got %s",
                          (int)i, XY[k], luaL_typename(L, -1));
            v = (double)lua_tonumber(L, -1);
            if (!(v >= 1 && v <= max[k]) || v != floor(v))
                arg_error(L, 1, fname, NULL, "sources[%d].%s out of range 1..%u, got %s",
                          (int)i, XY[k], (unsigned)max[k], number_text(buf, sizeof buf, v));
            c[k] = (uint32_t)v - 1;
            lua_pop(L, 1);
        }
        lua_pushliteral(L, "value");
        lua_rawget(L, p);
        if (!lua_isnil(L, -1)) {
            if (lua_type(L, -1) != LUA_TNUMBER)
                arg_error(L, 1, fname, NULL,
                          "sources[%d].value: number expected, got %s", (int)i,
                          luaL_typename(L, -1));
            value = (double)lua_tonumber(L, -1);
            if (!(value > -HUGE_VAL && value < HUGE_VAL))
                arg_error(L, 1, fname, NULL, "sources[%d].value must be finite, got %s",
                          (int)i, number_text(buf, sizeof buf, value));
        }
        lua_pop(L, 2);
        if (out) {
            out[i - 1].x = c[0];
            out[i - 1].y = c[1];
            out[i - 1].value = value;
        }
    }
}

/* grid:distanceMap(sources [, opts]) -> astar.DistanceMap */
static int grid_distance_map(lua_State *L)
{
    LuaGrid *g = check_grid(L, "distanceMap");
    Arg as = method_arg("distanceMap", 1);
    QueryOptions o;
    QueryRules rule;
    MapHeader *h;
    size_t n;
    int i, map;

    if (!lua_istable(L, 2))
        type_error(L, as, NULL, "table");
    lua_settop(L, 3);
    n = (size_t)compat_rawlen(L, 2);
    read_sources(L, 2, g->width, g->height, NULL, n, "distanceMap");
    query_rules_init(L, &rule, "distanceMap", 2);
    memset(&o, 0, sizeof o);
    o.diagonal = g->diagonal;
    o.max_cost = INFINITY;
    o.any_max_cost = 1;                /* sources may hold values below 0 */
    o.size = 1;
    read_query_options(L, method_arg("distanceMap", 2), OPTS_MAP, g, &o, &rule);
    h = push_map(L, g->width, g->height, o.diagonal, n, 1);
    map = lua_gettop(L);
    h->m.hex = grid_hex_code(g);       /* a hex board's map: hex steps */
    h->m.size = o.size;                /* large units: positions of size x size */
    /* again: a finalizer may have changed them */
    read_sources(L, 2, g->width, g->height, map_sources(h), n, "distanceMap");
    h->max_cost = o.max_cost;
    h->points[0] = rule.points[QR_BLOCKED];
    h->points[1] = rule.points[QR_COST];
    check_open(L, g);                  /* reading and allocating may have run finalizers */
    query_rules_finish(&rule, g->grid);
    h->ruled = rule.used;
    if (rule.used) {
        static const int SLOT[3] = {QR_BLOCKED, QR_COST, QR_MOVE};
        push_map_table(L, map);        /* a new map: no finalizer can reach it */
        for (i = 0; i < 3; i++) {
            if (rule.index[SLOT[i]])
                lua_pushvalue(L, rule.index[SLOT[i]]);
            else
                lua_pushnil(L);
            lua_rawseti(L, -2, i + 1);
        }
        lua_pop(L, 1);
    }
    rule.g = g;
    check_open(L, g);
    fill(L, g, 1, h, map, &rule, NULL, "distanceMap");
    lua_settop(L, map);
    return 1;
}

/* ---- a build a slice at a time (issue 24; the core's distance_slice.c) ------ */

/* opts.cells and opts.seconds of update and setSources (method argument 2),
 * HUGE_VAL when absent: 1 when either is given. */
static int read_budget(lua_State *L, const MapHeader *h, const char *fname, double *cells,
                       double *seconds)
{
    int top = lua_gettop(L);
    LuaGrid shape;
    QueryOptions o;
    QueryRules none;

    map_shape(h, &shape);
    memset(&o, 0, sizeof o);
    o.cells = o.seconds = HUGE_VAL;
    query_rules_init(L, &none, fname, 2);
    read_query_options(L, method_arg(fname, 2), OPTS_BUILD, &shape, &o, &none);
    lua_settop(L, top);
    *cells = o.cells;
    *seconds = o.seconds;
    return o.given != 0;
}

static int slice_gc(lua_State *L)
{
    astar_distance_slice_free((AstarDistanceSlice *)lua_touserdata(L, 1));
    return 0;
}

/* The map's slice (its table at stack index t), made the first time: the
 * allocations may run finalizers, and the one kept is the first set. */
static AstarDistanceSlice *map_slice(lua_State *L, MapHeader *h, int t)
{
    size_t bytes;
    void *memory;

    if (h->slice)
        return h->slice;
    bytes = astar_distance_slice_bytes(h->m.width, h->m.height);
    if (!bytes)
        raise_error(L, "not enough memory");
    memory = lua_newuserdata(L, bytes);
    astar_distance_slice_init(memory, &h->m);   /* owns nothing yet: safe to lose */
    if (luaL_newmetatable(L, SLICE_TYPE)) {
        lua_pushcfunction(L, slice_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    if (!h->slice) {
        lua_rawseti(L, t, UV_SLICE);
        h->slice = (AstarDistanceSlice *)memory;
    } else {
        lua_pop(L, 1);
    }
    return h->slice;
}

/* Room for n pending sources (the map's table at t), grown geometrically. */
static AstarDistanceSource *pending_room(lua_State *L, MapHeader *h, int t, size_t n)
{
    size_t room;
    void *list;

    if (n <= h->next_room)
        return h->next_list;
    room = n > 2 * h->next_room ? n : 2 * h->next_room;
    if (room > (size_t)-1 / sizeof *h->next_list)
        raise_error(L, "not enough memory");
    list = lua_newuserdata(L, room * sizeof *h->next_list);
    if (n > h->next_room) {            /* a finalizer may have grown it meanwhile */
        lua_rawseti(L, t, UV_NEXT_SOURCES);
        h->next_list = (AstarDistanceSource *)list;
        h->next_room = room;
    } else {
        lua_pop(L, 1);
    }
    return h->next_list;
}

/* Makes the pending sources the map's (its table at t): copied when they
 * fit the map's space, else the buffers are swapped. Allocates nothing. */
static void take_pending_sources(lua_State *L, MapHeader *h, int t)
{
    size_t room = h->grown ? h->grown_room : h->room;

    if (!h->next_new)
        return;
    h->next_new = 0;
    if (h->next_n <= room) {
        if (h->next_n)
            memcpy(map_sources(h), h->next_list, h->next_n * sizeof *h->next_list);
    } else {
        AstarDistanceSource *grown = h->grown;
        size_t grown_room = h->grown_room;
        lua_rawgeti(L, t, UV_SOURCES);
        lua_rawgeti(L, t, UV_NEXT_SOURCES);
        lua_rawseti(L, t, UV_SOURCES);
        lua_rawseti(L, t, UV_NEXT_SOURCES);
        h->grown = h->next_list;
        h->grown_room = h->next_room;
        h->next_list = grown;
        h->next_room = grown ? grown_room : 0;
    }
    h->nsources = h->next_n;
}

/* The pending build is complete: its values, grid and sources become the
 * map's (its table at t). Allocates nothing. */
static void complete_build(lua_State *L, MapHeader *h, int t)
{
    astar_distance_slice_finish(h->slice, &h->m);
    set_map_moves(L, h, t, 0, NULL, 0);   /* a sliced build follows no moves */
    take_pending_sources(L, h, t);
    lua_rawgeti(L, t, UV_NEXT_GRID);
    lua_rawseti(L, t, UV_GRID);
    lua_pushnil(L);
    lua_rawseti(L, t, UV_NEXT_GRID);
    h->grid_of = h->next_grid;
    h->next_grid = NULL;
    h->fills++;
}

/* Drops the pending build (the map's table at t). */
static void cancel_build(lua_State *L, MapHeader *h, int t)
{
    astar_distance_slice_cancel(h->slice);
    h->next_new = 0;
    h->next_grid = NULL;
    lua_pushnil(L);
    lua_rawseti(L, t, UV_NEXT_GRID);
}

/* Runs the pending build of the map at stack index 1 (its table at t) on
 * g for at most `cells` settled cells and `seconds` (HUGE_VAL: no limit;
 * the clock is read every SLICE_CHUNK cells, after at least one chunk):
 * 1 when it completed. Raises as fill does, dropping the build (the map
 * keeps its values). */
static int advance_build(lua_State *L, MapHeader *h, int t, LuaGrid *g, QueryRules *rule,
                         double cells, double seconds, const char *fname)
{
    const int timed = !isinf(seconds), limited = cells < 4294967296.0;   /* else no limit */
    size_t left = limited ? (size_t)cells : 0, before = astar_distance_slice_memory(h->slice);
    double started = timed ? monotonic_seconds() : 0;
    int restarts = 0;

    for (;;) {
        size_t chunk = timed ? SLICE_CHUNK : (size_t)-1;
        int done, aborted;
        AstarError e;

        if (limited && left < chunk)
            chunk = left;
        rule->L = L;
        rule->version = astar_grid_version(g->grid);
        rule->stop = QR_STOP_NONE;
        h->busy = 1;
        grid_enter(g);
        done = astar_distance_slice_run(h->slice, h->next_new ? h->next_list : map_sources(h),
                                        h->next_new ? h->next_n : h->nsources, h->max_cost,
                                        rule->cells ? query_rules_cell : NULL, rule, chunk,
                                        &aborted, &e);
        grid_leave(g);
        h->busy = 0;
        if (aborted && rule->stop == QR_STOP_NONE)
            rule->stop = QR_STOP_ERROR;
        if (rule->stop == QR_STOP_CHANGED && !g->closed && ++restarts <= MAX_RESTARTS)
            continue;                      /* the build starts again on the grid as it is */
        if (rule->stop != QR_STOP_NONE) {
            cancel_build(L, h, t);
            query_rules_raise(L, rule, fname);
        }
        if (g->closed) {
            cancel_build(L, h, t);
            raise_error(L, "grid closed during %s", fname);
        }
        if (e != ASTAR_OK) {
            cancel_build(L, h, t);
            raise_error(L, "not enough memory");
        }
        if (done)
            complete_build(L, h, t);
        if (done || (limited && (left -= chunk) == 0)
            || (timed && monotonic_seconds() - started >= seconds)) {
            gc_note(L, astar_distance_slice_memory(h->slice) - before);
            return done;
        }
    }
}

/* update and setSources with a budget: the build of the map at stack index
 * 1 (with ns: from those sources) on g (at stack index grid) starts in the
 * slice's arrays, replacing a pending one, and runs for the budget. Maps
 * that follow moves, links or a move rule are built whole. Pushes done. */
static void build_sliced(lua_State *L, LuaGrid *g, int grid, QueryRules *rule,
                         const NewSources *ns, double cells, double seconds, const char *fname)
{
    MapHeader *h = (MapHeader *)lua_touserdata(L, 1);
    int base = lua_gettop(L), t;

    if (astar_distance_moves_bytes(g->grid) || rule->index[QR_MOVE]) {
        fill(L, g, grid, h, 1, rule, ns, fname);
        lua_settop(L, base);
        lua_pushboolean(L, 1);
        return;
    }
    push_map_table(L, 1);
    t = lua_gettop(L);
    map_slice(L, h, t);
    if (ns) {
        AstarDistanceSource *list = pending_room(L, h, t, ns->n);
        if (ns->n)
            memcpy(list, ns->list, ns->n * sizeof *list);
    }
    h = check_self(L, fname);          /* the allocations may have run finalizers */
    if (g->closed)
        raise_error(L, "grid closed during %s", fname);
    h->next_new = ns != NULL;
    h->next_n = ns ? ns->n : 0;
    lua_pushvalue(L, grid);
    lua_rawseti(L, t, UV_NEXT_GRID);
    h->next_grid = g;
    astar_distance_slice_begin(h->slice, g->grid);
    lua_pushboolean(L, advance_build(L, h, t, g, rule, cells, seconds, fname));
    lua_replace(L, base + 1);
    lua_settop(L, base + 1);
}

/* map:step(cells [, seconds]) -> done: continues the pending build; true
 * once the new values are in place (at once with none pending). */
static int map_step(lua_State *L)
{
    MapHeader *h = check_self(L, "step");
    double n, seconds;
    QueryRules rule;
    LuaGrid *g;
    int t, grid;

    check_step_budget(L, method_arg("step", 1), "cells", &n, &seconds);
    lua_settop(L, 3);
    if (!h->slice || !astar_distance_slice_pending(h->slice)) {
        lua_pushboolean(L, 1);
        return 1;
    }
    push_map_table(L, 1);              /* there: the build made it */
    t = lua_gettop(L);
    lua_rawgeti(L, t, UV_NEXT_GRID);
    grid = lua_gettop(L);
    g = (LuaGrid *)lua_touserdata(L, grid);
    if (!g) {                          /* cannot be: a pending build holds its grid */
        cancel_build(L, h, t);
        lua_pushboolean(L, 1);
        return 1;
    }
    if (g->closed) {
        cancel_build(L, h, t);
        raise_error(L, "calling 'step' on a map whose grid is closed");
    }
    rules_from_map(L, h, 1, &rule, "step", g);
    h = check_self(L, "step");         /* rules_from_map may have run finalizers */
    if (!astar_distance_slice_pending(h->slice)) {
        lua_pushboolean(L, 1);
        return 1;
    }
    if (h->next_grid != g)             /* a finalizer began another build meanwhile */
        raise_error(L, "distance map changed during step");
    if (g->closed) {
        cancel_build(L, h, t);
        raise_error(L, "calling 'step' on a map whose grid is closed");
    }
    if (astar_distance_moves_bytes(g->grid)) {
        /* the grid has moves now: the build is done whole, as update's */
        take_pending_sources(L, h, t);
        astar_distance_forget(&h->m);
        cancel_build(L, h, t);
        fill(L, g, grid, h, 1, &rule, NULL, "step");
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, advance_build(L, h, t, g, &rule, n, seconds, "step"));
    return 1;
}

/* map:isBuilding() -> whether a build is pending. */
static int map_is_building(lua_State *L)
{
    MapHeader *h = check_self(L, "isBuilding");
    lua_pushboolean(L, h->slice && astar_distance_slice_pending(h->slice));
    return 1;
}

/* map:update(grid [, opts]): the same sources and options on grid as it is
 * now, in place (the grid must have the map's size). Returns the map and
 * whether the new values are in place (opts.cells, opts.seconds: a budget). */
static int map_update(lua_State *L)
{
    MapHeader *h = check_self(L, "update");
    LuaGrid *g;
    QueryRules rule;
    double cells, seconds;
    int budget;

    if (h->derived)
        raise_error(L, "calling 'update' on a map made by flee or blend");
    if (h->rules_lost)
        raise_error(L, "calling 'update' on a decoded map that was made with rules");
    g = (LuaGrid *)compat_testudata(L, 2, GRID_TYPE);
    if (!g)
        type_error(L, method_arg("update", 1), NULL, GRID_TYPE);
    if (g->closed)
        raise_error(L, "attempt to use a closed " GRID_TYPE);
    if (g->width != h->m.width || g->height != h->m.height)
        arg_error(L, 1, "update", NULL, "grid is %ux%u, the map %ux%u",
                  (unsigned)g->width, (unsigned)g->height,
                  (unsigned)h->m.width, (unsigned)h->m.height);
    if (grid_hex_code(g) != h->m.hex)
        arg_error(L, 1, "update", NULL, "the grid is not of the map's board shape");
    lua_settop(L, 3);
    budget = read_budget(L, h, "update", &cells, &seconds);
    rules_from_map(L, h, 1, &rule, "update", g);
    h = check_self(L, "update");       /* reading may have run finalizers */
    check_open(L, g);
    if (budget) {
        build_sliced(L, g, 2, &rule, NULL, cells, seconds, "update");
        lua_pushvalue(L, 1);
        lua_insert(L, -2);
        return 2;
    }
    fill(L, g, 2, h, 1, &rule, NULL, "update");
    lua_settop(L, 1);
    lua_pushboolean(L, 1);
    return 2;
}

/* setSources reads up to this many sources on the C stack, more into a userdata. */
#define STACK_SOURCES 32

/* map:setSources(sources): the map from new sources, with its options and
 * rules, on the grid of its last fill as that is now, in the same memory
 * (issue 24). Returns the map. */
static int map_set_sources(lua_State *L)
{
    MapHeader *h = check_self(L, "setSources");
    AstarDistanceSource local[STACK_SOURCES];
    NewSources ns;
    LuaGrid *g;
    QueryRules rule;
    double cells, seconds;
    int t, grid, budget;

    if (h->derived)
        raise_error(L, "calling 'setSources' on a map made by flee or blend");
    if (!h->grid_of)
        raise_error(L, "calling 'setSources' on a map made by astar.decodeMap");
    if (!lua_istable(L, 2))
        type_error(L, method_arg("setSources", 1), NULL, "table");
    lua_settop(L, 3);
    ns.n = (size_t)compat_rawlen(L, 2);
    read_sources(L, 2, h->m.width, h->m.height, NULL, ns.n, "setSources");
    budget = read_budget(L, h, "setSources", &cells, &seconds);
    push_map_table(L, 1);              /* 4: there since the map's fill */
    t = 4;
    ns.list = local;
    ns.buffer = 0;
    ns.room = 0;
    if (ns.n > STACK_SOURCES) {
        if (ns.n > (size_t)-1 / sizeof *ns.list)
            raise_error(L, "not enough memory");
        ns.list = (AstarDistanceSource *)lua_newuserdata(L, ns.n * sizeof *ns.list);
    }
    if (ns.n > h->room && ns.n > h->grown_room) {   /* grows geometrically */
        ns.room = ns.n > 2 * h->grown_room ? ns.n : 2 * h->grown_room;
        if (ns.room > (size_t)-1 / sizeof *ns.list)
            raise_error(L, "not enough memory");
        lua_newuserdata(L, ns.room * sizeof *ns.list);
        ns.buffer = lua_gettop(L);
    }
    /* again, into the list: the allocations may have run finalizers */
    read_sources(L, 2, h->m.width, h->m.height, (AstarDistanceSource *)ns.list, ns.n,
                 "setSources");
    h = check_self(L, "setSources");
    lua_rawgeti(L, t, UV_GRID);
    grid = lua_gettop(L);
    g = (LuaGrid *)compat_testudata(L, grid, GRID_TYPE);
    if (!g)
        raise_error(L, "calling 'setSources' on a map made by astar.decodeMap");
    if (g->closed)
        raise_error(L, "calling 'setSources' on a map whose grid is closed");
    rules_from_map(L, h, 1, &rule, "setSources", g);
    h = check_self(L, "setSources");   /* reading may have run finalizers */
    check_open(L, g);
    if (budget) {
        build_sliced(L, g, grid, &rule, &ns, cells, seconds, "setSources");
        lua_pushvalue(L, 1);
        lua_insert(L, -2);
        return 2;
    }
    fill(L, g, grid, h, 1, &rule, &ns, "setSources");
    lua_settop(L, 1);
    lua_pushboolean(L, 1);
    return 2;
}

/* ---- flee and blend: derived maps, rescanned ------------------------------- */

/* Makes b (pushed by push_map, no sources) a map derived from `from`: its
 * shape and entry costs, no cells yet. */
static void derive(MapHeader *b, const MapHeader *from)
{
    b->m.hex = from->m.hex;
    b->m.size = from->m.size;
    astar_distance_copy_costs(&b->m, &from->m);
    b->derived = 1;
}

/* Gives the map at stack index d, just made (no finalizer can reach it),
 * the moves of the map at stack index from: the same snapshot, and link
 * steps of its own. Allocates: 0 when `from` was filled again meanwhile
 * (its moves may have changed), else 1, the moves set. */
static int give_moves(lua_State *L, int d, int from)
{
    MapHeader *f = (MapHeader *)lua_touserdata(L, from);
    const struct AstarMoves *moves = f->m.moves;
    unsigned fills = f->fills;
    int base = lua_gettop(L), t, snap, via = 0;

    if (!moves)
        return 1;
    push_map_table(L, d);
    t = lua_gettop(L);
    if (astar_distance_moves_linked(moves)) {
        lua_newuserdata(L, astar_distance_via_bytes(&((MapHeader *)lua_touserdata(L, d))->m));
        via = lua_gettop(L);
    }
    f = (MapHeader *)lua_touserdata(L, from);
    if (f->fills != fills || f->m.moves != moves || !f->table) {
        lua_settop(L, base);
        return 0;
    }
    get_rules_ref(L, from);
    lua_rawgeti(L, -1, UV_MOVES);
    snap = lua_gettop(L);
    set_map_moves(L, (MapHeader *)lua_touserdata(L, d), t, snap, moves, via);
    lua_settop(L, base);
    return 1;
}

static void rescan(lua_State *L, MapHeader *h)
{
    AstarRange *scratch = scratch_range_push(L);
    AstarError e = astar_distance_rescan(scratch, &h->m);
    lua_pop(L, 1);
    if (e != ASTAR_OK)
        raise_error(L, "not enough memory");
}

/* map:flee([k]) -> a new map: -k times this one's values, rescanned. A value
 * that would overflow a double is an error (a map's values are finite, so
 * that decodeMap reads every map encode writes). */
static int map_flee(lua_State *L)
{
    MapHeader *h = check_self(L, "flee"), *f;
    Arg a = method_arg("flee", 1);
    double k = 1.2;
    char buf[32], vbuf[32];
    int tries;
    size_t i;

    if (!lua_isnoneornil(L, 2)) {
        k = check_number(L, a, NULL);
        if (!(k > 0 && k < HUGE_VAL))
            arg_error(L, 1, "flee", NULL, "k must be a finite number > 0, got %s",
                      number_text(buf, sizeof buf, k));
    }
    for (tries = 0;; tries++) {
        lua_settop(L, 1);
        f = push_map(L, h->m.width, h->m.height, h->m.diagonal, 0, 0);
        h = check_self(L, "flee");     /* the allocation may have run finalizers */
        if (give_moves(L, 2, 1))       /* the moves (issue 19): allocates too */
            break;
        if (tries >= MAX_RESTARTS)
            raise_error(L, "distance map changed during flee");
    }
    h = check_self(L, "flee");
    derive(f, h);
    for (i = 0; i < h->m.cells; i++) {
        double v;
        if (!(h->m.step[i] & ASTAR_STEP_MEMBER))
            continue;
        v = -k * h->m.dist[i];
        if (!(v > -HUGE_VAL && v < HUGE_VAL))
            arg_error(L, 1, "flee", NULL, "k * value at (%u, %u) overflows: %s * %s",
                      (unsigned)cell_x(h, i), (unsigned)cell_y(h, i),
                      number_text(buf, sizeof buf, k),
                      number_text(vbuf, sizeof vbuf, h->m.dist[i]));
        f->m.dist[i] = v;
        f->m.step[i] = ASTAR_STEP_MEMBER;
    }
    rescan(L, f);
    return 1;
}

static const char *const BLEND_OPTIONS[] = {"rescan", NULL};

/* Checks blend's list (argument 1, n entries): maps of [1]'s shape, not being
 * computed, and finite weights; returns map [1]. Raises the first problem. */
static MapHeader *check_blend_list(lua_State *L, size_t n)
{
    MapHeader *first = NULL;
    char buf[32];
    size_t k;

    for (k = 1; k <= n; k++) {
        lua_rawgeti(L, 1, (int)k);
        if (k % 2) {
            MapHeader *m = (MapHeader *)compat_testudata(L, -1, MAP_TYPE);
            if (!m)
                arg_error(L, 1, "blend", NULL, "[%d]: " MAP_TYPE " expected, got %s", (int)k,
                          luaL_typename(L, -1));
            if (m->busy)
                arg_error(L, 1, "blend", NULL, "[%d]: the map is being computed", (int)k);
            if (!first)
                first = m;
            if (m->m.width != first->m.width || m->m.height != first->m.height)
                arg_error(L, 1, "blend", NULL, "[%d]: map is %ux%u, [1] is %ux%u", (int)k,
                          (unsigned)m->m.width, (unsigned)m->m.height,
                          (unsigned)first->m.width, (unsigned)first->m.height);
            if (m->m.hex != first->m.hex)
                arg_error(L, 1, "blend", NULL, "[%d]: map of another board shape than [1]",
                          (int)k);
            if (m->m.size != first->m.size)
                arg_error(L, 1, "blend", NULL, "[%d]: map for units of size %u, [1] for size %u",
                          (int)k, (unsigned)m->m.size, (unsigned)first->m.size);
        } else {
            double w;
            if (lua_type(L, -1) != LUA_TNUMBER)
                arg_error(L, 1, "blend", NULL, "[%d]: weight expected, got %s", (int)k,
                          luaL_typename(L, -1));
            w = (double)lua_tonumber(L, -1);
            if (!(w > -HUGE_VAL && w < HUGE_VAL))
                arg_error(L, 1, "blend", NULL, "[%d]: weight must be finite, got %s", (int)k,
                          number_text(buf, sizeof buf, w));
        }
        lua_pop(L, 1);   /* [1] stays alive in the list, which the stack holds */
    }
    return first;
}

/* b's cells: the weighted sum over the cells every map of the list holds,
 * summed in list order (a product apart from the sum, so that no compiler
 * fuses them: the pure backend's sums to the bit). A sum that overflows a
 * double is an error, never a cell left out. */
static void blend_sum(lua_State *L, MapHeader *b, size_t n)
{
    size_t k, i;

    for (i = 0; i < b->m.cells; i++) {
        b->m.dist[i] = 0;
        b->m.step[i] = ASTAR_STEP_MEMBER;
    }
    for (k = 1; k + 1 <= n; k += 2) {
        const MapHeader *m;
        double w;
        lua_rawgeti(L, 1, (int)k);
        lua_rawgeti(L, 1, (int)k + 1);
        m = (const MapHeader *)lua_touserdata(L, -2);
        w = (double)lua_tonumber(L, -1);
        lua_pop(L, 2);
        for (i = 0; i < b->m.cells; i++) {
            double term;
            if (!(m->m.step[i] & ASTAR_STEP_MEMBER)) {
                b->m.step[i] = ASTAR_STEP_NONE;
                continue;
            }
            term = w * m->m.dist[i];
            b->m.dist[i] += term;
        }
    }
    for (i = 0; i < b->m.cells; i++) {
        if (!(b->m.step[i] & ASTAR_STEP_MEMBER))
            b->m.dist[i] = INFINITY;
        else if (!(b->m.dist[i] > -HUGE_VAL && b->m.dist[i] < HUGE_VAL))
            arg_error(L, 1, "blend", NULL, "weighted sum at (%u, %u) overflows",
                      (unsigned)cell_x(b, i), (unsigned)cell_y(b, i));
    }
}

/* astar.blend({mapA, wA, mapB, wB, ...} [, opts]) -> a new map: the
 * weighted sum over the cells every map holds (the first map's costs and
 * diagonal mode); opts.rescan rescans it. */
static int astar_blend(lua_State *L)
{
    Arg a = {1, 1, "blend"}, ao = {2, 2, "blend"};
    size_t n;
    int rescanned = 0, tries;
    MapHeader *first, *b;

    lua_settop(L, 2);
    if (!lua_istable(L, 1))
        type_error(L, a, NULL, "table");
    if (!lua_isnil(L, 2)) {
        if (!lua_istable(L, 2))
            type_error(L, ao, NULL, "table");
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            Arg v = ao;
            check_option_name(L, ao, lua_gettop(L) - 1, BLEND_OPTIONS);
            v.index = lua_gettop(L);
            rescanned = check_boolean(L, v, "opts.rescan: ");
            lua_pop(L, 1);
        }
    }
    n = (size_t)compat_rawlen(L, 1);
    if (n == 0 || n % 2)
        arg_error(L, 1, "blend", NULL, "{map, weight, ...} expected, got %d entries", (int)n);
    for (tries = 0;; tries++) {
        lua_settop(L, 1);
        if ((size_t)compat_rawlen(L, 1) != n)
            raise_error(L, "the list given to 'blend' changed while it was read");
        first = check_blend_list(L, n);
        b = push_map(L, first->m.width, first->m.height, first->m.diagonal, 0, 0);
        /* the list again, as the allocation may have run Lua code (a __gc
         * that changed it or updated a map) */
        if ((size_t)compat_rawlen(L, 1) != n)
            raise_error(L, "the list given to 'blend' changed while it was read");
        first = check_blend_list(L, n);
        if (first->m.width != b->m.width || first->m.height != b->m.height
            || first->m.diagonal != b->m.diagonal)
            raise_error(L, "the list given to 'blend' changed while it was read");
        if (!first->m.moves)
            break;
        /* the first map's moves (issue 19): allocates, so the list again */
        lua_rawgeti(L, 1, 1);          /* held: the map cannot go while it is read */
        if (give_moves(L, 2, 3)) {
            if ((size_t)compat_rawlen(L, 1) != n || check_blend_list(L, n) != lua_touserdata(L, 3))
                raise_error(L, "the list given to 'blend' changed while it was read");
            lua_settop(L, 2);
            break;
        }
        if (tries >= MAX_RESTARTS)
            raise_error(L, "distance map changed during blend");
    }
    /* nothing runs Lua from here to the sum */
    derive(b, first);
    blend_sum(L, b, n);
    if (rescanned)
        rescan(L, b);
    else
        astar_distance_descend(&b->m);
    return 1;
}

/* ---- encoding: map:encode(), astar.decodeMap(s) ---------------------------- */

/* The room the encoding of the map that is argument 1 (self, still usable)
 * needs. */
static size_t map_measure(lua_State *L, const void *unused)
{
    MapHeader *h = check_self(L, "encode");
    (void)unused;
    return astar_distance_encoded_size(&h->m, h->nsources);
}

static int map_encode(lua_State *L)
{
    MapHeader *h = check_self(L, "encode");
    AstarDistanceHeader hd;
    unsigned char *buffer;
    size_t size;

    lua_settop(L, 1);
    buffer = push_measured(L, map_measure, NULL, "distance map", "encode", &size);
    hd.width = h->m.width;
    hd.height = h->m.height;
    hd.nsources = h->nsources;
    hd.diagonal = h->m.diagonal;
    hd.hex = h->m.hex;
    hd.flags = (h->derived ? ASTAR_DISTANCE_DERIVED : 0u)
               | (h->ruled || h->rules_lost ? ASTAR_DISTANCE_RULES : 0u);
    hd.max_cost = h->max_cost;
    size = astar_distance_encode(&h->m, &hd, map_sources(h), buffer);
    lua_pushlstring(L, (const char *)buffer, size);
    return 1;
}

static int astar_decode_map(lua_State *L)
{
    Arg a = {1, 1, "decodeMap"};
    AstarDistanceHeader hd;
    char message[128];
    const char *data;
    size_t length, bytes;
    int linked;
    void *snapshot = NULL;
    MapHeader *h;

    if (lua_type(L, 1) != LUA_TSTRING)
        type_error(L, a, NULL, "string");
    lua_settop(L, 1);
    data = lua_tolstring(L, 1, &length);
    if (astar_distance_decode_header(data, length, &hd, message, sizeof message) != ASTAR_OK)
        return arg_error(L, 1, "decodeMap", NULL, "not an astar distance map: %s", message);
    if (astar_distance_decode_moves(data, length, &hd, &bytes, &linked, message, sizeof message)
        != ASTAR_OK)
        return arg_error(L, 1, "decodeMap", NULL, "not an astar distance map: %s", message);
    h = push_map(L, hd.width, hd.height, hd.diagonal, hd.nsources, 0);
    if (bytes) {                       /* a new map: no finalizer can reach it */
        push_map_table(L, 2);
        lua_newuserdata(L, bytes);
        if (linked)
            lua_newuserdata(L, astar_distance_via_bytes(&h->m));
        set_map_moves(L, h, 3, 4, NULL, linked ? 5 : 0);
        snapshot = lua_touserdata(L, 4);
    }
    if (astar_distance_decode(data, length, &h->m, map_sources(h), snapshot, message,
                              sizeof message) != ASTAR_OK)
        return arg_error(L, 1, "decodeMap", NULL, "not an astar distance map: %s", message);
    lua_settop(L, 2);
    h->max_cost = hd.max_cost;
    h->derived = (hd.flags & ASTAR_DISTANCE_DERIVED) != 0;
    h->rules_lost = (hd.flags & ASTAR_DISTANCE_RULES) != 0;
    return 1;
}

static const luaL_Reg MAP_METHODS[] = {
    {"encode", map_encode},
    {"get", map_get},
    {"nextStep", map_next_step},
    {"pathFrom", map_path_from},
    {"nearest", map_nearest},
    {"size", map_size},
    {"cells", map_cells},
    {"getDimensions", map_get_dimensions},
    {"flee", map_flee},
    {"update", map_update},
    {"setSources", map_set_sources},
    {"step", map_step},
    {"isBuilding", map_is_building},
    {NULL, NULL}};

static void set_map_metatable(lua_State *L)
{
    set_type_metatable(L, MAP_TYPE, MAP_METHODS, map_tostring);
}

int astar_lua_distance_map(lua_State *L) { return grid_distance_map(L); }
int astar_lua_blend(lua_State *L) { return astar_blend(L); }
int astar_lua_decode_map(lua_State *L) { return astar_decode_map(L); }
