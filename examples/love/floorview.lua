-- Drawing the building (floorboard.lua) with love.graphics, on the square board's
-- tiles: the two floors, the unit's movement range, and what the grid says about its
-- moves and links. The thin walls and the ledge are read back with grid:getMove (a
-- move false both ways: a wall; one way: a ledge, with an arrow the way a unit may
-- go), the stairs with grid:getLinks. The hovered tile's range:pathTo is drawn as
-- dots, a link step as a line between its two ends. The sidebar is view.lua's.
-- luacheck: globals love
local View = require "view"

local FloorView = {}
local C = View.COLORS
local T, M = View.TILE, View.MARGIN

local F = {
  stone = { 0.64, 0.62, 0.58 },
  seam = { 0.53, 0.51, 0.48 },
  boards = { 0.80, 0.68, 0.50 },
  plank = { 0.64, 0.52, 0.36 },
  platform = { 0.93, 0.85, 0.68 },
  platformPlank = { 0.76, 0.66, 0.48 },
  crate = { 0.53, 0.37, 0.18 },
  crateEdge = { 0.33, 0.22, 0.10 },
  wall = { 0.13, 0.13, 0.16 },
  door = { 0.95, 0.50, 0.12 },
  ledge = { 0.95, 0.28, 0.62 },
  stairsLow = { 0.33, 0.29, 0.26 },
  stairsHigh = { 0.80, 0.75, 0.66 },
}
FloorView.COLORS = F

local function color(c) love.graphics.setColor(c[1], c[2], c[3], c[4] or 1) end

local function corner(x, y) return M + (x - 1) * T, M + (y - 1) * T end

-- c drawn with its alpha over an opaque base
local function blend(over, base)
  local a = over[4]
  return { over[1] * a + base[1] * (1 - a), over[2] * a + base[2] * (1 - a),
    over[3] * a + base[3] * (1 - a) }
end

-- The floor colour of a tile (what the range tint lies on at its centre).
local function baseOf(name)
  if name == "stone floor" then return F.stone end
  if name == "platform" then return F.platform end
  return F.boards
end

local function planks(px, py, base, line)
  local g = love.graphics
  color(base)
  g.rectangle("fill", px, py, T, T)
  color(line)
  g.setLineWidth(1)
  for row = 0, 2 do
    local y = py + row * T / 3
    if row > 0 then g.line(px, y, px + T, y) end
    local jx = px + ({ 0.7, 0.25, 0.6 })[row + 1] * T
    g.line(jx, y, jx, y + T / 3)
  end
end

-- A tile: its floor, with a pattern that leaves the centre plain (the probes).
local function drawTile(fb, x, y)
  local g, t = love.graphics, fb:tile(x, y)
  local px, py = corner(x, y)
  if t.outside then return end
  if t.wall then
    color(C.wall)
    g.rectangle("fill", px, py, T, T)
    color(C.brick)
    g.rectangle("fill", px + 8, py + 8, T - 16, T - 16)
    return
  end
  local ground = fb:floorOf(x) == fb.FLOORS[1]
  if t.name == "platform" then
    planks(px, py, F.platform, F.platformPlank)
  elseif ground then
    color(F.stone)
    g.rectangle("fill", px, py, T, T)
    color(F.seam)
    g.setLineWidth(1)
    g.line(px, py + 0.25 * T, px + T, py + 0.25 * T)
    g.line(px + 0.6 * T, py + 0.25 * T, px + 0.6 * T, py + T)
    g.line(px + 0.3 * T, py, px + 0.3 * T, py + 0.25 * T)
  else
    planks(px, py, F.boards, F.plank)
  end
  if t.name == "crates" then
    color(F.crate)
    g.rectangle("fill", px + 6, py + 6, T - 12, T - 12)
    color(F.crateEdge)
    g.setLineWidth(2)
    g.rectangle("line", px + 6, py + 6, T - 12, T - 12)
    g.line(px + 6, py + 6, px + T - 6, py + T - 6)
    g.line(px + T - 6, py + 6, px + 6, py + T - 6)
  end
end

