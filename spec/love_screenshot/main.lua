-- Checks the demo's screenshot (make love-screenshot-test):
--   love spec/love_screenshot SHOT.png WIDTH HEIGHT [PROBE ...]
-- - the file is a PNG whose IHDR says WIDTH x HEIGHT (read from the bytes);
-- - love.image decodes it to the same size;
-- - it is not blank: many distinct colours, none covering most of the image;
-- - every point listed in SHOT.png.probes (written by the demo: where it drew
--   the selected unit, a path dot, a tile of the movement and attack ranges, as
--   "x y r g b what") has that colour within 2/255, and each PROBE named on the
--   command line ("path dot", ...) is among them.
-- Prints one result line; quits with status 1 on any failure.
-- luacheck: globals love
local failures, checks = {}, 0

local function check(cond, msg)
  checks = checks + 1
  if not cond then failures[#failures + 1] = msg end
  return cond
end

local function readFile(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local data = f:read("*a")
  f:close()
  return data
end

local function u32(s, i)
  local a, b, c, d = s:byte(i, i + 3)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

local function run(args)
  local path, width, height = args[1], tonumber(args[2]), tonumber(args[3])
  if not (path and width and height) then
    return check(false, "usage: love spec/love_screenshot SHOT.png WIDTH HEIGHT [PROBE ...]")
  end
  local png = readFile(path)
  if not check(png ~= nil, "no file " .. path) then return end
  if not check(#png > 33 and png:sub(1, 8) == "\137PNG\r\n\26\n" and png:sub(13, 16) == "IHDR",
    "not a PNG file") then return end
  local w, h = u32(png, 17), u32(png, 21)
  check(w == width and h == height, ("IHDR says %dx%d, want %dx%d"):format(w, h, width, height))

  local image = love.image.newImageData(love.filesystem.newFileData(png, "shot.png"))
  local iw, ih = image:getDimensions()
  check(iw == width and ih == height, ("decoded %dx%d, want %dx%d"):format(iw, ih, width, height))

  -- not blank: count colours over every pixel
  local counts, distinct, top = {}, 0, 0
  for y = 0, ih - 1 do
    for x = 0, iw - 1 do
      local r, g, b = image:getPixel(x, y)
      local k = math.floor(r * 255 + 0.5) * 65536 + math.floor(g * 255 + 0.5) * 256
        + math.floor(b * 255 + 0.5)
      local n = (counts[k] or 0) + 1
      if n == 1 then distinct = distinct + 1 end
      counts[k] = n
      if n > top then top = n end
    end
  end
  check(distinct >= 50, ("only %d distinct colours"):format(distinct))
  check(top <= 0.5 * iw * ih, ("one colour covers %.0f%% of the image"):format(100 * top / (iw * ih)))

  local probes = readFile(path .. ".probes")
  if not check(probes ~= nil, "no file " .. path .. ".probes") then return end
  local seen, nprobes = {}, 0
  for line in probes:gmatch("[^\n]+") do
    local x, y, r, g, b, what = line:match("^(%d+) (%d+) (%d+) (%d+) (%d+) (.*)$")
    if check(x ~= nil, "bad probe line: " .. line) then
      nprobes = nprobes + 1
      x, y = tonumber(x), tonumber(y)
      seen[what:gsub(" tile .*$", " tile")] = true
      if check(x < iw and y < ih, what .. " probe outside the image") then
        local pr, pg, pb = image:getPixel(x, y)
        pr, pg, pb = pr * 255, pg * 255, pb * 255
        check(math.abs(pr - r) <= 2 and math.abs(pg - g) <= 2 and math.abs(pb - b) <= 2,
          ("%s at %d,%d: got %d %d %d, want %s %s %s"):format(what, x, y,
            math.floor(pr + 0.5), math.floor(pg + 0.5), math.floor(pb + 0.5), r, g, b))
      end
    end
  end
  for i = 4, #args do
    check(seen[args[i]], "no '" .. args[i] .. "' in the probes")
  end
  return distinct, nprobes
end

function love.load(args)
  local ok, distinct, nprobes = pcall(run, args or {})
  if not ok then failures[#failures + 1] = tostring(distinct) end
  if #failures == 0 then
    print(("love-screenshot-test: ok, %d checks (%d colours, %d probes)"):format(checks,
      distinct or 0, nprobes or 0))
    love.event.quit(0)
  else
    for _, f in ipairs(failures) do io.stderr:write("love-screenshot-test: FAIL ", f, "\n") end
    print(("love-screenshot-test: %d of %d checks failed"):format(#failures, checks))
    love.event.quit(1)
  end
end
