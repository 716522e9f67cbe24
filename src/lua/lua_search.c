/*
 * Searches spread over frames: grid:newSearch(sx, sy, gx, gy [, opts]) ->
 * Search; search:step(n [, seconds]) expands at most n nodes, and stops
 * sooner once `seconds` have passed (clock.h); search:result() returns
 * what findPath would; search:getExpanded() lists the cells expanded so far.
 *
 * A Search takes scratch from its grid's pool (lease.c) while it runs and
 * keeps its Grid alive through its uservalue {grid, finished}. When it
 * finishes, its path, stats and expanded cells are copied into a userdata
 * (finished) and the scratch goes back to the pool, so the next search on
 * the grid reuses it. Changing the grid while a search runs does not end
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

#if LUA_VERSION_NUM >= 502
#define set_grid_ref lua_setuservalue
#define get_grid_ref lua_getuservalue
#else
#define set_grid_ref lua_setfenv
#define get_grid_ref lua_getfenv
#endif

/* What a finished search keeps: cells[] holds the path's (x, y) pairs from
 * the start, then the expanded cells as the core numbers them (decoded by
 * stride: astar_search_stride), copied as they are, decoded when asked. */
typedef struct {
    AstarStatus status;
    double cost;
    size_t expanded, touched, restarts;
    size_t length, nexpanded;
    int sorted;               /* the expanded cells are in row order */
    size_t goal_index;        /* astar_search_goal_index */
    AstarAlgorithm algorithm; /* astar_search_algorithm */
    uint32_t stride;          /* of the expanded cells' numbers */
    uint32_t cells[];
} Finished;

