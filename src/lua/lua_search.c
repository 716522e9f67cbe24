/*
 * Searches spread over frames: grid:newSearch(sx, sy, gx, gy [, opts]) ->
 * Search; search:step(n [, seconds]) expands at most n nodes, and stops
 * sooner once `seconds` have passed (clock.h); search:result() returns
 * what findPath would; search:getExpanded() lists the cells expanded so far.
 *
 * A Search takes scratch from its grid's pool (lease.c) while it runs, held
 * by a ScratchHold (below), and keeps its Grid alive through its uservalue
 * {grid, finished, rules..., hold, pages...}. When it finishes, its path,
 * stats and expanded cells are copied into a userdata (finished) and pages,
 * and the scratch goes back to the pool, so the next search on the grid
 * reuses it. Changing the grid while a search runs does not end
 * it: astar_search_step starts it again when a change reached it (counted in
 * getStats().restarts), so its answer is the one for the grid as it is when
 * it finishes. Closing the grid is an error at the next call. A write that
 * changes nothing is not a change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "query_rules.h"

#define SEARCH_TYPE "astar.Search"
#define HOLD_TYPE "astar.SearchScratch"

#if LUA_VERSION_NUM >= 502
#define set_grid_ref lua_setuservalue
#define get_grid_ref lua_getuservalue
#else
#define set_grid_ref lua_setfenv
#define get_grid_ref lua_getfenv
#endif

/* What a finished search keeps: cells[] holds the path's (x, y) pairs from
 * the start, then the first ninline of its expanded cells, as the core
 * numbers them (decoded by stride: astar_search_stride), copied as they are,
 * decoded when asked. The rest are in pages (below). */
typedef struct {
    AstarStatus status;
    double cost;
    size_t expanded, touched, restarts;
    size_t length, nexpanded, ninline;
    size_t goal_index;        /* astar_search_goal_index */
    AstarAlgorithm algorithm; /* astar_search_algorithm */
    uint32_t stride;          /* of the expanded cells' numbers */
    uint32_t cells[];
} Finished;

/* The scratch of a search, held by a small userdata of its own (in the
 * search's uservalue at HOLD_REF) whose __gc gives it back to the pool. The
 * Search has no finalizer: an object with one, and all it refers to, stays
 * alive one collection longer, and a finished search (its record and pages)
 * would then cost every short query 3% more (bench-search-start). */
typedef struct {
    AstarSearch *search;      /* scratch while it runs; NULL once finished or released */
    LuaGrid *owner;
} ScratchHold;

typedef struct {
    ScratchHold *hold;        /* kept alive by the uservalue */
    LuaGrid *owner;           /* the Grid userdata, kept alive by the uservalue */
    Finished *done;           /* once finished (kept alive by the uservalue) */
    int partial;
    int flat;                 /* opts.flat: the path as {x1, y1, x2, y2, ...} */
    int released;
    int stopped;              /* a rule stopped it: 1 the grid changed, 2 an error */
    unsigned steps;           /* bumped by every step (a finalizer may step it) */
    AstarStatus status;
    /* The query's rules: their values are in the uservalue at 3..5 and are
     * pushed for each step (the core keeps &rules as its rule_user). */
    QueryRules rules;
    int goal_list;            /* the goal was a list: results say which one */
    int busy;                 /* inside the core with callbacks: no re-entry, no release */
} LuaSearch;

#define RULES_REF 3           /* uservalue slots of the rules, QR_* order */
/* The expanded cells that do not fit in a finished record lie in pages of
 * EXPANDED_PAGE cells (userdata in the uservalue from PAGES_REF on; it is
 * made with room for UV_PAGES). Under PUC Lua no block reaches 1 KB: glibc's
 * malloc sorts its lists of freed chunks before it serves a request of 1 KB
 * or more (callgrind: about 6000 instructions, 3% of a short query on a
 * 256x256 board), and serves a smaller one from the list of its size.
 * LuaJIT's own allocator has no such pass: there the record holds them all. */
