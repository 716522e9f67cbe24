-- Any-angle search (docs/paths.md, "theta") for the pure-Lua backend: the
-- mirror of src/core/theta.c, step by step in its order of operations (its
-- header comment), so that both backends ask a rule about the same cells in
-- the same order, break ties the same way and add the same doubles.
--
-- It is kernel.lua's A* loop with the general flag (search.lua's GENERAL:
-- rules asked once per cell through entry(), goal lists, near, a bound,
-- partial, a step budget, the ties stack and the heap) and its own moves
-- hook: a neighbour v of the cell u being expanded is offered by the grid
-- step from u and by the straight segment from u's parent p (segment.lua,
-- priced by the loop's entry costs), the segment winning a tie; v's parent
-- is the one chosen, so the path from the parents is the waypoints. The
-- estimate is the Euclidean distance to the nearest goal box, times h_scale.
-- search.lua runs it for a query begin_general marked s.theta: a square
-- board, a one-cell unit, diagonal moves, no moves (smooth.lua applies);
-- it passes its helpers in (M.loop), so this file needs nothing above it.
local B = require "astar.pure.board"
local K = require "astar.pure.kernel"
local SEG = require "astar.pure.segment"

local M = {}

-- The query's hooks. In scope (kernel.lua ASTAR): u, gu, cx, cy, entry,
-- stopped, the scratch's arrays; prepare adds price (the segment model's
-- price of a cell: the entry cost, the no-stop sign dropped) and sides.
local function query(S)
  return { name = "theta", flags = { "general" },
    uses = { changed = S.changed, general_closeness = S.general_closeness, finish = S.finish,
      within_max_cost = S.within_max_cost,
      box_distance = S.box_distance, segment_cost = SEG.cost, DX = B.DX, DY = B.DY,
      ALWAYS = B.ALWAYS, ONE_OBSTACLE = B.ONE_OBSTACLE, EUCLIDEAN = 3,   -- search.lua's number
      SEARCHING = S.SEARCHING, FOUND = S.FOUND, PARTIAL = S.PARTIAL, NO_PATH = S.NO_PATH,
      STOPPED = S.STOPPED },
    goal = "target[u] == generation and not (rule and rc[u] < 0)",          -- step 3
    best = "partial and not (rule and u ~= start and rc[u] < 0)",           -- step 4
    closeness = "general_closeness(s, u)",
    heuristic = "",   -- no RELAX: the moves hook queues its cells itself
    prepare = [=[
    local always, one = diagonal == ALWAYS, diagonal == ONE_OBSTACLE
    local sides = { 0.0, 0.0, 0.0, 0.0 }   -- the entry costs of E, W, S, N
    local function price(c)
      local e = entry(c)
      if e ~= nil and e < 0 then return -e end
      return e
    end]=],
    moves = [=[
    -- step 5: the parent the segments leave from (none for the start)
    local p = u ~= start and parent[u]
    -- step 6: the four sides, in direction order
    for d = 1, 4 do
      local e = entry(u + offset[d])
      if e == nil then return stopped() end
      sides[d] = e
    end
    -- step 7: E W S N SE SW NE NW
    for d = 1, 8 do
      local v = u + offset[d]
      local e = sides[d]
      if d > 4 then   -- a: the corner rule over the two sides, then v
        local a, b = sides[CX[d]] ~= huge, sides[CY[d]] ~= huge
        if always or (one and (a or b)) or (a and b) then
          e = entry(v)
          if e == nil then return stopped() end
        else
          e = huge
        end
      end
      local st = stamp[v]
      if e ~= huge and st ~= closed then            -- b, c
        if e < 0 then e = -e end
        local ng, from = gu + (d > 4 and SQRT2 * e or e), u   -- d: the grid step
        if p and not (st == seen and parent[v] == p) then       -- e: the line from p
          local seg = segment_cost(stride, diagonal, price, p, v)
          if seg == nil then return stopped() end
          if seg < huge and gs[p] + seg <= ng then ng, from = gs[p] + seg, p end
        end
        if not (bounded and ng > max_cost) and (st ~= seen or ng < gs[v]) then   -- f, g
          if st ~= seen then touched = touched + 1 end
          gs[v], stamp[v], parent[v] = ng, seen, from                            -- h
          local f = ng + h_scale * box_distance(s, EUCLIDEAN, cx + DX[d], cy + DY[d])
          if f == fc then
            tn = tn + 1                   -- a tie with the cell being expanded
            ties[tn] = v
          else
            PUSH(f, v)
          end
        end
      end
    end]=],
  }
end

--- loop(S) -> function(s, grid, budget) -> status: the compiled loop, with
-- the search record's helpers of S (search.lua: finish, changed, the
-- closeness and box distance, the statuses); it expands at most budget
-- cells (nil or 0: no limit) of a theta query s, as search.lua run_general.
function M.loop(S)
  return K.astar(query(S))
end

return M
