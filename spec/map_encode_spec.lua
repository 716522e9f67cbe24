-- map:encode() and astar.decodeMap(s), format version 2 (issue 24: a map
-- handed to a thread costs well under building it; src/core/distance.c
-- describes the format): maps encoded by astar 2.0.0 (format version 1,
-- the bytes below) still decode, to the map built now; version 2's layout
-- (origin width, cost palette or a binary64 per cell, values in one block)
-- checked by its length and fields; the same bytes on both backends, each
-- reading the other's, where the palette overflows and origins take 2 or 4
-- bytes.
local astar = require "astar"
local E = require "helpers.errors"

local function bytes_of(hex) return (hex:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end)) end
local function u16(s, i) return s:byte(i) + 256 * s:byte(i + 1) end

-- The maps the version 1 bytes were encoded from (astar 2.0.0), built again.
local function board() return astar.fromString("..#...\n.2..3.\n...#..\n#..5..\n......") end
-- Each gives the map and the grid it is made on.
local BUILD = {
  ["two sources, costs, walls"] = function()
    local g = board()
    return g:distanceMap({ { x = 1, y = 1 }, { x = 6, y = 5, value = 2 } }), g
  end,
  ["flee (derived)"] = function()
    local g = board()
    return g:distanceMap({ { x = 1, y = 1 }, { x = 6, y = 5, value = 2 } }):flee(), g
  end,
  ["maxCost 4, never"] = function()
    local g = board()
    return g:distanceMap({ { x = 2, y = 2 } }, { maxCost = 4, diagonal = "never" }), g
  end,
  ["hex even-q"] = function()
    local h = astar.newHex(5, 4, "even-q")
    h:setCost(2, 2, 3)
    h:setWalkable(3, 3, false)
    return h:distanceMap({ { x = 1, y = 1 } }), h
  end,
  ["size 2"] = function()
    local g = board()
    return g:distanceMap({ { x = 5, y = 4 } }, { size = 2 }), g
  end,
  ["moves and a link"] = function()
    local l = board()
    l:setMove(2, 1, 3, 2, false)
    l:link(1, 5, 6, 1, 1.5)
    l:setWallBetween(4, 4, 4, 5, true)
    return l:distanceMap({ { x = 6, y = 1 } }), l
  end,
  ["start cells (blocked)"] = function()
    local g = board()
    return g:distanceMap({ { x = 1, y = 1 } }, { blocked = { { x = 3, y = 2 }, { x = 5, y = 3 } } }), g
  end,
}

