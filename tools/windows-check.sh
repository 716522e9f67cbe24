#!/bin/sh
# Checks a cross-compiled astar/core.dll without Windows: it must export
# luaopen_astar_core and nothing else, and import only from the Lua DLL, the C
# runtime (msvcrt.dll) and KERNEL32.dll. Prints what it found; exits 1 and
# names the offenders otherwise. Used by mk/windows.mk (make windows-test).
#
# Usage: tools/windows-check.sh OBJDUMP DLL LUA-DLL-NAME
#   e.g. tools/windows-check.sh x86_64-w64-mingw32-objdump \
#            build/windows/love-win64/astar/core.dll lua51.dll
#
# KERNEL32.dll and msvcrt.dll come with any mingw-w64 DLL: the DLL start-up
# code (critical sections, TLS, pseudo-relocations) calls KERNEL32, and the C
# library is msvcrt.dll; both are part of every Windows since XP. libgcc is
# linked statically (-static-libgcc), so no libgcc_s_*.dll.
set -eu
if [ $# -ne 3 ]; then
    echo "usage: $0 OBJDUMP DLL LUA-DLL-NAME" >&2
    exit 2
fi
objdump=$1 dll=$2 luadll=$3

dump=$("$objdump" -p "$dll")
# The names in the export table: the lines after "[Ordinal/Name Pointer] Table"
# up to the next blank line.
exports=$(printf '%s\n' "$dump" | awk '
    /^\[Ordinal\/Name Pointer\] Table/ { on = 1; next }
    on && /^[[:space:]]*$/ { on = 0 }
    on { print $NF }')
imports=$(printf '%s\n' "$dump" | awk '/DLL Name:/ { print $3 }')

status=0
echo "$dll"
echo "  exports: $(echo $exports)"
echo "  imports: $(echo $imports)"
if [ "$(echo $exports)" != "luaopen_astar_core" ]; then
    echo "  FAILED: must export luaopen_astar_core and nothing else" >&2
    status=1
fi
want_lua=no
for i in $imports; do
    lower=$(printf '%s' "$i" | tr 'A-Z' 'a-z')
    case "$lower" in
        "$luadll") want_lua=yes ;;
        msvcrt.dll|kernel32.dll) ;;
        *) echo "  FAILED: imports from $i (allowed: $luadll, msvcrt.dll, KERNEL32.dll)" >&2
           status=1 ;;
    esac
done
if [ "$want_lua" = no ]; then
    echo "  FAILED: does not import from $luadll" >&2
    status=1
fi
# What it takes from the Lua DLL, for the record (all must exist there:
# tools/lua-def.sh checked each is LUA_API / LUALIB_API).
n=$(printf '%s\n' "$dump" | awk -v dll="$luadll" '
    /DLL Name:/ { on = (tolower($3) == tolower(dll)); next }
    on && /^[[:space:]]*[0-9a-f]+[[:space:]]+[0-9]+[[:space:]]+[A-Za-z_]/ { n++ }
    on && /^[[:space:]]*$/ && n { on = 0 }
    END { print n + 0 }')
echo "  $n functions from $luadll"
exit $status
