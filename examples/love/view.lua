-- Drawing the board with love.graphics: tiles, overlays, the path, the units
-- and a sidebar with what is selected, a legend and the keys.
-- luacheck: globals love
local View = {}

View.TILE = 42
View.MARGIN = 16
View.SIDEBAR = 268

local C = {
  background = { 0.11, 0.12, 0.15 },
  panel = { 0.16, 0.17, 0.21 },
  text = { 0.92, 0.93, 0.95 },
  dim = { 0.62, 0.65, 0.72 },
  grass = { 0.55, 0.74, 0.38 },
  forest = { 0.23, 0.50, 0.27 },
  tree = { 0.12, 0.33, 0.16 },
  mountain = { 0.60, 0.52, 0.44 },
  peak = { 0.42, 0.36, 0.30 },
  snow = { 0.95, 0.95, 0.97 },
  water = { 0.23, 0.48, 0.80 },
  swamp = { 0.42, 0.45, 0.30 },
  reed = { 0.27, 0.31, 0.17 },
  wave = { 0.45, 0.68, 0.93 },
  wall = { 0.31, 0.31, 0.35 },
  brick = { 0.22, 0.22, 0.25 },
  gridLine = { 0, 0, 0, 0.28 },
  move = { 0.25, 0.55, 1.00, 0.50 },
  attack = { 1.00, 0.22, 0.18, 0.45 },
  danger = { 1.00, 0.30, 0.10, 0.25 },
  dangerEdge = { 0.85, 0.10, 0.05 },
  explored = { 0.62, 0.30, 0.92, 0.50 },
  path = { 1.00, 0.90, 0.20 },
  enemyPath = { 1.00, 0.55, 0.45 },
  blue = { 0.20, 0.42, 0.95 },
  red = { 0.88, 0.20, 0.20 },
  outline = { 0.05, 0.05, 0.08 },
  hover = { 1, 1, 1 },
  selected = { 1.00, 0.90, 0.20 },
  near = { 1.00, 0.80, 0.25 },    -- heat: the cells close to the target (low values)
  far = { 0.30, 0.20, 0.85 },     -- and those far from it (high values)
  arrow = { 0.05, 0.05, 0.08, 0.55 },
  crowd = { 0.98, 0.55, 0.10 },
  target = { 1.00, 1.00, 1.00 },
}
View.HEAT_ALPHA = 0.6
View.COLORS = C

local fonts = {}
View.fonts = fonts   -- hexview.lua writes with them

function View.load()
  fonts.small = love.graphics.newFont(11)
  fonts.body = love.graphics.newFont(13)
  fonts.title = love.graphics.newFont(17)
  fonts.unit = love.graphics.newFont(15)
end

-- Window size for a board of w x h tiles.
function View.size(w, h)
  local m, t = View.MARGIN, View.TILE
  return 2 * m + w * t + m + View.SIDEBAR, math.max(2 * m + h * t, 600)
end

function View.tileAt(px, py)
  local t, m = View.TILE, View.MARGIN
  return math.floor((px - m) / t) + 1, math.floor((py - m) / t) + 1
end

-- Top left corner and centre of tile (x, y).
local function corner(x, y)
  return View.MARGIN + (x - 1) * View.TILE, View.MARGIN + (y - 1) * View.TILE
end

function View.centre(x, y)
  local cx, cy = corner(x, y)
  return cx + View.TILE / 2, cy + View.TILE / 2
end

local function color(c) love.graphics.setColor(c[1], c[2], c[3], c[4] or 1) end

local function fillTile(x, y, c)
  local px, py = corner(x, y)
  color(c)
  love.graphics.rectangle("fill", px, py, View.TILE, View.TILE)
end

