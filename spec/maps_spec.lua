-- The Moving AI benchmark maps (maps/, or $ASTAR_MAPS): astar.fromMovingAI
-- builds the right walls, and findPath with the default settings ("no-obstacles",
-- octile) finds the optimal lengths given by the scenario files.

local astar = require "astar"
local R = require "helpers.reference"

local read = R.read_map_file

local function basename(p)
  return (p:gsub("^.*[/\\]", ""))
end

-- Parses a .scen file: a list of {sx, sy, gx, gy, len, w, h} with 1-based coordinates.
local function parse_scen(text, map_name)
  local out = {}
  local first = true
  for line in text:gmatch("[^\r\n]+") do
    if first then
      assert(line:match("^version"), "the scenario file has no version line")
      first = false
    else
      local f = {}
      for field in line:gmatch("[^\t]+") do f[#f + 1] = field end
      assert(#f == 9, "bad scenario line: " .. line)
      assert(basename(f[2]) == map_name, "scenario for another map: " .. f[2])
      out[#out + 1] = {
        w = tonumber(f[3]), h = tonumber(f[4]),
        sx = tonumber(f[5]) + 1, sy = tonumber(f[6]) + 1,
        gx = tonumber(f[7]) + 1, gy = tonumber(f[8]) + 1,
        len = tonumber(f[9]),
        line = line,
      }
    end
  end
  return out
end

-- count evenly spread items of list (all when count is nil or too large)
local function spread(list, count)
  if count == nil or count >= #list then return list end
  local out = {}
  for i = 1, count do
    out[i] = list[math.floor((i - 1) * #list / count) + 1]
  end
  return out
end

local MAPS = {
  { map = "arena.map", scen = "arena.map.scen", arena = true },
  { map = "den312d.map", scen = "den312d-random-1.scen" },
  { map = "random-32-32-10.map", scen = "random-32-32-10-random-1.scen" },
  { map = "brc202d.map", scen = "brc202d-random-1.scen", sample = 200 },
  { map = "ost003d.map", scen = "ost003d-random-1.scen", sample = 200 },
  { map = "AR0011SR.map", scen = "AR0011SR.map.scen", sample = 200 },
  { map = "maze512-1-0.map", scen = "maze512-1-0.map.scen", sample = 200 },
  { map = "8room_000.map", scen = "8room_000.map.scen", sample = 200 },
  { map = "random512-10-0.map", scen = "random512-10-0.map.scen", sample = 200 },
}

local VALIDATE_PER_MAP = 8

describe("Moving AI maps", function()
  for _, m in ipairs(MAPS) do
    describe(m.map, function()
      local text, desc, grid

      local function load_map()
        if grid then return end
        text = read(m.map)
        desc = R.parse_movingai(text)
        grid = astar.fromMovingAI(text)
      end

      it("is loaded with the right walls", function()
        load_map()
        assert.are.same({ desc.w, desc.h }, { grid:getDimensions() })
        assert.are.equal(("astar.Grid (%dx%d)"):format(desc.w, desc.h), tostring(grid))
        local walls, bad = 0, 0
        local first_bad
        for y = 1, desc.h do
          for x = 1, desc.w do
            local want = desc.walkable(x, y)
            if not want then walls = walls + 1 end
            if grid:isWalkable(x, y) ~= want then
              bad = bad + 1
              first_bad = first_bad or ("(%d, %d): expected %s"):format(x, y, tostring(want))
            end
            if grid:getCost(x, y) ~= 1 then
              bad = bad + 1
              first_bad = first_bad or ("(%d, %d): cost %s"):format(x, y, tostring(grid:getCost(x, y)))
            end
          end
        end
        assert(bad == 0, bad .. " wrong cells, first " .. tostring(first_bad))
        assert(walls > 0, "no walls read")
        assert.are.equal("no-obstacles", grid:getDiagonal())
        assert.are.same({ "octile", 1 }, { grid:getHeuristic() })
      end)

      local label = m.sample and ("an evenly spread sample of " .. m.sample .. " scenarios")
        or "every scenario"
      it("gives the optimal length for " .. label, function()
        load_map()
        local all = parse_scen(read(m.scen), m.map)
        local list = spread(all, m.sample)
        assert(#list >= math.min(#all, m.sample or #all))
        local validate_every = math.max(1, math.floor(#list / VALIDATE_PER_MAP))
        local validated = 0
        for i, s in ipairs(list) do
          assert(s.w == desc.w and s.h == desc.h, "scenario for a map of another size: " .. s.line)
          local path, cost = grid:findPath(s.sx, s.sy, s.gx, s.gy)
          local what = ("%s (%d,%d)->(%d,%d) optimal %s"):format(m.scen, s.sx, s.sy, s.gx, s.gy, s.len)
          assert(type(path) == "table", what .. ": no path (" .. tostring(cost) .. ")")
          local tol = m.arena and math.max(1e-4, 1e-5 * s.len) or 1e-6
          assert(math.abs(cost - s.len) <= tol,
            ("%s: cost %.10f differs by %.3g"):format(what, cost, cost - s.len))
          if (i - 1) % validate_every == 0 then
            local walked, why = R.validate(desc, "no-obstacles", path, s.sx, s.sy, s.gx, s.gy)
            assert(walked, what .. ": invalid path: " .. tostring(why))
            assert(R.close(walked, cost, 1e-9), what .. ": the steps sum to " .. walked .. ", not " .. cost)
            validated = validated + 1
          end
        end
        assert(validated >= math.min(#list, VALIDATE_PER_MAP))
      end)
    end)
  end
end)