-- The range's border: a line inside each range tile along its sides that lead out.
local function drawRangeEdge(fb)
  local g, range = love.graphics, fb.range
  color(C.blue)
  g.setLineWidth(2)
  for _, c in ipairs(range:cells()) do
    local px, py = corner(c.x, c.y)
    if not range:contains(c.x - 1, c.y) then g.line(px + 1, py, px + 1, py + T) end
    if not range:contains(c.x + 1, c.y) then g.line(px + T - 1, py, px + T - 1, py + T) end
    if not range:contains(c.x, c.y - 1) then g.line(px, py + 1, px + T, py + 1) end
    if not range:contains(c.x, c.y + 1) then g.line(px, py + T - 1, px + T, py + T - 1) end
  end
end

-- Each floor's outer wall and grid lines.
local function drawFloors(fb)
  local g = love.graphics
  for _, f in ipairs(fb.FLOORS) do
    local x0, y0 = corner(f.x1, 1)
    local w, h = (f.x2 - f.x1 + 1) * T, fb.height * T
    color(C.gridLine)
    g.setLineWidth(1)
    for x = 1, f.x2 - f.x1 do g.line(x0 + x * T + 0.5, y0, x0 + x * T + 0.5, y0 + h) end
    for y = 1, fb.height - 1 do g.line(x0, y0 + y * T + 0.5, x0 + w, y0 + y * T + 0.5) end
    color(F.wall)
    g.setLineWidth(6)
    g.rectangle("line", x0, y0, w, h)
  end
  -- the floors' names, over the gap between them
  local gx = M + fb.FLOORS[1].x2 * T
  local gw = (fb.FLOORS[2].x1 - fb.FLOORS[1].x2 - 1) * T
  local font = View.fonts.small
  g.setFont(font)
  color(C.dim)
  local y = M + 4
  g.polygon("fill", gx + 4, y + 6, gx + 10, y + 2, gx + 10, y + 10)
  g.print("ground", gx + 13, y)
  y = y + font:getHeight() + 4
  local tw = font:getWidth("upper")
  g.print("upper", gx + gw - 13 - tw, y)
  g.polygon("fill", gx + gw - 4, y + 6, gx + gw - 10, y + 2, gx + gw - 10, y + 10)
end

local function isDoor(fb, x1, y1, x2, y2)
  local d = fb.door
  return (d.x1 == x1 and d.y1 == y1 and d.x2 == x2 and d.y2 == y2)
    or (d.x1 == x2 and d.y1 == y2 and d.x2 == x1 and d.y2 == y1)
end

