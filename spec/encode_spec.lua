-- grid:encode() and astar.decode(s): the byte format (checked against an encoder
-- written here from the format's description in src/core/encode.c), exact round
-- trips of walls, costs and settings, and a clear error for every malformed string.

local astar = require "astar"
local R = require "helpers.reference"


local check_error = require("helpers.errors").check_error

local function decode_error(reason)
  return "bad argument #1 to 'decode' (not an astar grid: " .. reason .. ")"
end

---------------------------------------------------------------------------------
-- An independent encoder: plain arithmetic only, so it runs on Lua 5.1 to 5.4.
---------------------------------------------------------------------------------

local function le(value, nbytes)
  local out = {}
  for i = 1, nbytes do
    local b = value % 256
    out[i] = string.char(b)
    value = (value - b) / 256
  end
  return table.concat(out)
end

-- IEEE-754 binary64, little-endian, of a positive finite normal number.
local function f64(x)
  assert(x > 0 and x < math.huge and x >= 2 ^ -1022, "f64 handles positive normal numbers")
  local m, e = x, 0
  while m >= 2 do m, e = m / 2, e + 1 end
  while m < 1 do m, e = m * 2, e - 1 end
  local frac = (m - 1) * 2 ^ 52 -- a whole number below 2^52
  local lo = frac % 2 ^ 48
  local hi = (frac - lo) / 2 ^ 48 -- the top 4 bits of the fraction
  local biased = e + 1023
  return le(lo, 6) .. string.char(hi + (biased % 16) * 16, math.floor(biased / 16))
end

local INF_BYTES = "\0\0\0\0\0\0\240\127"
local NAN_BYTES = "\0\0\0\0\0\0\248\127"
local MINUS_ONE_BYTES = "\0\0\0\0\0\0\240\191"
local ZERO_BYTES = ("\0"):rep(8)

local function xor8(a, b)
  local r, bit = 0, 1
  for _ = 1, 8 do
    if a % 2 ~= b % 2 then r = r + bit end
    a, b, bit = math.floor(a / 2), math.floor(b / 2), bit * 2
  end
  return r
end

-- FNV-1a, 32 bits: h = (h xor byte) * 16777619 mod 2^32. The product is split as
-- h * 0x193 + (h mod 2^8) * 2^24 so every intermediate stays exact in a double.
local function fnv1a(s)
  local h = 2166136261
  for i = 1, #s do
    local low = h % 256
    h = h - low + xor8(low, s:byte(i))
    h = (h * 0x193 + (h % 256) * 2 ^ 24) % 2 ^ 32
  end
  return h
end

local DIAGONAL = { never = 0, always = 1, ["one-obstacle"] = 2, ["no-obstacles"] = 3 }
local HEURISTIC = { manhattan = 0, octile = 1, euclidean = 2, chebyshev = 3, dijkstra = 4 }

-- Bytes of a grid description, fields overridable to build malformed input.
local function encode_raw(t)
  local w, h = t.w, t.h
  local walls = t.walls_bytes
  if not walls then
    local bytes, acc, n = {}, 0, 0
    for y = 1, h do
      for x = 1, w do
        if t.walkable(x, y) then acc = acc + 2 ^ n end
        n = n + 1
        if n == 8 then bytes[#bytes + 1], acc, n = string.char(acc), 0, 0 end
      end
    end
    if n > 0 then bytes[#bytes + 1] = string.char(acc) end
    walls = table.concat(bytes)
  end
  local costs = t.costs_bytes or ""
  if not t.costs_bytes and t.cost then
    local parts = {}
    for y = 1, h do
      for x = 1, w do parts[#parts + 1] = f64(t.cost(x, y)) end
    end
    costs = table.concat(parts)
  end
  local flags = t.flags or ((t.cost or t.costs_bytes) and 1 or 0)
  local body = "ASTARGRD" .. le(t.version or 1, 2) .. string.char(flags)
    .. string.char(t.diagonal or 3, t.heuristic or 1, t.chosen or 0)
    .. le(t.reserved or 0, 2) .. le(w, 4) .. le(h, 4)
    .. (t.weight_bytes or f64(t.weight or 1)) .. walls .. costs
  return body .. le(fnv1a(body), 4)
end

-- The expected encoding of a description built with R.build_grid plus settings.
-- Costs are written exactly when some cell's cost is not 1.
local function expected_bytes(desc, settings)
  local _, _, walk, cost = R.normalise(desc)
  local with_costs = false
  for x = 1, desc.w do
    for y = 1, desc.h do
      if cost(x, y) ~= 1 then with_costs = true end
    end
  end
  settings = settings or {}
  return encode_raw {
    w = desc.w, h = desc.h, walkable = walk, cost = with_costs and cost or nil,
    diagonal = DIAGONAL[settings.diagonal or "no-obstacles"],
    heuristic = HEURISTIC[settings.heuristic or "octile"],
    chosen = settings.heuristic and 1 or 0, weight = settings.weight or 1,
  }
end

local function apply_settings(grid, settings)
  if settings.diagonal then grid:setDiagonal(settings.diagonal) end
  if settings.heuristic then grid:setHeuristic(settings.heuristic, settings.weight) end
  return grid
end

local function random_desc(seed, w, h, density, costs)
  return R.random_map(R.rng(seed), w, h, density, costs)
end

local function same_cells(a, b)
  local w, h = a:getDimensions()
  local bw, bh = b:getDimensions()
  assert.are.equal(w, bw)
  assert.are.equal(h, bh)
  for y = 1, h do
    for x = 1, w do
      if a:isWalkable(x, y) ~= b:isWalkable(x, y) or a:getCost(x, y) ~= b:getCost(x, y) then
        error(("cell (%d, %d) differs"):format(x, y), 2)
      end
    end
  end
end

local function same_settings(a, b)
  assert.are.equal(a:getDiagonal(), b:getDiagonal())
  local ah, aw = a:getHeuristic()
  local bh, bw = b:getHeuristic()
  assert.are.equal(ah, bh)
  assert.are.equal(aw, bw)
end

describe("grid:encode()", function()
  it("writes the documented bytes for a grid without costs", function()
    for _, size in ipairs { { 1, 1 }, { 3, 2 }, { 8, 1 }, { 9, 3 }, { 17, 5 } } do
      local desc = random_desc(size[1] * 100 + size[2], size[1], size[2], 0.3, { 1 })
      local grid = R.build_grid(astar, desc)
      assert.are.equal(expected_bytes(desc), grid:encode())
    end
  end)

  it("writes every cost as its exact binary64 once any cost is not 1", function()
    local desc = random_desc(7, 13, 7, 0.25, { 1, 2, 0.5, 1.25, 1 / 3, 0.1, 1e15 })
    local grid = R.build_grid(astar, desc)
    assert.are.equal(expected_bytes(desc), grid:encode())
  end)

  it("writes the grid's settings: diagonal, heuristic (chosen or not) and weight", function()
    local desc = random_desc(8, 6, 4, 0.2, { 1, 3 })
    for _, settings in ipairs {
      { diagonal = "never" },
      { diagonal = "always", heuristic = "euclidean", weight = 1.5 },
      { diagonal = "one-obstacle", heuristic = "dijkstra", weight = 1 },
      { heuristic = "chebyshev", weight = 2.75 },
      { heuristic = "manhattan", weight = 1e300 },
    } do
      local grid = apply_settings(R.build_grid(astar, desc), settings)
      assert.are.equal(expected_bytes(desc, settings), grid:encode())
    end
  end)

  it("writes no costs when every cost is back to 1 (one encoding per grid)", function()
    local grid = astar.new(4, 3)
    local plain = grid:encode()
    grid:setCost(2, 2, 5)
    assert.are.equal(32 + 2 + 12 * 8 + 4, #grid:encode())
    grid:setCost(2, 2, 1)
    assert.are.equal(plain, grid:encode())
    assert.are.equal(plain, astar.decode(plain):encode())
  end)

  it("is deterministic and stable through decode", function()
    local grid = apply_settings(R.build_grid(astar, random_desc(9, 31, 17, 0.3)),
      { diagonal = "always", heuristic = "octile", weight = 1.25 })
    local s = grid:encode()
    assert.are.equal(s, grid:encode())
    assert.are.equal(s, astar.decode(s):encode())
  end)

  it("checks self", function()
    check_error("calling 'encode' on bad self (astar.Grid expected, got table)",
      astar.new(2, 2).encode, {})
  end)
end)

describe("astar.decode(s)", function()
  it("restores walls, costs and settings exactly", function()
    local costs = { 1, 1, 2, 0.5, 1 / 3, 0.1, 1e15, 5e-324, 2 ^ -1022, 1 + 2 ^ -52 }
    for i, size in ipairs { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 37, 23 }, { 64, 64 } } do
      local grid = R.build_grid(astar, random_desc(i, size[1], size[2], 0.3, costs))
      apply_settings(grid, { diagonal = R.MODES[i % 4 + 1], heuristic = R.HEURISTICS[i], weight = 1 + i / 7 })
      local copy = astar.decode(grid:encode())
      assert.are.equal("astar.Grid (" .. size[1] .. "x" .. size[2] .. ")", tostring(copy))
      same_cells(grid, copy)
      same_settings(grid, copy)
    end
  end)

  it("keeps a heuristic that follows the diagonal mode following it", function()
    local grid = astar.new(4, 4)
    grid:setDiagonal("always")
    local copy = astar.decode(grid:encode())
    assert.are.same({ "octile", 1 }, { copy:getHeuristic() })
    copy:setDiagonal("never")
    assert.are.same({ "manhattan", 1 }, { copy:getHeuristic() })
  end)

  it("decodes bytes written by the independent encoder", function()
    local desc = random_desc(11, 10, 6, 0.3, { 1, 4, 0.25 })
    local s = expected_bytes(desc, { diagonal = "always", heuristic = "euclidean", weight = 2 })
    local grid = astar.decode(s)
    same_cells(R.build_grid(astar, desc), grid)
    assert.are.equal("always", grid:getDiagonal())
    assert.are.same({ "euclidean", 2 }, { grid:getHeuristic() })
  end)

  it("gives a grid that finds the same paths, with the lowest cost scaling the heuristic", function()
    local desc = random_desc(12, 40, 30, 0.25, { 1, 2, 3, 0.5 })
    local grid = R.build_grid(astar, desc)
    local copy = astar.decode(grid:encode())
    local dist = R.dijkstra(desc, "no-obstacles", 1, 1)
    for gx = 5, 40, 7 do
      for gy = 3, 30, 6 do
        local p1, c1 = grid:findPath(1, 1, gx, gy)
        local p2, c2 = copy:findPath(1, 1, gx, gy)
        assert.are.same(p1, p2)
        assert.are.equal(c1, c2)
        if dist[gx][gy] and grid:isWalkable(gx, gy) then
          assert.is_true(R.close(dist[gx][gy], c2), "cost is not optimal")
        end
      end
    end
  end)

  it("gives an independent grid", function()
    local grid = astar.new(3, 3)
    local copy = astar.decode(grid:encode())
    copy:setWalkable(2, 2, false)
    copy:setCost(1, 1, 5)
    assert.is_true(grid:isWalkable(2, 2))
    assert.are.equal(1, grid:getCost(1, 1))
  end)

  it("requires a string", function()
    check_error("bad argument #1 to 'decode' (string expected, got nil)", astar.decode, nil)
    check_error("bad argument #1 to 'decode' (string expected, got no value)", astar.decode)
    check_error("bad argument #1 to 'decode' (string expected, got table)", astar.decode, {})
    check_error("bad argument #1 to 'decode' (string expected, got number)", astar.decode, 12)
  end)

  it("rejects strings that are not grids", function()
    check_error(decode_error("bad magic"), astar.decode, "hello, world, this is not a grid at all")
    check_error(decode_error("bad magic"), astar.decode, "x")
    check_error(decode_error("truncated (0 bytes, a header needs 36)"), astar.decode, "")
    check_error(decode_error("truncated (5 bytes, a header needs 36)"), astar.decode, "ASTAR")
  end)

  it("rejects every truncation and any trailing byte", function()
    local grid = R.build_grid(astar, random_desc(13, 5, 3, 0.3, { 1, 2 }))
    local s = grid:encode()
    assert.are.equal(32 + 2 + 15 * 8 + 4, #s)
    for n = 0, #s - 1 do
      local cut = s:sub(1, n)
      if n < 36 then
        check_error(decode_error(("truncated (%d bytes, a header needs 36)"):format(n)), astar.decode, cut)
      else
        check_error(decode_error(("truncated (%d bytes, expected %d)"):format(n, #s)), astar.decode, cut)
      end
    end
    check_error(decode_error(("trailing bytes (%d bytes, expected %d)"):format(#s + 1, #s)),
      astar.decode, s .. "\0")
  end)

  it("rejects a change to any single byte", function()
    local grid = R.build_grid(astar, random_desc(14, 6, 5, 0.3, { 1, 2 }))
    local s = grid:encode()
    local prefix = "bad argument #1 to 'decode' (not an astar grid: "
    for i = 1, #s do
      for _, delta in ipairs { 1, 128, 255 } do
        local b = string.char((s:byte(i) + delta) % 256)
        local bad = s:sub(1, i - 1) .. b .. s:sub(i + 1)
        local ok, err = pcall(astar.decode, bad)
        assert(not ok, ("byte %d + %d was accepted"):format(i, delta))
        assert.are.equal(prefix, err:sub(1, #prefix))
        if i > 32 then
          assert.are.equal(decode_error("checksum mismatch"), err)
        end
      end
    end
  end)

  it("rejects well-formed strings with bad fields, naming the field", function()
    local function ok_walk() return true end
    local base = { w = 3, h = 3, walkable = ok_walk }
    local function with(t)
      local r = {}
      for k, v in pairs(base) do r[k] = v end
      for k, v in pairs(t) do r[k] = v end
      return encode_raw(r)
    end
    -- the base itself decodes
    assert.are.equal("astar.Grid (3x3)", tostring(astar.decode(with {})))
    check_error(decode_error("unsupported version 2 (this build reads 1)"), astar.decode, with { version = 2 })
    check_error(decode_error("unsupported version 0 (this build reads 1)"), astar.decode, with { version = 0 })
    check_error(decode_error("unknown flags"), astar.decode, with { flags = 2 })
    check_error(decode_error("bad diagonal mode"), astar.decode, with { diagonal = 4 })
    check_error(decode_error("bad heuristic"), astar.decode, with { heuristic = 5 })
    check_error(decode_error("bad heuristic"), astar.decode, with { chosen = 2 })
    check_error(decode_error("reserved bytes are not 0"), astar.decode, with { reserved = 1 })
    check_error(decode_error("bad weight"), astar.decode, with { weight = 0.5 })
    check_error(decode_error("bad weight"), astar.decode, with { weight_bytes = INF_BYTES })
    check_error(decode_error("bad weight"), astar.decode, with { weight_bytes = NAN_BYTES })
    check_error(decode_error("spare wall bits are not 0"), astar.decode, with { walls_bytes = "\255\255" })
    local costs = f64(1):rep(8)
    assert.are.equal("astar.Grid (3x3)", tostring(astar.decode(with { costs_bytes = costs .. f64(2) })))
    for _, bytes in ipairs { ZERO_BYTES, MINUS_ONE_BYTES, INF_BYTES, NAN_BYTES, f64(2e15) } do
      check_error(decode_error("bad cell cost"), astar.decode, with { costs_bytes = costs .. bytes })
    end
    -- a cost section of nothing but 1s is never written (the encoder drops it), so
    -- it is refused: every grid has one encoding and decode-then-encode is the identity
    check_error(decode_error("costs present but every cost is 1"), astar.decode,
      with { costs_bytes = costs .. f64(1) })
  end)

  it("rejects oversized grids before reading or allocating them", function()
    local function header_only(w, h)
      return encode_raw { w = w, h = h, walls_bytes = "", walkable = function() return true end }
    end
    local limits = "(at most 65535 on a side, 268435456 cells)"
    check_error(decode_error("bad size 65536x1 " .. limits), astar.decode, header_only(65536, 1))
    check_error(decode_error("bad size 0x5 " .. limits), astar.decode, header_only(0, 5))
    check_error(decode_error("bad size 20000x20000 " .. limits), astar.decode, header_only(20000, 20000))
    check_error(decode_error("bad size 4294967295x4294967295 " .. limits), astar.decode,
      header_only(4294967295, 4294967295))
    -- the largest allowed size, with no body: the length check catches it
    check_error(decode_error("truncated (36 bytes, expected 33554468)"), astar.decode, header_only(16384, 16384))
  end)
end)
