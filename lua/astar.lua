-- The astar module: the C core (astar.core) plus the helpers that are
-- easier to say in Lua. Games `require "astar"`; the core is an implementation
-- detail that a pure-Lua fallback can replace.
local core = require "astar.core"

local astar = {}
for name, value in pairs(core) do
  astar[name] = value
end
astar.backend = "c"

return astar
