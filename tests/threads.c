/*
 * Threads using the library at the same time, built and run under
 * ThreadSanitizer by `make threads-test` (the module and the C core are built
 * with -fsanitize=thread; the Lua interpreter is not, and is never shared).
 * Neither the module nor the core may keep mutable global state, and a grid
 * nobody changes may be searched by several threads at once (astar.h): any
 * write one thread makes where another reads is a data race TSan reports,
 * and every answer is compared with a single-threaded run. Three parts, each
 * with its threads released together from a barrier:
 *
 * 1. Four Lua states, each with its own `require "astar"`, build their own
 *    random grids and check findPath's cost against the specs' reference
 *    Dijkstra (spec/helpers/reference.lua) in every diagonal mode, moving
 *    each grid through encode/decode.
 * 2. One grid shared read-only through the C API: the main thread builds two
 *    grids (uniform costs; costs from 1 to 5), labels their components with
 *    astar_grid_prepare and answers a list of queries alone first (A* and
 *    jump point search, every diagonal mode, some weighted, some partial,
 *    some stepped a few nodes at a time); then four threads, each with its
 *    own AstarSearch and AstarRange, answer the same list in different orders
 *    and must match it exactly: status, cost (bit for bit), path, algorithm
 *    run, expansions; also movement ranges, attack areas, line of sight and
 *    the encoding of the shared grids.
 * 3. Four Lua states run the tactics layer (`require "astar.tactics"`:
 *    movementRange with function and table rules, attackRange with the
 *    built-in and a Lua line of sight, dangerZone), stepped searches
 *    (newSearch / step / result, checked against findPath) and astar.decode,
 *    all on grids decoded from one encoding that the threads share read-only
 *    as a C buffer. The main thread runs the same script alone first, also
 *    checking movement and attack areas against the specs' tactics reference
 *    (spec/helpers/tactics_reference.lua); every thread must produce the
 *    same transcript of answers, byte for byte.
 *
 * LUA_PATH / LUA_CPATH must point at the checkout (see mk/hardening.mk).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "astar.h"

#define THREADS 4

typedef struct {
    int id;
    long checked;
    char error[512];
    pthread_barrier_t *start_line;
} Job;

/* ---- Lua helpers ----------------------------------------------------------- */

/* A new state with the standard libraries and the given modules required;
 * NULL (and the message in error) if that fails. */
static lua_State *open_state(const char *const *modules, char *error, size_t size)
{
    lua_State *L = luaL_newstate();

    if (!L) {
        snprintf(error, size, "no memory for a Lua state");
        return NULL;
    }
    luaL_openlibs(L);
    for (; *modules; modules++) {
        lua_getglobal(L, "require");
        lua_pushstring(L, *modules);
        if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
            snprintf(error, size, "require '%s': %s", *modules, lua_tostring(L, -1));
            lua_close(L);
            return NULL;
        }
    }
    return L;
}

/* ---- 1. random grids against the reference Dijkstra ----------------------- */

static const char *const WORK =
    "local seed, rounds = ...\n"
    "local astar = require 'astar'\n"
    "local R = require 'helpers.reference'\n"
    "local rng = R.rng(seed)\n"
    "local checked = 0\n"
    "for round = 1, rounds do\n"
    "  local w, h = rng.int(8, 40), rng.int(8, 40)\n"
    "  local desc = R.random_map(rng, w, h, 0.25)\n"
    "  local grid = R.build_grid(astar, desc)\n"
    "  if grid.encode and astar.decode then grid = astar.decode(grid:encode()) end\n"
    "  for _, mode in ipairs(R.MODES) do\n"
    "    local sx, sy = rng.int(1, w), rng.int(1, h)\n"
    "    local dist = R.dijkstra(desc, mode, sx, sy)\n"
    "    for _ = 1, 8 do\n"
    "      local gx, gy = rng.int(1, w), rng.int(1, h)\n"
    "      local path, cost = grid:findPath(sx, sy, gx, gy, { diagonal = mode })\n"
    "      local best = dist[gx][gy]\n"
    "      if path then\n"
    "        assert(best and R.close(cost, best), ('round %d: cost %.17g, optimal %s'):format(round, cost, tostring(best)))\n"
    "        assert(R.validate(desc, mode, path, sx, sy, gx, gy))\n"
    "      else\n"
    "        assert(best == nil, 'no path, but the reference found one')\n"
    "      end\n"
    "      checked = checked + 1\n"
    "    end\n"
    "  end\n"
    "  if round % 4 == 0 then collectgarbage() end\n"
    "end\n"
    "return checked\n";

