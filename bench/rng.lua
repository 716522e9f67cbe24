-- The benchmarks' random numbers: the same maps and queries on every Lua and
-- every run, so that rows measured apart compare. Each generator returns
-- rand(n), a whole number in 1..n.
local M = {}

-- The C library's classic LCG; the high bits (its low ones cycle).
function M.lcg(seed)
  local state = seed
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return math.floor(state / 65536) % n + 1
  end
end

-- Park and Miller's: its products stay below 2^53, so Lua 5.4's integers and
-- LuaJIT's doubles draw the same numbers.
function M.park_miller(seed)
  local state = seed
  return function(n)
    state = state * 16807 % 2147483647
    return state % n + 1
  end
end

return M
