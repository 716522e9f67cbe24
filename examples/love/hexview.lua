-- Drawing the hex board (hexboard.lua) with love.graphics: hexagons placed with the
-- README's pixel centres (Hex boards), the unit's movement range, the path to the
-- target and its cost; the sidebar is view.lua's.
-- luacheck: globals love
local View = require "view"

local HexView = {}
local C = View.COLORS
local SQRT3 = math.sqrt(3)

-- The README's centre of (col, row) for hexagons of `size` pixels from centre to
-- corner, the centre of (1, 1) at 0, 0.
function HexView.offsetCentre(layout, col, row, size)
  local c, r = col - 1, row - 1
  local w = SQRT3 * size
  if layout == "odd-r" then return w * (c + 0.5 * (r % 2)), 1.5 * size * r end
  if layout == "even-r" then return w * (c + 0.5 * (1 - r % 2)), 1.5 * size * r end
  if layout == "odd-q" then return 1.5 * size * c, w * (r + 0.5 * (c % 2)) end
  return 1.5 * size * c, w * (r + 0.5 * (1 - c % 2))
end

-- The hexagons' size and offset: the hex board fills the square board's area.
function HexView.geometry(board)
  local hb = board.hex
  local areaW = board.width * View.TILE
  local _, windowH = View.size(board.width, board.height)
  local areaH = windowH - 2 * View.MARGIN
  local pointy = hb.layout:sub(-1) == "r"
  local w, h = hb.width, hb.height
  local size
  if pointy then
    size = math.min(areaW / (SQRT3 * (w + 0.5)), areaH / (1.5 * (h - 1) + 2))
  else
    size = math.min(areaW / (1.5 * (w - 1) + 2), areaH / (SQRT3 * (h + 0.5)))
  end
  size = math.floor(size)
  -- half the width and height of one hexagon
  local hw, hh = size, SQRT3 * size / 2
  if pointy then hw, hh = hh, size end
  return { layout = hb.layout, pointy = pointy, size = size,
    ox = View.MARGIN + hw, oy = View.MARGIN + hh }
end

local function centre(geo, col, row)
  local x, y = HexView.offsetCentre(geo.layout, col, row, geo.size)
  return geo.ox + x, geo.oy + y
end