#define EXPANDED_PAGE 224
#define FINISHED_BYTES 960
#define HOLD_REF (RULES_REF + QR_COUNT)
#define PAGES_REF (HOLD_REF + 1)
#define UV_PAGES 3
#define STEP_CHUNK 256        /* expansions between two looks at the clock */

static LuaSearch *check_search(lua_State *L, const char *fname)
{
    LuaSearch *s = (LuaSearch *)compat_testudata(L, 1, SEARCH_TYPE);
    if (!s)
        raise_error(L, "calling '%s' on bad self (" SEARCH_TYPE " expected, got %s)", fname,
                   luaL_typename(L, 1));
    else if (s->released)
        raise_error(L, "attempt to use a released " SEARCH_TYPE);
    return s;
}

/* A closed grid has been freed. */
static void check_grid_alive(lua_State *L, const LuaSearch *s)
{
    check_open(L, s->owner);
    if (s->stopped == 2)
        raise_error(L, "search stopped by an error in its rules");
    if (s->stopped)
        raise_error(L, "grid changed during search");
}

/* Pushes the rules' values (uservalue of the search at idx) for a call into
 * the core, which may call them back; the stack keeps them until it returns. */
static void push_rules(lua_State *L, LuaSearch *s, int idx)
{
    int i, uv;
    if (!s->rules.used)
        return;
    get_grid_ref(L, idx);
    uv = lua_gettop(L);
    for (i = 0; i < QR_COUNT; i++) {
        if (!s->rules.index[i])
            continue;
        lua_rawgeti(L, uv, RULES_REF + i);
        s->rules.index[i] = lua_gettop(L);
    }
    s->rules.L = L;
    s->rules.g = s->owner;
    s->rules.version = astar_grid_version(s->owner->grid);
    s->rules.stop = QR_STOP_NONE;
}

/* Before the core runs the search's rules: no re-entry, closing only detaches. */
static void enter_core(LuaSearch *s)
{
    s->busy = 1;
    grid_enter(s->owner);
}

/* After: a release made meanwhile takes effect; a rule that stopped the
 * search (an error, a change or closing of the grid) fails it for good. */
static void leave_core(lua_State *L, LuaSearch *s, const char *fname)
{
    s->busy = 0;
    grid_leave(s->owner);
    if (s->released && s->hold->search) {
        AstarSearch *scratch = s->hold->search;
        s->hold->search = NULL;
        pool_give(s->owner, scratch);
        raise_error(L, "search released during %s", fname);
    }
    if (s->rules.stop == QR_STOP_NONE)
        return;
    s->stopped = s->rules.stop == QR_STOP_CHANGED ? 1 : 2;
    s->status = ASTAR_NO_PATH;
    query_rules_raise(L, &s->rules, fname);
}

static const char *status_name(AstarStatus status)
{
    switch (status) {
    case ASTAR_SEARCHING: return "searching";
    case ASTAR_FOUND: return "found";
    default: return "unreachable";
    }
}

/* How many of n expanded cells a finished record with a path of `length`
 * cells holds: all of them, or under PUC Lua those that keep it under
 * FINISHED_BYTES. */
static size_t inline_cells(size_t length, size_t n)
{
#if LUA_VERSION_NUM >= 502
    size_t used = sizeof(Finished) + 2 * length * sizeof(uint32_t);
    size_t room = used < FINISHED_BYTES ? (FINISHED_BYTES - used) / sizeof(uint32_t) : 0;
    return n < room ? n : room;
#else
    (void)length;
    return n;
#endif
}

/* The number of cells in page i of `rest` paged cells. */
static size_t page_cells(size_t rest, size_t i)
{
    return rest - i * EXPANDED_PAGE < EXPANDED_PAGE ? rest - i * EXPANDED_PAGE : EXPANDED_PAGE;
}