-- Terrain with a little drawing on top (trees, a peak, waves, reeds, bricks), the
-- tile's centre left plain (the screenshot probes look there).
local function drawTerrain(name, px, py)
  local t = View.TILE
  local g = love.graphics
  color(C[name] or C.grass)
  g.rectangle("fill", px, py, t, t)
  if name == "forest" then
    color(C.tree)
    for _, o in ipairs { { 0.30, 0.62 }, { 0.68, 0.50 }, { 0.45, 0.30 } } do
      local cx, cy = px + o[1] * t, py + o[2] * t
      g.polygon("fill", cx, cy - 8, cx - 6, cy + 5, cx + 6, cy + 5)
    end
  elseif name == "mountain" then
    color(C.peak)
    g.polygon("fill", px + 5, py + t - 7, px + t / 2, py + 8, px + t - 5, py + t - 7)
    color(C.snow)
    g.polygon("fill", px + t / 2 - 6, py + 16, px + t / 2, py + 8, px + t / 2 + 6, py + 16)
  elseif name == "water" then
    color(C.wave)
    g.setLineWidth(2)
    for _, dy in ipairs { 0.35, 0.65 } do
      local y = py + dy * t
      g.line(px + 8, y, px + 14, y - 3, px + 20, y, px + 26, y - 3, px + 32, y)
    end
  elseif name == "swamp" then
    color(C.reed)
    g.setLineWidth(2)
    for _, o in ipairs { { 0.20, 0.30 }, { 0.72, 0.22 }, { 0.30, 0.78 }, { 0.78, 0.72 } } do
      local x, y = px + o[1] * t, py + o[2] * t
      g.line(x - 4, y - 5, x - 2, y + 4, x, y - 7, x + 2, y + 4, x + 4, y - 5)
    end
  elseif name == "wall" then
    color(C.brick)
    g.setLineWidth(2)
    for row = 1, 3 do
      local y = py + row * t / 4
      g.line(px, y, px + t, y)
    end
    for row = 0, 3 do
      local off = (row % 2) * t / 4
      for col = 0, 1 do
        local x = px + off + col * t / 2 + t / 8
        g.line(x, py + row * t / 4, x, py + (row + 1) * t / 4)
      end
    end
  end
end

View.drawTerrain = drawTerrain   -- the real-time scene's too

-- The colour of a distance map value (v in lo..hi), drawn with HEAT_ALPHA.
function View.heat(v, lo, hi)
  local t = hi > lo and (v - lo) / (hi - lo) or 0
  return { C.near[1] + (C.far[1] - C.near[1]) * t, C.near[2] + (C.far[2] - C.near[2]) * t,
    C.near[3] + (C.far[3] - C.near[3]) * t, View.HEAT_ALPHA }
end

-- The crowd's map: a colour per value and an arrow along nextStep.
local function drawFlow(board)
  local map = board.flow
  if not map then return end
  local g = love.graphics
  for _, c in ipairs(map:cells()) do fillTile(c.x, c.y, View.heat(c.cost, board.flowLo, board.flowHi)) end
  color(C.arrow)
  g.setLineWidth(2)
  for _, c in ipairs(map:cells()) do
    local nx, ny = map:nextStep(c.x, c.y)
    if nx then
      local cx, cy = View.centre(c.x, c.y)
      local t = View.TILE * 0.38
      g.line(cx, cy, cx + (nx - c.x) * t, cy + (ny - c.y) * t)
    end
  end
end

local function drawOverlays(board)
  local w, h = board.width, board.height
  if board.mode == "crowd" then
    drawFlow(board)
  elseif board.mode == "tactics" then
    if board.showDanger then
      for _, c in ipairs(board.danger:cells()) do
        if board:tile(c.x, c.y).name ~= "wall" then fillTile(c.x, c.y, C.danger) end
      end
    end
    if board.range then
      for y = 1, h do
        for x = 1, w do
          if board.range:contains(x, y) then
            fillTile(x, y, C.move)
          elseif board.attack:contains(x, y) and board:tile(x, y).name ~= "wall" then
            -- the module counts walls as targets; this game does not show them
            fillTile(x, y, C.attack)
          end
        end
      end
    end
  else
    local a = board.astar
    if a and a.explored then
      for _, c in ipairs(a.explored) do fillTile(c.x, c.y, C.explored) end
    end
  end
