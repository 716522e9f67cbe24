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
-- the flags of the variant (the board kind's and the query's).
local B = require "astar.pure.board"

local M = {}

local concat, format = table.concat, string.format
local load, setfenv, pairs, ipairs, sort, error = load, setfenv, pairs, ipairs, table.sort, error
local unpack = table.unpack or unpack -- luacheck: ignore 113 (Lua 5.1, LuaJIT)
local loadstring = loadstring -- luacheck: ignore 113 (Lua 5.1, LuaJIT)

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
        $open
          local v = u + offset[d]
          local price
          $look
          if price then
            local ng = $step
            $relax
          end
        $close
      end
    end
  end
  $finish
end
]]

-- Keeps the lines of text its --@if blocks select by flags.
local function select_lines(text, flags, name)
  local out, keep = {}, { true }
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local op, key = line:match("^%s*%-%-@(%a+)%s*([%w_]*)")
    if op == "if" then
      keep[#keep + 1] = keep[#keep] and flags[key] == true
    elseif op == "else" then
      keep[#keep] = keep[#keep - 1] and not keep[#keep]
    elseif op == "end" then
      keep[#keep] = nil
    elseif op then
      error(format("kernel %s: unknown directive --@%s", name, op))
    elseif keep[#keep] then
      out[#out + 1] = line
    end
  end
  if #keep ~= 1 then error(format("kernel %s: unbalanced --@if", name)) end
  return concat(out, "\n")
end

-- Writes the heap's push for every PUSH(f, v) of text.
local function expand_push(text)
  return (text:gsub("PUSH%(%s*([%w_]+)%s*,%s*([%w_]+)%s*%)", function(f, v)
    return "do " .. PUSH:gsub("%$(%a)", { f = f, v = v }) .. " end"
  end))
end

-- Compiles source text with the upvalues `uses` (name -> value), in an empty
-- environment: a generated loop reads no globals.
local function compile(source, uses, name)
  local names, values = {}, {}
  for k in pairs(uses) do names[#names + 1] = k end
  sort(names)
  for i, k in ipairs(names) do values[i] = uses[k] end
  if #names > 0 then source = "local " .. concat(names, ", ") .. " = ...\n" .. source end
  local chunk, message
  if setfenv then
    chunk, message = loadstring(source, "=kernel " .. name)
    if chunk then setfenv(chunk, {}) end
  else
    chunk, message = load(source, "=kernel " .. name, "t", {})
  end
  if not chunk then error(message, 0) end
  return chunk(unpack(values, 1, #names))
end
M.compile = compile

-- What every loop may use besides the query's own upvalues.
local COMMON = { SQRT2 = B.SQRT2, huge = math.huge, offsets = B.offsets, hex_dirs = B.hex_dirs,
  CX = B.CX, CY = B.CY, NO_OBSTACLES = B.NO_OBSTACLES }

-- The loop of query q (hooks: name, args, uses and the hook texts) on board
-- kind `kind` with the query's flags (a list of names), compiled on first use.
function M.loop(q, kind, flags)
  local key = kind .. " " .. concat(flags or {}, " ")
  q.compiled = q.compiled or {}
  local fn = q.compiled[key]
  if fn then return fn end
  local board = B.SOURCE[kind]
  local on = {}
  for k, v in pairs(board.flags) do on[k] = v end
  for _, f in ipairs(flags or {}) do on[f] = true end
  local slots = { args = q.args, prepare = q.prepare or "", fresh = q.fresh, settle = q.settle or "",
    expand = q.expand or "true", look = q.look, relax = q.relax, finish = q.finish or "",
    open = board.open, close = board.close, step = board.step, pop = POP }
  local text = LOOP:gsub("%$(%a+)", function(slot) return slots[slot] end)
  local name = q.name .. " " .. key
  local uses = {}
  for k, v in pairs(COMMON) do uses[k] = v end
  for k, v in pairs(q.uses or {}) do uses[k] = v end
  fn = compile(expand_push(select_lines(text, on, name)), uses, name)
  q.compiled[key] = fn
  return fn
end

-- The heap's push and pop as functions, for the entries put in before a
-- loop runs (sources, a rescan's cells): push(hf, hc, n, f, c) -> n;
-- pop(hf, hc, n) -> the cell on top, n.
M.push = compile(expand_push("return function(hf, hc, n, f, c) PUSH(f, c) return n end"), {}, "push")
M.pop = compile("return function(hf, hc, n) local u = hc[1] do " .. POP .. " end return u, n end",
  {}, "pop")

return M