typedef struct {
    AstarSearch *search;      /* scratch while it runs; NULL once finished or released */
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
    if (s->released && s->search) {
        AstarSearch *scratch = s->search;
        s->search = NULL;
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

/* Copies what the finished search at stack index idx will be asked for out
 * of its scratch, and gives the scratch back to the grid's pool. The copy is
 * allocated first; a finalizer that ran meanwhile may have released the
 * search, finished it (a nested call) or closed the grid. */
static void finish(lua_State *L, LuaSearch *s, int idx)
{
    AstarSearch *scratch = s->search;
    int found = s->status == ASTAR_FOUND || s->status == ASTAR_PARTIAL;
    size_t length = found ? astar_search_length(scratch) : 0, nexpanded, i;
    const uint32_t *recorded;
    AstarPathCursor at;
    Finished *f;

    nexpanded = astar_search_recorded(scratch, &recorded);
    f = (Finished *)lua_newuserdata(L, sizeof *f + (2 * length + nexpanded) * sizeof(uint32_t));
    if (s->search != scratch) {              /* released or finished meanwhile */
        lua_pop(L, 1);
        return;
    }
    s->search = NULL;
    if (s->owner->closed) {                  /* the path's cells are gone */
        pool_give(s->owner, scratch);
        lua_pop(L, 1);
        return;
    }
    f->status = s->status;
    f->cost = found ? astar_search_cost(scratch) : 0.0;
    f->expanded = astar_search_expanded(scratch);
    f->touched = astar_search_touched(scratch);
    f->restarts = astar_search_restarts(scratch);
    f->length = length;
    f->nexpanded = nexpanded;
    f->sorted = 0;
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
    if (f->nexpanded)
        memcpy(f->cells + 2 * length, recorded, f->nexpanded * sizeof *recorded);
    get_grid_ref(L, idx);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 2);
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
    luaL_getmetatable(L, SEARCH_TYPE);
    lua_setmetatable(L, -2);
    s->owner = g;
    s->rules = rules;
    s->goal_list = q.goal_list;
    lua_createtable(L, 2 + QR_COUNT, 0);  /* {grid, finished, rules...}: keeps them alive */
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    for (i = 0; i < QR_COUNT; i++) {
        if (!rules.index[i])
            continue;
        lua_pushvalue(L, rules.index[i]);
        lua_rawseti(L, -2, RULES_REF + i);
    }
    set_grid_ref(L, -2);
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
    s->search = scratch;               /* owned by s from here: its __gc gives it back */
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
    lua_createtable(L, 2 + QR_COUNT, 0);  /* the new {grid, finished, rules...} */
    uv = lua_gettop(L);
    get_grid_ref(L, 1);
    lua_rawgeti(L, -1, 1);
    lua_rawseti(L, uv, 1);
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
    scratch = s->search;
    if (!scratch)
        scratch = pool_take(s->owner);
    if (scratch)
        before = astar_search_memory(scratch);
    else if (!(scratch = astar_search_new()))
        return raise_error(L, "not enough memory");
    s->search = scratch;
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
        return astar_search_step(s->search, budget, error);
    started = monotonic_seconds();
    for (;;) {
        size_t chunk = limited && budget < STEP_CHUNK ? budget : STEP_CHUNK;
        status = astar_search_step(s->search, chunk, error);
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
    Arg a = method_arg("step", 1), at = method_arg("step", 2);
    double n = check_number(L, a, NULL), seconds = HUGE_VAL;
    size_t budget, before, grown = 0;
    AstarError error;
    char buf[32];

    if (!(n >= 1) || (n != floor(n) && !isinf(n)))
        return arg_error(L, a.number, a.fname, NULL,
                         "n must be a whole number >= 1 or math.huge, got %s",
                         number_text(buf, sizeof buf, n));
    if (!lua_isnoneornil(L, at.index)) {
        seconds = check_number(L, at, NULL);
        if (!(seconds > 0))
            return arg_error(L, at.number, at.fname, NULL,
                             "seconds must be a number > 0 or math.huge, got %s",
                             number_text(buf, sizeof buf, seconds));
    }
    budget = n >= 4294967296.0 ? 0 : (size_t)n;   /* 0: no limit */
    if (s->status == ASTAR_SEARCHING || s->stopped) {
        check_grid_alive(L, s);
        if (s->busy)
            return raise_error(L, "search:step called from one of its own rules");
        before = astar_search_memory(s->search);
        s->steps++;
        /* the exact lowest cost, as newSearch and findPath use (O(1) unless
         * the writes since made it a bound): a restart scales the heuristic
         * as a new query would; and component labels rebuilt once the search
         * has done about a rebuild's work since they went stale, so that a
         * goal walled off meanwhile ends it at once */
        astar_search_prepare_step(s->search, s->owner->grid);
        push_rules(L, s, 1);
        enter_core(s);
        s->status = step_for(s, budget, seconds, &error);
        leave_core(L, s, "step");
        if (error != ASTAR_OK)
            return raise_error(L, "not enough memory");
        grown = astar_search_memory(s->search) - before;
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
    size_t expanded = s->done ? s->done->expanded : s->search ? astar_search_expanded(s->search) : 0;
    size_t touched = s->done ? s->done->touched : s->search ? astar_search_touched(s->search) : 0;
    size_t restarts = s->done ? s->done->restarts : s->search ? astar_search_restarts(s->search) : 0;
    const char *algorithm = s->done     ? algorithm_name(s->done->algorithm)
                            : s->search ? algorithm_name(astar_search_algorithm(s->search))
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

/* The cells expanded so far, {x =, y =} in row order. While the search runs
 * they are copied out of its scratch first (a finalizer may step or release
 * it while tables are made); once finished, its copy is sorted in place. */
static int search_get_expanded(lua_State *L)
{
    LuaSearch *s = check_search(L, "getExpanded");
    const uint32_t *recorded;
    uint32_t *cells;
    size_t n, i;
    unsigned steps;
    uint32_t stride;

    for (;;) {
        check_open(L, s->owner);
        if (s->released)
            return raise_error(L, "attempt to use a released " SEARCH_TYPE);
        if (s->done) {
            Finished *f = s->done;
            cells = f->cells + 2 * f->length;
            n = f->nexpanded;
            stride = f->stride;
            if (!f->sorted)
                qsort(cells, n, sizeof *cells, compare_cells);
            f->sorted = 1;
            break;
        }
        if (!s->search)                /* closed while it finished */
            return raise_error(L, "attempt to use a closed " GRID_TYPE);
        steps = s->steps;
        n = astar_search_recorded(s->search, NULL);
        lua_settop(L, 1);
        cells = (uint32_t *)lua_newuserdata(L, n * sizeof *cells + 1);
        if (s->steps != steps || !s->search || s->released || s->owner->closed)
            continue;                  /* changed by a finalizer: look again */
        astar_search_recorded(s->search, &recorded);
        if (n)
            memcpy(cells, recorded, n * sizeof *cells);
        stride = astar_search_stride(s->search);
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

/* __gc and __close: gives the scratch back to the grid's pool; safe to call
 * twice. The grid's userdata outlives this call (the uservalue holds it). */
static int search_release(lua_State *L)
{
    LuaSearch *s = (LuaSearch *)luaL_checkudata(L, 1, SEARCH_TYPE);
    s->released = 1;
    if (s->search && !s->busy) {       /* busy: given back when the core returns */
        AstarSearch *scratch = s->search;
        s->search = NULL;
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
    {"__gc", search_release},
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
}