/* Was the search that finish found holding scratch at `steps` released or
 * restarted by a finalizer that ran during an allocation? */
static int finish_lost(const LuaSearch *s, const AstarSearch *scratch, unsigned steps)
{
    return s->hold->search != scratch || s->steps != steps;
}

/* Copies what the finished search at stack index idx will be asked for out
 * of its scratch, and gives the scratch back to the grid's pool. The copy
 * (the finished record, then each page) is allocated first, and a page is
 * stored only while no finalizer that ran meanwhile released or restarted
 * the search; closing the grid frees the path's cells. */
static void finish(lua_State *L, LuaSearch *s, int idx)
{
    AstarSearch *scratch = s->hold->search;
    unsigned steps = s->steps;
    int found = s->status == ASTAR_FOUND || s->status == ASTAR_PARTIAL;
    size_t length = found ? astar_search_length(scratch) : 0, nexpanded, ninline, rest, i;
    const uint32_t *recorded;
    AstarPathCursor at;
    Finished *f;
    int uv;

    nexpanded = astar_search_recorded(scratch, NULL);
    ninline = inline_cells(length, nexpanded);
    rest = nexpanded - ninline;
    f = (Finished *)lua_newuserdata(L, sizeof *f + (2 * length + ninline) * sizeof(uint32_t));
    get_grid_ref(L, idx);
    uv = lua_gettop(L);
    for (i = 0; i * EXPANDED_PAGE < rest && !finish_lost(s, scratch, steps); i++) {
        lua_newuserdata(L, page_cells(rest, i) * sizeof(uint32_t));
        if (!finish_lost(s, scratch, steps))
            lua_rawseti(L, uv, PAGES_REF + (int)i);
    }
    if (finish_lost(s, scratch, steps)) {
        lua_settop(L, uv - 2);
        return;
    }
    s->hold->search = NULL;
    if (s->owner->closed) {                  /* the path's cells are gone */
        pool_give(s->owner, scratch);
        lua_pop(L, 2);
        return;
    }
    f->status = s->status;
    f->cost = found ? astar_search_cost(scratch) : 0.0;
    f->expanded = astar_search_expanded(scratch);
    f->touched = astar_search_touched(scratch);
    f->restarts = astar_search_restarts(scratch);
    f->length = length;
    f->nexpanded = nexpanded;
    f->ninline = ninline;
    f->goal_index = found ? astar_search_goal_index(scratch) : (size_t)-1;
    f->algorithm = astar_search_algorithm(scratch);
    f->stride = astar_search_stride(scratch);
    if (found) {
        astar_path_end(scratch, &at);
        for (i = length; i >= 1; i--) {
            f->cells[2 * i - 2] = at.x;
            f->cells[2 * i - 1] = at.y;
            if (i > 1)
                astar_path_back(scratch, &at);
        }
    }
    astar_search_recorded(scratch, &recorded);
    if (ninline)
        memcpy(f->cells + 2 * length, recorded, ninline * sizeof *recorded);
    for (i = 0; i * EXPANDED_PAGE < rest; i++) {
        lua_rawgeti(L, uv, PAGES_REF + (int)i);
        memcpy(lua_touserdata(L, -1), recorded + ninline + i * EXPANDED_PAGE,
               page_cells(rest, i) * sizeof *recorded);
        lua_pop(L, 1);
    }
    lua_pushvalue(L, -2);
    lua_rawseti(L, uv, 2);
    lua_pop(L, 2);
    s->done = f;
    pool_give(s->owner, scratch);
}

