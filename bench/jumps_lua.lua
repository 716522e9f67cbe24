-- make bench-jumps, the Lua part: findPath from this Lua with {flat = true,
-- into = buf} on 500 queries spread over a Moving AI scenario file (jump point
-- search, the grid's jump tables built by the first query), µs a query, best of
-- 5 rounds; then the same with 2, 10 and 100 random setWalkable between queries
-- (half new toggles, half undoing the batch before).
--   lua5.4 bench/jumps_lua.lua MAP SCEN
local astar = require "astar"
local map_path, scen_path = arg[1], arg[2]
local clock = os.clock

local lines = {}
for line in io.lines(map_path) do lines[#lines + 1] = line end
local h, w = tonumber(lines[2]:match("%d+")), tonumber(lines[3]:match("%d+"))
local grid = astar.new(w, h)
for y = 1, h do
  local row = lines[4 + y]
  for x = 1, w do
    local c = row:sub(x, x)
    if c ~= "." and c ~= "G" and c ~= "S" then grid:setWalkable(x, y, false) end
  end
end

local all = {}
for line in io.lines(scen_path) do
  local sx, sy, gx, gy, opt = line:match("^%d+\t%S+\t%d+\t%d+\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%S+)")
  if sx then all[#all + 1] = { sx + 1, sy + 1, gx + 1, gy + 1, tonumber(opt) } end
end
local queries = {}
for i = 1, math.min(500, #all) do queries[i] = all[math.floor((i - 1) * #all / 500) + 1] end

local buf = {}
local opts = { flat = true, into = buf }
local seed = 42
local function random(n)
  seed = (seed * 16807) % 2147483647
  return seed % n + 1
end

local function round(edits)
  local toggled = {}
  local t0 = clock()
  for i = 1, #queries do
    local q = queries[i]
    if edits > 0 then
      for k = #toggled, 1, -1 do
        local c = toggled[k]
        grid:setWalkable(c[1], c[2], not grid:isWalkable(c[1], c[2]))
        toggled[k] = nil
      end
      for _ = 1, edits - math.floor(edits / 2) do
        local x, y = random(w), random(h)
        grid:setWalkable(x, y, not grid:isWalkable(x, y))
        toggled[#toggled + 1] = { x, y }
      end
    end
    local path, cost = grid:findPath(q[1], q[2], q[3], q[4], opts)
    if edits == 0 and not (path and math.abs(cost - q[5]) <= 1e-4) then
      error("cost differs from the scenario's")
    end
  end
  local t = (clock() - t0) / #queries * 1e6
  for k = #toggled, 1, -1 do
    local c = toggled[k]
    grid:setWalkable(c[1], c[2], not grid:isWalkable(c[1], c[2]))
  end
  return t
end

for _, edits in ipairs({ 0, 2, 10, 100 }) do
  local best = math.huge
  for _ = 1, 5 do best = math.min(best, round(edits)) end
  print(("lua %s flat edits %d: %.2f us a query"):format(_VERSION, edits, best))
end
