/*
 * Loads astar/core.dll the way Lua's package.loadlib / require does on Windows
 * (LoadLibraryExA with flags 0 in LuaJIT and Lua 5.4, then GetProcAddress of
 * luaopen_astar_core), and unloads it. Run under Wine by make windows-test,
 * with a stand-in Lua DLL (tools/windows-luastub.c) next to the executable
 * where love.exe keeps lua51.dll: it proves the DLL is a loadable image, its
 * imports resolve by name against a lua51.dll / lua54.dll that exports the
 * Lua C API, its C runtime start-up runs, and the entry point is found. It
 * does not call the entry point: that needs a real Lua (not tested here).
 *
 * Usage: windows-loadtest.exe PATH-TO-core.dll
 */
#include <stdio.h>
#include <windows.h>

int main(int argc, char **argv)
{
    HMODULE dll;
    FARPROC open;

    if (argc != 2) {
        fprintf(stderr, "usage: windows-loadtest PATH-TO-core.dll\n");
        return 2;
    }
    dll = LoadLibraryExA(argv[1], NULL, 0);
    if (dll == NULL) {
        fprintf(stderr, "loadtest: LoadLibraryExA(%s) failed: error %lu\n", argv[1],
                (unsigned long)GetLastError());
        return 1;
    }
    open = GetProcAddress(dll, "luaopen_astar_core");
    if (open == NULL) {
        fprintf(stderr, "loadtest: %s has no luaopen_astar_core: error %lu\n", argv[1],
                (unsigned long)GetLastError());
        return 1;
    }
    if (!FreeLibrary(dll)) {
        fprintf(stderr, "loadtest: FreeLibrary(%s) failed: error %lu\n", argv[1],
                (unsigned long)GetLastError());
        return 1;
    }
    printf("loadtest: %s loads, luaopen_astar_core found, unloads\n", argv[1]);
    return 0;
}