static void *run_reference(void *arg)
{
    static const char *const modules[] = {"astar", NULL};
    Job *job = (Job *)arg;
    lua_State *L = open_state(modules, job->error, sizeof job->error);

    job->checked = -1;
    /* the module is loaded in every state before anyone starts searching */
    pthread_barrier_wait(job->start_line);
    if (!L)
        return NULL;
    if (luaL_loadstring(L, WORK) != LUA_OK) {
        snprintf(job->error, sizeof job->error, "%s", lua_tostring(L, -1));
    } else {
        lua_pushinteger(L, 1000 + job->id);
        lua_pushinteger(L, 12);
        if (lua_pcall(L, 2, 1, 0) != LUA_OK)
            snprintf(job->error, sizeof job->error, "%s", lua_tostring(L, -1));
        else
            job->checked = (long)lua_tointeger(L, -1);
    }
    lua_close(L);
    return NULL;
}

/* ---- 2. one read-only grid, many searches (C API) ------------------------- */

#define SIDE 160
#define QUERIES 96
#define RANGES 12
#define SHARED_ROUNDS 4

typedef struct {
    int grid;                  /* 0: uniform costs, 1: costs 1..5 */
    uint32_t sx, sy, gx, gy;
    AstarOptions options;
    size_t step;               /* 0: astar_search_run, else begin + step(step) */
} Query;

typedef struct {
    AstarStatus status;
    AstarAlgorithm algorithm;
    double cost;
    size_t length, expanded;
    uint64_t path;             /* hash of the cells, goal to start */
} Answer;

typedef struct {
    size_t count;
    double cost_sum;
    uint64_t cells;            /* hash of (x, y, cost, parent, flags) in order */
    size_t attack_count;
    uint64_t attack;           /* hash of the attack area, in order */
} RangeAnswer;

typedef struct {
    AstarGrid *grid[2];
    Query query[QUERIES];
    Answer answer[QUERIES];    /* the single-threaded run */
    uint32_t range_start[RANGES][2];
    RangeAnswer range[RANGES][2];
    uint64_t encoding[2];
    uint64_t sight;            /* hash of line-of-sight answers */
} Shared;

typedef struct {
    Job job;
    const Shared *shared;
    long mismatches;
} CJob;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t i;

    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

#define FNV_START 14695981039346656037ull

static uint32_t next_random(uint64_t *state, uint32_t n)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*state >> 33) % n);
}

static int answer_query(AstarSearch *search, const AstarGrid *grid, const Query *q,
                        Answer *out)
{
    AstarError error = ASTAR_OK;
    AstarStatus status;

    if (q->step == 0) {
        status = astar_search_run(search, grid, q->sx, q->sy, q->gx, q->gy, &q->options,
                                  &error);
    } else {
        if (astar_search_begin(search, grid, q->sx, q->sy, q->gx, q->gy, &q->options)
            != ASTAR_OK)
            return 0;
        while ((status = astar_search_step(search, q->step, &error)) == ASTAR_SEARCHING)
            ;
    }
    if (error != ASTAR_OK)
        return 0;
    memset(out, 0, sizeof *out);
    out->status = status;
    out->algorithm = astar_search_algorithm(search);
    out->expanded = astar_search_expanded(search);
    out->path = FNV_START;
    if (status == ASTAR_FOUND || status == ASTAR_PARTIAL) {
        AstarPathCursor at;
        size_t k;

        out->cost = astar_search_cost(search);
        out->length = astar_search_length(search);
        astar_path_end(search, &at);
        for (k = 0; k < out->length; k++) {
            out->path = fnv(out->path, &at.x, sizeof at.x);
            out->path = fnv(out->path, &at.y, sizeof at.y);
            if (k + 1 < out->length)
                astar_path_back(search, &at);
        }
        if (at.x != q->sx || at.y != q->sy)
            return 0;
    }
    return 1;
}

