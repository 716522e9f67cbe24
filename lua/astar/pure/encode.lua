-- grid:encode() and astar.decode(s) for the pure-Lua backend: the same bytes
-- as the C module (src/core/encode.c, format version 1, described there) and
-- the same error messages, with no bit operators so it runs on Lua 5.1 to 5.4.
--
-- Doubles: string.pack("<d") where it exists (5.3+), else IEEE-754 binary64
-- by hand (exact for every finite double, subnormals included; the format
-- only holds positive finite weights and costs, anything else is rejected).
-- FNV-1a 32: the xor of two bytes comes from a 256 x 256 table built on first
-- use; the multiply by 16777619 = 2^24 + 403 is split so every intermediate
-- stays an exact whole number below 2^42.
local A = require "astar.pure.args"
local G = require "astar.pure.grid"
local B = require "astar.pure.board"
local MV = require "astar.pure.moves"

local M = {}

local byte, char, sub, format = string.byte, string.char, string.sub, string.format
local concat, sort = table.concat, table.sort
local pairs = pairs
local floor, huge = math.floor, math.huge
local select, type = select, type
local toint = G.toint
local pack, unpack = string.pack, string.unpack   -- nil before 5.3

local MAGIC = "ASTARGRD"
local VERSION = 1
local HEADER_SIZE, CHECKSUM_SIZE = 32, 4
local FNV_OFFSET = 2166136261             -- the prime is 16777619 = 2^24 + 403
local TWO32 = 4294967296

-- ---- little-endian integers and doubles -------------------------------------

local function le(value, nbytes)
  local out = {}
  for i = 1, nbytes do
    local b = value % 256
    out[i] = char(b)
    value = (value - b) / 256
  end
  return concat(out)
end

local function u16(s, i) return byte(s, i) + byte(s, i + 1) * 256 end
local function u32(s, i) return u16(s, i) + u16(s, i + 2) * 65536 end

-- x = m * 2^e with 0.5 <= m < 1, for a positive finite x (math.frexp is gone
-- from some 5.2+ builds; only they take the loop).
local frexp = math.frexp or function(x)
  local e = 0
  while x >= 1 do x, e = x / 2, e + 1 end
  while x < 0.5 do x, e = x * 2, e - 1 end
  return x, e
end

-- The 8 bytes of a positive finite double.
local f64
if pack then
  f64 = function(x) return pack("<d", x) end
else
  f64 = function(x)
    local m, e = frexp(x)
    local biased = e + 1022
    local frac = (m * 2 - 1) * 2 ^ 52      -- exact: m has at most 53 bits
    if biased < 1 then
      -- subnormal: x = frac * 2^-1074 (in two steps: 2^1074 is inf)
      biased, frac = 0, x * 2 ^ 1022 * 2 ^ 52
    end
    local lo = frac % 2 ^ 48
    local hi = (frac - lo) / 2 ^ 48        -- the top 4 bits of the fraction
    return le(lo, 6) .. char(hi + biased % 16 * 16, floor(biased / 16))
  end
end

-- The double at s[i .. i + 7], any bit pattern (inf and nan included).
local get_f64
if unpack and pack then
  get_f64 = function(s, i) return (unpack("<d", s, i)) end
else
  get_f64 = function(s, i)
    local lo = u32(s, i) + byte(s, i + 4) * TWO32 + byte(s, i + 5) * 2 ^ 40
    local b6, b7 = byte(s, i + 6), byte(s, i + 7)
    local frac = lo + b6 % 16 * 2 ^ 48
    local biased = floor(b6 / 16) + b7 % 128 * 16
    local sign = b7 >= 128 and -1 or 1
    if biased == 2047 then
      if frac == 0 then return sign * huge end
      return 0 / 0
    end
    if biased == 0 then return sign * frac * 2 ^ -1074 end
    return sign * (frac + 2 ^ 52) * 2 ^ (biased - 1075)
  end
end

-- ---- FNV-1a 32 ----------------------------------------------------------------

