/* Argument checks for the binding: lauxlib-style messages, formatted here so
 * every Lua version prints the same text. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

const char *const DIAGONAL_NAMES[] = {
    "never", "always", "one-obstacle", "no-obstacles", NULL};
const char *const HEURISTIC_NAMES[] = {
    "manhattan", "octile", "euclidean", "chebyshev", "dijkstra", NULL};

/* Formats a number the same way on every Lua: %.14g, or %.17g when that does
 * not read back as the same number (1e15 + 0.125 is 1000000000000000.1, not
 * 1e+15); nan, inf, -inf. buf needs 25 bytes for every double. */
const char *number_text(char *buf, size_t size, double v)
{
    if (v != v)
        return "nan";
    if (isinf(v))
        return v > 0 ? "inf" : "-inf";
    snprintf(buf, size, "%.14g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, size, "%.17g", v);
    return buf;
}

int raise_error(lua_State *L, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    lua_pushstring(L, message);
    return lua_error(L);
}

/* Raises "bad argument #arg to 'fname' (message)"; a prefix such as
 * "opts.weight: " goes in front of the message when non-NULL. */
int arg_error(lua_State *L, int arg, const char *fname, const char *prefix,
              const char *fmt, ...)
{
    char message[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return raise_error(L, "bad argument #%d to '%s' (%s%s)", arg, fname,
                      prefix ? prefix : "", message);
}

int type_error(lua_State *L, Arg a, const char *prefix, const char *expected)
{
    return arg_error(L, a.number, a.fname, prefix, "%s expected, got %s", expected,
                     luaL_typename(L, a.index));
}

double check_number(lua_State *L, Arg a, const char *prefix)
{
    if (lua_type(L, a.index) != LUA_TNUMBER)
        type_error(L, a, prefix, "number");
    return (double)lua_tonumber(L, a.index);
}

/* A whole number in 1..max, returned 0-based. */
uint32_t check_index(lua_State *L, Arg a, const char *name, uint32_t max)
{
    double v = check_number(L, a, NULL);
    char buf[32];
    if (v != floor(v) || isinf(v))
        arg_error(L, a.number, a.fname, NULL, "%s must be a whole number, got %s", name,
                  number_text(buf, sizeof buf, v));
    if (v < 1 || v > max)
        arg_error(L, a.number, a.fname, NULL, "%s out of range 1..%u", name, (unsigned)max);
    return (uint32_t)v - 1;
}

int check_boolean(lua_State *L, Arg a, const char *prefix)
{
    if (lua_type(L, a.index) != LUA_TBOOLEAN)
        type_error(L, a, prefix, "boolean");
    return lua_toboolean(L, a.index);
}

/* Copies a user's string for an error message: at most 40 bytes, bytes that
 * would garble a terminal shown as '?', and "..." when it was cut. */
const char *quoted(char *buf, size_t size, const char *s, size_t len)
{
    size_t i, n = len < 40 ? len : 40;
    if (n + 4 > size)
        n = size - 4;
    for (i = 0; i < n; i++)
        buf[i] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    strcpy(buf + n, n < len ? "..." : "");
    return buf;
}

int find_name(lua_State *L, int index, const char *const names[])
{
    size_t len;
    const char *s = lua_tolstring(L, index, &len);
    int i;
    for (i = 0; names[i]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

int check_name(lua_State *L, Arg a, const char *prefix, const char *what,
               const char *const names[], const char *expected)
{
    char buf[48];
    size_t len;
    const char *s;
    int i;
    if (lua_type(L, a.index) != LUA_TSTRING)
        type_error(L, a, prefix, "string");
    if ((i = find_name(L, a.index, names)) >= 0)
        return i;
    s = lua_tolstring(L, a.index, &len);
    return arg_error(L, a.number, a.fname, prefix, "unknown %s '%s'; expected %s", what,
                     quoted(buf, sizeof buf, s, len), expected);
}

int check_option_name(lua_State *L, Arg a, int key, const char *const names[])
{
    char buf[48];
    size_t len;
    const char *s;
    int i;
    if (lua_type(L, key) != LUA_TSTRING)
        return arg_error(L, a.number, a.fname, NULL, "option names must be strings, got %s",
                         luaL_typename(L, key));
    if ((i = find_name(L, key, names)) >= 0)
        return i;
    s = lua_tolstring(L, key, &len);
    return arg_error(L, a.number, a.fname, NULL, "unknown option '%s'",
                     quoted(buf, sizeof buf, s, len));
}

AstarDiagonal check_diagonal(lua_State *L, Arg a, const char *prefix, int hex)
{
    int d = check_name(L, a, prefix, "diagonal mode", DIAGONAL_NAMES,
                       "never, always, one-obstacle or no-obstacles");
    if (hex && d != ASTAR_DIAGONAL_NEVER)
        arg_error(L, a.number, a.fname, prefix,
                  "diagonal mode '%s' is not supported on hex grids; expected never",
                  DIAGONAL_NAMES[d]);
    return (AstarDiagonal)d;
}

AstarHeuristic check_heuristic(lua_State *L, Arg a, const char *prefix)
{
    return (AstarHeuristic)check_name(
        L, a, prefix, "heuristic", HEURISTIC_NAMES,
        "manhattan, octile, euclidean, chebyshev or dijkstra");
}

double check_weight(lua_State *L, Arg a, const char *prefix)
{
    double w = check_number(L, a, prefix);
    char buf[32];
    if (!(w >= 1) || isinf(w))
        arg_error(L, a.number, a.fname, prefix, "weight must be a finite number >= 1, got %s",
                  number_text(buf, sizeof buf, w));
    return w;
}

uint32_t check_unit_size(lua_State *L, Arg a)
{
    double n = check_number(L, a, "opts.size: ");
    char buf[32];
    if (!(n >= 1 && n <= (double)ASTAR_MAX_SIDE) || n != floor(n))
        arg_error(L, a.number, a.fname, NULL,
                  "opts.size must be a whole number from 1 to 65535, got %s",
                  number_text(buf, sizeof buf, n));
    return (uint32_t)n;
}

void check_step_budget(lua_State *L, Arg a, const char *name, double *count, double *seconds)
{
    Arg at = {a.index + 1, a.number + 1, a.fname};
    double n = check_number(L, a, NULL);
    char buf[32];

    if (!(n >= 1) || (n != floor(n) && !isinf(n)))
        arg_error(L, a.number, a.fname, NULL,
                  "%s must be a whole number >= 1 or math.huge, got %s", name,
                  number_text(buf, sizeof buf, n));
    *count = n;
    *seconds = HUGE_VAL;
    if (!lua_isnoneornil(L, at.index)) {
        *seconds = check_number(L, at, NULL);
        if (!(*seconds > 0))
            arg_error(L, at.number, at.fname, NULL,
                      "seconds must be a number > 0 or math.huge, got %s",
                      number_text(buf, sizeof buf, *seconds));
    }
}