end

local function drawGridLines(board)
  local g, t, m = love.graphics, View.TILE, View.MARGIN
  color(C.gridLine)
  g.setLineWidth(1)
  for x = 0, board.width do
    g.line(m + x * t + 0.5, m, m + x * t + 0.5, m + board.height * t)
  end
  for y = 0, board.height do
    g.line(m, m + y * t + 0.5, m + board.width * t, m + y * t + 0.5)
  end
end
View.drawGridLines = drawGridLines

-- The danger zone's border, and in each tile's corner how many enemies can
-- hit it.
local function drawDangerZone(board)
  if board.mode ~= "tactics" or not board.showDanger then return end
  local g, t, zone = love.graphics, View.TILE, board.danger
  local function inZone(x, y)
    return zone:contains(x, y) and board:tile(x, y).name ~= "wall"
  end
  color(C.dangerEdge)
  g.setLineWidth(3)
  g.setFont(fonts.small)
  for _, c in ipairs(zone:cells()) do
    if inZone(c.x, c.y) then
      local px, py = corner(c.x, c.y)
      if not inZone(c.x - 1, c.y) then g.line(px + 1.5, py, px + 1.5, py + t) end
      if not inZone(c.x + 1, c.y) then g.line(px + t - 1.5, py, px + t - 1.5, py + t) end
      if not inZone(c.x, c.y - 1) then g.line(px, py + 1.5, px + t, py + 1.5) end
      if not inZone(c.x, c.y + 1) then g.line(px, py + t - 1.5, px + t, py + t - 1.5) end
      g.print(tostring(c.count), px + 5, py + 3)
    end
  end
end

