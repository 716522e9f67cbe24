-- The rock is "astar-grid" because "astar" is another project's name on
-- LuaRocks; the module is still require "astar". Build it from a checkout
-- with: luarocks make rockspec/astar-grid-scm-1.rockspec
rockspec_format = "3.0"
package = "astar-grid"
version = "scm-1"
source = {
   -- No public repository yet: luarocks make builds from the current checkout.
   url = "git+file:///dev/null",
}
description = {
   summary = "Fast, exact grid pathfinding (A*, JPS) for Lua games, in C",
   detailed = [[
A C module with a Grid userdata: walls, terrain costs, 4/8-direction
movement with corner rules, A* with selectable heuristics, and a Lua
tactics layer for movement and attack ranges. Lua 5.1-5.4 and LuaJIT.
]],
   license = "MIT",
   labels = { "pathfinding", "astar", "games", "love2d" },
}
dependencies = {
   "lua >= 5.1, < 5.5",
}
build = {
   type = "builtin",
   modules = {
      ["astar"] = "lua/astar.lua",
      ["astar.pure"] = "lua/astar/pure.lua",
      ["astar.pure.args"] = "lua/astar/pure/args.lua",
      ["astar.pure.encode"] = "lua/astar/pure/encode.lua",
      ["astar.pure.grid"] = "lua/astar/pure/grid.lua",
      ["astar.pure.mapload"] = "lua/astar/pure/mapload.lua",
      ["astar.pure.methods"] = "lua/astar/pure/methods.lua",
      ["astar.pure.range"] = "lua/astar/pure/range.lua",
      ["astar.pure.search"] = "lua/astar/pure/search.lua",
      ["astar.pure.stepper"] = "lua/astar/pure/stepper.lua",
      ["astar.tactics"] = "lua/astar/tactics.lua",
      ["astar.core"] = {
         sources = {
            "src/core/astar_loop.c",
            "src/core/components.c",
            "src/core/encode.c",
            "src/core/grid.c",
            "src/core/jps.c",
            "src/core/mapload.c",
            "src/core/range.c",
            "src/core/search.c",
            "src/lua/args.c",
            "src/lua/lua_astar.c",
            "src/lua/lua_encode.c",
            "src/lua/lua_range.c",
            "src/lua/lua_search.c",
         },
         libraries = { "m" },
      },
   },
}
