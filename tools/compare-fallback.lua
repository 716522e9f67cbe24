-- One pass of the pure backend's bench rows (bench/fallback_rows.lua and a
-- findPath row per map of fallback_bench.lua), for tools/compare-fallback.sh:
-- prints "row<TAB>seconds per run", the best of three timings of each row,
-- each long enough that the clock's resolution does not matter.
--
--   lua tools/compare-fallback.lua [maps dir] [queries per map]
local P = require "astar.pure"
local dir = arg[1] or "maps"
local MAPS = {
  { "arena.map", "arena.map.scen" },
  { "den312d.map", "den312d-random-1.scen" },
  { "ost003d.map", "ost003d-random-1.scen" },
  { "brc202d.map", "brc202d-random-1.scen" },
  { "AR0011SR.map", "AR0011SR.map.scen" },
  { "random512-10-0.map", "random512-10-0.map.scen" },
}
local rows = dofile("bench/fallback_rows.lua")(P, dir, MAPS, tonumber(arg[2]) or 24)
for _, row in ipairs(rows) do
  local fn = row[2]
  fn()                                    -- warm up: scratch made on first use
  local best = math.huge
  for _ = 1, 3 do
    local rounds, took = 0, 0
    local t0 = os.clock()
    repeat
      fn()
      rounds = rounds + 1
      took = os.clock() - t0
    until took > 0.1
    if took / rounds < best then best = took / rounds end
  end
  io.write(("%s\t%.9f\n"):format(row[1], best))
end
