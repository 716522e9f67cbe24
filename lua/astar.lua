-- The astar module: the C core (astar.core) plus the helpers that are
-- easier to say in Lua. Games `require "astar"`; the core is an implementation
-- detail that a pure-Lua fallback can replace.
--
-- Backend: the C module when it can be found, else the pure-Lua one
-- (astar.pure, README, The pure-Lua fallback). ASTAR_BACKEND=c or =lua in the environment
-- forces one. A C module that is found but fails to load is an error, not a
-- silent switch to the slower backend.
--
-- Where the C module is looked for, in this order:
--   1. require "astar.core": package.cpath, and in LÖVE its own C loader
--      (love.filesystem.getCRequirePath(): the save directory, a game folder);
--   2. in LÖVE (the main state or any love.thread), with <ext> "dll" on
--      Windows, "dylib" then "so" on macOS and "so" elsewhere, as LÖVE 11's
--      own C loader names them:
--      a. the file LÖVE's own C loader would have taken, where
--         love.filesystem.getRealDirectory() has it (a game folder, the save
--         directory): that loader says "not found" for a library it finds but
--         cannot load, whatever the reason;
--      b. astar/core.<ext> in love.filesystem.getSourceBaseDirectory() (the
--         folder that holds the .love, or the fused executable) and then
--         getSaveDirectory().
-- astar.backend says which backend is in use ("c" or "lua"); astar.backendError
-- is nil when the C module loaded, else why it was not used.
local MODULE, OPEN = "astar.core", "luaopen_astar_core"

-- The LÖVE table of this Lua state, with love.filesystem, or nil. A love.thread
-- starts with love.thread only: love.filesystem and love.system are required
-- here if missing (that is what a worker does to use require at all).
local function love_table()
  local love = type(_G) == "table" and rawget(_G, "love") or nil
  if type(love) ~= "table" then return nil end
  if type(love.filesystem) ~= "table" then pcall(require, "love.filesystem") end
  if type(love.filesystem) ~= "table" then return nil end
  if type(love.system) ~= "table" then pcall(require, "love.system") end
  return love
end

-- Library extensions, in the order LÖVE 11's own C loader tries them, and the
-- directory separator: from love.system.getOS(), else from package.config (its
-- first character is the directory separator). nil where no native library
-- can be loaded from a file (love.js, iOS).
local function platform(love)
  local os_name
  if type(love.system) == "table" and type(love.system.getOS) == "function" then
    os_name = love.system.getOS()
  end
  if os_name == "Web" or os_name == "iOS" then return nil end
  if os_name == "Windows" then return { "dll" }, "\\" end
  if os_name == "OS X" then return { "dylib", "so" }, "/" end
  if os_name == nil and type(package.config) == "string" and package.config:sub(1, 1) == "\\" then
    return { "dll" }, "\\"
  end
  return { "so" }, "/"
end

-- dir/name with the platform's separator, whichever LÖVE gave.
local function join(dir, name, sep)
  return ((dir:gsub("[/\\]+$", "") .. "/" .. name):gsub("[/\\]", sep))
end