-- The corners of a hexagon of radius r around cx, cy (pointy: a corner at the top).
local function hexagon(geo, cx, cy, r)
  local pts = {}
  for i = 0, 5 do
    local a = math.rad(60 * i - (geo.pointy and 30 or 0))
    pts[#pts + 1], pts[#pts + 2] = cx + r * math.cos(a), cy + r * math.sin(a)
  end
  return pts
end

-- The tile under a pixel: the nearest centre (a hexagon is the set of points
-- closest to its centre), within `size` of it.
function HexView.tileAt(board, px, py)
  local geo, hb = HexView.geometry(board), board.hex
  local best, bx, by = geo.size * geo.size, nil, nil
  for y = 1, hb.height do
    for x = 1, hb.width do
      local cx, cy = centre(geo, x, y)
      local d = (px - cx) ^ 2 + (py - cy) ^ 2
      if d < best then best, bx, by = d, x, y end
    end
  end
  return bx, by
end

local function color(c) love.graphics.setColor(c[1], c[2], c[3], c[4] or 1) end

local function drawTerrain(geo, name, cx, cy)
  local g, s = love.graphics, geo.size
  color(C[name] or C.grass)
  g.polygon("fill", hexagon(geo, cx, cy, s))
  if name == "forest" then
    color(C.tree)
    for _, o in ipairs { { -0.35, 0.3 }, { 0.3, 0.15 }, { -0.02, -0.3 } } do
      local x, y = cx + o[1] * s, cy + o[2] * s
      g.polygon("fill", x, y - 8, x - 6, y + 5, x + 6, y + 5)
    end
  elseif name == "mountain" then
    color(C.peak)
    g.polygon("fill", cx - 0.6 * s, cy + 0.4 * s, cx, cy - 0.55 * s, cx + 0.6 * s, cy + 0.4 * s)
    color(C.snow)
    g.polygon("fill", cx - 0.16 * s, cy - 0.3 * s, cx, cy - 0.55 * s, cx + 0.16 * s, cy - 0.3 * s)
  elseif name == "water" then
    color(C.wave)
    g.setLineWidth(2)
    for _, dy in ipairs { -0.2, 0.2 } do
      local y = cy + dy * s
      g.line(cx - 12, y, cx - 6, y - 3, cx, y, cx + 6, y - 3, cx + 12, y)
    end
  elseif name == "wall" then
    color(C.brick)
    g.setLineWidth(3)
    g.polygon("line", hexagon(geo, cx, cy, 0.6 * s))
  end
end

local function drawPath(geo, path)
  if not path or #path < 2 then return end
  local g = love.graphics
  local pts = {}
  for _, p in ipairs(path) do
    local cx, cy = centre(geo, p.x, p.y)
    pts[#pts + 1], pts[#pts + 2] = cx, cy
  end
  color(C.outline)
  g.setLineWidth(7)
  g.setLineJoin("bevel")
  g.line(pts)
  color(C.path)
  g.setLineWidth(4)
  g.line(pts)
  for i = 2, #path do
    g.circle("fill", pts[2 * i - 1], pts[2 * i], i == #path and 8 or 5)
  end
end

local function drawCostTag(geo, cx, cy, text)
  local g, font = love.graphics, View.fonts.body
  g.setFont(font)
  local tw, th = font:getWidth(text) + 10, font:getHeight() + 6
  local bx, by = cx - tw / 2, cy - geo.size - th - 2
  if by < 2 then by = cy + geo.size + 2 end
  color(C.outline)
  g.rectangle("fill", bx, by, tw, th, 4, 4)
  color(C.path)
  g.print(text, bx + 5, by + 3)
end

local function fmt(cost)
  if cost == math.floor(cost) then return ("%d"):format(cost) end
  return ("%.2f"):format(cost)
end

-- What the sidebar says: the unit, its range, the path.
local function describe(hb)
  local u, t = hb.unit, hb.target
  local info = {
    { ("%s at %d,%d: move %d, %d tiles"):format(u.name, u.x, u.y, u.move, hb.range:size()), C.blue },
  }
  if hb.path then
    info[#info + 1] = { ("path to %d,%d: cost %s, %d steps"):format(t.x, t.y, fmt(hb.cost),
      #hb.path - 1), C.path }
    info[#info + 1] = { hb.range:contains(t.x, t.y) and "in the range: one move"
      or "beyond the range", C.dim }
  else
    info[#info + 1] = { ("no path to %d,%d: %s"):format(t.x, t.y, tostring(hb.reason)), C.red }
  end
  return info
end

-- Draws a frame of the hex board; returns the path shown.
function HexView.draw(board, hover)
  local g, hb = love.graphics, board.hex
  local geo = HexView.geometry(board)
  g.clear(C.background[1], C.background[2], C.background[3], 1)
  for y = 1, hb.height do
    for x = 1, hb.width do
      local cx, cy = centre(geo, x, y)
      drawTerrain(geo, hb:tile(x, y).name, cx, cy)
      if hb.range:contains(x, y) then
        color(C.move)
        g.polygon("fill", hexagon(geo, cx, cy, geo.size))
      end
    end
  end
  color(C.gridLine)
  g.setLineWidth(1)
  for y = 1, hb.height do
    for x = 1, hb.width do
      local cx, cy = centre(geo, x, y)
      g.polygon("line", hexagon(geo, cx, cy, geo.size))
    end
  end
  drawPath(geo, hb.path)
  -- the target, then the unit
  local tx, ty = centre(geo, hb.target.x, hb.target.y)
  color(C.outline)
  g.setLineWidth(4)
  g.circle("line", tx, ty, 15)
  color(C.target)
  g.circle("line", tx, ty, 13)
  g.circle("fill", tx, ty, 4)
  local u = hb.unit
  local ux, uy = centre(geo, u.x, u.y)
  local r = geo.size * 0.55
  color(C.blue)
  g.circle("fill", ux, uy, r)
  color(C.outline)
  g.setLineWidth(2)
  g.circle("line", ux, uy, r)
  color(C.text)
  local font = View.fonts.unit
  g.setFont(font)
  g.print(u.letter, math.floor(ux - font:getWidth(u.letter) / 2 + 0.5),
    math.floor(uy - font:getHeight() / 2 + 0.5))
  if hover and hb:inside(hover.x, hover.y) then
    local cx, cy = centre(geo, hover.x, hover.y)
    color(C.hover)
    g.setLineWidth(2)
    g.polygon("line", hexagon(geo, cx, cy, geo.size - 2))
  end
  if hb.path then drawCostTag(geo, tx, ty, "cost " .. fmt(hb.cost)) end
  View.sidebar(board, hover, describe(hb))
  return hb.path
end

-- Points whose colour the screenshot test checks, at hexagon centres (or just off
-- the unit's letter), none under the cost tag above the target. Two of them check
-- the shape of the range: a shaded tile that the same move on a square board would
-- not reach (in 4 directions nor in 8), and a plain tile beyond the range that the
-- mirrored layout (odd-r for even-r...: the other rows shoved) would reach.
function HexView.probes(board)
  local hb, geo = board.hex, HexView.geometry(board)
  local width = love.graphics.getDimensions()
  local list = { { x = width - 20, y = 300, rgb = C.panel, what = "sidebar panel" } }
  local function add(x, y, rgb, what) list[#list + 1] = { x = x, y = y, rgb = rgb, what = what } end
  local u, t, path = hb.unit, hb.target, hb.path or {}
  local ux, uy = centre(geo, u.x, u.y)
  add(ux - 10, uy, C.blue, "hex unit")
  local tx, ty = centre(geo, t.x, t.y)
  add(tx, ty, C.target, "path target")
  if #path >= 3 then
    local px, py = centre(geo, path[2].x, path[2].y)
    add(px, py, C.path, "path dot")
  end
  -- where the board's first shoved line leaves a notch: the background
  local ax, ay = centre(geo, 1, 1)
  local bx, by = centre(geo, geo.pointy and 1 or 2, geo.pointy and 2 or 1)
  if geo.pointy then
    add(math.floor(math.min(ax, bx) - SQRT3 * geo.size / 2 + 4), math.max(ax, bx) == ax and ay or by,
      C.background, "hex notch")
  else
    add(math.max(ay, by) == ay and ax or bx, math.floor(math.min(ay, by) - SQRT3 * geo.size / 2 + 4),
      C.background, "hex notch")
  end
  local onPath = {}
  for _, p in ipairs(path) do onPath[p.y * 1000 + p.x] = true end
  local square = hb:makeGrid("square")
  local square4 = square:movementRange(u.x, u.y, u.move)
  local square8 = square:movementRange(u.x, u.y, u.move, { diagonal = "always" })
  local mirror = (hb.layout:sub(1, 3) == "odd" and "even" or "odd") .. hb.layout:sub(-2)
  local mirrored = hb:makeGrid("hex", mirror):movementRange(u.x, u.y, u.move)
  local a = C.move[4]
  local shaded = { C.move[1] * a + C.grass[1] * (1 - a), C.move[2] * a + C.grass[2] * (1 - a),
    C.move[3] * a + C.grass[3] * (1 - a) }
  local found = {}
  for y = 1, hb.height do
    for x = 1, hb.width do
      local cx, cy = centre(geo, x, y)
      local name = hb:tile(x, y).name
      local free = not onPath[y * 1000 + x] and not (x == u.x and y == u.y)
        and (cx - tx) ^ 2 + (cy - ty) ^ 2 > (3 * geo.size) ^ 2
      local inRange, kind, rgb = hb.range:contains(x, y), nil, nil
      if free and name == "wall" then
        kind, rgb = "wall", C.wall
      elseif free and name == "grass" and inRange and not square4:contains(x, y)
        and not square8:contains(x, y) then
        kind, rgb = "range", shaded
      elseif free and name == "grass" and not inRange and mirrored:contains(x, y) then
        kind, rgb = "beyond", C.grass
      end
      if kind and not found[kind] then
        found[kind] = true
        add(cx, cy, rgb, ("%s tile %d,%d"):format(kind, x, y))
      end
    end
  end
  return list
end

return HexView
