-- The distance-map flood's fast loops for the pure backend (issue 23's point
-- for floods; src/core/distance.c map_open): a map of one-cell units on a
-- square board whose grid has no cost layer, without rules, moves or links,
-- from sources of one value. Every step then costs 1 (a diagonal sqrt 2), so
-- an exact open list cheaper than the heap exists:
-- - 4 directions: a FIFO queue (cells arrive level by level, in the order of
--   their values);
-- - 8 directions: a bucket queue of width 1/2 (every step costs at least
--   twice the width, so a cell taken from bucket b is final and every
--   neighbour it offers a value to lies in bucket b + 1 or later).
-- Every cell's value is then the least of the same offers as the heap's, and
-- the tie rule (the lowest step code) does not depend on the order offers
-- come in: values, steps and origins are the heap's exactly. The walls the
-- flood looks at are start cells (issue 24), valued here as they are
-- offered (the same least value, lowest code, as distance.lua starts).
--
-- The loop is one source text (template.lua), the eight directions written
-- out from one move text; the map's tables are written only where the flood
-- reaches (no pass over the grid): the entry cost of each cell looked at
-- (walls huge), the value, step and origin of each cell reached.
local B = require "astar.pure.board"
local T = require "astar.pure.template"

local M = {}

local huge = math.huge
local END = 8

local LOOP = [[
return function(m, open, stride, mode, hf, hc, n, max_cost, left)
  local dist, cost, step, origin = m._dist, m._cost, m._step, m._origin
  local start, sdist = m._start, m._sdist
  local cornered, one_ok = mode ~= ALWAYS, mode ~= NO_OBSTACLES
  local reached = 0
  local offset = offsets(stride)
  local east, below = stride - 1, (m._h + 1) * stride   -- the border's east column, last row
  -- the open list's tables are the map's, kept from its last flood (a map
  -- moved every frame makes none): entries past the counts are stale
  local scratch = m._flood
  if not scratch then
    scratch = { queue = {}, lists = { [0] = {} }, sizes = {} }
    m._flood = scratch
  end
  --@if fifo
  local queue, head, tail = scratch.queue, 1, n
  for k = 1, n do queue[k] = hc[k] end
  --@else
  -- bucket k holds values in [base + k / 2, base + (k + 1) / 2)
  local base = hf[1]
  local lists, sizes, b, pending = scratch.lists, scratch.sizes, 0, n
  for k in next, sizes do sizes[k] = nil end
  local first = lists[0]   -- bucket lists of pairs: a cell, the value it came with
  for k = 1, n do first[2 * k - 1], first[2 * k] = hc[k], hf[k] end
  sizes[0] = n
  --@end
  while true do
    local u
    --@if fifo
    if head > tail then break end
    u = queue[head]
    head = head + 1
    --@else
    if pending == 0 then break end
    local s = sizes[b]
    while not s or s == 0 do
      b = b + 1
      s = sizes[b]
    end
    local list = lists[b]
    u = list[2 * s - 1]
    sizes[b] = s - 1
    pending = pending - 1
    -- an entry whose value has since been lowered is stale (a cell is pushed
    -- once per value it gets, and taken at its last)
    if dist[u] == list[2 * s] then
    --@end
    reached = reached + 1
    --@if sliced
    if reached > left then left = left + yield() end   -- the slice is spent: pause here
    --@end
    local gu, ou = dist[u], origin[u]
    $moves
    --@if buckets
    end
    --@end
  end
  m._reached = reached
end
]]