int grid_new_search(lua_State *L)
{
    Query q;
    QueryRules rules;
    LuaGrid *g = check_query(L, "newSearch", &q, &rules);
    LuaSearch *s;
    AstarSearch *scratch;
    size_t before = 0;
    AstarError e;
    int i, self;

    s = (LuaSearch *)lua_newuserdata(L, sizeof *s);
    memset(s, 0, sizeof *s);
    s->hold = (ScratchHold *)lua_newuserdata(L, sizeof *s->hold);
    s->hold->search = NULL;
    s->hold->owner = g;
    luaL_getmetatable(L, HOLD_TYPE);
    lua_setmetatable(L, -2);
    luaL_getmetatable(L, SEARCH_TYPE);
    lua_setmetatable(L, -3);
    s->owner = g;
    s->rules = rules;
    s->goal_list = q.goal_list;
    /* {grid, finished, rules..., hold, pages...}: keeps them alive */
    lua_createtable(L, PAGES_REF - 1 + UV_PAGES, 0);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, HOLD_REF);
    for (i = 0; i < QR_COUNT; i++) {
        if (!rules.index[i])
            continue;
        lua_pushvalue(L, rules.index[i]);
        lua_rawseti(L, -2, RULES_REF + i);
    }
    set_grid_ref(L, -3);
    lua_pop(L, 1);
    self = lua_gettop(L);
    q.options.rule_user = &s->rules;   /* where the core finds them from now on */
    if (q.options.move_rule)
        q.options.move_user = &s->rules;
    check_open(L, g);                  /* the allocations may have run finalizers */
    scratch = pool_take(g);
    if (scratch)
        before = astar_search_memory(scratch);
    else if (!(scratch = astar_search_new()))
        return raise_error(L, "not enough memory");
    s->hold->search = scratch;         /* held from here: the hold's __gc gives it back */
    s->partial = q.options.partial;
    s->flat = q.output.flat;
    astar_search_record(scratch, 1);
    push_rules(L, s, self);            /* begin may ask the rules about the goal */
    enter_core(s);
    e = astar_search_begin(scratch, g->grid, q.sx, q.sy, q.gx, q.gy, &q.options);
    leave_core(L, s, "newSearch");
    if (e != ASTAR_OK)
        return raise_error(L, "not enough memory");
    s->status = astar_search_status(scratch);
    before = astar_search_memory(scratch) - before;
    if (s->status != ASTAR_SEARCHING)
        finish(L, s, self);
    lua_settop(L, self);
    gc_note(L, before);
    return 1;
}

/* search:restart(sx, sy, gx, gy [, opts]): the search starts again on a new
 * query, read as newSearch reads it (opts omitted: the defaults), in its own
 * scratch, or the pool's once it finished; its statistics start from zero. */
static int search_restart(lua_State *L)
{
    LuaSearch *s = check_search(L, "restart");
    Query q;
    QueryRules rules;
    AstarSearch *scratch;
    size_t before = 0;
    AstarError e;
    int i, uv;

    if (s->busy)
        return raise_error(L, "search:restart called from one of its own rules");
    check_open(L, s->owner);
    read_query(L, s->owner, "restart", &q, &rules);
    lua_createtable(L, PAGES_REF - 1 + UV_PAGES, 0);  /* the new {grid, finished, rules...} */
    uv = lua_gettop(L);
    get_grid_ref(L, 1);
    lua_rawgeti(L, -1, 1);
    lua_rawseti(L, uv, 1);
    lua_rawgeti(L, -1, HOLD_REF);
    lua_rawseti(L, uv, HOLD_REF);
    lua_pop(L, 1);
    for (i = 0; i < QR_COUNT; i++) {
        if (!rules.index[i])
            continue;
        lua_pushvalue(L, rules.index[i]);
        lua_rawseti(L, uv, RULES_REF + i);
    }
    /* the reading and allocations may have run finalizers */
    if (s->released)
        return raise_error(L, "attempt to use a released " SEARCH_TYPE);
    check_open(L, s->owner);
    s->done = NULL;                    /* the old copy goes with the old uservalue */
    set_grid_ref(L, 1);
    s->rules = rules;
    s->goal_list = q.goal_list;
    s->partial = q.options.partial;
    s->flat = q.output.flat;
    s->stopped = 0;
    s->steps++;
    q.options.rule_user = &s->rules;
    if (q.options.move_rule)
        q.options.move_user = &s->rules;
    scratch = s->hold->search;
    if (!scratch)
        scratch = pool_take(s->owner);
    if (scratch)
        before = astar_search_memory(scratch);
    else if (!(scratch = astar_search_new()))
        return raise_error(L, "not enough memory");
    s->hold->search = scratch;
    astar_search_record(scratch, 1);
    push_rules(L, s, 1);               /* begin may ask the rules about the goal */
    enter_core(s);
    e = astar_search_begin(scratch, s->owner->grid, q.sx, q.sy, q.gx, q.gy, &q.options);
    leave_core(L, s, "restart");
    if (e != ASTAR_OK)
        return raise_error(L, "not enough memory");
    s->status = astar_search_status(scratch);
    before = astar_search_memory(scratch) - before;
    if (s->status != ASTAR_SEARCHING)
        finish(L, s, 1);
    lua_settop(L, 1);
    gc_note(L, before);
    return 1;
}