static int same_answer(const Answer *a, const Answer *b)
{
    return a->status == b->status && a->algorithm == b->algorithm
           && memcmp(&a->cost, &b->cost, sizeof a->cost) == 0 && a->length == b->length
           && a->expanded == b->expanded && a->path == b->path;
}

typedef struct {
    const AstarGrid *grid;
    unsigned calls;
} RuleData;

/* A movement rule that depends on the cell only: costs 1..3, some cells
 * impassable, some that end the move, some that may not be stopped on. */
static double test_rule(void *user, uint32_t x, uint32_t y, double grid_cost, unsigned *flags)
{
    RuleData *r = (RuleData *)user;

    r->calls++;
    if ((x * 7 + y * 3) % 23 == 0)
        return INFINITY;
    if ((x + 2 * y) % 17 == 0)
        *flags |= ASTAR_RANGE_ENDS_MOVE;
    if ((3 * x + y) % 19 == 0)
        *flags |= ASTAR_RANGE_NO_STOP;
    return grid_cost + (double)((x ^ y) % 3);
}

static int test_sight(void *user, uint32_t fx, uint32_t fy, uint32_t tx, uint32_t ty)
{
    RuleData *r = (RuleData *)user;

    r->calls++;
    return astar_line_of_sight(r->grid, fx, fy, tx, ty);
}

static int answer_range(AstarRange *range, const AstarGrid *grid, const uint32_t start[2],
                        RangeAnswer *out)
{
    AstarRangeCell c, *from;
    RuleData data;
    size_t k, n;
    int aborted = 0;

    memset(out, 0, sizeof *out);
    data.grid = grid;
    data.calls = 0;
    if (astar_range_run(range, grid, start[0], start[1], 14.0, test_rule, &data, &aborted)
            != ASTAR_OK
        || aborted)
        return 0;
    n = astar_range_count(range);
    out->count = n;
    out->cells = FNV_START;
    from = (AstarRangeCell *)malloc((n ? n : 1) * sizeof *from);
    if (!from)
        return 0;
    for (k = 0; k < n; k++) {
        astar_range_get(range, k, &c);
        from[k] = c;
        out->cost_sum += c.cost;
        out->cells = fnv(out->cells, &c.x, sizeof c.x);
        out->cells = fnv(out->cells, &c.y, sizeof c.y);
        out->cells = fnv(out->cells, &c.cost, sizeof c.cost);
        out->cells = fnv(out->cells, &c.parent, sizeof c.parent);
        out->cells = fnv(out->cells, &c.flags, sizeof c.flags);
    }
    if (astar_range_attack(range, grid, from, n, 2, 4, test_sight, &data, &aborted)
            != ASTAR_OK
        || aborted) {
        free(from);
        return 0;
    }
    free(from);
    out->attack_count = astar_range_count(range);
    out->attack = FNV_START;
    for (k = 0; k < out->attack_count; k++) {
        astar_range_get(range, k, &c);
        out->attack = fnv(out->attack, &c.x, sizeof c.x);
        out->attack = fnv(out->attack, &c.y, sizeof c.y);
        out->attack = fnv(out->attack, &c.parent, sizeof c.parent);
    }
    return 1;
}

static void hash_writer(void *user, const void *bytes, size_t length)
{
    uint64_t *h = (uint64_t *)user;
    *h = fnv(*h, bytes, length);
}

static uint64_t encoding_hash(const AstarGrid *grid)
{
    AstarGridSettings settings;
    uint64_t h = FNV_START;

    memset(&settings, 0, sizeof settings);
    settings.diagonal = ASTAR_DIAGONAL_NO_OBSTACLES;
    settings.heuristic = ASTAR_HEURISTIC_OCTILE;
    settings.weight = 1.0;
    astar_grid_encode(grid, &settings, hash_writer, &h);
    return h;
}

