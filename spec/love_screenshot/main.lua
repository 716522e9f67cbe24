-- Checks the demo's screenshot (make love-screenshot-test):
--   love spec/love_screenshot SHOT.png WIDTH HEIGHT [PROBE ...]
-- - the file is a PNG whose IHDR says WIDTH x HEIGHT (read from the bytes);
-- - love.image decodes it to the same size;
-- - it is not blank: many distinct colours, none covering most of the image;
-- - every point listed in SHOT.png.probes (written by the demo: where it drew
--   the selected unit, a path dot, a tile of the movement and attack ranges, as
--   "x y r g b what") has that colour within 2/255, and each PROBE named on the
--   command line ("path dot", ...) is among them.
--   love spec/love_screenshot --apart X Y W H SHOT.png SHOT.png ...
-- - shots of one scene in different modes (the real-time scene's path modes, taken
--   at the same simulated time) are the same size and differ, each pair, in at
--   least MIN_APART pixels of the rectangle X, Y, W, H (the board);
-- - every "own line not MODE" probe of a shot (a point on a line of its mode that
--   MODE does not draw) has its colour in that shot (checked by the first form) and
--   is far from that colour in the shot with the "mode MODE" probe: MODE drew no
--   line there. Each shot has at least one.
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

-- how many pixels two shots of different modes must differ in, at least
local MIN_APART = 1000
-- an "own line" probe's pixel in another shot: some channel further than this (of 255)
local FAR = 40

local function decode(path)
  local png = readFile(path)
  if not check(png ~= nil, "no file " .. path) then return nil end
  return love.image.newImageData(love.filesystem.newFileData(png, "shot.png"))
end

local function differing(a, b, box)
  local n = 0
  for y = box.y, box.y + box.h - 1 do
    for x = box.x, box.x + box.w - 1 do
      local r1, g1, b1 = a:getPixel(x, y)
      local r2, g2, b2 = b:getPixel(x, y)
      if math.abs(r1 - r2) + math.abs(g1 - g2) + math.abs(b1 - b2) > 2 / 255 then n = n + 1 end
    end
  end
  return n
end

-- A shot's mode (its "mode MODE" probe) and its "own line not MODE" probes.
local function ownLines(path)
  local list, mode = {}, nil
  for line in (readFile(path .. ".probes") or ""):gmatch("[^\n]+") do
    local x, y, r, g, b, what = line:match("^(%d+) (%d+) (%d+) (%d+) (%d+) (.*)$")
    if what and what:match("^own line not ") then
      list[#list + 1] = { x = tonumber(x), y = tonumber(y), rgb = { tonumber(r), tonumber(g), tonumber(b) },
        other = what:sub(#"own line not " + 1) }
    elseif what and what:match("^mode ") and what ~= "mode off" then
      mode = what:sub(#"mode " + 1)
    end
  end
  return list, mode
end

local function apart(args)
  local box = { x = tonumber(args[1]), y = tonumber(args[2]), w = tonumber(args[3]), h = tonumber(args[4]) }
  local paths = { select(5, unpack(args)) }
  if not check(box.h and #paths >= 2,
    "usage: love spec/love_screenshot --apart X Y W H SHOT.png SHOT.png ...") then return end
  local images = {}
  for i, path in ipairs(paths) do
    images[i] = decode(path)
    if not images[i] then return end
  end
  local w, h = images[1]:getDimensions()
  local own, shotOf = {}, {}
  for i, path in ipairs(paths) do
    local iw, ih = images[i]:getDimensions()
    if not check(iw == w and ih == h and box.x + box.w <= w and box.y + box.h <= h,
      path .. ": not the size of " .. paths[1] .. ", or the box is outside it") then
      return
    end
    local mode
    own[i], mode = ownLines(path)
    check(mode ~= nil, path .. ": no mode probe")
    check(#own[i] > 0, path .. ": no own line probes")
    if mode then shotOf[mode] = i end
  end
  local lines = 0
  for i, a in ipairs(images) do
    for j = i + 1, #images do
      local n = differing(a, images[j], box)
      check(n >= MIN_APART, ("%s and %s differ in %d pixels of the box, want %d or more"):format(paths[i],
        paths[j], n, MIN_APART))
    end
    for _, p in ipairs(own[i]) do
      lines = lines + 1
      local j = shotOf[p.other]
      if check(j ~= nil, ("%s: no shot of mode %s"):format(paths[i], p.other)) then
        local pr, pg, pb = images[j]:getPixel(p.x, p.y)
        local far = math.max(math.abs(pr * 255 - p.rgb[1]), math.abs(pg * 255 - p.rgb[2]),
          math.abs(pb * 255 - p.rgb[3]))
        check(far > FAR, ("%s's own line at %d,%d is drawn in %s too"):format(paths[i], p.x, p.y, paths[j]))
      end
    end
  end
  return #images, lines
end

-- One result line; status 1 on any failure (or an error: err).
local function finish(err, summary)
  if err then failures[#failures + 1] = tostring(err) end
  if #failures == 0 then
    print(("love-screenshot-test: ok, %d checks (%s)"):format(checks, summary))
    love.event.quit(0)
  else
    for _, f in ipairs(failures) do io.stderr:write("love-screenshot-test: FAIL ", f, "\n") end
    print(("love-screenshot-test: %d of %d checks failed"):format(#failures, checks))
    love.event.quit(1)
  end
end

function love.load(args)
  args = args or {}
  if args[1] == "--apart" then
    local ok, nshots, nlines = pcall(apart, { select(2, unpack(args)) })
    return finish(not ok and nshots, ("%d shots apart, %d own lines"):format(ok and nshots or 0,
      ok and nlines or 0))
  end
  local ok, distinct, nprobes = pcall(run, args)
  finish(not ok and distinct, ("%d colours, %d probes"):format(ok and distinct or 0, ok and nprobes or 0))
end