-- One move: the flood offers v = u + off the value of the walk v -> u, which
-- enters u (cost 1): code is the step code of v (towards u). Diagonals pass
-- the corner rule on u's two sides ($sides).
local MOVE = [[
do
  local v = u + $off
  local ev = cost[v]
  if ev == nil then
    if open[v] then
      ev = 1.0
    else
      ev = huge
      local vx = (v - 1) % stride   -- a wall of the board, not its border:
      if vx ~= 0 and vx ~= east and v > stride and v <= below then
        start[v] = false            -- a start cell (issue 24)
      end
    end
    cost[v] = ev
  end
  if ev == huge then
    -- a start cell takes the best move into the map (distance.lua starts):
    -- the least value, then the lowest code, as the map's own cells
    if start[v] ~= nil $corner then
      local ng = gu + $price
      if ng <= max_cost then
        local sv = sdist[v]
        if sv == nil or ng < sv then
          sdist[v], start[v], origin[v] = ng, $code, ou
        elseif ng == sv and $code < start[v] then
          start[v], origin[v] = $code, ou
        end
      end
    end
  elseif true $corner then
    local ng = gu + $price
    if ng <= max_cost then
      local dv = dist[v]
      if dv == nil or ng < dv then
        dist[v], step[v], origin[v] = ng, $code, ou
        $push
      elseif ng == dv and step[v] ~= END and $code < step[v] then
        step[v], origin[v] = $code, ou
      end
    end
  end
end
]]

local FIFO_PUSH = "tail = tail + 1 queue[tail] = v"
local BUCKET_PUSH = [[
local k = floor((ng - base) * 2)
if k <= b then k = b + 1 end
local sk = (sizes[k] or 0) + 1
sizes[k] = sk
local list = lists[k]
if not list then
  list = {}
  lists[k] = list
end
list[2 * sk - 1], list[2 * sk] = v, ng
pending = pending + 1]]

local compiled = {}

-- The loop for ndir directions (4: FIFO, 8: buckets), compiled on first use;
-- sliced: a map built a slice at a time (distance.lua), the loop yielding to
-- the build's coroutine once `left` cells are settled (the resume's value:
-- how many more it may settle).
local function loop(ndir, sliced)
  local key = sliced and -ndir or ndir
  local fn = compiled[key]
  if fn then return fn end
  local moves = {}
  for d = 1, ndir do
    local corner = ""
    if d > 4 then
      corner = ("and (not cornered or (open[u + offset[%d]] and 0 or 1) + (open[u + offset[%d]] "
        .. "and 0 or 1) <= (one_ok and 1 or 0))"):format(B.CX[d], B.CY[d])
    end
    moves[#moves + 1] = T.fill(MOVE, { off = ("offset[%d]"):format(d), corner = corner,
      price = d > 4 and "SQRT2" or "1.0", code = tostring(B.OPPOSITE[d]),
      push = ndir == 4 and FIFO_PUSH or BUCKET_PUSH })
  end
  local text = T.fill(LOOP, { moves = table.concat(moves, "\n") })
  local name = "distance flood " .. ndir .. (sliced and " sliced" or "")
  text = T.select(text, { fifo = ndir == 4, buckets = ndir == 8, sliced = sliced }, name)
  fn = T.compile(text, { SQRT2 = B.SQRT2, huge = huge, END = END, floor = math.floor, next = next,
    offsets = B.offsets, ALWAYS = B.ALWAYS, NO_OBSTACLES = B.NO_OBSTACLES,
    yield = coroutine.yield }, name)
  compiled[key] = fn
  return fn
end

-- May map m be flooded on grid by a fast loop? (no cost layer, rules, moves
-- or move rule; one-cell units on a square board; sources of one value)
function M.fits(m, grid, r)
  if grid._cost or r.used or r.move or grid._moves or m._hex or m._size > 1 then return false end
  local sources = m._sources
  for k = 2, #sources do
    if sources[k].value ~= sources[1].value then return false end
  end
  return true
end

-- Floods m from the n sources pushed in hf, hc (values, cells; all values
-- equal) on the grid's open table; with left, a slice at a time (loop).
function M.run(m, open, hf, hc, n, left)
  local ndir = m._diagonal == B.NEVER and 4 or 8
  loop(ndir, left ~= nil)(m, open, m._stride, m._diagonal, hf, hc, n, m._max, left)
end

return M