static uint64_t sight_hash(const AstarGrid *grid, uint32_t salt)
{
    uint64_t h = FNV_START, state = 99 + salt;
    int k;

    for (k = 0; k < 400; k++) {
        uint32_t x0 = next_random(&state, SIDE), y0 = next_random(&state, SIDE);
        uint32_t x1 = next_random(&state, SIDE), y1 = next_random(&state, SIDE);
        unsigned char seen = (unsigned char)astar_line_of_sight(grid, x0, y0, x1, y1);
        h = fnv(h, &seen, 1);
    }
    return h;
}

/* Walls (about 28%) and, on grid 1, costs 1..5; a few long walls with gaps
 * make the paths wind. */
static int build_shared(Shared *s)
{
    uint64_t state = 20260;
    uint32_t x, y;
    int g, k;

    memset(s, 0, sizeof *s);
    for (g = 0; g < 2; g++) {
        if (astar_grid_new(&s->grid[g], SIDE, SIDE) != ASTAR_OK)
            return 0;
        for (y = 0; y < SIDE; y++)
            for (x = 0; x < SIDE; x++) {
                int wall = next_random(&state, 100) < 28 || (y % 32 == 16 && x % 40 != 7);
                if (wall)
                    astar_grid_set_walkable(s->grid[g], x, y, 0);
                if (g == 1 && astar_grid_set_cost(s->grid[g], x, y,
                                                  1.0 + next_random(&state, 5)) != ASTAR_OK)
                    return 0;
            }
        astar_grid_prepare(s->grid[g]);
    }
    for (k = 0; k < QUERIES; k++) {
        static const AstarDiagonal modes[4] = {
            ASTAR_DIAGONAL_NEVER, ASTAR_DIAGONAL_NO_OBSTACLES, ASTAR_DIAGONAL_ALWAYS,
            ASTAR_DIAGONAL_ONE_OBSTACLE};
        Query *q = &s->query[k];

        q->grid = (k / 4) % 2;
        q->sx = next_random(&state, SIDE);
        q->sy = next_random(&state, SIDE);
        q->gx = next_random(&state, SIDE);
        q->gy = next_random(&state, SIDE);
        q->options.diagonal = modes[k % 4];
        q->options.heuristic = q->options.diagonal == ASTAR_DIAGONAL_NEVER
                                   ? ASTAR_HEURISTIC_MANHATTAN
                                   : ASTAR_HEURISTIC_OCTILE;
        q->options.weight = k % 7 == 3 ? 1.5 : 1.0;
        q->options.partial = k % 5 == 2;
        q->options.algorithm = (AstarAlgorithm)((k / 8) % 3); /* auto, A*, JPS */
        q->step = k % 3 == 1 ? 1 + (size_t)next_random(&state, 40) : 0;
    }
    /* the jump tables, as findPath prepares them: built here, read by every thread */
    for (k = 0; k < QUERIES; k++)
        astar_grid_prepare_jumps(s->grid[s->query[k].grid], &s->query[k].options);
    for (k = 0; k < RANGES; k++) {
        s->range_start[k][0] = next_random(&state, SIDE);
        s->range_start[k][1] = next_random(&state, SIDE);
    }
    return 1;
}

/* The single-threaded answers, with a cross-check: jump point search and A*
 * agree on the cost wherever both run (weight 1, uniform costs). */
static int answer_alone(Shared *s)
{
    AstarSearch *search = astar_search_new();
    AstarRange *range = astar_range_new();
    int k, g, ok = 1, jps = 0;

    if (!search || !range) {
        astar_search_free(search);
        astar_range_free(range);
        return 0;
    }
    for (k = 0; k < QUERIES && ok; k++) {
        Query *q = &s->query[k];
        Answer *a = &s->answer[k];

        if (!answer_query(search, s->grid[q->grid], q, a)) {
            fprintf(stderr, "shared grid: query %d failed alone\n", k);
            ok = 0;
        } else if (a->algorithm == ASTAR_ALGORITHM_JPS && q->options.weight == 1.0) {
            Query other = *q;
            Answer b;

            other.options.algorithm = ASTAR_ALGORITHM_ASTAR;
            other.step = 0;
            jps++;
            if (!answer_query(search, s->grid[q->grid], &other, &b) || b.status != a->status
                || b.algorithm != ASTAR_ALGORITHM_ASTAR
                || fabs(b.cost - a->cost) > 1e-9 * (1 + a->cost)) {
                fprintf(stderr, "shared grid: query %d: JPS cost %.17g, A* %.17g\n", k,
                        a->cost, b.cost);
                ok = 0;
            }
        }
    }
    if (ok && jps < QUERIES / 8) {
        fprintf(stderr, "shared grid: only %d queries ran jump point search\n", jps);
        ok = 0;
    }
    for (k = 0; k < RANGES && ok; k++)
        for (g = 0; g < 2 && ok; g++)
            if (!answer_range(range, s->grid[g], s->range_start[k], &s->range[k][g])) {
                fprintf(stderr, "shared grid: range %d failed alone\n", k);
                ok = 0;
            }
    for (g = 0; g < 2; g++)
        s->encoding[g] = encoding_hash(s->grid[g]);
    s->sight = sight_hash(s->grid[0], 0);
    astar_search_free(search);
    astar_range_free(range);
    return ok;
}

