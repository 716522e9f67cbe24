-- The best-first kernel of the pure backend's one search engine
-- (src/core/dijkstra.h): one loop that settles cells from an open list in
-- order of cost and relaxes the moves the board (board.lua) allows. A query
-- gives hooks as source text; the kernel writes them into its one loop text
-- and compiles the result with `load`, once per query, board kind and flags:
-- the loops stay as fast as the hand-inlined copies they replace (function
-- calls per move cost a third more on Lua 5.4), and are written once.
--
-- The open list is heap.h's 4-ary heap on f alone (hf[i] the key, hc[i] the
-- cell, n entries), so ties settle in the C backend's order.
--
-- Hooks (see M.loop): prepare, fresh, settle, expand, look, relax, finish.
-- Names in scope: u the cell popped; after settle, gu its cost; in look, d
-- the direction (board.lua) and v the neighbour; look sets price (the cost
-- the step is priced by) to have the move relaxed; in relax, ng the cost of
-- v through u. PUSH(f, v) in a hook pushes v with key f (plain names only).
-- Lines "--@if key", "--@else", "--@end" keep or drop what they enclose by
-- the flags of the variant (the board kind's; an A* query's: template.lua).
--
-- Moves (moves.lua: the grid's overrides and links, a query's move rule) are
-- a variant of each loop, flag "moves", compiled only for queries that have
-- them: a query without keeps the loop text it had before. In it the board's
-- override (board.lua MOVES) prices each move, the move rule is asked, and
-- the links of the cell are relaxed after its board moves (hooks askmove,
-- linklook for the Dijkstra loop; link_look for A*).
local B = require "astar.pure.board"
local T = require "astar.pure.template"
local G = require "astar.pure.grid"
local Q = require "astar.pure.query_rules"

local M = {}

local pairs, ipairs = pairs, ipairs

local POP = [[
local lf, lc = hf[n], hc[n]
n = n - 1
local i = 1
while true do
  local first = 4 * i - 2
  if first > n then break end
  local best, bf = first, hf[first]
  local last = first + 3
  if last > n then last = n end
  for k = first + 1, last do
    if hf[k] < bf then best, bf = k, hf[k] end
  end
  if bf < lf then
    hf[i], hc[i] = bf, hc[best]
    i = best
  else
    break
  end
end
if n > 0 then hf[i], hc[i] = lf, lc end
]]

-- The head of the best-first loops on one goal (the A* text below and
-- jps.lua's): stop when the step budget is spent (a stepped search keeps its
-- heap in s), else take u, the tie stack's top before the heap's best.
local NEXT = T.fill([[
if budget == 0 then
  s.n, s.tn, s.ties_f, s.expanded, s.touched = n, tn, fc, expanded, touched
  return SEARCHING
end
budget = budget - 1
local u
if tn > 0 then
  u = ties[tn]
  tn = tn - 1
else
  u, fc = hc[1], hf[1]
  $pop
end
]], { pop = POP })

local PUSH = [[
n = n + 1
local j = n
while j > 1 do
  local p = (j + 2 - (j + 2) % 4) / 4
  local pf = hf[p]
  if $f < pf then
    hf[j], hc[j] = pf, hc[p]
    j = p
  else
    break
  end
end
hf[j], hc[j] = $f, $v
]]

local LOOP = [[
return function($args)
  $prepare
  local offset = offsets(stride)
  --@if moves
  local over, links = moves and moves.over or NONE, moves and moves.$side or NONE
  --@end
  while n > 0 do
    local u = hc[1]
    do
      $pop
    end
    if $fresh then
      $settle
      if
        $expand
      then
        --@if moves
        $at
        --@end
        $open
          local v = u + offset[d]
          local price
          $look
          if price then
            --@if moves
            local mc = $cost
            $override
            if mc and move_rule then
              $askboard
            end
            if mc then
              local ng = gu + mc
              $relax
            end
            --@else
            local ng = $step
            $relax
            --@end
          end
        $close
        --@if moves
        $links
        --@end
      end
    end
  end
  $finish
end
]]

