/*
 * A stand-in for lua51.dll / lua54.dll in make windows-test: every Lua C API
 * function astar/core.dll imports is exported under its own name (the .def
 * that tools/lua-def.sh wrote, each name aliased to astar_lua_stub), so the
 * Windows loader can resolve core.dll's imports. Nothing calls them; if
 * anything did, it would stop the process with exit status 3.
 */
#include <stdlib.h>

void astar_lua_stub(void);

void astar_lua_stub(void)
{
    exit(3);
}