local VERSION1 = {
  { "two sources, costs, walls",
    "4153544152444d5001000300060000000500000002000000000000000000f07f00000000000000000000000000000000"
    .. "0500000004000000000000000000004008010f0205020307010101020307010f02020f03070004020003030000080000"
    .. "00000000f03f000000000000f03f000000000000f07f000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f0000000000000040000000000000f03f000000000000f03f0000000000000840000000000000f03f0000"
    .. "00000000f03f000000000000f03f000000000000f03f000000000000f07f000000000000f03f000000000000f03f0000"
    .. "00000000f07f000000000000f03f000000000000f03f0000000000001440000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000000000000000000000000000f03f00000000f3ce9f9927a8154000000000e69d3f334f501740000000000000"
    .. "00000000184001000000000000000000f03f00000000cd3b7f669ea0f63f00000000e69d3f334f500b4000000000f3ce"
    .. "9f9927a8114000000000f3ce9f9927a8154000000000000000000000144001000000000000000000004000000000e69d"
    .. "3f334f50034000000000e69d3f334f500b4000000000f3ce9f9927a8114001000000000000000000104001000000e69d"
    .. "3f334f500b4000000000cc3b7f669ea00e4000000000f3ce9f9927a8114001000000e69d3f334f500b40010000000000"
    .. "00000000084001000000f3ce9f9927a8154000000000f3ce9f9927a8114000000000e69d3f334f501340000000000000"
    .. "0000000010400100000000000000000008400100000000000000000000400100000076f46a43" },
  { "flee (derived)",
    "4153544152444d5001000301060000000500000000000000000000000000f07f02020f0808080400000608030002080f"
    .. "08030f0202080303080108080103000000000000f03f000000000000f03f000000000000f07f000000000000f03f0000"
    .. "00000000f03f000000000000f03f000000000000f03f0000000000000040000000000000f03f000000000000f03f0000"
    .. "000000000840000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f07f0000"
    .. "00000000f03f000000000000f03f000000000000f07f000000000000f03f000000000000f03f00000000000014400000"
    .. "00000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f03f90a54ce15253f1bf18000000e88618294447f9bf0400000057f8f251fcfc19c00300"
    .. "0000adf0e5a3f8f91bc004000000cccccccccccc1cc005000000c852a670a9a900c01800000074438c14a2a30cc00400"
    .. "0000ba21460ad15112c004000000ba21460ad15116c00400000057f8f251fcfc19c00a000000cccccccccccc18c00500"
    .. "0000aef0e5a3f8f903c018000000aef0e5a3f8f90bc018000000bd5e59b8626310c00e0000008a2b26852f3015c01000"
    .. "0000cccccccccccc14c00500000057f8f251fcfc11c018000000e12319d72b2d13c01a0000008a2b26852f3015c01500"
    .. "00008a2b26852f3011c010000000cccccccccccc10c00500000057f8f251fcfc19c01800000057f8f251fcfc15c01800"
    .. "0000e12319d72b2d17c01a00000033333333333313c01b0000006666666666660ec01b00000098999999999909c00500"
    .. "0000595c21e2" },
  { "maxCost 4, never",
    "4153544152444d5001000000060000000500000001000000000000000000104001000000010000000000000000000000"
    .. "00020f020f0f00080101010f0003010f0f0f0f03010f0f0f0f030f0f0f0f000000000000f03f000000000000f03f0000"
    .. "00000000f07f000000000000f03f000000000000f03f000000000000f03f000000000000f03f00000000000000400000"
    .. "00000000f03f000000000000f03f0000000000000840000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f07f000000000000f03f000000000000f03f000000000000f07f000000000000f03f0000"
    .. "00000000f03f0000000000001440000000000000f03f000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000084000000000000000000000"
    .. "004000000000000000000000104000000000000000000000004000000000000000000000000000000000000000000000"
    .. "004000000000000000000000084000000000000000000000104000000000000000000000084000000000000000000000"
    .. "004000000000000000000000084000000000000000000000084000000000000000000000104000000000000000000000"
    .. "1040000000004d4b93fe" },
  { "hex even-q",
    "4153544152444d5001000304050000000400000001000000000000000000f07f00000000000000000000000000000000"
    .. "0801010101030703070103070f03010303010101000000000000f03f000000000000f03f000000000000f03f00000000"
    .. "0000f03f000000000000f03f000000000000f03f0000000000000840000000000000f03f000000000000f03f00000000"
    .. "0000f03f000000000000f03f000000000000f03f000000000000f07f000000000000f03f000000000000f03f00000000"
    .. "0000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000000000000000"
    .. "000000000000f03f00000000000000000000004000000000000000000000084000000000000000000000104000000000"
    .. "000000000000f03f00000000000000000000f03f00000000000000000000084000000000000000000000084000000000"
    .. "000000000000104000000000000000000000004000000000000000000000004000000000000000000000104000000000"
    .. "000000000000144000000000000000000000084000000000000000000000084000000000000000000000104000000000"
    .. "000000000000144000000000000000000000184000000000471486ad" },
  { "size 2",
    "4153544152444d5001000308060000000500000001000000000000000000f07f02000000040000000300000000000000"
    .. "00000000020f0f00020f00020f0f020f0f020f0f020f0f000000080f0f0f0f0f0f0f000000000000f03f000000000000"
    .. "f03f000000000000f07f000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000"
    .. "0040000000000000f03f000000000000f03f0000000000000840000000000000f03f000000000000f03f000000000000"
    .. "f03f000000000000f03f000000000000f07f000000000000f03f000000000000f03f000000000000f07f000000000000"
    .. "f03f000000000000f03f0000000000001440000000000000f03f000000000000f03f000000000000f03f000000000000"
    .. "f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f0000000000002640000000000000"
    .. "000000001040000000000000000000000840000000000000000000002440000000000000000000002240000000000000"
    .. "00000000004000000000000000000000204000000000000000000000f03f000000000000000000001c40000000000000"
    .. "00000000004000000000000000000000f03f00000000000000000000000000000000786d28b7" },
  { "moves and a link",
    "4153544152444d5001000310060000000500000001000000000000000000f07f05000000000000000000000000000000"
    .. "02020f0000080400000606030002030f06030f0205000303090101010303000000000000f03f000000000000f03f0000"
    .. "00000000f07f000000000000f03f000000000000f03f000000000000f03f000000000000f03f00000000000000400000"
    .. "00000000f03f000000000000f03f0000000000000840000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f07f000000000000f03f000000000000f03f000000000000f07f000000000000f03f0000"
    .. "00000000f03f0000000000001440000000000000f03f000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f03f000000000000f03f000000000000f03ff3ce9f9927a81b4000000000f3ce9f9927a8"
    .. "194000000000000000000000004000000000000000000000f03f00000000000000000000000000000000f3ce9f9927a8"
    .. "174000000000f3ce9f9927a8114000000000e69d3f334f500b4000000000e69d3f334f50034000000000cd3b7f669ea0"
    .. "f63f00000000000000000000f03f00000000000000000000164000000000000000000000124000000000f3ce9f9927a8"
    .. "114000000000e69d3f334f500340000000000000000000000040000000000000000000000c4000000000e69d3f334f50"
    .. "0f4000000000f3ce9f9927a8114000000000e69d3f334f500b4000000000000000000000084000000000000000000000"
    .. "f83f000000000000000000000440000000000000000000000c4000000000000000000000124000000000f3ce9f9927a8"
    .. "114000000000000000000000104000000000030000000100000004000000000000000015000000020000000000000000"
    .. "1b000000030000000000000000020000000500000018000000000000000000f83f1800000005000000000000000000f8"
    .. "3f050000005832aae7" },
  { "start cells (blocked)",
    "4153544152444d5001000302060000000500000001000000000000000000f07f00000000000000000000000000000000"
    .. "08010f0004020307010600020307010f02020f0307010501000303070101000000000000f03f000000000000f03f0000"
    .. "00000000f07f000000000000f03f000000000000f03f000000000000f03f000000000000f03f00000000000000400000"
    .. "00000000f0ff000000000000f03f0000000000000840000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f07f000000000000f0ff000000000000f03f000000000000f07f000000000000f03f0000"
    .. "00000000f03f0000000000001440000000000000f03f000000000000f03f000000000000f03f000000000000f03f0000"
    .. "00000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000000000000000000000000000"
    .. "f03f0000000060850f00632428400000000060850f006324264000000000e69d3f334f50254000000000000000000000"
    .. "f03f00000000cd3b7f669ea0f63f00000000e69d3f334f500b4000000000da6cdfcc76f8284000000000e69d3f334f50"
    .. "254000000000e69d3f334f50234000000000000000000000004000000000e69d3f334f50034000000000e69d3f334f50"
    .. "0b4000000000cc3b7f669ea01e4000000000e69d3f334f50214000000000e69d3f334f500b4000000000cc3b7f669ea0"
    .. "0e4000000000e69d3f334f50134000000000cc3b7f669ea01a4000000000cc3b7f669ea01e4000000000f3ce9f9927a8"
    .. "154000000000f3ce9f9927a8114000000000e69d3f334f50134000000000d96cdfcc76f8144000000000d96cdfcc76f8"
    .. "184000000000d96cdfcc76f81c40000000008610571f" },
}

