/*
 * Argument checks shared by the binding's files. Each raises a Lua error in
 * lauxlib's form, "bad argument #N to 'fname' (...)", with the same text on
 * every Lua version; `prefix` (may be NULL) names an options-table field, as
 * in "opts.weight: ".
 */
#ifndef ASTAR_LUA_ARGS_H
#define ASTAR_LUA_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include "../core/astar.h"

/* An argument as the caller sees it: its stack index, the number printed in
 * messages (methods do not count self), and the function's name. */
typedef struct {
    int index, number;
    const char *fname;
} Arg;

extern const char *const DIAGONAL_NAMES[];   /* by AstarDiagonal, NULL-terminated */
extern const char *const HEURISTIC_NAMES[];  /* by AstarHeuristic, NULL-terminated */

const char *number_text(char *buf, size_t size, double v);
/* Copies a user's string for an error message: at most 40 bytes, bytes that
 * would garble a terminal shown as '?', and "..." when it was cut. buf needs
 * 44 bytes for the whole of it. */
const char *quoted(char *buf, size_t size, const char *s, size_t len);
/* Raises a Lua error with a printf-formatted message and no position prefix,
 * so a message reads the same wherever the call came from. */
int raise_error(lua_State *L, const char *fmt, ...);
int arg_error(lua_State *L, int arg, const char *fname, const char *prefix,
              const char *fmt, ...);
int type_error(lua_State *L, Arg a, const char *prefix, const char *expected);

double check_number(lua_State *L, Arg a, const char *prefix);
/* A whole number in 1..max, returned 0-based; `name` is used in messages. */
uint32_t check_index(lua_State *L, Arg a, const char *name, uint32_t max);
int check_boolean(lua_State *L, Arg a, const char *prefix);
/* Position of the string at stack index in names[] (NULL-terminated), or -1.
 * Whole strings are compared: "never\0x" is not "never". */
int find_name(lua_State *L, int index, const char *const names[]);
/* The key at stack index `key` of options table argument `a`, as a position
 * in names[]; any other key is an error ("unknown option 'x'"). */
int check_option_name(lua_State *L, Arg a, int key, const char *const names[]);
/* One of names[] (NULL-terminated); returns its position. */
int check_name(lua_State *L, Arg a, const char *prefix, const char *what,
               const char *const names[], const char *expected);
/* A diagonal mode name; on a hex board (hex nonzero), which has no diagonal
 * moves, "never" alone. */
AstarDiagonal check_diagonal(lua_State *L, Arg a, const char *prefix, int hex);
AstarHeuristic check_heuristic(lua_State *L, Arg a, const char *prefix);
double check_weight(lua_State *L, Arg a, const char *prefix);
/* opts.size (large units): a whole number from 1 to 65535. */
uint32_t check_unit_size(lua_State *L, Arg a);
/* The budget of a step method, step(count [, seconds]), count at argument a
 * and seconds the one after: count a whole number >= 1 or math.huge, named
 * `name` in messages; seconds a number > 0, HUGE_VAL when absent (math.huge:
 * no limit). */
void check_step_budget(lua_State *L, Arg a, const char *name, double *count, double *seconds);

#endif