-- The A* side (search.c, astar_loop.c): the same heap, beside it the ties
-- stack (cells whose f equals the f being expanded, taken last in first out
-- before the heap), a budget of expansions and a goal test. Hooks: prepare,
-- goal (an expression on u), best (may u be the partial result: an
-- expression), closeness (its distance to the goal), moves (the expansion:
-- for each move it sets v, ng and d, the direction (board.lua), and writes
-- RELAX), heuristic (sets f from ng and the neighbour's bordered coordinates
-- cx + DX[d], cy + DY[d], computed only for a move that improves v) and
-- finish (the status when the open list runs dry; "no path" unless given).
-- In scope after the goal test: gu, and cx, cy the cell's bordered
-- coordinates; everywhere the locals the loop opens with. The loop lists the
-- cells it expands in s.rec (getExpanded, a finished search's copy: no scan
-- of the grid). Flag
-- "general" (astar_loop.c general_loop: rules, goal lists, near, a bound):
-- a move dearer than max_cost is not taken, entry(v) is the entry cost of
-- cell v (the rule's, asked once per query, never about the start, negative
-- where the path may not end; nil when the rule stopped the query), and
-- stopped() ends a query the rule stopped.
local ASTAR = [[
return function(s, grid, budget)
  if not budget or budget == 0 then budget = -1 end
  local open, cost = grid._open, grid._cost
  -- LuaJIT can run a finalizer at any trace exit (a sunk table made real), so
  -- the grid may have been closed since M.step looked: stop as for a change
  -- (the caller sees the grid closed); a table read here stays valid after.
  if not open then return changed(s) end
  local stride = grid._stride
  local stamp, gs, parent = s.stamp, s.g, s.parent
  local hf, hc, ties = s.hf, s.hc, s.ties
  local n, tn, fc = s.n, s.tn, s.ties_f
  local generation = s.generation
  local seen = 2 * generation
  local closed = seen + 1
  local h_scale, heuristic, diagonal, partial = s.h_scale, s.heuristic, s.diagonal, s.partial
  local expanded, touched = s.expanded, s.touched
  local rec = s.rec   -- the cells expanded, in order: rec[1..expanded]
  local offset = offsets(stride)
  --@if general
  local rc, rs, target = s.rc, s.rs, s.target
  local rule, start = s.rule, s.start
  local bounded, max_cost = s.bounded, s.bound   -- max_cost and rounding's margin

  local function entry(v)
    if not open[v] then return huge end
    if not rule then return cost and cost[v] or 1.0 end
    if rs[v] == generation then return rc[v] end
    local grid_cost = cost and cost[v] or 1.0
    if v == start then return grid_cost end
    s.expanded, s.touched = expanded, touched   -- as they stand, should it stop
    local i0 = v - 1
    local x = i0 % stride
    local c, flags = ask(rule, toint(x), toint((i0 - x) / stride), grid_cost)
    if c == nil then return nil end
    if flags == 1 and c ~= huge then c = -c end
    rc[v], rs[v] = c, generation
    return c
  end

  local function stopped()
    s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
    s.status = NO_PATH
    return STOPPED
  end
  --@end
  $prepare
  --@if moves
  $setup
  --@end
  while n > 0 or tn > 0 do
    $next
    if stamp[u] ~= closed then
      -- under a bound, a goal only when its cost as reported is within max_cost
      if
        ($goal) and within_max_cost(s, u)
      then
        s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
        return finish(s, FOUND, u)
      end
      stamp[u] = closed
      expanded = expanded + 1
      rec[expanded] = u
      local gu = gs[u]
      local cx = (u - 1) % stride
      local cy = (u - 1 - cx) / stride
      --@if moves
      $at
      --@end
      if
        $best
      then
        local dd = $closeness
        if (dd < s.best_distance or (dd == s.best_distance and gu < s.best_g))
          and within_max_cost(s, u) then
          s.best, s.best_distance, s.best_g = u, dd, gu
        end
      end
      $moves
      --@if moves
      $links
      --@end
    else
      budget = budget + 1                       -- a stale duplicate: not an expansion
    end
  end
  s.n, s.tn, s.expanded, s.touched = 0, 0, expanded, touched
  if partial then return finish(s, PARTIAL, s.best) end
  $finish
end
]]

