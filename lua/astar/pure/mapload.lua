-- Building grids from text, a port of src/core/mapload.c with the same
-- messages. Each loader returns a grid, or nil and the message.
local G = require "astar.pure.grid"

local M = {}

local byte, find, format, sub = string.byte, string.find, string.format, string.sub

local NL, CR = 10, 13
local WALL = 0

-- byte -> cost (1..9) or WALL; a missing byte is BAD.
local ASCII_CELLS = { [byte "."] = 1, [byte "#"] = WALL }
for c = 1, 9 do ASCII_CELLS[byte "0" + c] = c end
local MOVINGAI_CELLS = {
  [byte "."] = 1, [byte "G"] = 1, [byte "S"] = 1,
  [byte "@"] = WALL, [byte "O"] = WALL, [byte "T"] = WALL, [byte "W"] = WALL,
}

local function describe_char(c)
  if c >= 32 and c < 127 then return "'" .. string.char(c) .. "'" end
  return "byte " .. c
end

-- Length of the line starting at text[pos] (1-based) within the first `length`
-- bytes, without its "\n" or "\r\n", and where the next line starts.
local function line_length(text, length, pos)
  local e = find(text, "\n", pos, true)
  local nextpos
  if e and e <= length then
    nextpos = e + 1
  else
    e = length + 1
    nextpos = e
  end
  if e > pos and byte(text, e - 1) == CR then e = e - 1 end
  return e - pos, nextpos
end

-- Reads `height` rows of `width` cells starting at text[pos] into a new grid.
local function read_rows(text, length, pos, width, height, cells)
  if width < 1 or height < 1 or width > G.MAX_SIDE or height > G.MAX_SIDE
    or width * height > G.MAX_CELLS then
    return nil, "map too large"
  end
  local grid = G.new(width, height)
  local open, set_cost = grid._open, G.set_cost
  for y = 1, height do
    local n, nextpos = line_length(text, length, pos)
    if n ~= width then
      return nil, format("row %d has %d characters, expected %d", y, n, width)
    end
    local row = y * grid._stride + 1
    for x = 1, width do
      local c = byte(text, pos + x - 1)
      local cell = cells[c]
      if not cell then
        return nil, format("unexpected character %s at row %d, column %d", describe_char(c), y, x)
      end
      if cell == WALL then
        open[row + x] = false
      elseif cell ~= 1 then
        set_cost(grid, row + x, cell + 0.0)
      end
    end
    pos = nextpos
  end
  return grid
end

function M.from_text(text)
  local length = #text
  while length > 0 do
    local c = byte(text, length)
    if c ~= NL and c ~= CR then break end
    length = length - 1    -- a final newline (or several) is fine
  end
  if length == 0 then return nil, "empty map" end
  local height, pos = 1, 1
  while true do
    local e = find(text, "\n", pos, true)
    if not e or e > length then break end
    height, pos = height + 1, e + 1
  end
  return read_rows(text, length, 1, (line_length(text, length, 1)), height, ASCII_CELLS)
end

-- Reads header line "key" (want_value false) or "key N" with N a whole number
-- from 1 to MAX_SIDE. Returns ok, the next position, N.
local function header_line(text, length, pos, key, want_value)
  local n, nextpos = line_length(text, length, pos)
  local k = #key
  if n < k or sub(text, pos, pos + k - 1) ~= key then return false, nextpos end
  if not want_value then return n == k, nextpos end
  if n == k or byte(text, pos + k) ~= byte " " then return false, nextpos end
  local value, i = 0, k + 1
  while i < n do
    local c = byte(text, pos + i)
    if c < 48 or c > 57 or value > G.MAX_SIDE then return false, nextpos end
    value = value * 10 + (c - 48)
    i = i + 1
  end
  return i > k + 1 and value >= 1 and value <= G.MAX_SIDE, nextpos, value
end

function M.from_movingai(text)
  local length = #text
  local ok, pos, height, width
  ok, pos = header_line(text, length, 1, "type octile", false)
  if not ok then return nil, "line 1 must be 'type octile'" end
  ok, pos, height = header_line(text, length, pos, "height", true)
  if not ok then return nil, "line 2 must be 'height H' with H from 1 to 65535" end
  ok, pos, width = header_line(text, length, pos, "width", true)
  if not ok then return nil, "line 3 must be 'width W' with W from 1 to 65535" end
  ok, pos = header_line(text, length, pos, "map", false)
  if not ok then return nil, "line 4 must be 'map'" end
  return read_rows(text, length, pos, width, height, MOVINGAI_CELLS)
end

return M
