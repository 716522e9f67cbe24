-- A pathfinding worker on a love.thread: gets an encoded grid on its channel, then
-- path and distance map requests, and answers each on the reply channel. Everything it needs comes
-- through the channels: a thread shares nothing with the main Lua state.
-- luacheck: globals love
local inbox, outbox = ...
require "love.filesystem" -- installs LÖVE's require loaders in this Lua state

local ok, err = pcall(function()
  local astar = require "astar"
  local grid = astar.decode(inbox:demand())
  local w, h = grid:getDimensions()
  -- the grid re-encoded here must be the same bytes: nothing lost crossing states
  outbox:push({ kind = "ready", backend = astar.backend, backendError = astar.backendError,
    w = w, h = h, encoded = grid:encode() })
  while true do
    local req = inbox:demand()
    if req.kind == "quit" then break end
    if req.kind == "map" then
      -- a distance map computed here and sent back as a string (README, Distance maps)
      local map = grid:distanceMap(req.sources, { diagonal = req.diagonal })
      outbox:push({ kind = "map", id = req.id, encoded = map:encode() })
      goto continue
    end
    local path, cost = grid:findPath(req.sx, req.sy, req.gx, req.gy)
    local reply = { kind = "path", id = req.id }
    if path then
      reply.cost, reply.n = cost, #path
      for i, p in ipairs(path) do reply[2 * i - 1], reply[2 * i] = p.x, p.y end
    else
      reply.reason = cost
    end
    outbox:push(reply)
    ::continue::
  end
end)
if not ok then outbox:push({ kind = "error", message = tostring(err) }) end