static void *run_shared(void *arg)
{
    CJob *cj = (CJob *)arg;
    const Shared *s = cj->shared;
    AstarSearch *search = astar_search_new();
    AstarRange *range = astar_range_new();
    int round, k, g;

    cj->job.checked = 0;
    pthread_barrier_wait(cj->job.start_line);
    if (!search || !range) {
        snprintf(cj->job.error, sizeof cj->job.error, "no memory for a search");
        goto done;
    }
    for (round = 0; round < SHARED_ROUNDS; round++) {
        for (k = 0; k < QUERIES; k++) {
            /* each thread its own order: forwards or backwards from its offset */
            int i = (cj->job.id * QUERIES / THREADS
                     + ((cj->job.id + round) % 2 ? QUERIES - k : k)) % QUERIES;
            Answer a;

            if (!answer_query(search, s->grid[s->query[i].grid], &s->query[i], &a)
                || !same_answer(&a, &s->answer[i])) {
                if (!cj->mismatches++)
                    snprintf(cj->job.error, sizeof cj->job.error,
                             "query %d: status %d cost %.17g length %zu expanded %zu; "
                             "alone: status %d cost %.17g length %zu expanded %zu",
                             i, (int)a.status, a.cost, a.length, a.expanded,
                             (int)s->answer[i].status, s->answer[i].cost,
                             s->answer[i].length, s->answer[i].expanded);
            }
            cj->job.checked++;
        }
        for (k = 0; k < RANGES; k++)
            for (g = 0; g < 2; g++) {
                int i = (k + cj->job.id) % RANGES;
                RangeAnswer r;

                if (!answer_range(range, s->grid[g], s->range_start[i], &r)
                    || r.count != s->range[i][g].count || r.cells != s->range[i][g].cells
                    || r.cost_sum != s->range[i][g].cost_sum
                    || r.attack_count != s->range[i][g].attack_count
                    || r.attack != s->range[i][g].attack) {
                    if (!cj->mismatches++)
                        snprintf(cj->job.error, sizeof cj->job.error,
                                 "range %d on grid %d: %zu cells, %zu attacked; alone %zu, %zu",
                                 i, g, r.count, r.attack_count, s->range[i][g].count,
                                 s->range[i][g].attack_count);
                }
                cj->job.checked++;
            }
        for (g = 0; g < 2; g++) {
            if (encoding_hash(s->grid[g]) != s->encoding[g] && !cj->mismatches++)
                snprintf(cj->job.error, sizeof cj->job.error, "encoding of grid %d differs", g);
            if (!astar_grid_components_fresh(s->grid[g]) && !cj->mismatches++)
                snprintf(cj->job.error, sizeof cj->job.error, "grid %d labels went stale", g);
        }
        if (sight_hash(s->grid[0], 0) != s->sight && !cj->mismatches++)
            snprintf(cj->job.error, sizeof cj->job.error, "line of sight differs");
        cj->job.checked += 3;
    }
done:
    astar_search_free(search);
    astar_range_free(range);
    return NULL;
}