local XOR   -- XOR[a * 256 + b + 1] = a xor b, built on first use

local function xor_table()
  local nib = {}
  for a = 0, 15 do
    for b = 0, 15 do
      local r, bit, x, y = 0, 1, a, b
      for _ = 1, 4 do
        if x % 2 ~= y % 2 then r = r + bit end
        x, y, bit = floor(x / 2), floor(y / 2), bit * 2
      end
      nib[a * 16 + b + 1] = r
    end
  end
  local t = {}
  for a = 0, 255 do
    local ah, al = floor(a / 16), a % 16
    for b = 0, 255 do
      t[a * 256 + b + 1] = nib[ah * 16 + floor(b / 16) + 1] * 16 + nib[al * 16 + b % 16 + 1]
    end
  end
  return t
end

-- The hash of s[first .. last], continuing from h. After the xor, h's low
-- byte is x, and h * 2^24 mod 2^32 only needs that byte. The constants are
-- written out so that Lua 5.3+ keeps h an integer (faster than floats).
local function fnv1a(h, s, first, last)
  XOR = XOR or xor_table()
  local xor = XOR
  local i = first
  while i + 3 <= last do                   -- 4 bytes per string.byte call
    local b1, b2, b3, b4 = byte(s, i, i + 3)
    local low = h % 256
    local x = xor[low * 256 + b1 + 1]
    h = ((h - low + x) * 403 + x * 16777216) % 4294967296
    low = h % 256
    x = xor[low * 256 + b2 + 1]
    h = ((h - low + x) * 403 + x * 16777216) % 4294967296
    low = h % 256
    x = xor[low * 256 + b3 + 1]
    h = ((h - low + x) * 403 + x * 16777216) % 4294967296
    low = h % 256
    x = xor[low * 256 + b4 + 1]
    h = ((h - low + x) * 403 + x * 16777216) % 4294967296
    i = i + 4
  end
  for j = i, last do
    local low = h % 256
    local x = xor[low * 256 + byte(s, j) + 1]
    h = ((h - low + x) * 403 + x * 16777216) % 4294967296
  end
  return h
end

-- Any double's 8 bytes (distance maps hold negatives, inf and nan too):
-- every nan as the one canonical nan of distance.c put_f64.
local function f64_any(x)
  if x ~= x then return "\0\0\0\0\0\0\248\127" end
  if pack then return pack("<d", x) end
  if x == huge then return "\0\0\0\0\0\0\240\127" end
  if x == -huge then return "\0\0\0\0\0\0\240\255" end
  if x == 0 then
    if 1 / x < 0 then return "\0\0\0\0\0\0\0\128" end
    return "\0\0\0\0\0\0\0\0"
  end
  if x < 0 then
    local s = f64(-x)
    return sub(s, 1, 7) .. char(byte(s, 8) + 128)
  end
  return f64(x)
end

-- ---- Adler-32 (distance maps, format version 2) ---------------------------------

-- The Adler-32 of s[first .. last] (RFC 1950; distance.c adler32): additions
-- only, 8 bytes a string.byte call, b gaining 8a and the bytes weighted 8..1.
-- Sums stay exact whole numbers: reduced every 65536 bytes, b stays below 2^41.
local ADLER = 65521
local function adler32(s, first, last)
  local a, b = 1, 0
  local i = first
  while i <= last do
    local stop = i + 65535
    if stop > last then stop = last end
    while i + 7 <= stop do
      local b1, b2, b3, b4, b5, b6, b7, b8 = byte(s, i, i + 7)
      b = b + 8 * a + 8 * b1 + 7 * b2 + 6 * b3 + 5 * b4 + 4 * b5 + 3 * b6 + 2 * b7 + b8
      a = a + b1 + b2 + b3 + b4 + b5 + b6 + b7 + b8
      i = i + 8
    end
    while i <= stop do
      a = a + byte(s, i)
      b = b + a
      i = i + 1
    end
    a, b = a % ADLER, b % ADLER
  end
  return b * 65536 + a
