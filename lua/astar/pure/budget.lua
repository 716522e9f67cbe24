-- The budget of search:step(n, seconds) and map:step(cells, seconds) (and of
-- update / setSources with opts.cells, opts.seconds) for the pure-Lua
-- backend, as src/lua/clock.c: the clock, and the work handed out in chunks
-- of CHUNK units while a time limit is set, the clock read after each chunk
-- (so at least one chunk runs).
local M = {}

local huge = math.huge
local CHUNK = 256   -- units (expansions, settled cells) between two looks at the clock
M.CHUNK = CHUNK

-- The best clock this runtime has: LÖVE's love.timer.getTime (monotonic, the
-- frame's clock) where this Lua state has it, else os.clock (the processor
-- time of the process: the time the query itself takes, on one thread). nil
-- without either: no time limit.
function M.best_clock()
  local env = type(_G) == "table" and _G or nil
  local love = env and rawget(env, "love")
  local timer = type(love) == "table" and rawget(love, "timer")
  if type(timer) == "table" and type(timer.getTime) == "function" then return timer.getTime end
  if type(os) == "table" and type(os.clock) == "function" then return os.clock end
  return nil
end

-- For a limit of `seconds` (huge: none): the clock and the time it started,
-- or nil when the budget has no time limit (or no clock is there).
function M.start(seconds)
  local clock = seconds ~= huge and M.best_clock()
  if not clock then return nil end
  return clock, clock()
end

-- The next chunk of a budget with `left` units (huge: no limit): all of them
-- without a clock, else at most CHUNK.
function M.chunk(left, clock)
  if clock and left > CHUNK then return CHUNK end
  return left
end

-- After a chunk of `chunk` units: the units left, and true when the budget is
-- spent (no units left, or the time is up).
function M.spend(left, chunk, clock, started, seconds)
  if left ~= huge then
    left = left - chunk
    if left <= 0 then return left, true end
  end
  return left, clock ~= nil and clock() - started >= seconds
end

return M