/* Runs the core's step with `budget` expansions (0: no limit). With a time
 * limit (seconds finite), it runs in chunks of STEP_CHUNK expansions and
 * stops after the chunk that used the time up: at least one chunk, so a
 * search always moves on. The grid cannot change between chunks (a rule that
 * changes it stops the search), so chunks expand what one call would. */
static AstarStatus step_for(LuaSearch *s, size_t budget, double seconds, AstarError *error)
{
    double started;
    AstarStatus status;
    int limited = budget != 0;

    if (isinf(seconds))
        return astar_search_step(s->hold->search, budget, error);
    started = monotonic_seconds();
    for (;;) {
        size_t chunk = limited && budget < STEP_CHUNK ? budget : STEP_CHUNK;
        status = astar_search_step(s->hold->search, chunk, error);
        if (status != ASTAR_SEARCHING || *error != ASTAR_OK || s->released
            || s->rules.stop != QR_STOP_NONE)
            return status;
        if (limited && (budget -= chunk) == 0)
            return status;
        if (monotonic_seconds() - started >= seconds)
            return status;
    }
}

/* search:step(n [, seconds]): n is a whole number >= 1, or math.huge for no
 * limit; seconds, when given, a number > 0 (math.huge: no limit). */
static int search_step(lua_State *L)
{
    LuaSearch *s = check_search(L, "step");
    double n, seconds;
    size_t budget, before, grown = 0;
    AstarError error;

    check_step_budget(L, method_arg("step", 1), "n", &n, &seconds);
    budget = n >= 4294967296.0 ? 0 : (size_t)n;   /* 0: no limit */
    if (s->status == ASTAR_SEARCHING || s->stopped) {
        check_grid_alive(L, s);
        if (s->busy)
            return raise_error(L, "search:step called from one of its own rules");
        before = astar_search_memory(s->hold->search);
        s->steps++;
        /* the exact lowest cost, as newSearch and findPath use (O(1) unless
         * the writes since made it a bound): a restart scales the heuristic
         * as a new query would; and component labels rebuilt once the search
         * has done about a rebuild's work since they went stale, so that a
         * goal walled off meanwhile ends it at once */
        astar_search_prepare_step(s->hold->search, s->owner->grid);
        push_rules(L, s, 1);
        enter_core(s);
        s->status = step_for(s, budget, seconds, &error);
        leave_core(L, s, "step");
        if (error != ASTAR_OK)
            return raise_error(L, "not enough memory");
        grown = astar_search_memory(s->hold->search) - before;
        if (s->status != ASTAR_SEARCHING)
            finish(L, s, 1);
    }
    lua_pushstring(L, status_name(s->status));
    gc_note(L, grown);
    return 1;
}

static int search_get_status(lua_State *L)
{
    lua_pushstring(L, status_name(check_search(L, "getStatus")->status));
    return 1;
}

