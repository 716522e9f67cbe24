-- Finalizers that run inside a call (README, Robustness): objects whose __gc
-- runs the game's code in the middle of an API call, and a collector eager
-- enough that they do. Shared by the specs that check what a call does when
-- Lua code runs in the middle of it (reentrancy_spec,
-- reentrancy_finalizers_spec, distance_values_spec, measured_lists_spec).
local M = {}

M.V54 = _VERSION == "Lua 5.4"
local V54 = M.V54
-- The eager settings (armNext's too): Lua 5.4 incremental (pause, step
-- multiplier, step size), Lua 5.1 and LuaJIT step multiplier.
local INCREMENTAL = { 1, 1000, 1 }      -- no pause, a big step every few bytes
local STEPMUL = 1000
M.GC_MODES = M.V54 and { "incremental", "generational" } or { "incremental" }
local newproxy = newproxy -- luacheck: ignore 113 (Lua 5.1 and LuaJIT)

-- Sets the collector's parameters: eager (it runs at almost every
-- allocation) in mode "incremental" or "generational", or back to the
-- defaults (eager = false). No full collection is made: an eager collector
-- starts its next cycle at once.
function M.setCollector(eager, mode)
  if M.V54 then
    if not eager then
      collectgarbage("generational", 20, 100)       -- the defaults of 5.4
      collectgarbage("incremental", 200, 100, 13)
    elseif mode == "generational" then
      collectgarbage("generational", 1, 1)          -- a minor collection every 1% of growth
    else
      collectgarbage("incremental", INCREMENTAL[1], INCREMENTAL[2], INCREMENTAL[3])
    end
  else
    collectgarbage("setpause", eager and 0 or 200)
    collectgarbage("setstepmul", eager and STEPMUL or 200)
  end
  -- a collector waiting for the heap to grow by the old pause starts now
  if eager then collectgarbage("step") end
end

-- The collector made eager from now on; returns the undo. New settings apply
-- from the next cycle on: a full collection starts one.
function M.eagerCollector(mode)
  M.setCollector(true, mode)
  collectgarbage("collect")
  return function() M.setCollector(false) end
end

-- An object whose finalizer calls f; nothing refers to it.
function M.arm(f)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = f
  else
    setmetatable({}, { __gc = f })
  end
end

-- In generational mode a minor collection comes after the heap grew by 1%:
-- wait for one (a sentinel's finalizer tells), then move the collector's debt
-- to within about 1 KB of the next, so that it comes inside the next call.
function M.nearNextCollection()
  local fired = false
  M.arm(function() fired = true end)
  local n = 0
  while not fired and n < 1e6 do
    local _ = { n }
    n = n + 1
  end
  local k = math.floor(collectgarbage("count") / 100) - 1
  if k > 0 then collectgarbage("step", k) end
end

local function noUndo() end
local function undoWholeCycles()
  if V54 then
    collectgarbage("incremental", INCREMENTAL[1], INCREMENTAL[2], INCREMENTAL[3])
  else
    collectgarbage("setstepmul", STEPMUL)
  end
end

-- Under eagerCollector(mode): arms f so that it runs at the n-th allocation
-- from now that checks the collector (default 1: in a C function, its first
-- lua_newuserdata), rather than in whatever call later finishes the
-- collector's cycle. Until f runs (Lua 5.1, LuaJIT) or the returned undo is
-- called (Lua 5.4, right after the call), every collector step is a whole
-- cycle, and a chain of n objects, each arming the next, counts the steps.
-- In generational mode f runs at the next minor collection, made to come
-- within a few hundred bytes (n is ignored).
function M.armNext(f, mode, n)
  if V54 and mode == "generational" then
    M.nearNextCollection()
    M.arm(f)
    return noUndo
  end
  n = n or 1
  local function link(...)
    n = n - 1
    if n > 0 then
      M.arm(link)
      return
    end
    if not V54 then undoWholeCycles() end   -- 5.4 finalizers cannot call the collector
    return f(...)
  end
  if V54 then
    collectgarbage("incremental", INCREMENTAL[1], INCREMENTAL[2], 40)
  else
    collectgarbage("setstepmul", 1e7)
  end
  M.arm(link)             -- last: nothing here may allocate after it
  return V54 and undoWholeCycles or noUndo
end

-- For the pure backend, whose calls are Lua code: arms f and makes a full
-- collection (which runs it) at the n-th hook count (every 7 instructions)
-- spent inside the library's code (a file of lua/astar/pure/, or a loop its
-- template.lua compiled), so that f runs inside it, whatever the heap's
-- size. LuaJIT calls no hooks from compiled code: its compiler is off (and
-- its traces flushed) until the returned undo is called.
local function inLibrary(source)
  return source:find("astar/pure/", 1, true) ~= nil or source:sub(1, 10) == "=template "
end
function M.armInLibrary(f, n)
  n = n or 1
  local jitWasOn = jit and jit.status()
  if jit then
    jit.off()
    jit.flush()
  end
  M.arm(f)
  debug.sethook(function()
    local info = debug.getinfo(2, "S")
    if info and inLibrary(info.source) then
      n = n - 1
      if n <= 0 then
        debug.sethook()
        collectgarbage("collect")
      end
    end
  end, "", 7)
  return function()
    debug.sethook()
    if jitWasOn then jit.on() end
  end
end

return M
