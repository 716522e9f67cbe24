-- Drawing the real-time scene (realtimeboard.lua) with love.graphics, on the square
-- board's tiles: the terrain, each unit's path ahead of it as a polyline (the unit,
-- then its waypoints' pixel centres), the units, the path mode under the board and the
-- sidebar (view.lua's).
-- luacheck: globals love
local View = require "view"
local RealtimeBoard = require "realtimeboard"

local RealtimeView = {}
local C = View.COLORS
local T, M = View.TILE, View.MARGIN

RealtimeView.UNIT_COLORS = { C.blue, C.red, C.crowd, { 0.62, 0.30, 0.92 } }
local UNIT_RADIUS = 13

local MODE_TEXT = {
  grid = "grid walk, no smoothing",
  sight = "\"sight\": string pulling",
  theta = "\"theta\": any-angle search",
}

local function color(c) love.graphics.setColor(c[1], c[2], c[3], c[4] or 1) end

local function fmt(cost)
  if cost == math.floor(cost) then return ("%d"):format(cost) end
  return ("%.2f"):format(cost)
end

-- The unit's path ahead of it in window pixels: { x1, y1, x2, y2, ... }, from the unit
-- through the centres of the waypoints it has not reached (nil: no path).
function RealtimeView.polyline(rb, u)
  if not u.path then return nil end
  local pts = { M + u.px, M + u.py }
  for i = 2 * u.next - 1, #u.path, 2 do
    local px, py = rb.grid:cellCentre(u.path[i], u.path[i + 1], rb.size)
    pts[#pts + 1], pts[#pts + 2] = M + px, M + py
  end
  return pts
end

local function target(u)
  return u.path and u.path[#u.path - 1], u.path and u.path[#u.path]
end

-- The lines, all outlines under all lines (a crossing never cuts one), then a dot on
-- each waypoint ahead and a ring in the unit's colour on its target.
local function drawPaths(rb)
  local g = love.graphics
  local lines = {}
  for i, u in ipairs(rb.units) do lines[i] = RealtimeView.polyline(rb, u) end
  g.setLineJoin("bevel")
  for _, width in ipairs { 7, 4 } do
    color(width == 7 and C.outline or C.path)
    g.setLineWidth(width)
    for i = 1, #rb.units do
      if lines[i] and #lines[i] >= 4 then g.line(lines[i]) end
    end
  end
  color(C.path)
  for i = 1, #rb.units do
    local pts = lines[i] or {}
    for k = 3, #pts - 2, 2 do g.circle("fill", pts[k], pts[k + 1], 4) end
  end
  g.setLineWidth(3)
  for i, u in ipairs(rb.units) do
    local tx, ty = target(u)
    if tx then
      local cx, cy = View.centre(tx, ty)
      color(C.outline)
      g.circle("line", cx, cy, 12)
      color(RealtimeView.UNIT_COLORS[i])
      g.circle("line", cx, cy, 10)
    end
  end
end

local function drawUnits(rb)
  local g, font = love.graphics, View.fonts.unit
  g.setFont(font)
  for i, u in ipairs(rb.units) do
    local cx, cy = M + u.px, M + u.py
    color(RealtimeView.UNIT_COLORS[i])
    g.circle("fill", cx, cy, UNIT_RADIUS)
    color(C.outline)
    g.setLineWidth(2)
    g.circle("line", cx, cy, UNIT_RADIUS)
    color(C.text)
    g.print(u.letter, math.floor(cx - font:getWidth(u.letter) / 2 + 0.5),
      math.floor(cy - font:getHeight() / 2 + 0.5))
  end
end

-- The mode bar under the board: "path (M):" and a badge per mode, the current one lit.
local BADGE_W, BADGE_H = 64, 22

local function badges(rb)
  local y = M + rb.height * T + 6
  local x0 = M + 80
  local list = {}
  for i, mode in ipairs(RealtimeBoard.MODES) do
    list[i] = { mode = mode, x = x0 + (i - 1) * (BADGE_W + 8), y = y, on = mode == rb.mode }
  end
  return list
end

local function drawModeBar(rb)
  local g, font = love.graphics, View.fonts.body
  g.setFont(font)
  local list = badges(rb)
  color(C.text)
  g.print("path (M):", M, list[1].y + 3)
  for _, b in ipairs(list) do
    color(b.on and C.path or C.panel)
    g.rectangle("fill", b.x, b.y, BADGE_W, BADGE_H, 4, 4)
    color(b.on and C.outline or C.dim)
    g.print(b.mode, math.floor(b.x + (BADGE_W - font:getWidth(b.mode)) / 2), b.y + 3)
  end
  local x = list[#list].x + BADGE_W + 14
  if rb.fallback then
    color(C.red)
    g.print("no theta in this backend: sight shown", x, list[1].y + 3)
  elseif rb.paused then
    color(C.dim)
    g.print("paused (P)", x, list[1].y + 3)
  end
end

local function describe(rb)
  local info = { { "path: " .. MODE_TEXT[rb.mode], C.path } }
  if rb.fallback then info[#info + 1] = { "(no theta here: sight)", C.red } end
  local trips = 0
  for i, u in ipairs(rb.units) do
    trips = trips + u.trips
    local tx, ty = target(u)
    if tx then
      info[#info + 1] = { ("%s to %d,%d: cost %s, %d legs"):format(u.name, tx, ty, fmt(u.cost),
        #u.path / 2 - 1), RealtimeView.UNIT_COLORS[i] }
    else
      info[#info + 1] = { u.name .. ": nowhere to go", RealtimeView.UNIT_COLORS[i] }
    end
  end
  info[#info + 1] = { ("%.1f s, targets reached: %d"):format(rb.steps * RealtimeBoard.STEP, trips), C.dim }
  return info
end

local function sidebar(board, hover, rb)
  View.sidebar(board, hover, describe(rb), {
    tiles = rb,
    legend = {
      { C.grass, "grass: cost 1" },
      { C.forest, "forest: cost 2" },
      { C.swamp, "swamp: cost 5" },
      { C.wall, "wall" },
    },
    help = {
      "M: path mode grid / sight / theta",
      "P: pause / go on",
      "(units slow down by the cost of the",
      " tile they are in; lines: findPath,",
      " flat = true, smooth = the mode)",
      "R: back to the square board",
      "H: a hex board / G: a building",
    },
  })
end

-- Draws a frame of the scene; returns nil (no hovered path).
function RealtimeView.draw(board, hover)
  local g, rb = love.graphics, board.realtime
  g.clear(C.background[1], C.background[2], C.background[3], 1)
  for y = 1, rb.height do
    for x = 1, rb.width do
      View.drawTerrain(rb:tile(x, y).name, M + (x - 1) * T, M + (y - 1) * T)
    end
  end
  View.drawGridLines(rb)
  drawPaths(rb)
  drawUnits(rb)
  if hover and rb:inside(hover.x, hover.y) then
    color(C.hover)
    g.setLineWidth(2)
    g.rectangle("line", M + (hover.x - 1) * T + 1, M + (hover.y - 1) * T + 1, T - 2, T - 2)
  end
  drawModeBar(rb)
  sidebar(board, hover, rb)
  return nil
end

-- ---- the screenshot probes ----------------------------------------------------

local function segmentDistance(px, py, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local len2 = dx * dx + dy * dy
  local t = len2 > 0 and math.max(0, math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) or 0
  local qx, qy = ax + t * dx - px, ay + t * dy - py
  return math.sqrt(qx * qx + qy * qy)
end

-- The distance from a point to the nearest of some polylines (math.huge: none).
local function lineDistance(px, py, lines)
  local best = math.huge
  for _, pts in pairs(lines) do
    for k = 1, #pts - 3, 2 do
      best = math.min(best, segmentDistance(px, py, pts[k], pts[k + 1], pts[k + 2], pts[k + 3]))
    end
  end
  return best
end

-- What must stay clear around a probe: the units and the target rings of this frame.
local function clearOfMarks(rb, x, y)
  for _, u in ipairs(rb.units) do
    if math.abs(M + u.px - x) < UNIT_RADIUS + 8 and math.abs(M + u.py - y) < UNIT_RADIUS + 8 then
      return false
    end
    local tx, ty = target(u)
    if tx then
      local cx, cy = View.centre(tx, ty)
      if math.abs(cx - x) < 16 and math.abs(cy - y) < 16 then return false end
    end
  end
  return true
end

local function linesOf(rb)
  local lines = {}
  for i, u in ipairs(rb.units) do lines[i] = RealtimeView.polyline(rb, u) end
  return lines
end

-- For each other mode, a point on this mode's lines at least 12 pixels from every line
-- that mode draws at the same time (the same scene replayed in it) and off the marks:
-- the screenshot test checks it has the path's colour here, and not in that mode's
-- shot. Returns { { x =, y =, mode = } ... } (a mode whose lines this one follows
-- everywhere has none).
local function ownLinePoints(rb)
  local mine, list = linesOf(rb), {}
  for _, mode in ipairs(RealtimeBoard.MODES) do
    if mode ~= rb.mode then
      local theirs = linesOf(RealtimeBoard.replay(rb.size, mode, rb.steps))
      local best
      for _, pts in pairs(mine) do
        for k = 1, #pts - 3, 2 do
          local ax, ay, bx, by = pts[k], pts[k + 1], pts[k + 2], pts[k + 3]
          local n = math.max(1, math.floor(math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2) / 3))
          for step = 0, n do
            local x, y = ax + (bx - ax) * step / n, ay + (by - ay) * step / n
            local d = lineDistance(x, y, theirs)
            if d >= 12 and clearOfMarks(rb, x, y) and not (best and best.d >= d) then
              best = { x = x, y = y, d = d, mode = mode }
            end
          end
        end
      end
      list[#list + 1] = best
    end
  end
  return list
end

-- Points whose colour the screenshot test checks (see ownLinePoints): the lit mode
-- badge ("mode grid" ...) and the two others, a unit, a plain tile of each terrain
-- off every line and mark, and the lines only this mode draws.
function RealtimeView.probes(board)
  local rb = board.realtime
  local width = love.graphics.getDimensions()
  local list = { { x = width - 20, y = 300, rgb = C.panel, what = "sidebar panel" } }
  local function add(x, y, rgb, what) list[#list + 1] = { x = x, y = y, rgb = rgb, what = what } end
  for _, b in ipairs(badges(rb)) do
    add(b.x + 5, b.y + BADGE_H / 2, b.on and C.path or C.panel, b.on and "mode " .. b.mode or "mode off")
  end
  for i, u in ipairs(rb.units) do
    local alone = true
    for j, v in ipairs(rb.units) do
      if i ~= j and math.abs(u.px - v.px) < 2 * UNIT_RADIUS + 4 and math.abs(u.py - v.py) < 2 * UNIT_RADIUS + 4 then
        alone = false
      end
    end
    if alone then
      add(M + u.px - 9, M + u.py, RealtimeView.UNIT_COLORS[i], "rt unit")
      break
    end
  end
  local lines, done = linesOf(rb), {}
  for y = 1, rb.height do
    for x = 1, rb.width do
      local name = rb:tile(x, y).name
      local cx, cy = View.centre(x, y)
      if name ~= "wall" and not done[name] and lineDistance(cx, cy, lines) >= 9
        and clearOfMarks(rb, cx, cy) then
        done[name] = true
        add(cx, cy, C[name], ("%s tile %d,%d"):format(name, x, y))
      end
    end
  end
  for _, p in ipairs(ownLinePoints(rb)) do add(p.x, p.y, C.path, "own line not " .. p.mode) end
  return list
end

return RealtimeView
