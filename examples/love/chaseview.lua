-- Drawing the chase scene (chaseboard.lua) with love.graphics: the 256x256 map at
-- CELL pixels a cell (one image of the generated terrain, the walls built or destroyed
-- since drawn over it), the player's route, the enemies, the player, the pathfinding
-- time per frame under the map and the sidebar (view.lua's).
-- luacheck: globals love
local View = require "view"

local ChaseView = {}
local C = View.COLORS
local M = View.MARGIN

ChaseView.CELL = 2                              -- pixels a cell: 512 x 512 for the map
ChaseView.COLORS = {
  built = { 0.95, 0.45, 0.15 },                 -- a wall built during the chase
  destroyed = { 0.85, 0.80, 0.55 },             -- a wall destroyed: rubble, open ground
  enemy = C.red,
  player = C.blue,
}
local CC = ChaseView.COLORS
local ENEMY = 4           -- an enemy's square, in pixels, centred on its cell
local PLAYER_RADIUS = 7

local function color(c) love.graphics.setColor(c[1], c[2], c[3], c[4] or 1) end

-- the top-left pixel of cell (x, y), and its centre
local function corner(x, y)
  return M + (x - 1) * ChaseView.CELL, M + (y - 1) * ChaseView.CELL
end

local function centre(x, y)
  local px, py = corner(x, y)
  return px + ChaseView.CELL / 2, py + ChaseView.CELL / 2
end

function ChaseView.tileAt(px, py)
  return math.floor((px - M) / ChaseView.CELL) + 1, math.floor((py - M) / ChaseView.CELL) + 1
end

-- The generated map as an image, a pixel a cell, made once per board.
local function terrainImage(cb)
  if cb.image then return cb.image end
  local data = love.image.newImageData(cb.width, cb.height)
  for y = 1, cb.height do
    for x = 1, cb.width do
      local i = cb:index(x, y)
      local wallThen = cb.grid:isWalkable(x, y) == (cb.edited[i] ~= nil)   -- edits flip it
      local name = wallThen and "wall" or cb.terrain[i].name
      local c = C[name]
      data:setPixel(x - 1, y - 1, c[1], c[2], c[3], 1)
    end
  end
  cb.image = love.graphics.newImage(data)
  cb.image:setFilter("nearest", "nearest")
  return cb.image
end

local function drawMap(cb)
  local g = love.graphics
  color({ 1, 1, 1 })
  g.draw(terrainImage(cb), M, M, 0, ChaseView.CELL, ChaseView.CELL)
  for i, what in pairs(cb.edited) do
    local x, y = (i - 1) % cb.width + 1, math.floor((i - 1) / cb.width) + 1
    local px, py = corner(x, y)
    color(CC[what])
    g.rectangle("fill", px, py, ChaseView.CELL, ChaseView.CELL)
  end
end

local function drawRoute(cb)
  local pts = {}
  for _, c in ipairs(cb.route) do
    local px, py = centre(c.x, c.y)
    pts[#pts + 1], pts[#pts + 2] = px, py
  end
  pts[#pts + 1], pts[#pts + 2] = pts[1], pts[2]
  local g = love.graphics
  color({ C.path[1], C.path[2], C.path[3], 0.55 })
  g.setLineWidth(1)
  g.line(pts)
end

local function drawActors(cb)
  local g, h = love.graphics, ENEMY / 2
  color(CC.enemy)
  for _, e in ipairs(cb.enemies) do
    local px, py = centre(e.x, e.y)
    g.rectangle("fill", px - h, py - h, ENEMY, ENEMY)
  end
  local px, py = centre(cb.player.x, cb.player.y)
  color(CC.player)
  g.circle("fill", px, py, PLAYER_RADIUS)
  color(C.outline)
  g.setLineWidth(2)
  g.circle("line", px, py, PLAYER_RADIUS)
end

-- "pathfinding per frame: median 0.02 ms, worst 4.40 ms (300 frames)"
function ChaseView.timing(cb)
  local median, worst, n = cb:stats()
  if not median then return "pathfinding per frame: (no frame yet)" end
  return ("pathfinding per frame: median %.2f ms, worst %.2f ms (%d frames)"):format(
    median * 1e3, worst * 1e3, n)
end

local function drawTiming(cb)
  local g = love.graphics
  g.setFont(View.fonts.body)
  color(C.text)
  g.print(ChaseView.timing(cb), M, M + cb.height * ChaseView.CELL + 8)
  color(C.dim)
  g.print(cb.paused and "paused (P)" or "", M, M + cb.height * ChaseView.CELL + 28)
end

local astar = require "astar"

local function describe(cb)
  return {
    { ("%d enemies, one distance map"):format(#cb.enemies), C.red },
    { ("player at %d,%d, %d cells walked"):format(cb.player.x, cb.player.y, cb.moves), C.blue },
    { ("caught: %d, wall edits: %d"):format(cb.caught, cb.edits), C.text },
    { ("%.1f s, backend: %s"):format(cb.steps * cb.STEP, astar.backend or "?"), C.dim },
  }
end

local function sidebar(board, hover, cb)
  View.sidebar(board, hover, describe(cb), {
    tiles = cb,
    legend = {
      { C.grass, "grass: cost 1" },
      { C.forest, "forest: cost 2" },
      { C.swamp, "swamp: cost 5" },
      { C.wall, "wall" },
      { CC.built, "wall built now" },
      { CC.destroyed, "wall destroyed now" },
      { CC.enemy, "enemy (map:nextStep)" },
      { CC.player, "player (walks its route)" },
    },
    help = {
      "P: pause / go on",
      "(one map: map:setSources as the player",
      " moves, map:update(grid) after an edit)",
      "C: back to the square board",
    },
  })
end

-- Draws a frame of the scene; returns nil (no hovered path).
function ChaseView.draw(board, hover)
  local g, cb = love.graphics, board.chase
  g.clear(C.background[1], C.background[2], C.background[3], 1)
  drawMap(cb)
  drawRoute(cb)
  drawActors(cb)
  if hover and cb:inside(hover.x, hover.y) then
    local px, py = corner(hover.x, hover.y)
    color(C.hover)
    g.setLineWidth(1)
    g.rectangle("line", px - 2.5, py - 2.5, ChaseView.CELL + 5, ChaseView.CELL + 5)
  end
  drawTiming(cb)
  sidebar(board, hover, cb)
  return nil
end

-- ---- the screenshot probes ----------------------------------------------------

-- true when no enemy, player or route point is within `r` cells of (x, y)
local function clear(cb, x, y, r)
  local p = cb.player
  if math.abs(p.x - x) <= r + 4 and math.abs(p.y - y) <= r + 4 then return false end
  for _, e in ipairs(cb.enemies) do
    if math.abs(e.x - x) <= r and math.abs(e.y - y) <= r then return false end
  end
  for _, c in ipairs(cb.route) do
    if math.abs(c.x - x) <= r and math.abs(c.y - y) <= r then return false end
  end
  return true
end

-- A cell whose colour is `what`'s, with nothing drawn over it: first found row by row.
local function plainCell(cb, wanted)
  for y = 2, cb.height - 1 do
    for x = 2, cb.width - 1 do
      local i = cb:index(x, y)
      local name = cb.edited[i] or cb:tile(x, y).name
      if name == wanted and clear(cb, x, y, 2) then return x, y end
    end
  end
  return nil
end

-- Points whose colour the screenshot test checks: the player, an enemy away from the
-- others, a cell of each terrain, a built wall, a destroyed one, the sidebar.
function ChaseView.probes(board)
  local cb = board.chase
  local width = love.graphics.getDimensions()
  local list = { { x = width - 20, y = 300, rgb = C.panel, what = "sidebar panel" } }
  local function add(x, y, rgb, what) list[#list + 1] = { x = x, y = y, rgb = rgb, what = what } end
  local px, py = centre(cb.player.x, cb.player.y)
  add(px, py, CC.player, "chase player")
  for _, e in ipairs(cb.enemies) do
    local ex, ey = centre(e.x, e.y)
    if math.abs(ex - px) > PLAYER_RADIUS + 4 or math.abs(ey - py) > PLAYER_RADIUS + 4 then
      add(ex - 1, ey - 1, CC.enemy, "chase enemy")
      break
    end
  end
  for _, name in ipairs { "grass", "forest", "swamp", "wall", "built", "destroyed" } do
    local x, y = plainCell(cb, name)
    if x then
      local cx, cy = corner(x, y)
      add(cx, cy, C[name] or CC[name], ("%s tile %d,%d"):format(name, x, y))
    end
  end
  return list
end

return ChaseView
