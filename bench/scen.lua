-- Reads Moving AI benchmark files (Sturtevant 2012): .map grids and .scen
-- scenario lists, picks evenly spread samples, and reads/writes the small
-- query files the benchmark workers share. Runs on Lua 5.1/LuaJIT and 5.4.
local scen = {}

local function read_all(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end
scen.read_all = read_all

-- The README's tolerance: 8-decimal files agree with the optimum within
-- 1e-6; shorter prints (arena, 6 significant digits) within max(1e-4, 1e-5 * len).
local function tolerance(text, length)
  local decimals = text:match("%.(%d+)$")
  if decimals and #decimals >= 8 then
    return 1e-6
  end
  return math.max(1e-4, 1e-5 * length)
end

-- Scenarios of a .scen file: array of {sx, sy, gx, gy, optimal, tol, map},
-- 0-based coordinates as in the file.
function scen.read_scenarios(path)
  local list = {}
  local n = 0
  for line in io.lines(path) do
    if not line:match("^version") and line:match("%S") then
      local fields = {}
      for field in line:gmatch("[^\t]+") do
        fields[#fields + 1] = field
      end
      if #fields < 9 then
        error("bad scenario line in " .. path .. ": " .. line, 0)
      end
      local optimal_text = fields[9]:gsub("%s+$", "")
      local optimal = tonumber(optimal_text)
      n = n + 1
      list[n] = {
        sx = tonumber(fields[5]), sy = tonumber(fields[6]),
        gx = tonumber(fields[7]), gy = tonumber(fields[8]),
        optimal = optimal, tol = tolerance(optimal_text, optimal),
        map = fields[2]:match("([^/]+)$"),
      }
    end
  end
  return list
end

-- The sample of the benchmarks that time every STRIDE-th scenario of one map
-- (bench-jpsw, bench-smooth): the map's path in the maps folder (the script's
-- arg[1], else maps/), its scenarios from the first by STRIDE (the
-- environment's, else `stride`), STRIDE, and PASSES (the environment's, else 5).
function scen.strided(name, stride)
  local dir = arg and arg[1] or "maps"
  local map = dir .. "/" .. name .. ".map"
  local every = tonumber(os.getenv("STRIDE")) or stride
  local all, queries = scen.read_scenarios(map .. ".scen"), {}
  for i = 1, #all, every do queries[#queries + 1] = all[i] end
  return map, queries, every, tonumber(os.getenv("PASSES")) or 5
end

-- A function that runs grid:findPath(..., opts) on each of the scenarios
-- (0-based in the file, 1-based for the grid), for timing.
function scen.find_all(grid, scenarios, opts)
  return function()
    for _, q in ipairs(scenarios) do
      grid:findPath(q.sx + 1, q.sy + 1, q.gx + 1, q.gy + 1, opts)
    end
  end
end

-- The scenario files in dir paired with their maps, sorted by map name:
-- array of {name, map = path, scen = path}. A .scen names its map inside.
function scen.find_maps(dir)
  local pipe = assert(io.popen('ls -1 "' .. dir .. '"'))
  local pairs_found, by_name = {}, {}
  for file in pipe:lines() do
    if file:match("%.scen$") then
      local first = scen.read_scenarios(dir .. "/" .. file)[1]
      if first then
        local name = first.map:gsub("%.map$", "")
        if by_name[name] then
          error("two scenario files for map " .. name, 0)
        end
        by_name[name] = {name = name, map = dir .. "/" .. first.map, scen = dir .. "/" .. file}
        pairs_found[#pairs_found + 1] = by_name[name]
      end
    end
  end
  pipe:close()
  table.sort(pairs_found, function(a, b) return a.name < b.name end)
  return pairs_found
end

-- Indices of an evenly spread sample of k out of n (all of them when k >= n).
-- Scenario files are sorted by length bucket, so this spans every length.
function scen.spread(n, k)
  local picked = {}
  if k >= n then
    for i = 1, n do picked[i] = i end
    return picked
  end
  for i = 1, k do
    picked[i] = math.floor((i - 0.5) * n / k) + 1
  end
  return picked
end

-- Query files: one "id sx sy gx gy optimal tol" line per query.
function scen.write_queries(path, queries)
  local f = assert(io.open(path, "w"))
  for _, q in ipairs(queries) do
    f:write(string.format("%d %d %d %d %d %.17g %.17g\n",
      q.id, q.sx, q.sy, q.gx, q.gy, q.optimal, q.tol))
  end
  f:close()
end

function scen.read_queries(path)
  local list = {}
  for line in io.lines(path) do
    local id, sx, sy, gx, gy, optimal, tol = line:match(
      "^(%d+) (%d+) (%d+) (%d+) (%d+) (%S+) (%S+)$")
    if id then
      list[#list + 1] = {
        id = tonumber(id), sx = tonumber(sx), sy = tonumber(sy),
        gx = tonumber(gx), gy = tonumber(gy),
        optimal = tonumber(optimal), tol = tonumber(tol),
      }
    end
  end
  return list
end

-- A .map file as width, height and a flat array open[y * width + x + 1]
-- (true = passable: . G S), for the pure-Lua baseline.
function scen.read_map(path)
  local text = read_all(path)
  local height = tonumber(text:match("height (%d+)"))
  local width = tonumber(text:match("width (%d+)"))
  local body = text:match("\nmap\r?\n(.*)$")
  if not (height and width and body) then
    error("not a Moving AI map: " .. path, 0)
  end
  local open, y = {}, 0
  for row in body:gmatch("[^\r\n]+") do
    if y < height then
      for x = 1, width do
        local c = row:sub(x, x)
        open[y * width + x] = c == "." or c == "G" or c == "S"
      end
      y = y + 1
    end
  end
  if y ~= height then
    error("map " .. path .. " has " .. y .. " rows, expected " .. height, 0)
  end
  return width, height, open
end

return scen