static int part_shared(void)
{
    static Shared shared; /* written before the threads start, read-only after */
    pthread_t threads[THREADS];
    pthread_barrier_t start_line;
    CJob jobs[THREADS];
    uint64_t version[2];
    int i, bad = 0;

    if (!build_shared(&shared) || !answer_alone(&shared)) {
        fprintf(stderr, "shared grid: the single-threaded run failed\n");
        return 1;
    }
    version[0] = astar_grid_version(shared.grid[0]);
    version[1] = astar_grid_version(shared.grid[1]);
    pthread_barrier_init(&start_line, NULL, THREADS);
    for (i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].job.id = i;
        jobs[i].job.start_line = &start_line;
        jobs[i].shared = &shared;
        if (pthread_create(&threads[i], NULL, run_shared, &jobs[i]) != 0) {
            fprintf(stderr, "cannot start thread %d\n", i);
            exit(1);
        }
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start_line);
    for (i = 0; i < THREADS; i++) {
        if (jobs[i].job.error[0]) {
            fprintf(stderr, "shared grid, thread %d: %ld mismatches; first: %s\n", i,
                    jobs[i].mismatches, jobs[i].job.error);
            bad = 1;
        } else {
            printf("shared grid, thread %d: %ld answers equal to the single-threaded run\n",
                   i, jobs[i].job.checked);
        }
    }
    if (astar_grid_version(shared.grid[0]) != version[0]
        || astar_grid_version(shared.grid[1]) != version[1]) {
        fprintf(stderr, "shared grid: the searches changed the grid's version\n");
        bad = 1;
    }
    astar_grid_free(shared.grid[0]);
    astar_grid_free(shared.grid[1]);
    return bad;
}

/* ---- 3. tactics, stepped searches and decode in Lua states ------------------ */

/* Makes the shared map: walls, costs 1..4 and a zone of walls, encoded. */
static const char *const MAKE_MAP =
    "local astar = require 'astar'\n"
    "local g = astar.new(30, 22)\n"
    "local s = 7\n"
    "local function rnd(n) s = (s * 1103515245 + 12345) % 2147483648; return s % n end\n"
    "for y = 1, 22 do for x = 1, 30 do\n"
    "  if rnd(100) < 22 and not (x <= 2 and y <= 2) then g:setWalkable(x, y, false)\n"
    "  else g:setCost(x, y, 1 + rnd(4)) end\n"
    "end end\n"
    "g:setDiagonal('one-obstacle')\n"
    "return g:encode()\n";

/* The Lua side of part 3 is tests/threads_tactics.lua (run from the
 * checkout's root, as make does). */
#define TACTICS_SCRIPT "tests/threads_tactics.lua"

typedef struct {
    Job job;
    const char *bytes;         /* the shared encoding (read-only) */
    size_t length;
    char *transcript;          /* malloc'ed, owned by the job */
    size_t transcript_length;
} LuaJob;

/* Runs TACTICS in L; the transcript is copied into job. */
static void run_tactics_in(lua_State *L, LuaJob *job, int check, int rounds)
{
    if (luaL_loadfile(L, TACTICS_SCRIPT) != LUA_OK) {
        snprintf(job->job.error, sizeof job->job.error, "%s", lua_tostring(L, -1));
        return;
    }
    lua_pushlstring(L, job->bytes, job->length);
    lua_pushboolean(L, check);
    lua_pushinteger(L, rounds);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        snprintf(job->job.error, sizeof job->job.error, "%s", lua_tostring(L, -1));
        return;
    }
    {
        size_t n;
        const char *t = lua_tolstring(L, -1, &n);
        job->transcript = (char *)malloc(n + 1);
        if (!job->transcript) {
            snprintf(job->job.error, sizeof job->job.error, "no memory for the transcript");
            return;
        }
        memcpy(job->transcript, t, n + 1);
        job->transcript_length = n;
        job->job.checked = 0;
        for (; *t; t++)
            job->job.checked += *t == '\n';
    }
}

#define TACTICS_ROUNDS 8

static void *run_lua_tactics(void *arg)
{
    static const char *const modules[] = {"astar", "astar.tactics", NULL};
    LuaJob *job = (LuaJob *)arg;
    lua_State *L = open_state(modules, job->job.error, sizeof job->job.error);

    pthread_barrier_wait(job->job.start_line);
    if (!L)
        return NULL;
    run_tactics_in(L, job, 0, TACTICS_ROUNDS);
    lua_close(L);
    return NULL;
}

