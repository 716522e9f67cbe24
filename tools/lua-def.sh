#!/bin/sh
# Writes the module-definition (.def) file of a Lua DLL, listing exactly the Lua
# C API functions the given objects call, so that dlltool can make an import
# library for it (lua51.dll of LÖVE 11 / LuaJIT, lua54.dll of Lua 5.4) without
# the DLL itself. Used by mk/windows.mk.
#
# Usage: tools/lua-def.sh NM DLL-NAME LUA-INCLUDE-DIR OBJECT... > out.def
#
#   NM                the cross nm (x86_64-w64-mingw32-nm, i686-w64-mingw32-nm)
#   DLL-NAME          the DLL the module will import from: lua51.dll, lua54.dll
#   LUA-INCLUDE-DIR   the headers the objects were compiled with
#
# Every function listed must be declared LUA_API or LUALIB_API in that Lua's
# lua.h / lauxlib.h: only those are exported by a Lua DLL (built with
# LUA_BUILD_AS_DLL), so anything else (a macro of another Lua version compiled
# in by mistake, an internal function) fails here, not on a player's machine.
# On 32-bit x86 the objects' C symbols carry a leading underscore; the .def
# lists the undecorated names the DLL exports (dlltool adds the underscore).
set -eu
if [ $# -lt 4 ]; then
    echo "usage: $0 NM DLL-NAME LUA-INCLUDE-DIR OBJECT..." >&2
    exit 2
fi
nm=$1 dll=$2 inc=$3
shift 3

# lua_* / luaL_* names: the undefined ones, less those an object itself defines
# (a function of the module's own that wears the prefix is no import).
lua_names() { sed -n 's/^_\{0,1\}\(luaL\{0,1\}_[A-Za-z0-9_]*\)$/\1/p' | sort -u; }
defined=$("$nm" --defined-only "$@" | awk 'NF >= 3 { print $NF }' | lua_names)
symbols=$("$nm" -u "$@" | awk 'NF >= 2 { print $NF }' | lua_names \
    | { if [ -n "$defined" ]; then grep -vxF "$defined" || true; else cat; fi; })
if [ -z "$symbols" ]; then
    echo "$0: the objects call no Lua API function (wrong objects?)" >&2
    exit 1
fi

bad=""
for s in $symbols; do
    grep -Eq "^LUA(LIB)?_API[^;]*\(${s}\)" "$inc/lua.h" "$inc/lauxlib.h" || bad="$bad $s"
done
if [ -n "$bad" ]; then
    echo "$0: not part of the C API in $inc (a DLL does not export them):$bad" >&2
    exit 1
fi

echo "; $dll: the Lua C API functions astar/core.dll imports (tools/lua-def.sh)"
echo "LIBRARY $dll"
echo "EXPORTS"
for s in $symbols; do
    echo "    $s"
done