-- The edges between tiles whose moves the grid overrides: { x1, y1, x2, y2, wall =
-- true } when both moves are false, else { ..., from, to } for a ledge (the move
-- from -> to allowed, the other false). Not the door (drawn as a door).
function FloorView.edges(fb)
  local grid, list = fb.grid, {}
  for y = 1, fb.height do
    for x = 1, fb.width do
      for _, d in ipairs { { 1, 0 }, { 0, 1 } } do
        local x2, y2 = x + d[1], y + d[2]
        if fb:inside(x2, y2) and not isDoor(fb, x, y, x2, y2) then
          local there, back = grid:getMove(x, y, x2, y2) == false, grid:getMove(x2, y2, x, y) == false
          if there and back then
            list[#list + 1] = { x1 = x, y1 = y, x2 = x2, y2 = y2, wall = true }
          elseif there then
            list[#list + 1] = { x1 = x2, y1 = y2, x2 = x, y2 = y }
          elseif back then
            list[#list + 1] = { x1 = x, y1 = y, x2 = x2, y2 = y2 }
          end
        end
      end
    end
  end
  return list
end

-- The middle of the edge between two neighbours, and whether it is vertical.
local function edgeMiddle(x1, y1, x2, y2)
  local ax, ay = View.centre(x1, y1)
  local bx, by = View.centre(x2, y2)
  return (ax + bx) / 2, (ay + by) / 2, y1 == y2
end

-- A bar of `thick` pixels along the edge between two neighbours, `extra` past its ends.
local function edgeBar(x1, y1, x2, y2, thick, extra)
  local mx, my, vertical = edgeMiddle(x1, y1, x2, y2)
  local long = T + 2 * extra
  if vertical then
    love.graphics.rectangle("fill", mx - thick / 2, my - long / 2, thick, long)
  else
    love.graphics.rectangle("fill", mx - long / 2, my - thick / 2, long, thick)
  end
end

-- The ledge's arrow: across the edge, pointing the way a unit may go.
local function ledgeArrow(e)
  local mx, my = edgeMiddle(e.x1, e.y1, e.x2, e.y2)
  local dx, dy = e.x2 - e.x1, e.y2 - e.y1
  local function at(along, side) return mx + dx * along - dy * side, my + dy * along + dx * side end
  local ax, ay = at(-5, -9)
  local bx, by = at(13, 0)
  local cx, cy = at(-5, 9)
  love.graphics.polygon("fill", ax, ay, bx, by, cx, cy)
end

local function drawEdges(fb)
  local edges = FloorView.edges(fb)
  color(F.wall)
  for _, e in ipairs(edges) do
    if e.wall then edgeBar(e.x1, e.y1, e.x2, e.y2, 6, 3) end
  end
  color(F.ledge)
  for _, e in ipairs(edges) do
    if not e.wall then
      edgeBar(e.x1, e.y1, e.x2, e.y2, 4, 0)
      ledgeArrow(e)
    end
  end
end

-- The door: shut, a bar on its edge; open, its leaf swung into the cell beyond
-- (along that cell's edge from the hinge) and the swing's arc.
local function doorGeometry(fb)
  local d = fb.door
  local mx, my, vertical = edgeMiddle(d.x1, d.y1, d.x2, d.y2)
  -- the hinge at the top (left) end of the edge; the leaf opens toward (x2, y2)
  local hx, hy = mx, my
  if vertical then hy = my - T / 2 else hx = mx - T / 2 end
  return hx, hy, vertical, d.x2 - d.x1, d.y2 - d.y1
end

local function drawDoor(fb)
  local g, d = love.graphics, fb.door
  local hx, hy, vertical, dx, dy = doorGeometry(fb)
  local leaf = 0.8 * T
  if not d.open then
    color(F.door)
    edgeBar(d.x1, d.y1, d.x2, d.y2, 6, 0)
  else
    color({ F.door[1], F.door[2], F.door[3], 0.8 })
    g.setLineWidth(2)
    local a0 = math.atan2(dy, dx)
    local a1 = a0 + (vertical and 1 or -1) * math.pi / 2
    g.arc("line", "open", hx, hy, leaf, math.min(a0, a1), math.max(a0, a1), 12)
    color(F.door)
    if vertical then
      g.rectangle("fill", dx > 0 and hx or hx - leaf, hy - 3, leaf, 6)
    else
      g.rectangle("fill", hx - 3, dy > 0 and hy or hy - leaf, 6, leaf)
    end
  end
  color(F.wall)
  g.circle("fill", hx, hy, 4)
end

-- Where the door's probe is: the middle of the leaf.
local function doorPoint(fb)
  local d = fb.door
  if not d.open then
    local mx, my = edgeMiddle(d.x1, d.y1, d.x2, d.y2)
    return mx, my
  end
  local hx, hy, vertical, dx, dy = doorGeometry(fb)
  if vertical then return hx + dx * 0.4 * T, hy end
  return hx, hy + dy * 0.4 * T
end

-- true when the pixel is on the door (a click there opens or shuts it)
function FloorView.onDoor(fb, px, py)
  local d = fb.door
  local mx, my, vertical = edgeMiddle(d.x1, d.y1, d.x2, d.y2)
  if vertical then return math.abs(px - mx) <= 8 and math.abs(py - my) <= T / 2 end
  return math.abs(py - my) <= 8 and math.abs(px - mx) <= T / 2
end

-- The links of the grid, each pair of cells once: { low =, high =, up =, down = },
-- low the end on the ground floor (or the first), up its cost from there (nil: none).
function FloorView.links(fb)
  local grid, seen, list = fb.grid, {}, {}
  for y = 1, fb.height do
    for x = 1, fb.width do
      for _, l in ipairs(grid:getLinks(x, y)) do
        local a, b = (y - 1) * fb.width + x, (l.y - 1) * fb.width + l.x
        local key = math.min(a, b) * 100000 + math.max(a, b)
        local s = seen[key]
        if not s then
          s = { low = { x = x, y = y }, high = { x = l.x, y = l.y } }
          if fb:floorOf(l.x) == fb.FLOORS[1] and fb:floorOf(x) ~= fb.FLOORS[1] then
            s.low, s.high = s.high, s.low
          end
          seen[key] = s
          list[#list + 1] = s
        end
        if s.low.x == x and s.low.y == y then s.up = l.cost else s.down = l.cost end
      end
    end
  end
  return list
end

-- A staircase from the low end to the high end: steps across the band, darker at
-- the bottom. Returns the band's geometry for the probes.
local function stairsGeometry(s)
  local ax, ay = View.centre(s.low.x, s.low.y)
  local bx, by = View.centre(s.high.x, s.high.y)
  local len = math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
  local ux, uy = (bx - ax) / len, (by - ay) / len
  local s0, s1 = T / 2 - 2, len - T / 2 + 2
  local n = math.max(3, math.floor((s1 - s0) / 11))
  return { ax = ax, ay = ay, ux = ux, uy = uy, s0 = s0, s1 = s1, n = n, half = 15 }
end

local function stepColor(i, n)
  local k = i / (n - 1)
  local lo, hi = F.stairsLow, F.stairsHigh
  return { lo[1] + (hi[1] - lo[1]) * k, lo[2] + (hi[2] - lo[2]) * k, lo[3] + (hi[3] - lo[3]) * k }
end

local function fmt(cost)
  if cost == math.floor(cost) then return ("%d"):format(cost) end
  return ("%.2f"):format(cost)
end

local function drawStairs(fb)
  local g = love.graphics
  for _, s in ipairs(FloorView.links(fb)) do
    local st = stairsGeometry(s)
    local step = (st.s1 - st.s0) / st.n
    g.push()
    g.translate(st.ax, st.ay)
    g.rotate(math.atan2(st.uy, st.ux))
    for i = 0, st.n - 1 do
      color(stepColor(i, st.n))
      g.rectangle("fill", st.s0 + i * step, -st.half, step, 2 * st.half)
    end
    color(C.outline)
    g.setLineWidth(2)
    for i = 1, st.n - 1 do
      local x = st.s0 + i * step
      g.line(x, -st.half, x, st.half)
    end
    g.rectangle("line", st.s0, -st.half, st.s1 - st.s0, 2 * st.half)
    g.pop()
    -- the link's costs, above and below the middle of the band
    local font = View.fonts.small
    g.setFont(font)
    color(C.dim)
    local mx = st.ax + st.ux * (st.s0 + st.s1) / 2
    local my = st.ay + st.uy * (st.s0 + st.s1) / 2
    if s.up then
      local text = "up " .. fmt(s.up)
      g.print(text, math.floor(mx - font:getWidth(text) / 2), math.floor(my - st.half - font:getHeight() - 2))
    end
    if s.down then
      local text = "down " .. fmt(s.down)
      g.print(text, math.floor(mx - font:getWidth(text) / 2), math.floor(my + st.half + 2))
    end
  end
end

local function neighbours(a, b)
  return math.abs(a.x - b.x) + math.abs(a.y - b.y) == 1
end

-- The walk: a dot on each cell after the start; a link step (two cells that are not
-- neighbours) a line between its two ends.
local function drawPath(path)
  if not path or #path < 2 then return end
  local g = love.graphics
  g.setLineJoin("bevel")
  for i = 2, #path do
    if not neighbours(path[i - 1], path[i]) then
      local ax, ay = View.centre(path[i - 1].x, path[i - 1].y)
      local bx, by = View.centre(path[i].x, path[i].y)
      color(C.outline)
      g.setLineWidth(8)
      g.line(ax, ay, bx, by)
      color(C.path)
      g.setLineWidth(4)
      g.line(ax, ay, bx, by)
    end
  end
  for i = 2, #path do
    local cx, cy = View.centre(path[i].x, path[i].y)
    local r = i == #path and 8 or 5
    color(C.outline)
    g.circle("fill", cx, cy, r + 2)
    color(C.path)
    g.circle("fill", cx, cy, r)
  end
end

local function drawUnit(fb)
  local g, u, r = love.graphics, fb.unit, T * 0.36
  local cx, cy = View.centre(u.x, u.y)
  color(C.selected)
  g.circle("fill", cx, cy, r + 4)
  color(C.blue)
  g.circle("fill", cx, cy, r)
  color(C.outline)
  g.setLineWidth(2)
  g.circle("line", cx, cy, r)
  color(C.text)
  local font = View.fonts.unit
  g.setFont(font)
  g.print(u.letter, math.floor(cx - font:getWidth(u.letter) / 2 + 0.5),
    math.floor(cy - font:getHeight() / 2 + 0.5))
end

local function drawCostTag(fb, x, y, text)
  local g, font = love.graphics, View.fonts.body
  g.setFont(font)
  local px, py = corner(x, y)
  local tw, th = font:getWidth(text) + 10, font:getHeight() + 6
  local bx = math.min(px + T / 2 - tw / 2, M + fb.width * T - tw)
  local by = py - th - 4
  if by < 2 then by = py + T + 4 end
  color(C.outline)
  g.rectangle("fill", bx, by, tw, th, 4, 4)
  color(C.path)
  g.print(text, bx + 5, by + 3)
end

-- What the sidebar says: the unit, the door, the path.
local function describe(fb, hover, path, cost)
  local u = fb.unit
  local info = {
    { ("%s at %d,%d: move %d, %d tiles"):format(u.name, u.x, u.y, u.move, fb.range:size()), C.blue },
    { fb.door.open and "the door is open" or "the door is shut", C.dim },
  }
  if path then
    local links = 0
    for i = 2, #path do
      if not neighbours(path[i - 1], path[i]) then links = links + 1 end
    end
    info[#info + 1] = { ("path to %d,%d: cost %s, %d steps"):format(hover.x, hover.y, fmt(cost),
      #path - 1), C.path }
    if links > 0 then
      info[#info + 1] = { ("%d of them up or down the stairs"):format(links), C.dim }
    end
  elseif hover and fb:inside(hover.x, hover.y) then
    info[#info + 1] = { ("%d,%d: beyond the range"):format(hover.x, hover.y), C.dim }
  end
  return info
end

local function sidebar(board, hover, info)
  local base = F.boards
  View.sidebar(board, hover, info, {
    tiles = board.floors,
    legend = {
      { F.stone, "ground floor: stone, cost 1" },
      { F.boards, "upper floor: boards, cost 1" },
      { F.platform, "platform (upper floor)" },
      { F.crate, "crates: cost 2" },
      { C.move, "the unit's movement range", base },
      { F.wall, "thin wall (setWallBetween)" },
      { F.door, "door (O: open / shut)" },
      { F.stairsHigh, "stairs: links, up 2, down 1" },
      { F.ledge, "ledge: drop only (setMove)" },
    },
    help = {
      "click a blue tile: move there",
      "right click: put the unit there",
      "hover: range:pathTo and its cost",
      "O, or click the door: open / shut it",
      "+ / -: movement points",
      "G: back to the square board",
      "H: a hex board / R: real time",
    },
  })
end

-- Draws a frame of the building; returns the path shown.
function FloorView.draw(board, hover)
  local g, fb = love.graphics, board.floors
  g.clear(C.background[1], C.background[2], C.background[3], 1)
  for y = 1, fb.height do
    for x = 1, fb.width do
      drawTile(fb, x, y)
      if fb.range:contains(x, y) then
        local px, py = corner(x, y)
        color(C.move)
        g.rectangle("fill", px, py, T, T)
      end
    end
  end
  drawRangeEdge(fb)
  drawFloors(fb)
  drawEdges(fb)
  drawDoor(fb)
  drawStairs(fb)
  local path, cost
  if hover then path, cost = fb:pathTo(hover.x, hover.y) end
  drawPath(path)
  drawUnit(fb)
  if hover and fb:inside(hover.x, hover.y) then
    local px, py = corner(hover.x, hover.y)
    color(C.hover)
    g.setLineWidth(2)
    g.rectangle("line", px + 1, py + 1, T - 2, T - 2)
  end
  if path then drawCostTag(fb, hover.x, hover.y, "cost " .. fmt(cost)) end
  sidebar(board, hover, describe(fb, hover, path, cost))
  return path
end

-- Points whose colour the screenshot test checks, each on something drawn opaque
-- (or the range's tint over a plain floor, at a tile's centre), away from the
-- hovered tile and its cost tag. The tiles prove the range went through what the
-- building has: a "hall tile" the range reaches only through the door (not with the
-- door shut), an "upstairs tile" only by the stairs (not without the links), a "ledge
-- tile" only down the ledge (not with the ledge a wall), and a "beyond tile" out of
-- the range.
function FloorView.probes(board, path, hover)
  local fb = board.floors
  local width = love.graphics.getDimensions()
  local list = { { x = width - 20, y = 300, rgb = C.panel, what = "sidebar panel" } }
  local function add(x, y, rgb, what) list[#list + 1] = { x = x, y = y, rgb = rgb, what = what } end
  -- the hovered tile (its outline) and the one above it (the cost tag)
  local function nearHover(x, y)
    return hover and x == hover.x and (y == hover.y or y == hover.y - 1)
  end
  local u = fb.unit
  local ux, uy = View.centre(u.x, u.y)
  add(ux - 10, uy, C.blue, "floor unit")
  path = path or {}
  local onPath = {}
  for _, p in ipairs(path) do onPath[p.y * 1000 + p.x] = true end
  if #path >= 3 then
    local cx, cy = View.centre(path[2].x, path[2].y)
    add(cx, cy, C.path, "path dot")
  end
  for i = 2, #path do
    if not neighbours(path[i - 1], path[i]) then
      local ax, ay = View.centre(path[i - 1].x, path[i - 1].y)
      local bx, by = View.centre(path[i].x, path[i].y)
      add((ax + bx) / 2, (ay + by) / 2, C.path, "link step")
      break
    end
  end
  -- the stairs: the middle of the second highest step, off the band's middle line
  local links = FloorView.links(fb)
  if links[1] then
    local st = stairsGeometry(links[1])
    local along = st.s0 + (st.n - 1.5) * (st.s1 - st.s0) / st.n
    local side = -st.half / 2 - 1
    add(st.ax + st.ux * along - st.uy * side, st.ay + st.uy * along + st.ux * side,
      stepColor(st.n - 2, st.n), "stairs")
  end
  local dx, dy = doorPoint(fb)
  add(dx, dy, F.door, fb.door.open and "open door" or "shut door")
  local wallDone, ledgeDone = false, false
  for _, e in ipairs(FloorView.edges(fb)) do
    local free = not (onPath[e.y1 * 1000 + e.x1] or onPath[e.y2 * 1000 + e.x2]
      or nearHover(e.x1, e.y1) or nearHover(e.x2, e.y2))
    local mx, my = edgeMiddle(e.x1, e.y1, e.x2, e.y2)
    if free and e.wall and not wallDone then
      wallDone = true
      add(mx, my, F.wall, "thin wall")
    elseif free and not e.wall and not ledgeDone then
      ledgeDone = true
      add(mx + (e.x2 - e.x1) * 5, my + (e.y2 - e.y1) * 5, F.ledge, "ledge arrow")
    end
  end
  local shut, noStairs, noLedge = fb:rangeWithout("door"), fb:rangeWithout("stairs"),
    fb:rangeWithout("ledge")
  local found, d = {}, fb.door
  for y = 1, fb.height do
    for x = 1, fb.width do
      local name = fb:tile(x, y).name
      local kind
      if onPath[y * 1000 + x] or (x == u.x and y == u.y) or nearHover(x, y)
        or (x == d.x1 and y == d.y1) or (x == d.x2 and y == d.y2) then
        kind = nil
      elseif not fb.range:contains(x, y) then
        if name == "stone floor" or name == "floorboards" then kind = "beyond" end
      elseif name == "stone floor" then
        if not shut:contains(x, y) then kind = "hall" end
      elseif name == "floorboards" then
        if not found.ledge and not noLedge:contains(x, y) then
          kind = "ledge"
        elseif not noStairs:contains(x, y) then
          kind = "upstairs"
        end
      end
      if kind and not found[kind] then
        found[kind] = true
        local cx, cy = View.centre(x, y)
        local base = baseOf(name)
        add(cx, cy, kind == "beyond" and base or blend(C.move, base), ("%s tile %d,%d"):format(kind, x, y))
      end
    end
  end
  return list
end

return FloorView