static int part_tactics(void)
{
    static const char *const modules[] = {"astar", "astar.tactics", NULL};
    pthread_t threads[THREADS];
    pthread_barrier_t start_line;
    LuaJob alone, jobs[THREADS];
    char *bytes = NULL, error[512] = "";
    size_t length = 0;
    int i, bad = 0;
    lua_State *L;

    /* the encoding, then the single-threaded transcript (with reference checks) */
    L = open_state(modules, error, sizeof error);
    if (!L) {
        fprintf(stderr, "tactics: %s\n", error);
        return 1;
    }
    if (luaL_loadstring(L, MAKE_MAP) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
        fprintf(stderr, "tactics: making the map: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 1;
    }
    {
        const char *s = lua_tolstring(L, -1, &length);
        bytes = (char *)malloc(length);
        if (!bytes) {
            lua_close(L);
            return 1;
        }
        memcpy(bytes, s, length);
    }
    memset(&alone, 0, sizeof alone);
    alone.bytes = bytes;
    alone.length = length;
    run_tactics_in(L, &alone, 1, 1);
    lua_close(L);
    if (alone.job.error[0]) {
        fprintf(stderr, "tactics, alone: %s\n", alone.job.error);
        free(bytes);
        return 1;
    }
    printf("tactics alone: %ld answers (one round), checked against the reference\n",
           alone.job.checked);

    pthread_barrier_init(&start_line, NULL, THREADS);
    for (i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].job.id = i;
        jobs[i].job.start_line = &start_line;
        jobs[i].bytes = bytes;
        jobs[i].length = length;
        if (pthread_create(&threads[i], NULL, run_lua_tactics, &jobs[i]) != 0) {
            fprintf(stderr, "cannot start thread %d\n", i);
            exit(1);
        }
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start_line);
    for (i = 0; i < THREADS; i++) {
        const LuaJob *j = &jobs[i];
        int same = !j->job.error[0]
                   && j->transcript_length == TACTICS_ROUNDS * alone.transcript_length
                                                  + (TACTICS_ROUNDS - 1);
        int r;

        /* every round's transcript equals the single-threaded one */
        for (r = 0; same && r < TACTICS_ROUNDS; r++)
            same = memcmp(j->transcript + r * (alone.transcript_length + 1), alone.transcript,
                          alone.transcript_length)
                   == 0;
        if (j->job.error[0]) {
            fprintf(stderr, "tactics, thread %d: %s\n", i, j->job.error);
            bad = 1;
        } else if (!same) {
            fprintf(stderr, "tactics, thread %d: answers differ from the single-threaded run\n",
                    i);
            bad = 1;
        } else {
            printf("tactics, thread %d: %ld answers equal to the single-threaded run\n", i,
                   j->job.checked + 1);
        }
        free(jobs[i].transcript);
    }
    free(alone.transcript);
    free(bytes);
    return bad;
}

/* ---- main ------------------------------------------------------------------------ */

static int part_reference(void)
{
    pthread_t threads[THREADS];
    pthread_barrier_t start_line;
    Job jobs[THREADS];
    int i, bad = 0;

    pthread_barrier_init(&start_line, NULL, THREADS);
    for (i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].id = i;
        jobs[i].start_line = &start_line;
        if (pthread_create(&threads[i], NULL, run_reference, &jobs[i]) != 0) {
            fprintf(stderr, "cannot start thread %d\n", i);
            exit(1);
        }
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start_line);
    for (i = 0; i < THREADS; i++) {
        if (jobs[i].error[0]) {
            fprintf(stderr, "thread %d: %s\n", i, jobs[i].error);
            bad = 1;
        } else {
            printf("thread %d: %ld paths checked\n", i, jobs[i].checked);
        }
    }
    return bad;
}

int main(void)
{
    int failed = 0;

    failed |= part_reference();
    failed |= part_shared();
    failed |= part_tactics();
    printf("threads: %s\n", failed ? "FAILED" : "ok");
    return failed;
}
