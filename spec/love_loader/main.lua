-- Where LÖVE finds astar/core.so, and what happens when the file there does not
-- load (README, Where the C module goes; issue 21). `make love-loader-test` lays
-- the game out as a folder, a .love and a fused executable, runs each from the
-- root directory (never the game's own), and says what must come of it:
--
--   c                  the C module loads: backend "c", backendError nil
--   error FILE         require "astar" is the error naming FILE and the system's
--                      reason (a module built for Lua 5.4: an undefined lua_ symbol)
--   inside ARCHIVE     astar/core.so is only inside the .love ARCHIVE: the pure-Lua
--                      fallback, and backendError says the file is inside it
--
-- The same in the main state and in a love.thread. Prints one line; exits 1 on
-- any failure.
-- luacheck: globals love
local failures, checks = {}, 0

local function check(cond, what)
  checks = checks + 1
  if not cond then failures[#failures + 1] = what end
end

-- What require "astar" gave, in the shape the worker sends.
local function outcome(ok, astar)
  if ok then return { ok = true, backend = astar.backend, backendError = astar.backendError } end
  return { ok = false, message = tostring(astar) }
end

local function describe(got)
  if got.ok then return ("backend %s (%s)"):format(tostring(got.backend), tostring(got.backendError)) end
  return "error: " .. tostring(got.message)
end

local function checkC(got, where)
  check(got.ok and got.backend == "c" and got.backendError == nil,
    where .. ": want the C module, got " .. describe(got))
end

local function checkError(got, where, file)
  local head = ("error loading module 'astar.core' from file '%s':\n\t%s: undefined symbol: "):format(file, file)
  local message = got.message or ""
  local symbol = message:sub(1, #head) == head and message:sub(#head + 1) or nil
  check(not got.ok and symbol ~= nil and symbol:match("^lua_[%w_]+$") ~= nil,
    where .. ": want the error naming " .. file .. ", got " .. describe(got))
end

local function checkInside(got, where, archive)
  local base, save = archive:match("^(.*)/[^/]+$"), love.filesystem.getSaveDirectory()
  local tail = ("\n\tno file '%s/astar/core.so' (it is inside '%s', and a library loads only from a file on disk)"
    .. "\n\tno file '%s/astar/core.so'\n\tno file '%s/astar/core.so'"):format(archive, archive, base, save)
  local why, head = got.backendError or "", "module 'astar.core' not found:"
  check(got.ok and got.backend == "lua" and why:sub(1, #head) == head and why:sub(-#tail) == tail,
    where .. ": want the fallback, and the file inside " .. archive .. ", got " .. describe(got))
end

local function checkOutcome(got, where, expect, path)
  if expect == "c" then
    checkC(got, where)
  elseif expect == "error" then
    checkError(got, where, path)
  elseif expect == "inside" then
    checkInside(got, where, path)
  else
    check(false, "unknown expectation " .. tostring(expect))
  end
end

function love.load(args)
  local expect, path = args[1], args[2]
  local ok, astar = pcall(require, "astar")
  local here = outcome(ok, astar)
  checkOutcome(here, "main state", expect, path)
  if expect == "c" and ok then
    -- the C backend's grid is a userdata; its 4-direction cost across a 3x1 row is 2
    local grid = astar.new(3, 1)
    local _, cost = grid:findPath(1, 1, 3, 1, { diagonal = "never" })
    check(type(grid) == "userdata" and cost == 2, "a C grid answers: " .. type(grid) .. " " .. tostring(cost))
  end
  local outbox = love.thread.newChannel()
  local thread = love.thread.newThread("worker.lua")
  thread:start(outbox)
  local there = outbox:demand(20)
  thread:wait()
  if there then
    checkOutcome(there, "love.thread", expect, path)
    check(there.message == here.message and there.backendError == here.backendError,
      "the thread's outcome differs from the main state's: " .. describe(there))
  else
    check(false, "the worker did not answer: " .. tostring(thread:getError()))
  end
  for _, f in ipairs(failures) do print("  FAILED: " .. f) end
  print(("love-loader-test %s %s: %d checks, %d failed (%s)"):format(
    expect, tostring(path or love.filesystem.getSource()), checks, #failures,
    love.filesystem.isFused() and "fused" or "not fused"))
  love.event.quit(#failures == 0 and 0 or 1)
end