-- What RELAX in an A* hook writes: v offered through u by a move that costs
-- step. With moves (flag "moves": the grid's overrides and links, the
-- query's move rule) the grid's override of move (u, d) prices it first
-- ($override: false, no move), then the rule (false: no move; nil: it
-- stopped the query), and h is at most the links' bound h_links.
local RELAX = [[

--@if moves
$override
if step and move_rule then
  s.expanded, s.touched = expanded, touched   -- as they stand, should it stop
  step = ask_move(move_rule, u, v, step, stride)
  if step == nil then return stopped() end
end
if step then
--@end
local ng = gu + step
do
  --@if general
  if not (bounded and ng > max_cost) then
  --@end
  local st = stamp[v]
  if st ~= closed and (st ~= seen or ng < gs[v]) then
    if st ~= seen then touched = touched + 1 end
    gs[v], stamp[v], parent[v] = ng, seen, u
    $heuristic
    --@if moves
    if h > h_links then h = h_links end
    --@end
    local f = ng + h
    if f == fc then
      tn = tn + 1                   -- a tie with the cell being expanded
      ties[tn] = v
    else
      PUSH(f, v)
    end
  end
  --@if general
  end
  --@end
end
--@if moves
end
--@end
]]

-- With moves: before the loop, the grid's overrides and links (none: an
-- empty table) and the links' bound h_links (once per query, kept in
-- s.h_links: the least link cost plus the estimate from its target, a bound
-- under any path that takes a link); after each cell's board moves, the
-- links leaving it ($link_look sets pass when v may be entered).
local MOVES_PREPARE = [[
local moves = grid._moves
local over, links = moves and moves.over or NONE, moves and moves.out or NONE
local move_rule, size = s.move_rule, s.size
local h_links = s.h_links
if not h_links then
  h_links = huge
  for _, list in pairs(links) do
    for k = 1, #list, 2 do
      local v = list[k]
      local lx = (v - 1) % stride
      local ly = (v - 1 - lx) / stride
      $heuristic
      if list[k + 1] + h < h_links then h_links = list[k + 1] + h end
    end
  end
  s.h_links = h_links
end
]]

local LINKS = [[
local list = links[u]
if list then
  for k = 1, #list, 2 do
    local v = list[k]
    $look
    if pass then
      local step = list[k + 1]
      local lx = (v - 1) % stride
      local ly = (v - 1 - lx) / stride
      $relax
    end
  end
end
]]

-- Writes the heap's push for every PUSH(f, v) of text.
local function expand_push(text)
  return (text:gsub("PUSH%(%s*([%w_]+)%s*,%s*([%w_]+)%s*%)", function(f, v)
    return "do " .. PUSH:gsub("%$(%a)", { f = f, v = v }) .. " end"
  end))
end

-- What every loop may use besides the query's own upvalues.
local COMMON = { SQRT2 = B.SQRT2, huge = math.huge, offsets = B.offsets, hex_dirs = B.hex_dirs,
  CX = B.CX, CY = B.CY, NO_OBSTACLES = B.NO_OBSTACLES, ask = Q.cell, toint = G.toint,
  ask_move = Q.move_step, pairs = pairs, NONE = {}, large_price = B.large_price, BACK = B.BACK }

-- Loop text `text` with its slots filled, the variant's lines kept (flags
-- on), the heap written in, compiled with COMMON and the query's upvalues.
local function build(text, slots, on, q, name)
  local uses = {}
  for k, v in pairs(COMMON) do uses[k] = v end
  for k, v in pairs(q.uses or {}) do uses[k] = v end
  return T.compile(expand_push(T.select(T.fill(text, slots), on, name)), uses, name)
end

