-- Jumper (Yonaba/Jumper, a pure-Lua pathfinding library, MIT) as the pure-Lua
-- peer of the fallback (issue 23): its jump point search and its A* against
-- the fallback's findPath on the same AR0011SR scenarios, in one run. Jumper
-- is not part of this repository and is never required by it: fallback_bench.lua
-- loads this file only when JUMPER_DIR names a folder holding Jumper's
-- jumper/*.lua (jumper/pathfinder.lua, jumper/grid.lua, jumper/core/,
-- jumper/search/).
--
-- Jumper is set up as close to our rule as it allows: 8 directions
-- ("DIAGONAL"), the octile heuristic ("CARDINTCARD", admissible; its default,
-- Manhattan, is not), no tunnelling. It still cuts corners (a diagonal step is
-- refused only when both cells beside it are walls, and its jump point search
-- prunes as if corners could be cut), so some of its paths are shorter than
-- the optimum without corner cutting: the table counts them. A path's length
-- is Jumper's own (the Euclidean lengths of its legs).
--
--   dofile("bench/jumper_peer.lua")(P, C, text, list, jumper_dir)
-- P, C: the two backends; text: the map file's text; list: the scenarios
-- ({sx, sy, gx, gy}, 1-based).
return function(P, C, text, list, jumper_dir)
  package.path = jumper_dir .. "/?.lua;" .. jumper_dir .. "/?/init.lua;" .. package.path
  local Grid = require "jumper.grid"
  local Pathfinder = require "jumper.pathfinder"

  -- The Moving AI map as Jumper's collision map: 0 walkable, 1 a wall.
  local map, y = {}, 0
  local body = text:match("\nmap\r?\n(.*)$")
  for line in body:gmatch("[^\r\n]+") do
    y = y + 1
    local row = {}
    for x = 1, #line do
      local c = line:sub(x, x)
      row[x] = (c == "." or c == "G" or c == "S") and 0 or 1
    end
    map[y] = row
  end
  local jgrid = Grid(map)
  local finders = {}
  for _, name in ipairs({ "JPS", "ASTAR" }) do
    local f = Pathfinder(jgrid, name, 0)
    f:setMode("DIAGONAL")
    f:setHeuristic("CARDINTCARD")
    finders[name] = f
  end

  -- Seconds per query of fn(q) over the list (one round), and its results.
  local function time(fn)
    local out = {}
    local t0 = os.clock()
    for k, q in ipairs(list) do out[k] = fn(q) end
    return (os.clock() - t0) / #list, out
  end

  local pure = P.fromMovingAI(text)
  local c_grid = C.fromMovingAI(text)
  pure:findPath(list[1][1], list[1][2], list[1][3], list[1][4])   -- scratch made
  local t_auto, ours = time(function(q)
    local _, cost = pure:findPath(q[1], q[2], q[3], q[4])
    return cost
  end)
  local t_astar, ours_astar = time(function(q)
    local _, cost = pure:findPath(q[1], q[2], q[3], q[4], { algorithm = "astar" })
    return cost
  end)
  local results = {}
  for name, f in pairs(finders) do
    f:getPath(list[1][1], list[1][2], list[1][3], list[1][4], false)   -- warm up, as ours
    local t, lengths = time(function(q)
      local path, length = f:getPath(q[1], q[2], q[3], q[4], false)
      return path and length or math.huge
    end)
    results[name] = { t = t, lengths = lengths }
  end

  -- Our costs against C's (the optimum without corner cutting), Jumper's against ours.
  local optimal, shorter, longer = 0, { JPS = 0, ASTAR = 0 }, { JPS = 0, ASTAR = 0 }
  for k, q in ipairs(list) do
    local _, best = c_grid:findPath(q[1], q[2], q[3], q[4])
    local ok = math.abs(ours[k] - best) <= 1e-9 * best
      and math.abs(ours_astar[k] - best) <= 1e-9 * best
    if ok then optimal = optimal + 1 end
    for name, r in pairs(results) do
      local d = r.lengths[k] - best
      if d < -1e-9 * best then shorter[name] = shorter[name] + 1 end
      if d > 1e-9 * best then longer[name] = longer[name] + 1 end
    end
  end

  local engine = jit and jit.version or _VERSION
  print(("\nJumper (pure Lua) on AR0011SR, %s, %d scenarios spread over the file, ms per query")
    :format(engine, #list))
  print(("%-24s %9s %10s %10s %s"):format("", "ms", "ours/JPS", "ours/A*", "paths"))
  local jps, jastar = results.JPS.t, results.ASTAR.t
  print(("%-24s %9.3f %9.3fx %9.3fx %d of %d optimal"):format("fallback findPath (auto)",
    t_auto * 1e3, t_auto / jps, t_auto / jastar, optimal, #list))
  print(("%-24s %9.3f %9.3fx %9.3fx"):format("fallback A*", t_astar * 1e3, t_astar / jps,
    t_astar / jastar))
  for _, name in ipairs({ "JPS", "ASTAR" }) do
    print(("%-24s %9.3f %10s %10s %d shorter than the optimum, %d longer"):format(
      "Jumper " .. (name == "JPS" and "JPS" or "A*"), results[name].t * 1e3, "", "",
      shorter[name], longer[name]))
  end
end
