/*
 * Four Lua states on four threads, each with its own `require "astar"`,
 * searching at the same time (built and run under ThreadSanitizer by
 * `make threads-test`). The module must keep no mutable global state: any
 * shared write between the threads is a data race TSan reports.
 *
 * Every thread waits at a barrier after loading the module, then builds its
 * own random grids and checks findPath's cost against the specs' reference
 * Dijkstra (spec/helpers/reference.lua), for every diagonal mode, and moves
 * a grid through encode/decode when the module has it. LUA_PATH / LUA_CPATH
 * must point at the checkout (see mk/hardening.mk).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include <pthread.h>
#include <stdio.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#define THREADS 4

static pthread_barrier_t start_line;

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

typedef struct {
    int id;
    long checked;
    char error[512];
} Job;

static void *run(void *arg)
{
    Job *job = (Job *)arg;
    lua_State *L = luaL_newstate();

    job->checked = -1;
    if (!L) {
        snprintf(job->error, sizeof job->error, "no memory for a Lua state");
        pthread_barrier_wait(&start_line);
        return NULL;
    }
    luaL_openlibs(L);
    /* load the module in every state before anyone starts searching */
    lua_getglobal(L, "require");
    lua_pushstring(L, "astar");
    if (lua_pcall(L, 1, 0, 0) != LUA_OK)
        snprintf(job->error, sizeof job->error, "%s", lua_tostring(L, -1));
    pthread_barrier_wait(&start_line);
    if (!job->error[0]) {
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
    }
    lua_close(L);
    return NULL;
}

int main(void)
{
    pthread_t threads[THREADS];
    Job jobs[THREADS];
    int i, failed = 0;

    pthread_barrier_init(&start_line, NULL, THREADS);
    for (i = 0; i < THREADS; i++) {
        jobs[i].id = i;
        jobs[i].error[0] = '\0';
        if (pthread_create(&threads[i], NULL, run, &jobs[i]) != 0) {
            fprintf(stderr, "cannot start thread %d\n", i);
            return 1;
        }
    }
    for (i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start_line);
    for (i = 0; i < THREADS; i++) {
        if (jobs[i].error[0]) {
            fprintf(stderr, "thread %d: %s\n", i, jobs[i].error);
            failed = 1;
        } else {
            printf("thread %d: %ld paths checked\n", i, jobs[i].checked);
        }
    }
    return failed;
}