-- With moves, the links of the cell settled (a flood over reversed moves,
-- q.reversed: the links arriving at it) after its board moves, a move's cost
-- in mc (step may be a name of the query's): $linklook sets pass when the
-- cell v at their other end may be entered (and what the query's relax
-- needs), the move rule asked about the move as walked.
local DIJKSTRA_LINKS = [[
local list = links[u]
if list then
  for k = 1, #list, 2 do
    local v = list[k]
    local pass = false
    $linklook
    if pass then
      local mc = list[k + 1]
      if move_rule then
        $asklink
      end
      if mc then
        local ng = gu + mc
        $relax
      end
    end
  end
end
]]

-- The loop of query q (hooks: name, args, uses and the hook texts) on board
-- kind `kind`, compiled on first use. With `moved` (the grid's moves or a
-- move rule: q's prepare sets moves, the grid's (nil: none), and move_rule)
-- its variant with them: the override prices a move (reversed moves for a
-- flood over them, q.reversed), then q.askmove (text on mc, the move's cost,
-- and $from, $to, its ends as walked) the move rule, then the links.
function M.loop(q, kind, moved)
  local key = moved and kind .. " moves" or kind
  local compiled = q.compiled
  local fn = compiled and compiled[key]   -- looked up once per query
  if fn then return fn end
  q.compiled = compiled or {}
  local board = B.SOURCE[kind]
  local moves = B.MOVES[kind]
  local function ask(from, to) return T.fill(q.askmove or "", { from = from, to = to }) end
  local forward = not q.reversed
  local slots = { args = q.args, prepare = q.prepare or "", fresh = q.fresh, settle = q.settle or "",
    expand = q.expand or "true", look = q.look, relax = q.relax, finish = q.finish or "",
    open = board.open, close = board.close, step = board.step, pop = POP,
    cost = board.cost, side = forward and "out" or "into",
    at = forward and moves.at or "",
    override = T.fill(forward and moves.price or moves.back_price, { c = "mc" }),
    askboard = forward and ask("u", "v") or ask("v", "u"),
    links = T.fill(DIJKSTRA_LINKS, { linklook = q.linklook or "", relax = q.relax,
      asklink = forward and ask("u", "v") or ask("v", "u") }) }
  local flags = {}
  for f, on in pairs(board.flags) do flags[f] = on end
  flags.moves = moved or nil
  fn = build(LOOP, slots, flags, q, q.name .. " " .. key)
  q.compiled[key] = fn
  return fn
end

-- The A* loop of query q (hooks: name, uses, flags, kind (its board's,
-- with moves) and the hook texts), compiled on first use per variant:
-- "moves" for a query with moves (the grid's or a move rule), else the plain
-- text. function(s, grid, budget) -> status.
function M.astar(q, variant)
  variant = variant or "plain"
  q.compiled = q.compiled or {}
  local fn = q.compiled[variant]
  if fn then return fn end
  local on = { moves = variant == "moves" }
  for _, f in ipairs(q.flags or {}) do on[f] = true end
  local board = B.MOVES[q.kind or "square"]
  local function heuristic(hx, hy) return T.fill(q.heuristic, { hx = hx, hy = hy }) end
  local function relax(override, hx, hy)
    return T.fill(RELAX, { override = override, heuristic = heuristic(hx, hy) })
  end
  local board_relax = relax(T.fill(board.price, { c = "step" }), "cx + DX[d]", "cy + DY[d]")
  local slots = { prepare = q.prepare, goal = q.goal, best = q.best, closeness = q.closeness,
    moves = q.moves:gsub("RELAX", function() return board_relax end), next = NEXT,
    at = board.at, setup = T.fill(MOVES_PREPARE, { heuristic = heuristic("lx", "ly") }),
    links = T.fill(LINKS, { look = q.link_look or "", relax = relax("", "lx", "ly") }),
    finish = q.finish or "s.status = NO_PATH return s.status" }
  fn = build(ASTAR, slots, on, q, q.name .. " " .. variant)
  q.compiled[variant] = fn
  return fn
end

-- Any other loop text on the same heap (jps.lua): $next filled with the
-- loop's head (above), $pop with the heap's pop, PUSH(f, v) written in, the lines of flags kept, compiled with COMMON
-- and `uses`. Returns what the text returns.
function M.compile(text, flags, uses, name)
  return build(text, { pop = POP, next = NEXT }, flags, { uses = uses }, name)
end

-- The heap's push as a function, for the entries put in before a loop runs
-- (sources, a rescan's cells): push(hf, hc, n, f, c) -> n.
M.push = T.compile(expand_push("return function(hf, hc, n, f, c) PUSH(f, c) return n end"), {},
  "push")

return M
