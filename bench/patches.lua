-- Patches of terrain for the benchmarks (make bench-smooth, make bench-jpsw):
-- discs of cost 2, 3 or 4 dropped at random, from a seed, until `share` of a
-- grid's open cells have a cost (forest, swamp). The same map on every Lua.
local patches = {}

local park_miller = require("rng").park_miller   -- the same map on every Lua

-- Gives costs to about `share` of grid's open cells; returns the share given.
function patches.add(grid, share, seed)
  local w, h = grid:getDimensions()
  local open = 0
  for y = 1, h do
    for x = 1, w do
      if grid:isWalkable(x, y) then open = open + 1 end
    end
  end
  local rand, priced, seen = park_miller(seed or 20), 0, {}
  while priced < share * open do
    local cx, cy, r, cost = rand(w), rand(h), 3 + rand(10), 1 + rand(3)
    for y = math.max(1, cy - r), math.min(h, cy + r) do
      for x = math.max(1, cx - r), math.min(w, cx + r) do
        local key = (y - 1) * w + x
        if (x - cx) ^ 2 + (y - cy) ^ 2 <= r * r and grid:isWalkable(x, y) then
          grid:setCost(x, y, cost)
          if not seen[key] then seen[key], priced = true, priced + 1 end
        end
      end
    end
  end
  return priced / open
end

return patches