-- Where LÖVE's game directories hold the files its own C loader tries: each
-- template of getCRequirePath() ("??" by default), "??" standing for
-- astar/core.<ext> and "?" for astar/core. Returns { path =, inside = } with
-- `inside` the directory or archive (.love, fused executable) that holds it.
local function game_directory_paths(fs, exts, sep)
  if type(fs.getRealDirectory) ~= "function" then return {} end
  local templates = type(fs.getCRequirePath) == "function" and fs.getCRequirePath() or "??"
  local found = {}
  for template in tostring(templates):gmatch("[^;]+") do
    for _, ext in ipairs(exts) do
      local name = template:gsub("%?%?", "astar/core." .. ext):gsub("%?", "astar/core")
      local ok, dir = pcall(fs.getRealDirectory, name) -- an error when LÖVE has no such file
      if ok and type(dir) == "string" and dir ~= "" then
        found[#found + 1] = { path = join(dir, name, sep), inside = dir }
      end
    end
  end
  return found
end

-- The candidate paths in LÖVE, in search order, without duplicates.
local function love_paths(love)
  local exts, sep = platform(love)
  if not exts then return {} end
  local fs, paths, seen = love.filesystem, {}, {}
  local function add(candidate)
    if not seen[candidate.path] then
      seen[candidate.path] = true
      paths[#paths + 1] = candidate
    end
  end
  for _, candidate in ipairs(game_directory_paths(fs, exts, sep)) do add(candidate) end
  for _, getter in ipairs { "getSourceBaseDirectory", "getSaveDirectory" } do
    local dir = type(fs[getter]) == "function" and fs[getter]() or nil
    if type(dir) == "string" and dir ~= "" then
      for _, ext in ipairs(exts) do add { path = join(dir, "astar/core." .. ext, sep) } end
    end
  end
  return paths
end

local function file_exists(path)
  if type(io) ~= "table" or type(io.open) ~= "function" then return nil end
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- Tries the LÖVE locations. Returns the module, or nil and the lines to add
-- to require's "not found" message. A library that exists but does not load
-- (another architecture, another Lua) is an error, as it is for require.
local function search_love()
  local love = love_table()
  if not love or type(package) ~= "table" or type(package.loadlib) ~= "function" then
    return nil, ""
  end
  local notes = {}
  for _, candidate in ipairs(love_paths(love)) do
    local path = candidate.path
    local exists = file_exists(path)
    if exists == false and candidate.inside then
      -- LÖVE has it, the system does not: it is inside the .love or fused executable
      notes[#notes + 1] = ("\n\tno file '%s' (it is inside '%s', and a library loads only from a file on disk)")
        :format(path, candidate.inside)
    elseif exists ~= false then
      local open, err, where = package.loadlib(path, OPEN)
      if open then
        local core = open(MODULE, path)
        if core == nil then core = true end
        package.loaded[MODULE] = core
        return core
      end
      if exists or where == "init" then
        error(("error loading module '%s' from file '%s':\n\t%s"):format(MODULE, path, tostring(err)), 0)
      end
      notes[#notes + 1] = ("\n\tno file '%s' (%s)"):format(path, tostring(err))
    else
      notes[#notes + 1] = ("\n\tno file '%s'"):format(path)
    end
  end
  return nil, table.concat(notes)
end

-- Returns the backend's module table and, unless it is the C module, why not.
local function load_core()
  local getenv = type(os) == "table" and type(os.getenv) == "function" and os.getenv
  local forced = getenv and getenv("ASTAR_BACKEND") or nil
  if forced == "lua" then return require "astar.pure", "ASTAR_BACKEND=lua" end
  if forced ~= nil and forced ~= "" and forced ~= "c" then
    error("ASTAR_BACKEND must be 'c' or 'lua', got '" .. forced .. "'", 0)
  end
  local ok, core = pcall(require, MODULE)
  if ok then
    if type(core) == "table" and core.backend == "lua" then
      return core, "package.loaded['" .. MODULE .. "'] is the pure-Lua backend"
    end
    return core, nil
  end
  local message = tostring(core)
  if not message:find("module '" .. MODULE .. "' not found", 1, true) then error(core, 0) end
  local found, notes = search_love()
  if found then return found, nil end
  message = message .. notes
  if forced == "c" then error(message, 0) end
  return require "astar.pure", message
end

local core, why = load_core()

-- The tactics methods of every Grid are there from the start: each loads
-- astar.tactics at its first call (which puts the real ones in their place)
-- and answers as they do, so g:movementRange needs no require "astar.tactics".
local TACTICS_METHODS = { "movementRange", "attackRange", "dangerZone", "lineOfSight" }
local function lazy_tactics(grid_methods)
  if type(grid_methods) ~= "table" then return end
  for _, name in ipairs(TACTICS_METHODS) do
    if rawget(grid_methods, name) == nil then
      grid_methods[name] = function(...) return require("astar.tactics")[name](...) end
    end
  end
end
lazy_tactics(core.Grid)

local astar = {}
for name, value in pairs(core) do
  astar[name] = value
end
astar.backend = core.backend or "c"
astar.backendError = why
astar._VERSION = require "astar.version"

return astar
