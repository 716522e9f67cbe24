-- The astar module: the C core (astar.core) plus the helpers that are
-- easier to say in Lua. Games `require "astar"`; the core is an implementation
-- detail that a pure-Lua fallback can replace.
--
-- Backend: the C module when it can be found, else the pure-Lua one
-- (astar.pure, README, The pure-Lua fallback). ASTAR_BACKEND=c or =lua in the environment
-- forces one. A C module that is found but fails to load is an error, not a
-- silent switch to the slower backend.
local function load_core()
  local getenv = type(os) == "table" and os.getenv
  local forced = getenv and getenv("ASTAR_BACKEND")
  if forced == "lua" then return require "astar.pure" end
  if forced ~= nil and forced ~= "" and forced ~= "c" then
    error("ASTAR_BACKEND must be 'c' or 'lua', got '" .. forced .. "'", 0)
  end
  local ok, core = pcall(require, "astar.core")
  if ok then return core end
  if forced == "c" or not tostring(core):find("module 'astar.core' not found", 1, true) then
    error(core, 0)
  end
  return require "astar.pure"
end
local core = load_core()

local astar = {}
for name, value in pairs(core) do
  astar[name] = value
end
astar.backend = core.backend or "c"

return astar
