-- A headless LÖVE 11 game that uses the module exactly as a game does: `require
-- "astar"` finds lua files in the game folder and astar/core.so next to them (LÖVE's
-- own C loader), or, laid out as a .love or fused game ships it, astar/core.so in
-- the folder that holds the game (astar.lua's own search, in the main state and in
-- the worker threads). `make love-test` assembles the game folder and runs it; it
-- prints one result line and quits with status 1 on any failure.
--
-- Expected values are computed here independently (formulas, the reference Dijkstra
-- in reference.lua), never by the module under test. ASTAR_BACKEND=lua runs the
-- same checks against the pure-Lua backend; the result line names the backend.
-- luacheck: globals love
local astar = require "astar"
local R = require "reference"

local SQRT2 = math.sqrt(2)
local checks, failures = 0, {}

local function check(cond, what)
  checks = checks + 1
  if not cond then failures[#failures + 1] = what end
  return cond
end

local function close(a, b)
  return type(a) == "number" and type(b) == "number"
    and math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a), math.abs(b))
end

local function errorOf(fn, ...)
  local ok, err = pcall(fn, ...)
  return not ok and err or nil
end

-- Known costs on an open grid: octile distance with diagonals, Manhattan without.
local function checkOpenGrid()
  local grid = astar.new(30, 20)
  for _, goal in ipairs { { 30, 20 }, { 1, 20 }, { 17, 3 }, { 2, 1 }, { 1, 1 } } do
    local dx, dy = math.abs(goal[1] - 1), math.abs(goal[2] - 1)
    local octile = math.max(dx, dy) + (SQRT2 - 1) * math.min(dx, dy)
    local path, cost = grid:findPath(1, 1, goal[1], goal[2])
    check(close(octile, cost), ("open grid octile cost to %d,%d: got %s, want %s"):format(
      goal[1], goal[2], tostring(cost), octile))
    check(path and #path == math.max(dx, dy) + 1, "open grid path length")
    local _, manhattan = grid:findPath(1, 1, goal[1], goal[2], { diagonal = "never" })
    check(close(dx + dy, manhattan), "open grid manhattan cost")
  end
end

-- A generated map with walls and terrain costs against the reference Dijkstra.
local function checkGeneratedMap()
  local desc = R.random_map(R.rng(11), 40, 30, 0.25)
  local grid = R.build_grid(astar, desc)
  for _, mode in ipairs(R.MODES) do
    local dist = R.dijkstra(desc, mode, 1, 1)
    for gx = 4, 40, 9 do
      for gy = 2, 30, 7 do
        local path, cost = grid:findPath(1, 1, gx, gy, { diagonal = mode })
        local want = desc.walkable[gx][gy] and dist[gx][gy] or nil
        if want then
          local walked = R.validate(desc, mode, path, 1, 1, gx, gy)
          check(close(want, cost) and close(walked, cost),
            ("%s cost to %d,%d: got %s, want %s"):format(mode, gx, gy, tostring(cost), want))
        else
          check(path == nil, ("%s: %d,%d should be unreachable"):format(mode, gx, gy))
        end
      end
    end
  end
end

-- The same error text as on Lua 5.4, for non-whole numbers in particular.
local function checkErrors()
  local grid = astar.new(8, 8)
  check(errorOf(grid.setCost, grid, 1.5, 1, 2)
    == "bad argument #1 to 'setCost' (x must be a whole number, got 1.5)", "setCost error text")
  check(errorOf(grid.findPath, grid, 1, 1, 2, 2, { diagnoal = "never" })
    == "bad argument #5 to 'findPath' (unknown option 'diagnoal')", "findPath error text")
  check(errorOf(astar.decode, "not a grid at all, no")
    == "bad argument #1 to 'decode' (not an astar grid: bad magic)", "decode error text")
end

-- A movement range (astar.tactics) against a 4-direction reference Dijkstra.
local function checkTactics()
  local ok, tactics = pcall(require, "astar.tactics")
  if not check(ok, "require 'astar.tactics': " .. tostring(tactics)) then return end
  local desc = R.random_map(R.rng(21), 15, 15, 0.2, { 1, 2, 3 })
  desc.walkable[8][8] = true
  local grid = R.build_grid(astar, desc)
  local budget = 6
  local dist = R.dijkstra(desc, "never", 8, 8)
  local range = tactics.movementRange(grid, 8, 8, budget)
  for x = 1, 15 do
    for y = 1, 15 do
      local d = dist[x][y]
      local inside = d ~= nil and d <= budget and (desc.walkable[x][y] or (x == 8 and y == 8))
      check(range:contains(x, y) == inside, ("movement range at %d,%d"):format(x, y))
      if inside then check(close(d, range:costTo(x, y)), ("movement cost to %d,%d"):format(x, y)) end
    end
  end
end

-- Workers on love.thread: each gets the grid as a string and answers path
-- requests; the main state checks every answer against its own findPath.
local function checkThreads()
  local desc = R.random_map(R.rng(31), 60, 40, 0.25)
  local grid = R.build_grid(astar, desc)
  grid:setDiagonal("always")
  grid:setHeuristic("euclidean", 1)
  local encoded = grid:encode()
  local copy = astar.decode(encoded)
  check(copy:encode() == encoded and copy:getDiagonal() == "always", "decode round trip")

  local workers = {}
  for i = 1, 2 do
    local wk = { inbox = love.thread.newChannel(), outbox = love.thread.newChannel() }
    wk.thread = love.thread.newThread("worker.lua")
    wk.thread:start(wk.inbox, wk.outbox)
    wk.inbox:push(encoded)
    workers[i] = wk
  end
  local rng = R.rng(41)
  local requests = {}
  for id = 1, 40 do
    local req = { kind = "path", id = id, sx = rng.int(1, 60), sy = rng.int(1, 40),
      gx = rng.int(1, 60), gy = rng.int(1, 40) }
    requests[id] = req
    workers[id % 2 + 1].inbox:push(req)
  end
  -- one distance map per worker, on its own state, sent back encoded
  local mapRequests = {}
  for i, wk in ipairs(workers) do
    local sources = {}
    for k = 1, 3 do
      sources[k] = { x = rng.int(1, 60), y = rng.int(1, 40), value = k - 1 }
    end
    mapRequests[i] = { kind = "map", id = 40 + i, sources = sources,
      diagonal = i == 1 and "never" or "no-obstacles" }
    wk.inbox:push(mapRequests[i])
  end
  for i, wk in ipairs(workers) do
    wk.inbox:push({ kind = "quit" })
    local ready = wk.outbox:demand(20)
    if not check(ready and ready.kind == "ready", ("worker %d: %s"):format(i,
      tostring(ready and ready.message or wk.thread:getError() or "no answer"))) then
      return
    end
    check(ready.encoded == encoded and ready.w == 60 and ready.h == 40, "worker decoded the grid")
    check(ready.backend == astar.backend and ready.backendError == astar.backendError,
      ("worker backend %s (%s)"):format(tostring(ready.backend), tostring(ready.backendError)))
    for _ = 1, 20 do
      local reply = wk.outbox:demand(20)
      if not check(reply and reply.kind == "path", "worker reply: " .. tostring(reply and reply.message)) then
        return
      end
      local req = requests[reply.id]
      local path, cost = grid:findPath(req.sx, req.sy, req.gx, req.gy)
      if path then
        local same = reply.cost == cost and reply.n == #path
        for k, p in ipairs(path) do
          same = same and reply[2 * k - 1] == p.x and reply[2 * k] == p.y
        end
        check(same, ("worker path %d differs from findPath"):format(reply.id))
      else
        check(reply.reason == cost, ("worker reason %d: %s"):format(reply.id, tostring(reply.reason)))
      end
    end
    local reply = wk.outbox:demand(20)
    if check(reply and reply.kind == "map", "worker map: " .. tostring(reply and reply.message)) then
      local req = mapRequests[i]
      local here = grid:distanceMap(req.sources, { diagonal = req.diagonal })
      local there = astar.decodeMap(reply.encoded)
      check(reply.encoded == here:encode(), ("worker map %d: other bytes than here"):format(i))
      local same = there:size() == here:size() and here:size() > 100
      for y = 1, 40 do
        for x = 1, 60 do
          same = same and there:get(x, y) == here:get(x, y)
        end
      end
      check(same, ("worker map %d: decoded values differ"):format(i))
    end
    wk.thread:wait()
    check(wk.thread:getError() == nil, "worker error: " .. tostring(wk.thread:getError()))
  end
end

-- A long search spread over frames: a few nodes per love.update.
local frameSearch

local function startFrameSearch()
  local grid = R.build_grid(astar, R.random_map(R.rng(51), 120, 90, 0.2))
  grid:setWalkable(1, 1, true)
  grid:setWalkable(120, 90, true)
  local path, cost = grid:findPath(1, 1, 120, 90)
  frameSearch = { grid = grid, want = { path = path, cost = cost }, frames = 0,
    search = grid:newSearch(1, 1, 120, 90) }
end

local function finish()
  local major, minor = love.getVersion()
  local line = ("love-test: %d checks, %d failed (LÖVE %d.%d, %s, backend %s)"):format(
    checks, #failures, major, minor, jit and jit.version or _VERSION, astar.backend)
  for _, f in ipairs(failures) do print("  FAILED: " .. f) end
  print(line)
  love.event.quit(#failures == 0 and 0 or 1)
end

function love.load()
  local expected = os.getenv("ASTAR_BACKEND")
  if expected == nil or expected == "" then expected = "c" end
  check(astar.backend == expected, ("backend is %s (%s)"):format(tostring(astar.backend),
    tostring(astar.backendError)))
  check((astar.backendError == nil) == (expected == "c"), "backendError " .. tostring(astar.backendError))
  check(jit ~= nil, "LÖVE runs LuaJIT")
  checkOpenGrid()
  checkGeneratedMap()
  checkErrors()
  checkTactics()
  checkThreads()
  startFrameSearch()
end

function love.update()
  local fs = frameSearch
  fs.frames = fs.frames + 1
  local status = fs.search:step(25)
  if status == "searching" and fs.frames < 100000 then return end
  local path, cost = fs.search:result()
  check(fs.want.path ~= nil, "the frame search map has a path")
  check(status == "found", "frame search status " .. status)
  check(cost == fs.want.cost and path and #path == #fs.want.path, "frame search result")
  check(fs.frames > 10, "the search was spread over frames: " .. fs.frames)
  finish()
end
