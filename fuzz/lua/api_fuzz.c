/*
 * libFuzzer target: the Lua API (module astar.core through require "astar"
 * and require "astar.tactics"), driven by fuzz/lua/api_driver.lua.
 *
 * Each input runs in a Lua state of its own (nothing carries over from one
 * input to the next, so a crash replays from its input alone): Debian's
 * static Lua 5.4, the binding and core linked in and registered as
 * package.preload["astar.core"], package.path = lua/ of the checkout (run
 * the binary from the repository root). The driver decodes the bytes into a
 * program of API calls and checks every answer; a failed check aborts here,
 * so libFuzzer keeps the input.
 *
 * The driver is compiled into the binary (build/fuzz/lua_api_driver.h, made
 * from fuzz/lua/api_driver.lua by mk/fuzz_lua.mk). Environment:
 *   ASTAR_FUZZ_PRINT=1       print each input's program (Lua) on stderr
 *   ASTAR_FUZZ_CONTRACT=0    skip the checks of the robustness contract
 *                            (issue 10) on calls whose callbacks or
 *                            finalizers acted: crashes and plain answers only
 *   ASTAR_FUZZ_PROGRAM=1     the input is a program (as printed) to run: for
 *                            cutting a failing program down by hand, under
 *                            the same sanitizers and memory layout
 *   ASTAR_FUZZ_DRIVER=FILE   use this driver instead of the built-in one
 *   ASTAR_BACKEND=lua        run the programs on the pure-Lua backend
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lua_api_driver.h"   /* static const char LUA_API_DRIVER[] */

int luaopen_astar_core(lua_State *L);

#define MEMORY_LIMIT ((size_t)512 << 20)

typedef struct {
    char *driver;            /* the driver's bytecode */
    size_t driver_size, driver_capacity;
    int print;
    int contract;
    int program;
} Config;

static Config config;

typedef struct {
    size_t used;
} Heap;

/* lua_Alloc with a ceiling: a runaway program gets "not enough memory". */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    Heap *h = (Heap *)ud;
    size_t old = ptr ? osize : 0;
    void *p;

    if (nsize == 0) {
        free(ptr);
        h->used -= old;
        return NULL;
    }
    if (nsize > old && nsize - old > MEMORY_LIMIT - h->used)
        return NULL;
    p = realloc(ptr, nsize);
    if (p)
        h->used = h->used - old + nsize;
    return p;
}

/* lua_dump's writer: many small pieces, so the buffer grows geometrically. */
static int add_bytes(lua_State *L, const void *p, size_t size, void *ud)
{
    Config *c = (Config *)ud;
    (void)L;
    if (size > c->driver_capacity - c->driver_size) {
        size_t capacity = 2 * (c->driver_size + size);
        char *grown = realloc(c->driver, capacity);
        if (!grown)
            return 1;
        c->driver = grown;
        c->driver_capacity = capacity;
    }
    memcpy(c->driver + c->driver_size, p, size);
    c->driver_size += size;
    return 0;
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = malloc((size_t)n + 1);
        if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
            free(text);
            text = NULL;
        }
        *size = (size_t)n;
    }
    fclose(f);
    return text;
}

static int env_flag(const char *name, int fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    return strcmp(v, "0") != 0;
}

/* Compiles the driver once; every input loads the bytecode. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *path = getenv("ASTAR_FUZZ_DRIVER");
    const char *text = LUA_API_DRIVER;
    size_t size = sizeof LUA_API_DRIVER - 1;
    char *loaded = NULL;
    lua_State *L;

    (void)argc;
    (void)argv;
    config.print = env_flag("ASTAR_FUZZ_PRINT", 0);
    config.contract = env_flag("ASTAR_FUZZ_CONTRACT", 1);
    config.program = env_flag("ASTAR_FUZZ_PROGRAM", 0);
    if (path && *path) {
        loaded = read_file(path, &size);
        if (!loaded) {
            fprintf(stderr, "api_fuzz: cannot read %s\n", path);
            exit(2);
        }
        text = loaded;
    }
    L = luaL_newstate();
    if (!L || luaL_loadbuffer(L, text, size, "=api_driver.lua") != LUA_OK
        || lua_dump(L, add_bytes, &config, 0) != 0) {
        fprintf(stderr, "api_fuzz: cannot compile the driver: %s\n",
                L ? lua_tostring(L, -1) : "no memory");
        exit(2);
    }
    lua_close(L);
    free(loaded);
    return 0;
}

static void fail(lua_State *L, const char *what)
{
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "%s\n%s\n", what, msg ? msg : "(no message)");
    fflush(stderr);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Heap heap = {0};
    lua_State *L = lua_newstate(limited_alloc, &heap);

    if (!L)
        return 0;
    luaL_openlibs(L);
    lua_getglobal(L, "package");
    lua_pushliteral(L, "lua/?.lua;lua/?/init.lua");
    lua_setfield(L, -2, "path");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "cpath");
    lua_getfield(L, -1, "preload");
    lua_pushcfunction(L, luaopen_astar_core);
    lua_setfield(L, -2, "astar.core");
    lua_pop(L, 2);

    if (luaL_loadbufferx(L, config.driver, config.driver_size, "=api_driver.lua", "b") != LUA_OK)
        fail(L, "api_fuzz: cannot load the driver");
    if (lua_pcall(L, 0, 1, 0) != LUA_OK)
        fail(L, "api_fuzz: the driver raised an error");
    lua_getfield(L, -1, "run");
    lua_pushlstring(L, (const char *)data, size);
    lua_createtable(L, 0, 3);
    lua_pushboolean(L, config.program);
    lua_setfield(L, -2, "program");
    lua_pushboolean(L, config.print);
    lua_setfield(L, -2, "print");
    lua_pushboolean(L, config.contract);
    lua_setfield(L, -2, "contract");
    if (lua_pcall(L, 2, 1, 0) != LUA_OK)
        fail(L, "api_fuzz: the driver raised an error");
    if (!lua_isnil(L, -1))
        fail(L, "api_fuzz: a check failed");
    lua_close(L);
    return 0;
}