end

-- Four little-endian bytes of a whole number in 0 .. 2^32 - 1 (le without
-- its table: a distance map writes one per source and per origin).
local function u32_bytes(v)
  local b0 = v % 256
  v = (v - b0) / 256
  local b1 = v % 256
  v = (v - b1) / 256
  local b2 = v % 256
  return char(b0, b1, b2, (v - b2) / 256)
end

-- The 8 bytes of any double as numbers, low first (f64_any's bytes, without
-- making a string: a distance map's values are written CHUNK at a time).
local function f64_bytes(x)
  if x ~= x then return 0, 0, 0, 0, 0, 0, 248, 127 end
  local sign = 0
  if x < 0 or x == 0 and 1 / x < 0 then sign, x = 128, -x end
  if x == huge then return 0, 0, 0, 0, 0, 0, 240, 127 + sign end
  if x == 0 then return 0, 0, 0, 0, 0, 0, 0, sign end
  local m, e = frexp(x)
  local biased = e + 1022
  local frac = (m * 2 - 1) * 2 ^ 52
  if biased < 1 then biased, frac = 0, x * 2 ^ 1022 * 2 ^ 52 end
  local b0 = frac % 256
  frac = (frac - b0) / 256
  local b1 = frac % 256
  frac = (frac - b1) / 256
  local b2 = frac % 256
  frac = (frac - b2) / 256
  local b3 = frac % 256
  frac = (frac - b3) / 256
  local b4 = frac % 256
  frac = (frac - b4) / 256
  local b5 = frac % 256
  local hi = (frac - b5) / 256      -- the top 4 bits of the fraction
  return b0, b1, b2, b3, b4, b5, hi + biased % 16 * 16, floor(biased / 16) + sign
end

-- What lua/astar/pure/distance.lua shares (map:encode, astar.decodeMap).
M.le, M.u32, M.f64_any, M.get_f64, M.FNV_OFFSET = le, u32, f64_any, get_f64, FNV_OFFSET
M.adler32, M.u32_bytes, M.f64_bytes = adler32, u32_bytes, f64_bytes
M.pack, M.unpack = pack, unpack
M.fnv1a = function(h, s, first, last) return fnv1a(h, s, first, last) end

-- ---- encode -------------------------------------------------------------------

local encode_once
local moves_end, moves_at   -- the moves section in a decoded string
-- The moves section (a distance map's too: distance.lua): written from an
-- object with _moves, _w, _stride; checked; set on a grid (or a stand-in).
local encode_moves, check_moves, decode_moves

-- A cell as the format numbers it: 0-based y * width + x of bordered cell c.
local function cell_number(grid, c)
  local stride = grid._stride
  local x = (c - 1) % stride
  return ((c - 1 - x) / stride - 1) * grid._w + x - 1
end

-- The keys of t (bordered cells), ascending.
local function sorted_cells(t)
  local list = {}
  for c in pairs(t) do list[#list + 1] = c end
  sort(list)
  return list
end

local FALSE_COST = "\0\0\0\0\0\0\0\0"   -- 0.0: the move is impossible

-- The moves section (flag 8): the overrides by cell then direction, the
-- directed links by source then target.
function encode_moves(grid)
  local m = grid._moves
  local over, out = {}, {}
  for _, c in ipairs(sorted_cells(m.over)) do
    local ov = m.over[c]
    for d = 1, 8 do
      local cost = ov[d]
      if cost ~= nil then
        over[#over + 1] = le(cell_number(grid, c), 4) .. char(d - 1)
          .. (cost and f64(cost) or FALSE_COST)
      end
    end
  end
  for _, c in ipairs(sorted_cells(m.out)) do
    local list, from = m.out[c], le(cell_number(grid, c), 4)
    for k = 1, #list, 2 do
      out[#out + 1] = from .. le(cell_number(grid, list[k]), 4) .. f64(list[k + 1])
    end
  end
  return le(#over, 4) .. concat(over) .. le(#out, 4) .. concat(out)
end

-- A finalizer run by one of encode's allocations may change or close the
-- grid: the bytes would then mix two states, so encode starts again (at most
-- G.MAX_RESTARTS times) or raises.
function M.encode(...)
  local self = ...
  G.check_grid("encode", select("#", ...), self)
  for _ = 0, G.MAX_RESTARTS do
    local version = self._version
    local s = encode_once(self)
    if not self._open then error("grid closed during encode", 0) end
    if self._version == version then return s end
  end
  error("grid changed during encode", 0)
end

function encode_once(self)
  local w, h, stride = self._w, self._h, self._stride
  local open, cost = self._open, self._cost
  local has_costs = false
  if cost then
    for y = 1, h do
      local row = y * stride + 1
      for i = row + 1, row + w do
        if cost[i] ~= 1 then has_costs = true break end
      end
      if has_costs then break end
    end
  end

  local parts = {
    MAGIC, le(VERSION, 2),
    char((has_costs and 1 or 0) + (self._hex and 4 or 0) + (self._moves and 8 or 0),
      self._diagonal - 1,
      self._heuristic - 1, self._heuristic_chosen and 1 or 0),
    char(0, self._hex and self._hex - 1 or 0), le(w, 4), le(h, 4), f64(self._weight),
  }
  -- walls: 8 cells a byte, first cell in the lowest bit
  local bytes, n, acc, nbits = {}, 0, 0, 1
  for y = 1, h do
    local row = y * stride + 1
    for i = row + 1, row + w do
      if open[i] then acc = acc + nbits end
      if nbits == 128 then
        n = n + 1
        bytes[n] = char(acc)
        acc, nbits = 0, 1
      else
        nbits = nbits * 2
      end
    end
  end
  if nbits > 1 then
    n = n + 1
    bytes[n] = char(acc)
  end
  parts[#parts + 1] = concat(bytes)
  if has_costs then
    local list, k = {}, 0
    for y = 1, h do
      local row = y * stride + 1
      for i = row + 1, row + w do
        k = k + 1
        list[k] = f64(cost[i])
      end
    end
    parts[#parts + 1] = concat(list)
  end
  if self._moves then parts[#parts + 1] = encode_moves(self) end
  local body = concat(parts)
  return body .. le(fnv1a(FNV_OFFSET, body, 1, #body), 4)
end

M.encode_moves = function(t) return encode_moves(t) end
M.moves_end = function(s, at) return moves_end(s, at) end
M.check_moves = function(s, at, w, h, hex) return check_moves(s, at, w, h, hex) end
M.decode_moves = function(s, at, grid) return decode_moves(s, at, grid) end

-- ---- decode -------------------------------------------------------------------

-- The length a string whose moves section starts after byte expected - 4
-- (expected: its length without one) should have (encode.c check_header):
-- each count is read only when the bytes before the next one are there, so
-- a short string is "truncated" with the length its counts so far ask for.
local function moves_expected(s, expected)
  local length, at = #s, expected - CHECKSUM_SIZE
  if length < expected + 4 then return expected + 8 end
  local n = u32(s, at + 1)
  expected = expected + 8 + 13 * n
  if length >= expected then expected = expected + 16 * u32(s, at + 4 + 13 * n + 1) end
  return expected
end

-- Where the moves section that starts after byte at ends, or nil when the
-- string ends before its counts (a distance map's: distance.lua).
function moves_end(s, at)
  if #s < at + 4 then return nil end
  at = at + 4 + 13 * u32(s, at + 1)
  if #s < at + 4 then return nil end
  return at + 4 + 16 * u32(s, at + 1)
end

-- nil, or the message of encode.c check_header for what is wrong.
local function check_header(s)
  local length = #s
  if sub(s, 1, 8) ~= sub(MAGIC, 1, length) then return "bad magic" end
  if length < HEADER_SIZE + CHECKSUM_SIZE then
    return format("truncated (%d bytes, a header needs %d)", length, HEADER_SIZE + CHECKSUM_SIZE)
  end
  local version = u16(s, 9)
  if version ~= VERSION then
    return format("unsupported version %d (this build reads %d)", version, VERSION)
  end
  local flags = byte(s, 11)
  local width, height = u32(s, 17), u32(s, 21)
  if width < 1 or height < 1 or width > G.MAX_SIDE or height > G.MAX_SIDE
    or width * height > G.MAX_CELLS then
    return format("bad size %dx%d (at most %d on a side, %d cells)", width, height,
      G.MAX_SIDE, G.MAX_CELLS)
  end
  local cells = width * height
  local expected = HEADER_SIZE + floor((cells + 7) / 8) + CHECKSUM_SIZE
  if flags % 2 == 1 then expected = expected + cells * 8 end
  if flags % 16 >= 8 then expected = moves_expected(s, expected) end
  if length ~= expected then
    return format("%s (%d bytes, expected %.0f)",
      length < expected and "truncated" or "trailing bytes", length, expected)
  end
  if fnv1a(FNV_OFFSET, s, 1, length - CHECKSUM_SIZE) ~= u32(s, length - CHECKSUM_SIZE + 1) then
    return "checksum mismatch"
  end
  if flags >= 16 or flags % 4 >= 2 then return "unknown flags" end
  if byte(s, 12) > 3 then return "bad diagonal mode" end
  if byte(s, 13) > 4 or byte(s, 14) > 1 then return "bad heuristic" end
  local hex = flags % 8 >= 4
  if byte(s, 15) ~= 0 or (not hex and byte(s, 16) ~= 0) then return "reserved bytes are not 0" end
  if hex and byte(s, 16) > 3 then return "bad hex layout" end
  local weight = get_f64(s, 25)
  if not (weight >= 1) or weight == huge then return "bad weight" end
  return nil
end

-- nil, or the message for the moves section at byte at + 1 of a w x h grid
-- (hex: its layout), as encode.c decode_moves checks it: each override's
-- cell and direction lead to a board neighbour in the grid ("bad move"), in
-- the encoder's order, its cost 0 (false) or in (0, 1e15]; something is
-- there; links join two cells of the grid, in order, at a cost in (0, 1e15].
function check_moves(s, at, w, h, hex)
  local n, cells, stride = u32(s, at + 1), w * h, w + 2
  local last = -1
  for k = 0, n - 1 do
    local p = at + 5 + 13 * k
    local c, d = u32(s, p), byte(s, p + 4) + 1
    local cost = get_f64(s, p + 5)
    local x, y = c % w, (c - c % w) / w
    local ok = c < cells and d <= 8
    if ok then
      local tx, ty = x + B.DX[d], y + B.DY[d]
      ok = tx >= 0 and ty >= 0 and tx < w and ty < h
      if ok and hex and d > 4 then
        local dirs = B.hex_dirs(hex, stride, (y + 1) * stride + x + 2)
        ok = d == dirs[5] or d == dirs[6]
      end
    end
    if not ok then return "bad move" end
    if k > 0 and c * 8 + d <= last then return "moves out of order" end
    if not (cost == 0 or (cost > 0 and cost <= G.MAX_COST)) then return "bad move cost" end
    last = c * 8 + d
  end
  at = at + 4 + 13 * n
  local links = u32(s, at + 1)
  -- the encoder sets the flag only then: one encoding per grid
  if n + links == 0 then return "moves flag set but no moves or links" end
  for k = 0, links - 1 do
    local p = at + 5 + 16 * k
    local from, to, cost = u32(s, p), u32(s, p + 4), get_f64(s, p + 8)
    if from >= cells or to >= cells or from == to then return "bad link" end
    if k > 0 and from * cells + to <= last then return "links out of order" end
    if not (cost > 0 and cost <= G.MAX_COST) then return "bad link cost" end
    last = from * cells + to
  end
  return nil
end

-- Sets the moves section at byte at + 1 (checked) on the new grid.
function decode_moves(s, at, grid)
  local w, stride = grid._w, grid._stride
  local function cell(c) return (c - c % w) / w * stride + stride + c % w + 2 end
  local n = u32(s, at + 1)
  for k = 0, n - 1 do
    local p = at + 5 + 13 * k
    local cost = get_f64(s, p + 5)
    MV.set_override(grid, toint(cell(u32(s, p))), byte(s, p + 4) + 1, cost ~= 0 and cost)
  end
  at = at + 4 + 13 * n
  for k = 0, u32(s, at + 1) - 1 do
    local p = at + 5 + 16 * k
    MV.set_link(grid, toint(cell(u32(s, p))), toint(cell(u32(s, p + 4))), get_f64(s, p + 8))
  end
end

-- nil, or the message for the body (spare wall bits, costs).
-- Where the moves section starts: after the walls and the costs.
function moves_at(s, cells)
  local at = HEADER_SIZE + floor((cells + 7) / 8)
  if byte(s, 11) % 2 == 1 then at = at + 8 * cells end
  return at
end

local function check_body(s, cells, with_costs, w, h, hex)
  local spare = cells % 8
  if spare ~= 0 and byte(s, HEADER_SIZE + floor(cells / 8) + 1) >= 2 ^ spare then
    return "spare wall bits are not 0"
  end
  if with_costs then
    local at = HEADER_SIZE + floor((cells + 7) / 8) + 1
    local some_not_1 = false
    for k = 0, cells - 1 do
      local c = get_f64(s, at + 8 * k)
      if not (c > 0 and c <= G.MAX_COST) then return "bad cell cost" end
      if c ~= 1 then some_not_1 = true end
    end
    -- the encoder writes no costs then: one encoding per grid (encode.c)
    if not some_not_1 then return "costs present but every cost is 1" end
  end
  if byte(s, 11) >= 8 then return check_moves(s, moves_at(s, cells), w, h, hex) end
  return nil
end

function M.decode(...)
  local s = ...
  if type(s) ~= "string" then
    A.type_error(1, "decode", nil, "string", s, select("#", ...) > 0)
  end
  local message = check_header(s)
  local w, h, with_costs
  if not message then
    w, h, with_costs = toint(u32(s, 17)), toint(u32(s, 21)), byte(s, 11) % 2 == 1
    local hex = byte(s, 11) % 8 >= 4 and byte(s, 16) + 1 or nil
    message = check_body(s, w * h, with_costs, w, h, hex)
  end
  if message then A.arg_error(1, "decode", nil, "not an astar grid: " .. message) end

  local grid = G.new(w, h)
  local open, stride = grid._open, grid._stride
  local at, acc, nbits = HEADER_SIZE + 1, byte(s, HEADER_SIZE + 1), 0
  local costs_at = HEADER_SIZE + floor((w * h + 7) / 8) + 1
  for y = 1, h do
    local row = y * stride + 1
    for i = row + 1, row + w do
      if acc % 2 == 0 then open[i] = false end   -- a new grid is all open
      acc, nbits = floor(acc / 2), nbits + 1
      if nbits == 8 then
        at, nbits = at + 1, 0
        acc = byte(s, at)
      end
      if with_costs then
        G.set_cost(grid, i, get_f64(s, costs_at))
        costs_at = costs_at + 8
      end
    end
  end
  if byte(s, 11) % 8 >= 4 then grid._hex = byte(s, 16) + 1 end
  if byte(s, 11) >= 8 then decode_moves(s, moves_at(s, w * h), grid) end
  grid._diagonal = byte(s, 12) + 1
  grid._heuristic = byte(s, 13) + 1
  grid._heuristic_chosen = byte(s, 14) == 1
  grid._weight = get_f64(s, 25) + 0.0
  grid._version, grid._link_edits = 0, 0
  return grid
end

return M
