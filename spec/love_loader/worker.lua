-- require "astar" in a love.thread (its own Lua state), and what came of it.
-- luacheck: globals love
local outbox = ...
require "love.filesystem" -- installs LÖVE's require loaders in this Lua state
local ok, astar = pcall(require, "astar")
if ok then
  outbox:push({ ok = true, backend = astar.backend, backendError = astar.backendError })
else
  outbox:push({ ok = false, message = tostring(astar) })
end