/* A finished search's path, read from its copy. */
static void finished_cell(PathReader *r, size_t i, uint32_t *x, uint32_t *y)
{
    const Finished *f = (const Finished *)r->source;
    *x = f->cells[2 * i - 2];
    *y = f->cells[2 * i - 1];
}

static int finished_valid(PathReader *r)
{
    (void)r;
    return 1;                          /* the copy is the search's own */
}

/* The same results as findPath: path, cost [, reached] or nil, reason. */
static int search_result(lua_State *L)
{
    LuaSearch *s = check_search(L, "result");
    PathReader reader;
    PathOutput out;
    Finished *f;

    if (s->stopped)
        check_grid_alive(L, s);   /* a rule stopped it: that error again */
    if (s->status == ASTAR_SEARCHING)
        return raise_error(L, "search still running: step it until it returns "
                              "'found' or 'unreachable'");
    if (s->status == ASTAR_FOUND || s->status == ASTAR_PARTIAL)
        check_grid_alive(L, s);   /* as before the copy: a closed grid's path is gone */
    f = s->done;
    if (!f)
        return raise_error(L, "attempt to use a closed " GRID_TYPE);
    if (f->status == ASTAR_FOUND || f->status == ASTAR_PARTIAL) {
        memset(&reader, 0, sizeof reader);
        reader.n = f->length;
        reader.cell = finished_cell;
        reader.cells = NULL;
        reader.valid = finished_valid;
        reader.source = f;
        out.flat = s->flat;
        out.into = 0;
        push_path(L, &reader, out);
    }
    if (s->goal_list)
        return push_goal_outcome(L, f->status, f->cost, f->goal_index);
    return push_outcome(L, f->status, f->cost, s->partial);
}

/* {expanded =, touched =, algorithm =} so far, as grid:getSearchStats() for
 * findPath, and restarts = how often a change to the grid started it again. */
static int search_get_stats(lua_State *L)
{
    LuaSearch *s = check_search(L, "getStats");
    size_t expanded = s->done ? s->done->expanded : s->hold->search ? astar_search_expanded(s->hold->search) : 0;
    size_t touched = s->done ? s->done->touched : s->hold->search ? astar_search_touched(s->hold->search) : 0;
    size_t restarts = s->done ? s->done->restarts : s->hold->search ? astar_search_restarts(s->hold->search) : 0;
    const char *algorithm = s->done     ? algorithm_name(s->done->algorithm)
                            : s->hold->search ? algorithm_name(astar_search_algorithm(s->hold->search))
                                        : NULL;
    push_stats(L, expanded, touched, algorithm);
    lua_pushinteger(L, (lua_Integer)restarts);
    lua_setfield(L, -2, "restarts");
    return 1;
}

