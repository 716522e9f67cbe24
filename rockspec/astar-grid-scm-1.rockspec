-- The rock is "astar-grid" because "astar" is another project's name on
-- LuaRocks; the module is still require "astar".
--
-- This is the development rockspec: it builds the checkout it sits in.
--   luarocks make --lua-version=5.4 [--local | --tree DIR]
-- (LuaRocks builds for its default Lua, 5.1 on Debian, unless --lua-version
-- says otherwise; LuaJIT: --lua-version=5.1 LUA_INCDIR=/usr/include/luajit-2.1.)
-- It builds through the Makefile, out of tree: the objects and the module go to
-- a folder under build/ that the install step removes, so the checkout is left
-- as it was (no astar/core.so, no src/*/*.o).
--
-- Releases use the versioned rockspec that `make dist` writes from this file
-- and lua/astar/version.lua (tools/rockspec.lua): the same description and
-- dependencies, the release tarball as its source and LuaRocks' portable
-- "builtin" build. Keep the fields below in the form that tool reads.
rockspec_format = "3.0"
package = "astar-grid"
version = "scm-1"
source = {
   -- luarocks make builds the current checkout; the source is not fetched.
   url = "git+file:///dev/null",
}
description = {
   summary = "Fast, exact grid pathfinding (A*, JPS) for Lua games, in C",
   detailed = [[
A C module with a Grid userdata: walls, terrain costs, 4/8-direction
movement with corner rules, A* and jump point search with selectable
heuristics, connected components, steppable searches, grid encoding,
and a tactics layer for movement ranges, attack ranges and danger zones.
Lua 5.1-5.4, LuaJIT and LÖVE 11; a pure-Lua fallback with the same API
and answers where the C module cannot be loaded.
]],
   license = "MIT",
   labels = { "pathfinding", "astar", "games", "love2d" },
}
dependencies = {
   "lua >= 5.1, < 5.5",
}
build = {
   type = "make",
   -- Installed beside the rock (TREE/lib/luarocks/rocks-5.4/astar-grid/VERSION/):
   -- the manual's other pages (luarocks doc) and the LuaLS annotations
   -- (README, Editor support). The release rockspec copies this list.
   copy_directories = { "docs", "types" },
   makefile = "Makefile",
   build_target = "rock-build",
   install_target = "rock-install",
   build_variables = {
      CFLAGS = "$(CFLAGS)",
      LIBFLAG = "$(LIBFLAG)",
      LUA_INCDIR = "$(LUA_INCDIR)",
      LIB_EXTENSION = "$(LIB_EXTENSION)",
   },
   install_variables = {
      LUA_INCDIR = "$(LUA_INCDIR)",
      LIB_EXTENSION = "$(LIB_EXTENSION)",
      LUADIR = "$(LUADIR)",
      LIBDIR = "$(LIBDIR)",
   },
}