-- Every cell's answers of map m, as text; a wall of grid g (if given) as "wall".
local function answers(m, g)
  local w, h = m:getDimensions()
  local t = {}
  for y = 1, h do
    for x = 1, w do
      local nx, ny = m:nextStep(x, y)
      if g and not g:isWalkable(x, y) then
        t[#t + 1] = "wall"
      else
        t[#t + 1] = ("%s:%s,%s:%s"):format(tostring(m:get(x, y)), tostring(nx), tostring(ny),
          tostring(m:nearest(x, y)))
      end
    end
  end
  return table.concat(t, " ")
end

-- Version 2's length from its fields: header (and a size), sources, steps,
-- the cost section, values and origins (no moves section here), checksum.
local function v2_length(s)
  local w, h, n = u16(s, 13), u16(s, 17), u16(s, 21)
  local cells = w * h
  local at = 32 + (math.floor(s:byte(12) / 8) % 2 == 1 and 4 or 0) + 16 * n
  local members = 0
  for c = 1, cells do
    if s:byte(at + c) ~= 15 then members = members + 1 end
  end
  at = at + cells
  local p = u16(s, at + 1)
  return at + 2 + (p > 0 and 8 * p + cells or 8 * cells) + (8 + s:byte(10)) * members + 4, p
end

describe("distance map format version 2 (issue 24)", function()
  it("decodes the maps astar 2.0.0 encoded (version 1) to the map built now", function()
    for _, f in ipairs(VERSION1) do
      local s = bytes_of(f[2])
      assert.are.equal(1, s:byte(9), f[1])
      local old, new, g = astar.decodeMap(s), BUILD[f[1]]()
      assert.is_true(#new:encode() < #s, f[1])
      assert.are.same(new:cells(), old:cells(), f[1])
      -- issue 24: a wall of the grid is a start cell now (2.0.0 left walls out),
      -- and a map records the entry costs of the cells its flood looked at only:
      -- off the walls, the same answers; the decoded map run again on its grid is
      -- the map built now, to the byte (sources, options, moves decoded)
      assert.are.equal(answers(new, g), answers(old, g), f[1])
      local w, h = g:getDimensions()
      for y = 1, h do
        for x = 1, w do
          if not g:isWalkable(x, y) then assert.is_nil(old:get(x, y), f[1]) end
        end
      end
      if f[1] == "flee (derived)" then              -- start cells are no cells of a flee
        assert.are.equal(new:encode(), old:encode(), f[1])
      elseif f[1] ~= "start cells (blocked)" then   -- (a decoded map has no rules to run)
        assert.are.equal(new:encode(), old:update(g):encode(), f[1])
      end
    end
  end)

  it("writes its fields: version 2, the origin width, a palette or a binary64 per cell", function()
    local g = astar.new(20, 20)
    local one = g:distanceMap({ { x = 1, y = 1 } }):encode()
    assert.are.same({ 2, 0 }, { one:byte(9, 10) })              -- one source: no origins
    local len, p = v2_length(one)
    assert.are.same({ #one, 1 }, { len, p })                      -- every cost 1
    local sources = {}
    for k = 1, 300 do sources[k] = { x = (k - 1) % 20 + 1, y = math.floor((k - 1) / 20) + 1 } end
    local many = g:distanceMap(sources):encode()
    assert.are.equal(2, many:byte(10))                            -- origins up to 299
    assert.are.equal(#many, (v2_length(many)))
    local few = g:distanceMap({ { x = 1, y = 1 }, { x = 20, y = 20 } }):encode()
    assert.are.equal(1, few:byte(10))
    for y = 1, 20 do
      for x = 1, 20 do g:setCost(x, y, 1 + (y * 20 + x) / 64) end   -- 400 distinct costs
    end
    local map = g:distanceMap({ { x = 1, y = 1 } })
    local raw = map:encode()
    len, p = v2_length(raw)
    assert.are.same({ #raw, 0 }, { len, p })
    assert.are.equal(1 + 21 / 64, astar.decodeMap(raw):get(2, 1))  -- the cost of entering (1, 1)
    assert.are.equal(answers(map), answers(astar.decodeMap(raw)))
  end)

  it("refuses a palette index past the palette, and an unknown version or width", function()
    local s = astar.new(3, 2):distanceMap({ { x = 1, y = 1 } }):encode()
    local EN = require "astar.pure.encode"
    local function seal(body) return body .. EN.le(EN.adler32(body, 1, #body), 4) end
    local function bad(msg) return "bad argument #1 to 'decodeMap' (not an astar distance map: " .. msg .. ")" end
    local body = s:sub(1, -5)
    local idx = 32 + 16 + 6 + 2 + 8 + 1                           -- cell (1,1)'s index
    E.check_error(bad("bad cost"), astar.decodeMap, seal(body:sub(1, idx - 1) .. "\1" .. body:sub(idx + 1)))
    E.check_error(bad("unknown format version"), astar.decodeMap, seal(body:sub(1, 9) .. "\3" .. body:sub(11)))
    E.check_error(bad("unknown format version"), astar.decodeMap, seal(body:sub(1, 8) .. "\1\1" .. body:sub(11)))
    E.check_error(bad("bad checksum"), astar.decodeMap, body .. EN.le(EN.fnv1a(EN.FNV_OFFSET, body, 1, #body), 4))
  end)

  it("is the same bytes on both backends, each reading the other's, origins of 2 and 4 bytes", function()
    local pure = require "astar.pure"
    local ok, core = pcall(require, "astar.core")
    if not ok then return end   -- no C module: nothing to compare with
    local function both(fn)
      local a, b = fn(core), fn(pure)
      local sa, sb = a:encode(), b:encode()
      assert.are.equal(sa, sb)
      assert.are.equal(sa, pure.decodeMap(sa):encode())
      assert.are.equal(sb, core.decodeMap(sb):encode())
      return sa
    end
    local function costly(mod, w, h)
      local g = mod.new(w, h)
      for y = 1, h do
        for x = 1, w do
          if (x * 7 + y * 3) % 11 == 0 then
            g:setWalkable(x, y, false)
          else
            g:setCost(x, y, 1 + ((x - 1) * h + y) / 8)
          end
        end
      end
      return g
    end
    local sources = {}
    for k = 1, 280 do sources[k] = { x = k % 30 + 1, y = math.floor(k / 30) + 1, value = k % 5 } end
    local s = both(function(mod) return costly(mod, 30, 30):distanceMap(sources, { diagonal = "one-obstacle" }) end)
    assert.are.same({ 2, 0 }, { s:byte(10), u16(s, 32 + 16 * 280 + 900 + 1) })   -- 2-byte origins, raw costs
    s = both(function(mod) return costly(mod, 30, 30):distanceMap({ { x = 2, y = 2 } }):flee() end)
    assert.are.equal(2, s:byte(10))                                 -- flee: origins are cells
    s = both(function(mod)
      return mod.new(3, 22000):distanceMap({ { x = 1, y = 1 } }, { diagonal = "never" }):flee()
    end)
    assert.are.equal(4, s:byte(10))                                 -- 66000 cells
  end)
end)