static int compare_cells(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Copies the expanded cells of the finished search f at stack index 1 out
 * of its record and pages into cells (reads only: runs no finalizer). */
static void copy_expanded(lua_State *L, const Finished *f, uint32_t *cells)
{
    size_t rest = f->nexpanded - f->ninline, i;
    if (f->ninline)
        memcpy(cells, f->cells + 2 * f->length, f->ninline * sizeof *cells);
    get_grid_ref(L, 1);
    for (i = 0; i * EXPANDED_PAGE < rest; i++) {
        lua_rawgeti(L, -1, PAGES_REF + (int)i);
        memcpy(cells + f->ninline + i * EXPANDED_PAGE, lua_touserdata(L, -1),
               page_cells(rest, i) * sizeof *cells);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* The cells expanded so far, {x =, y =} in row order. They are copied out
 * of the search's scratch, or its pages once it finished, into a buffer
 * allocated first (a finalizer may step, restart or release the search
 * meanwhile: then it looks again), and sorted there. */
static int search_get_expanded(lua_State *L)
{
    LuaSearch *s = check_search(L, "getExpanded");
    const uint32_t *recorded;
    const Finished *done;
    uint32_t *cells;
    size_t n, i;
    unsigned steps;
    uint32_t stride;

    for (;;) {
        check_open(L, s->owner);
        if (s->released)
            return raise_error(L, "attempt to use a released " SEARCH_TYPE);
        done = s->done;
        if (!done && !s->hold->search)       /* closed while it finished */
            return raise_error(L, "attempt to use a closed " GRID_TYPE);
        steps = s->steps;
        n = done ? done->nexpanded : astar_search_recorded(s->hold->search, NULL);
        lua_settop(L, 1);
        cells = (uint32_t *)lua_newuserdata(L, n * sizeof *cells + 1);
        if (s->steps != steps || s->done != done || s->released || s->owner->closed
            || (!done && !s->hold->search))
            continue;                  /* changed by a finalizer: look again */
        if (done) {
            copy_expanded(L, done, cells);
            stride = done->stride;
        } else {
            astar_search_recorded(s->hold->search, &recorded);
            if (n)
                memcpy(cells, recorded, n * sizeof *cells);
            stride = astar_search_stride(s->hold->search);
        }
        qsort(cells, n, sizeof *cells, compare_cells);
        break;
    }
    lua_createtable(L, (int)n, 0);
    for (i = 0; i < n; i++) {
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)(cells[i] % stride));   /* 1-based: the border */
        lua_setfield(L, -2, "x");
        lua_pushinteger(L, (lua_Integer)(cells[i] / stride));
        lua_setfield(L, -2, "y");
        lua_rawseti(L, -2, (int)i + 1);
    }
    return 1;
}

static int search_get_grid(lua_State *L)
{
    check_search(L, "getGrid");
    get_grid_ref(L, 1);
    lua_rawgeti(L, -1, 1);
    return 1;
}

static int search_tostring(lua_State *L)
{
    LuaSearch *s = (LuaSearch *)luaL_checkudata(L, 1, SEARCH_TYPE);
    lua_pushfstring(L, SEARCH_TYPE " (%s)", s->released ? "released" : status_name(s->status));
    return 1;
}

/* The hold's __gc: a search dropped while it runs gives its scratch back
 * to the grid's pool. The grid's userdata outlives this call: the search's
 * uservalue held both, and a grid collected with it is finalized after it
 * (finalizers run newest first) or, closed, frees the scratch. */
static int hold_release(lua_State *L)
{
    ScratchHold *h = (ScratchHold *)luaL_checkudata(L, 1, HOLD_TYPE);
    if (h->search) {
        AstarSearch *scratch = h->search;
        h->search = NULL;
        pool_give(h->owner, scratch);
    }
    return 0;
}

/* __close: gives the scratch back to the grid's pool; safe to call twice. */
static int search_release(lua_State *L)
{
    LuaSearch *s = (LuaSearch *)luaL_checkudata(L, 1, SEARCH_TYPE);
    s->released = 1;
    if (s->hold->search && !s->busy) {       /* busy: given back when the core returns */
        AstarSearch *scratch = s->hold->search;
        s->hold->search = NULL;
        pool_give(s->owner, scratch);
    }
    return 0;
}

static const luaL_Reg SEARCH_METHODS[] = {
    {"step", search_step},
    {"restart", search_restart},
    {"result", search_result},
    {"getStatus", search_get_status},
    {"getStats", search_get_stats},
    {"getExpanded", search_get_expanded},
    {"getGrid", search_get_grid},
    {NULL, NULL}};

static const luaL_Reg SEARCH_META[] = {
    {"__tostring", search_tostring},
    {"__close", search_release},
    {NULL, NULL}};

void register_search(lua_State *L)
{
    luaL_newmetatable(L, SEARCH_TYPE);
    compat_setfuncs(L, SEARCH_META);
    lua_newtable(L);
    compat_setfuncs(L, SEARCH_METHODS);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, SEARCH_TYPE);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
    luaL_newmetatable(L, HOLD_TYPE);
    lua_pushcfunction(L, hold_release);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
}
