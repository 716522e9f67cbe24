-- A tactics board for astar in LÖVE 11: click a unit for its movement and
-- attack range, hover for the path and its cost, D for the enemy danger zone,
-- E for the enemy turn, A for free A* in 4 or 8 directions with the explored cells,
-- then a crowd that flows to (or, with F, flees from) a clicked tile on one distance map;
-- H for a hex board with a unit's range and a path to a clicked tile (L: its layout),
-- G for a building with two floors, stairs (links), thin walls with a door (O opens and
-- shuts it) and a one-way ledge: a unit's range through them, the hovered tile's path;
-- R for units walking in real time along paths on a map with costs, M cycling the
-- path mode: the grid walk, "sight" or "theta"; C for a chase, 1000 enemies after a
-- player on a 256x256 map whose walls change, on one distance map.
--
--   make love-demo                 (builds the module for LuaJIT, then runs this)
--   love examples/love             (after make LUA=luajit, from the checkout)
--   love examples/love --screenshot out.png [--scene tactics|astar|danger|enemy|crowd|flee|hex|floors|
--                                           realtime-grid|realtime-sight|realtime-theta|chase]
--                                  (draws a scripted frame, saves it, quits)
-- luacheck: globals love

-- Run from the checkout, the module is not next to main.lua: add the
-- checkout's lua/ and build/luajit/ to the search paths. A shipped game has
-- astar.lua and astar/core.so beside main.lua, where LÖVE's own loaders (which
-- come before package.path) find them, and the checkout is not there.
local function useCheckout()
  if love.filesystem.isFused() then return end
  local source = love.filesystem.getSource()
  if not (source:sub(1, 1) == "/" or source:match("^%a:[/\\]")) then
    source = love.filesystem.getWorkingDirectory() .. "/" .. source
  end
  local root = source .. "/../.."
  local f = io.open(root .. "/lua/astar.lua", "r")
  if not f then return end
  f:close()
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
end
useCheckout()

local Script = require "script"
-- the global arg: the command line, before love.load gets it
if Script.requested(arg) then Script.quitOnError() end

local ok, err = pcall(require, "astar.tactics")
if not ok then
  error("cannot load the astar module (" .. tostring(err) .. ").\n"
    .. "Build it for LÖVE's LuaJIT first: make LUA=luajit (or run make love-demo)", 0)
end

local Board = require "board"
local View = require "view"
local HexView = require "hexview"
local FloorView = require "floorview"
local RealtimeView = require "realtimeview"
local ChaseView = require "chaseview"

local board, hover, script

function love.load(args)
  script = Script.fromArgs(args or {})
  View.load()
  board = Board.new()
  local w, h = View.size(board.width, board.height)
  if love.graphics.getWidth() ~= w or love.graphics.getHeight() ~= h then
    love.window.setMode(w, h)
  end
  if script then hover = script:setUp(board) end
end

-- the tile under a pixel, on the square board or the hex one (the building's
-- tiles are the square board's)
local function tileAt(px, py)
  if board.mode == "hex" then return HexView.tileAt(board, px, py) end
  if board.mode == "chase" then return ChaseView.tileAt(px, py) end
  return View.tileAt(px, py)
end

-- the tiles of the mode: the hex board's, the building's or the square board's
local function tiles()
  if board.mode == "hex" then return board.hex end
  if board.mode == "floors" then return board.floors end
  if board.mode == "realtime" then return board.realtime end
  if board.mode == "chase" then return board.chase end
  return board
end

function love.update(dt)
  board:update(script and 0 or dt)   -- a scripted frame is set up, not played
  if not script then
    local x, y = tileAt(love.mouse.getPosition())
    if x and tiles():inside(x, y) then
      hover = { x = x, y = y }
      if board.mode == "astar4" or board.mode == "astar8" then board:setAstarGoal(x, y) end
    else
      hover = nil
    end
  end
end

function love.draw()
  local path
  if board.mode == "hex" then
    path = HexView.draw(board, hover)
  elseif board.mode == "floors" then
    path = FloorView.draw(board, hover)
  elseif board.mode == "realtime" then
    path = RealtimeView.draw(board, hover)
  elseif board.mode == "chase" then
    path = ChaseView.draw(board, hover)
  else
    path = View.draw(board, hover)
  end
  if script then script:frameDrawn(board, path, hover) end
end

function love.mousepressed(px, py, button)
  if script then return end
  local x, y = tileAt(px, py)
  if not x or board.mode == "realtime" or board.mode == "chase" then return end   -- they go on their own
  if board.mode == "hex" then
    if button == 1 then board.hex:setTarget(x, y) elseif button == 2 then board.hex:setUnit(x, y) end
  elseif board.mode == "floors" then
    local fb = board.floors
    if button == 1 and FloorView.onDoor(fb, px, py) then
      fb:toggleDoor()
    elseif button == 1 then
      fb:moveUnit(x, y)
    elseif button == 2 then
      fb:setUnit(x, y)
    end
  elseif button == 1 then
    board:click(x, y)
  elseif button == 2 then
    board:select(nil)
  end
end

function love.keypressed(key)
  if script then return end
  if key == "h" then
    board:toggleHex()
    hover = nil
  elseif key == "g" then
    board:toggleFloors()
    hover = nil
  elseif key == "r" then
    board:toggleRealtime(View.TILE)
    hover = nil
  elseif key == "c" then
    board:toggleChase(love.timer.getTime)
    hover = nil
  elseif key == "q" then
    love.event.quit()
  elseif board.mode == "realtime" then
    if key == "m" then
      board.realtime:cycleMode()
    elseif key == "p" then
      board.realtime:togglePause()
    end
  elseif board.mode == "chase" then
    if key == "p" then board.chase:togglePause() end
  elseif board.mode == "hex" then
    if key == "l" then board.hex:cycleLayout() end
  elseif board.mode == "floors" then
    if key == "o" then
      board.floors:toggleDoor()
    elseif key == "+" or key == "=" or key == "kp+" then
      board.floors:addMove(1)
    elseif key == "-" or key == "kp-" then
      board.floors:addMove(-1)
    end
  elseif key == "d" then
    board:toggleDanger()
  elseif key == "e" and board.mode == "tactics" then
    board:enemyTurn()
  elseif key == "f" and board.mode == "crowd" then
    board:toggleFlee()
  elseif key == "a" then
    board:cycleMode()
    if hover and board.mode ~= "crowd" then board:setAstarGoal(hover.x, hover.y) end
  elseif key == "escape" then
    board:select(nil)
  end
end