local function drawPath(path, c)
  if not path or #path < 2 then return end
  local g = love.graphics
  local pts = {}
  for _, p in ipairs(path) do
    local cx, cy = View.centre(p.x, p.y)
    pts[#pts + 1], pts[#pts + 2] = cx, cy
  end
  color(C.outline)
  g.setLineWidth(7)
  g.setLineJoin("bevel")
  g.line(pts)
  color(c)
  g.setLineWidth(4)
  g.line(pts)
  for i = 2, #path do
    local cx, cy = View.centre(path[i].x, path[i].y)
    g.circle("fill", cx, cy, i == #path and 8 or 5)
  end
end

local function drawCrowd(board)
  local g = love.graphics
  for _, u in ipairs(board.crowd or {}) do
    local cx, cy = View.centre(u.x, u.y)
    color(C.outline)
    g.circle("fill", cx, cy, 10)
    color(C.crowd)
    g.circle("fill", cx, cy, 8)
  end
  local t = board.flowTarget   -- on top: a unit may stand on it
  if t then
    local cx, cy = View.centre(t.x, t.y)
    color(C.outline)
    g.circle("line", cx, cy, 15)
    color(board.fleeing and C.red or C.target)
    g.setLineWidth(4)
    g.circle("line", cx, cy, 13)
    g.circle("fill", cx, cy, 4)
  end
end

local function drawUnits(board)
  local g, r = love.graphics, View.TILE * 0.36
  g.setFont(fonts.unit)
  if board.mode == "crowd" then return drawCrowd(board) end
  if board.mode ~= "tactics" then return end   -- free A* ignores the units
  for _, u in ipairs(board.units) do
    local cx, cy = View.centre(u.x, u.y)
    if u == board.selected then
      color(C.selected)
      g.circle("fill", cx, cy, r + 4)
    end
    color(C[u.team])
    g.circle("fill", cx, cy, r)
    color(C.outline)
    g.setLineWidth(2)
    g.circle("line", cx, cy, r)
    color(C.text)
    local fw, fh = fonts.unit:getWidth(u.letter), fonts.unit:getHeight()
    g.print(u.letter, math.floor(cx - fw / 2 + 0.5), math.floor(cy - fh / 2 + 0.5))
  end
end

-- A label with the path cost next to the hovered tile.
local function drawCostTag(board, x, y, text)
  local g = love.graphics
  g.setFont(fonts.body)
  local px, py = corner(x, y)
  local tw, th = fonts.body:getWidth(text) + 10, fonts.body:getHeight() + 6
  local bx = math.min(px + View.TILE / 2 - tw / 2, View.MARGIN + board.width * View.TILE - tw)
  local by = py - th - 4
  if by < 2 then by = py + View.TILE + 4 end
  color(C.outline)
  g.rectangle("fill", bx, by, tw, th, 4, 4)
  color(C.path)
  g.print(text, bx + 5, by + 3)
end

local function fmt(cost)
  if cost == math.floor(cost) then return ("%d"):format(cost) end
  return ("%.2f"):format(cost)
end

-- ---- the sidebar -------------------------------------------------------------

local function line(s, text, c, font)
  love.graphics.setFont(font or fonts.body)
  color(c or C.text)
  love.graphics.print(text, s.x, s.y)
  s.y = s.y + (font or fonts.body):getHeight() + 3
end

local function swatch(s, c, text, base)
  color(base or C.grass)
  love.graphics.rectangle("fill", s.x, s.y, 16, 16)
  color(c)
  love.graphics.rectangle("fill", s.x, s.y, 16, 16)
  color(C.outline)
  love.graphics.setLineWidth(1)
  love.graphics.rectangle("line", s.x + 0.5, s.y + 0.5, 15, 15)
  love.graphics.setFont(fonts.body)
  color(C.text)
  love.graphics.print(text, s.x + 24, s.y + 1)
  s.y = s.y + 21
end

local MODE_TEXT = {
  tactics = "tactics",
  astar4 = "free A*, 4 directions",
  astar8 = "free A*, 8 directions",
  crowd = "a crowd on one distance map",
  hex = "a hex board",
  floors = "a building: moves and links",
  realtime = "real time: units on paths",
  chase = "a chase: 1000 enemies, one map",
}

-- scene (the building's): { tiles =, legend = { { colour, text [, base] }, ... },
-- help = { lines } } in place of the square board's legend and keys.
local function drawSidebar(board, hover, info, scene)
  local g = love.graphics
  local left = 2 * View.MARGIN + board.width * View.TILE
  local _, height = g.getDimensions()
  color(C.panel)
  g.rectangle("fill", left, View.MARGIN, View.SIDEBAR, height - 2 * View.MARGIN, 6, 6)
  local s = { x = left + 14, y = View.MARGIN + 12 }
  line(s, "astar + LÖVE: tactics demo", C.text, fonts.title)
  line(s, "mode: " .. MODE_TEXT[board.mode] .. (board.mode == "hex" and (", " .. board.hex.layout) or ""),
    C.dim)
  s.y = s.y + 6

  for _, text in ipairs(info) do line(s, text[1], text[2]) end
  local tiles = scene and scene.tiles or board.mode == "hex" and board.hex or board
  if hover and tiles:inside(hover.x, hover.y) then
    local t = tiles:tile(hover.x, hover.y)
    line(s, ("tile %d,%d: %s%s"):format(hover.x, hover.y, t.name,
      t.cost and not t.water and (" (cost " .. t.cost .. ")") or ""), C.dim)
  end
  s.y = s.y + 8

  line(s, "Legend", C.text, fonts.title)
  if scene then
    for _, e in ipairs(scene.legend) do swatch(s, e[1], e[2], e[3]) end
    swatch(s, C.path, "path")
    s.y = s.y + 8
    line(s, "Keys", C.text, fonts.title)
    for _, text in ipairs(scene.help) do line(s, text, C.dim, fonts.small) end
    line(s, "Q: quit", C.dim, fonts.small)
    return
  end
  swatch(s, C.grass, "grass: cost 1")
  swatch(s, C.forest, "forest: cost 2")
  swatch(s, C.mountain, "mountain: cost 3")
  swatch(s, C.water, "water: walkers cannot enter")
  swatch(s, C.wall, "wall")
  if board.mode == "hex" then
    swatch(s, C.move, "the unit's movement range")
  elseif board.mode == "crowd" then
    swatch(s, View.heat(0, 0, 1), board.fleeing and "low: safest (flee map)" or "low: close to the target")
    swatch(s, View.heat(1, 0, 1), board.fleeing and "high: close to the threat" or "high: far away")
    swatch(s, C.crowd, "a unit of the crowd")
  elseif board.mode == "tactics" then
    swatch(s, C.move, "can move to")
    swatch(s, C.attack, "can attack after moving")
    swatch(s, C.danger, "danger zone (D): enemy hits")
    if board.enemyMoves then swatch(s, C.enemyPath, "enemy moves (E)") end
  else
    swatch(s, C.explored, "expanded (search:getExpanded)")
  end
  swatch(s, C.path, "path")
  s.y = s.y + 8

  line(s, "Keys", C.text, fonts.title)
  local help = board.mode == "hex" and {
    "click: the path's target (findPath)",
    "right click: move the unit there",
    "L: layout odd-r / even-r / odd-q / even-q",
    "H: back to the square board",
    "G: a building (moves and links)",
    "R: real time, smoothed paths",
  } or board.mode == "crowd" and {
    "click: the crowd flows to that tile",
    "F: flee from it instead " .. (board.fleeing and "(on)" or "(off)"),
    "(one distanceMap per click; each unit",
    " takes map:nextStep every few frames)",
  } or board.mode == "tactics" and {
    "click a unit: its move and attack range",
    "hover a blue tile: path and cost",
    "click a blue tile: move there",
    "right click / Esc: deselect",
    "E: enemy turn",
  } or {
    "click: set the start",
    "hover: set the goal",
    "(free A* ignores the units; water is a wall)",
  }
  if board.mode ~= "hex" then
    help[#help + 1] = "D: enemy danger zone " .. (board.showDanger and "(on)" or "(off)")
    help[#help + 1] = "A: tactics / A* 4-dir / A* 8-dir / crowd"
    help[#help + 1] = "H: a hex board / G: a building, floors"
    help[#help + 1] = "R: real time, smoothed paths"
    help[#help + 1] = "C: a chase, 1000 enemies on one map"
  end
  help[#help + 1] = "Q: quit"
  for _, text in ipairs(help) do line(s, text, C.dim, fonts.small) end
end

View.sidebar = drawSidebar   -- the hex board's too

-- What the sidebar says about the selection, the hovered path or the search.
local function describe(board, hover)
  local info, tag = {}, nil
  if board.mode == "crowd" then
    local t = board.flowTarget
    if not t then
      info[#info + 1] = { "click a tile", C.dim }
    else
      info[#info + 1] = { ("%s %d,%d: a map of %d cells"):format(board.fleeing and "fleeing from"
        or "flowing to", t.x, t.y, board.flow:size()), C.text }
      if hover and board:inside(hover.x, hover.y) and board.flow:get(hover.x, hover.y) then
        info[#info + 1] = { ("value at %d,%d: %s"):format(hover.x, hover.y,
          fmt(board.flow:get(hover.x, hover.y))), C.dim }
      end
    end
    return info, nil, nil
  end
  if board.mode == "tactics" then
    local u = board.selected
    if u then
      info[#info + 1] = { ("%s %s: move %d, range %d-%d%s"):format(u.team, u.name, u.move,
        u.minRange, u.maxRange, u.flies and ", flies" or ""), C[u.team] }
      info[#info + 1] = { ("%d tiles to move to, %d to attack"):format(#board.range:cells(),
        board.attack:size()) }
      local path, cost = nil, nil
      if hover then path, cost = board:pathTo(hover.x, hover.y) end
      if path then
        info[#info + 1] = { ("path to %d,%d: cost %s, %d steps"):format(hover.x, hover.y,
          fmt(cost), #path - 1), C.path }
        tag = { x = hover.x, y = hover.y, text = "cost " .. fmt(cost) }
      end
      return info, tag, path
    end
    info[#info + 1] = { "click a unit", C.dim }
    for _, m in ipairs(board.enemyMoves or {}) do
      info[#info + 1] = { ("%s -> %s: cost %s, %s"):format(m.unit.name, m.target.name,
        fmt(m.cost), m.inReach and "in reach" or "on its way"), C.enemyPath }
    end
    if hover and board.showDanger then
      info[#info + 1] = { ("%d enemies can hit %d,%d"):format(board.danger:count(hover.x, hover.y),
        hover.x, hover.y), C.dim }
    end
    return info, nil, nil
  end
  local a, st, goal = board.astar, board.astarStart, board.astarGoal
  info[#info + 1] = { ("start %d,%d (click), goal %s (hover)"):format(st.x, st.y,
    goal and (goal.x .. "," .. goal.y) or "-"), C.dim }
  if a then
    if a.status == "searching" then
      info[#info + 1] = { ("searching... %d expanded"):format(a.expanded or 0) }
    elseif a.status == "found" then
      info[#info + 1] = { ("path cost %s, %d steps"):format(fmt(a.cost), #a.path - 1), C.path }
      info[#info + 1] = { ("%d cells expanded (getStats)"):format(a.expanded) }
      tag = { x = goal.x, y = goal.y, text = "cost " .. fmt(a.cost) }
      return info, tag, a.path
    else
      info[#info + 1] = { "no path: " .. tostring(a.reason), C.red }
    end
  end
  return info, tag, nil
end

-- Draws a frame; returns the path shown, if any.
function View.draw(board, hover)
  local g = love.graphics
  g.clear(C.background[1], C.background[2], C.background[3], 1)
  for y = 1, board.height do
    for x = 1, board.width do
      local px, py = corner(x, y)
      drawTerrain(board:tile(x, y).name, px, py)
    end
  end
  drawOverlays(board)
  drawGridLines(board)
  drawDangerZone(board)
  local info, tag, path = describe(board, hover)
  if board.mode == "tactics" then
    for _, m in ipairs(board.enemyMoves or {}) do drawPath(m.path, C.enemyPath) end
  end
  drawPath(path, C.path)
  if (board.mode == "astar4" or board.mode == "astar8") and board.astarStart then
    local cx, cy = View.centre(board.astarStart.x, board.astarStart.y)
    color(C.outline)
    g.circle("fill", cx, cy, 10)
    color(C.path)
    g.circle("fill", cx, cy, 7)
  end
  drawUnits(board)
  if hover and board:inside(hover.x, hover.y) then
    local px, py = corner(hover.x, hover.y)
    color(C.hover)
    g.setLineWidth(2)
    g.rectangle("line", px + 1, py + 1, View.TILE - 2, View.TILE - 2)
  end
  if tag then drawCostTag(board, tag.x, tag.y, tag.text) end
  drawSidebar(board, hover, info)
  return path
end

-- Points whose colour the screenshot test checks: each is drawn opaque (or a
-- known overlay on plain grass), away from text, lines and edges.
function View.probes(board, path, hover)
  local list = {}
  local width = love.graphics.getDimensions()
  list[#list + 1] = { x = width - 20, y = 300, rgb = C.panel, what = "sidebar panel" }
  local u = board.selected
  if u then
    local cx, cy = View.centre(u.x, u.y)
    list[#list + 1] = { x = cx - 10, y = cy, rgb = C[u.team], what = "selected unit" }
  end
  if path and #path >= 3 then
    local cx, cy = View.centre(path[2].x, path[2].y)
    list[#list + 1] = { x = cx, y = cy, rgb = C.path, what = "path dot" }
  end
  -- how many paths cross each cell (the hovered one, the enemy moves)
  local moves = board.mode == "tactics" and board.enemyMoves or {}
  local onPath = {}
  local function mark(p) onPath[p.y * 1000 + p.x] = (onPath[p.y * 1000 + p.x] or 0) + 1 end
  for _, p in ipairs(path or {}) do mark(p) end
  for _, m in ipairs(moves) do
    for _, p in ipairs(m.path) do mark(p) end
  end
  -- the enemy turn: a dot of a path that no other path nor a unit covers, the unit
  for _, m in ipairs(moves) do
    local p = m.path[2]
    if #m.path >= 3 and onPath[p.y * 1000 + p.x] == 1 and not board:unitAt(p.x, p.y) then
      local cx, cy = View.centre(p.x, p.y)
      list[#list + 1] = { x = cx, y = cy, rgb = C.enemyPath, what = "enemy path dot" }
      cx, cy = View.centre(m.unit.x, m.unit.y)
      list[#list + 1] = { x = cx - 10, y = cy, rgb = C.red, what = "enemy unit" }
      break
    end
  end
  -- the crowd: a unit, the target, and one grass tile of the map away from units
  -- (its colour, the value's, checked off the lines of the arrows)
  if board.mode == "crowd" then
    local t = board.flowTarget
    for _, walker in ipairs(board.crowd) do
      if math.abs(walker.x - t.x) > 1 or math.abs(walker.y - t.y) > 1 then
        local cx, cy = View.centre(walker.x, walker.y)
        list[#list + 1] = { x = cx - 5, y = cy, rgb = C.crowd, what = "crowd unit" }
        break
      end
    end
    local cx, cy = View.centre(t.x, t.y)
    list[#list + 1] = { x = cx, y = cy, rgb = board.fleeing and C.red or C.target, what = "flow target" }
    for y = 1, board.height do
      for x = 1, board.width do
        local v = board.flow:get(x, y)
        if v and v ~= board.flowLo and board:tile(x, y).name == "grass" and not board:crowdAt(x, y)
          and not (x == t.x and y == t.y) then
          local h = View.heat(v, board.flowLo, board.flowHi)
          local a = h[4]
          local rgb = { h[1] * a + C.grass[1] * (1 - a), h[2] * a + C.grass[2] * (1 - a),
            h[3] * a + C.grass[3] * (1 - a) }
          cx, cy = View.centre(x, y)
          list[#list + 1] = { x = cx - 12, y = cy + 5, rgb = rgb, what = "heat tile " .. x .. "," .. y }
          return list
        end
      end
    end
    return list
  end
  -- one plain grass tile of each overlay, checked at its centre
  local function blend(over)
    local a = over[4]
    return { over[1] * a + C.grass[1] * (1 - a), over[2] * a + C.grass[2] * (1 - a),
      over[3] * a + C.grass[3] * (1 - a) }
  end
  -- free A*: the cells the search expanded
  local explored = {}
  for _, c in ipairs(board.mode ~= "tactics" and board.astar and board.astar.explored or {}) do
    explored[c.y * 1000 + c.x] = true
  end
  local found = {}
  for y = 1, board.height do
    for x = 1, board.width do
      if board:tile(x, y).name == "grass" and not board:unitAt(x, y) and not onPath[y * 1000 + x]
        and not (board.showDanger and board.danger:contains(x, y))
        and not (hover and math.abs(x - hover.x) <= 1 and math.abs(y - hover.y) <= 1) then
        local cx, cy = View.centre(x, y)
        local kind = "grass"
        if board.mode ~= "tactics" then
          if explored[y * 1000 + x] then kind = "explored" end
        elseif board.range and board.range:contains(x, y) then kind = "move"
        elseif board.attack and board.attack:contains(x, y) then kind = "attack"
        end
        if kind and not found[kind] then
          found[kind] = true
          local rgb = kind == "grass" and C.grass or blend(C[kind])
          list[#list + 1] = { x = cx, y = cy, rgb = rgb, what = kind .. " tile " .. x .. "," .. y }
        end
      end
    end
  end
  return list
end

return View
