-- Lists read from Lua into a buffer sized first (issue 17, the size re-check
-- rule): a finalizer that rewrites the list while the call allocates leaves
-- an answer for the list as it was at one moment of the call, never one read
-- in part before and in part after.
--
-- * findPath's goal list: read_goals measures it again after allocating its
--   pairs (C) / reads it again until it holds still (pure).
-- * opts.blocked as a table by cell number: the C backend turns it into a
--   list of walls sized by a count, counted again after the allocation. (The
--   pure backend asks the table cell by cell as the search goes, as it asks a
--   rule function: that case is the C backend's alone.)
local astar = require "astar"
local F = require "helpers.finalizers"

local W, H = 9, 7

-- Empties t and fills it with copies of the points of src.
local function refill(t, src)
  for i = #t, 1, -1 do t[i] = nil end
  for i, p in ipairs(src) do t[i] = { x = p.x, y = p.y } end
end

local function copyPoints(src)
  local t = {}
  refill(t, src)
  return t
end

local function answer(path, cost, index)
  if not path then return "nil " .. tostring(cost) end
  local parts = {}
  for _, p in ipairs(path) do parts[#parts + 1] = p.x .. "," .. p.y end
  return table.concat(parts, " ") .. " = " .. cost .. " #" .. tostring(index)
end

-- Runs call() 24 times with a finalizer that flips the list between its two
-- states, armed to run at the n-th allocation (n = 1 .. 6 in turn: the key
-- strings, the buffer, after); every answer must be one of want[1], want[2].
-- The incremental collector only: a generational one cannot be aimed at one
-- allocation of a call that allocates this little.
local function underFlips(flip, call, want)
  for _, mode in ipairs({ "incremental" }) do
    local failures, inside, active = {}, 0, true
    local inCall = false
    local function finalizer()
      if not active then return end
      if inCall then inside = inside + 1 end
      flip()
    end
    local undo = F.eagerCollector(mode)
    local ok, err = pcall(function()
      for round = 1, 24 do
        -- each n twice in a row: once for each way the list flips
        local undoArm = F.armNext(finalizer, mode, 1 + math.floor(round / 2) % 6)
        inCall = true
        local got = answer(call())
        inCall = false
        undoArm()
        if got ~= want[1] and got ~= want[2] then
          failures[#failures + 1] = ("%s, round %d: %s"):format(mode, round, got)
        end
      end
    end)
    active = false
    undo()
    collectgarbage("collect")
    assert(ok, err)
    assert.are.same({}, failures)
    assert(inside > 0, "no finalizer ran inside a call (" .. mode .. ")")
  end
end

describe("a list a finalizer rewrites while the call reads it", function()
  it("findPath's goal list: the answer for the list before or after", function()
    local grid = astar.new(W, H)
    local A = { { x = 9, y = 7 }, { x = 9, y = 1 } }
    local B = { { x = 1, y = 7 }, { x = 5, y = 5 }, { x = 2, y = 2 } }   -- the third is nearest
    local want = { answer(grid:findPath(1, 1, copyPoints(A))),
      answer(grid:findPath(1, 1, copyPoints(B))) }
    assert.are_not.equal(want[1], want[2])
    local goals, state = copyPoints(A), 1
    underFlips(function()
      state = 3 - state
      refill(goals, state == 1 and A or B)
    end, function() return grid:findPath(1, 1, goals) end, want)
  end)

  it("opts.blocked as a table by cell number: the answer for the table before or after",
    function()
      if astar.backend ~= "c" then
        pending("the pure backend asks the table cell by cell, as a rule function")
        return
      end
      local grid = astar.new(W, H)
      local function cell(x, y) return (y - 1) * W + x end
      -- A: one wall on row 4; B: column 6 walled but for row 7
      local A = { [cell(5, 4)] = true }
      local B = {}
      for y = 1, 6 do B[cell(6, y)] = true end
      local function copy(t)
        local c = {}
        for k, v in pairs(t) do c[k] = v end
        return c
      end
      local opts = { diagonal = "never" }
      local function run(blocked)
        opts.blocked = blocked
        return grid:findPath(1, 4, 9, 4, opts)
      end
      local want = { answer(run(copy(A))), answer(run(copy(B))) }
      local blocked, state = copy(A), 1
      underFlips(function()
        state = 3 - state
        for k in pairs(A) do blocked[k] = nil end
        for k in pairs(B) do blocked[k] = nil end
        for k, v in pairs(state == 1 and A or B) do blocked[k] = v end
      end, function() return run(blocked) end, want)
    end)
end)
