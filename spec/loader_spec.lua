-- The loader, lua/astar.lua (issue 11): which backend `require "astar"` picks,
-- astar.backend / astar.backendError / astar._VERSION, and where it looks for
-- the C module in LÖVE before falling back (the file LÖVE's game directories
-- hold, a game folder's or the save directory's; the source base directory, then
-- the save directory; astar/core.dll on Windows, astar/core.dylib or .so on macOS,
-- astar/core.so elsewhere; in the main state and in love.thread states).
--
-- The first block checks the real module this busted run loaded (C or, with
-- ASTAR_BACKEND=lua, the fallback). The others run lua/astar.lua in a sandbox:
-- require, package.loadlib, io.open, os.getenv and the `love` table are stubs
-- that record what the loader asked for, so the search order and the messages
-- are checked exactly, on any machine, without LÖVE. `make love-test` checks the
-- same search with a real LÖVE (spec/love).

local astar = require "astar"

local NOT_FOUND = "module 'astar.core' not found:\n\tno field package.preload['astar.core']"
  .. "\n\tno file './astar/core.so'"

describe("astar.backend, astar.backendError, astar._VERSION (this run's backend)", function()
  it("name the backend and why the C module was not used", function()
    local forced = os.getenv("ASTAR_BACKEND")
    if forced == "lua" then
      assert.are.equal("lua", astar.backend)
      assert.are.equal("ASTAR_BACKEND=lua", astar.backendError)
    else
      -- make test runs the specs with the C module on package.cpath
      assert.are.equal("c", astar.backend, tostring(astar.backendError))
      assert.is_nil(astar.backendError)
    end
  end)

  it("_VERSION is the one in astar/version.lua, major.minor.patch", function()
    local f = assert(io.open("lua/astar/version.lua", "rb"))
    local text = f:read("*a")
    f:close()
    local written = text:match('\nreturn "([^"]+)"') or text:match('^return "([^"]+)"')
    assert.are.equal(written, astar._VERSION)
    assert.is_truthy(astar._VERSION:match("^%d+%.%d+%.%d+$"))
  end)
end)

-- ---- the sandbox -------------------------------------------------------------

local SOURCE = (function()
  local f = assert(io.open("lua/astar.lua", "rb"))
  local text = f:read("*a")
  f:close()
  return text
end)()

local PURE = { backend = "lua", new = function() return "pure grid" end }
local C = { new = function() return "c grid" end }

-- Runs lua/astar.lua with the stubs described by `o`:
--   o.env        environment variables (os.getenv); o.no_os: no os library
--   o.core       what require "astar.core" does: a table (found), or an error
--                string (default: NOT_FOUND)
--   o.love       the `love` global (nil: plain Lua)
--   o.requires   name -> function run by require(name) for love.* modules
--   o.files      set of paths io.open finds; o.no_io: no io library
--   o.loadlib    path -> { opener } or { nil, message, "open" | "init" };
--                o.no_loadlib: package.loadlib is missing
--   o.config     package.config (default: "/" separator)
-- Returns ok, the module or the error, and the log of what was asked for.
local function run_loader(o)
  local log = { required = {}, opened = {}, loadlib = {} }
  local env = {
    pairs = pairs, ipairs = ipairs, type = type, tostring = tostring, pcall = pcall,
    error = error, rawget = rawget, table = table, string = string, select = select,
  }
  env._G = env
  env.love = o.love
  if not o.no_os then env.os = { getenv = function(name) return (o.env or {})[name] end } end
  if not o.no_io then
    env.io = {
      open = function(path, mode)
        log.opened[#log.opened + 1] = path
        assert(mode == "rb", "io.open mode " .. tostring(mode))
        if o.files and o.files[path] then return { close = function() end } end
        return nil, path .. ": No such file or directory"
      end,
    }
  end
  env.package = { loaded = {}, config = o.config or "/\n;\n?\n!\n-\n" }
  if not o.no_loadlib then
    env.package.loadlib = function(path, sym)
      log.loadlib[#log.loadlib + 1] = path .. " " .. sym
      local r = (o.loadlib or {})[path]
      if r then return r[1], r[2], r[3] end
      return nil, "cannot open " .. path, "open"
    end
  end
  env.require = function(name)
    log.required[#log.required + 1] = name
    if name == "astar.version" then return "9.8.7" end
    if name == "astar.pure" then return PURE end
    if name == "astar.core" then
      local core = o.core or NOT_FOUND
      if type(core) == "string" then error(core, 0) end
      return core
    end
    local f = o.requires and o.requires[name]
    if f then return f() end
    error("module '" .. name .. "' not found:\n\tno file '" .. name .. "'", 0)
  end
  local chunk
  if setfenv then -- luacheck: ignore 113
    chunk = assert(loadstring(SOURCE, "@lua/astar.lua")) -- luacheck: ignore 113
    setfenv(chunk, env) -- luacheck: ignore 113
  else
    chunk = assert(load(SOURCE, "@lua/astar.lua", "t", env))
  end
  local ok, result = pcall(chunk)
  return ok, result, log, env
end

-- A love table as LÖVE 11 gives it in the main state. `real` maps the names
-- LÖVE's game directories hold (a game folder, a .love, the save directory) to
-- the directory or archive getRealDirectory names; any other name is an error,
-- as in LÖVE. `crequire` is getCRequirePath() (LÖVE's default: "??"). The names
-- asked for are logged in love.asked.
local function love_stub(os_name, base, save, real, crequire)
  local love = { asked = {} }
  love.filesystem = {
    getSourceBaseDirectory = function() return base end,
    getSaveDirectory = function() return save end,
    getCRequirePath = function() return crequire or "??" end,
    getRealDirectory = function(name)
      love.asked[#love.asked + 1] = name
      if real and real[name] then return real[name] end
      error("File does not exist.")
    end,
  }
  love.system = { getOS = function() return os_name end }
  return love
end

local BASE, SAVE = "/home/ada/games", "/home/ada/.local/share/love/tactics"
local WBASE, WSAVE = "C:\\Games\\My Tactics", "C:/Users/ada/AppData/Roaming/tactics"
local WPATHS = { "C:\\Games\\My Tactics\\astar\\core.dll",
  "C:\\Users\\ada\\AppData\\Roaming\\tactics\\astar\\core.dll" }
local OPENER_LOG = {}
local function opener(name, path)
  OPENER_LOG[#OPENER_LOG + 1] = tostring(name) .. " " .. tostring(path)
  return C
end

describe("the loader without LÖVE", function()
  it("uses the C module when require finds it: backendError nil", function()
    local ok, m, log = run_loader { core = C }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.is_nil(m.backendError)
    assert.are.equal("9.8.7", m._VERSION)
    assert.are.equal("c grid", m.new())
    assert.are.same({ "astar.core", "astar.version" }, log.required)
    assert.are.same({}, log.loadlib)
  end)

  it("falls back when the C module is not found: backendError is require's message", function()
    local ok, m, log = run_loader {}
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal(NOT_FOUND, m.backendError)
    assert.are.equal("pure grid", m.new())
    assert.are.same({ "astar.core", "astar.pure", "astar.version" }, log.required)
    assert.are.same({}, log.loadlib)
    assert.are.same({}, log.opened)
  end)

  it("ASTAR_BACKEND=lua: the fallback without trying the C module", function()
    local ok, m, log = run_loader { env = { ASTAR_BACKEND = "lua" }, core = C }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal("ASTAR_BACKEND=lua", m.backendError)
    assert.are.same({ "astar.pure", "astar.version" }, log.required)
  end)

  it("ASTAR_BACKEND=c: an error when the C module is not found", function()
    local ok, err = run_loader { env = { ASTAR_BACKEND = "c" } }
    assert.is_false(ok)
    assert.are.equal(NOT_FOUND, err)
  end)

  it("ASTAR_BACKEND=c and empty: the C module as usual", function()
    for _, value in ipairs { "c", "" } do
      local ok, m = run_loader { env = { ASTAR_BACKEND = value }, core = C }
      assert.is_true(ok, m)
      assert.are.equal("c", m.backend)
      assert.is_nil(m.backendError)
    end
  end)

  it("any other ASTAR_BACKEND is an error", function()
    local ok, err = run_loader { env = { ASTAR_BACKEND = "C" }, core = C }
    assert.is_false(ok)
    assert.are.equal("ASTAR_BACKEND must be 'c' or 'lua', got 'C'", err)
  end)

  it("a C module that is found but fails to load is an error, not a fallback", function()
    local broken = "error loading module 'astar.core' from file './astar/core.so':\n"
      .. "\t./astar/core.so: undefined symbol: lua_pcall"
    local ok, err, log = run_loader { core = broken, love = love_stub("Linux", BASE, SAVE),
      files = { [BASE .. "/astar/core.so"] = true } }
    assert.is_false(ok)
    assert.are.equal(broken, err)
    assert.are.same({}, log.opened) -- no LÖVE search either
  end)

  it("the pure backend put in place of astar.core: backend lua, and backendError says so", function()
    local ok, m = run_loader { core = PURE }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal("package.loaded['astar.core'] is the pure-Lua backend", m.backendError)
  end)

  it("no os library (a sandbox): the C module, else the fallback", function()
    local ok, m = run_loader { no_os = true, core = C }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    ok, m = run_loader { no_os = true }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal(NOT_FOUND, m.backendError)
  end)
end)

describe("the loader in LÖVE", function()
  before_each(function()
    for i = #OPENER_LOG, 1, -1 do OPENER_LOG[i] = nil end
  end)

  it("looks in the source base directory, then the save directory, then falls back", function()
    local ok, m, log = run_loader { love = love_stub("Linux", BASE, SAVE) }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.same({ BASE .. "/astar/core.so", SAVE .. "/astar/core.so" }, log.opened)
    assert.are.same({}, log.loadlib) -- nothing there: nothing to load
    assert.are.equal(NOT_FOUND .. "\n\tno file '" .. BASE .. "/astar/core.so'"
      .. "\n\tno file '" .. SAVE .. "/astar/core.so'", m.backendError)
  end)

  it("uses a library found in the source base directory, and stops looking", function()
    local path = BASE .. "/astar/core.so"
    local ok, m, log, env = run_loader { love = love_stub("Linux", BASE, SAVE),
      files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.is_nil(m.backendError)
    assert.are.equal("c grid", m.new())
    assert.are.same({ path }, log.opened)
    assert.are.same({ path .. " luaopen_astar_core" }, log.loadlib)
    assert.are.same({ "astar.core " .. path }, OPENER_LOG)
    -- a later require "astar.core" gets the same module
    assert.are.equal(C, env.package.loaded["astar.core"])
  end)

  it("uses a library found in the save directory", function()
    local path = SAVE .. "/astar/core.so"
    local ok, m, log = run_loader { love = love_stub("Linux", BASE, SAVE),
      files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.is_nil(m.backendError)
    assert.are.same({ BASE .. "/astar/core.so", path }, log.opened)
    assert.are.same({ path .. " luaopen_astar_core" }, log.loadlib)
  end)

  it("Windows: astar\\core.dll, backslashes, either kind of separator in LÖVE's paths", function()
    local ok, m, log = run_loader { love = love_stub("Windows", WBASE .. "\\", WSAVE),
      files = { [WPATHS[2]] = true }, loadlib = { [WPATHS[2]] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same(WPATHS, log.opened)
    assert.are.same({ WPATHS[2] .. " luaopen_astar_core" }, log.loadlib)
  end)

  it("Linux and Android: astar/core.so, as LÖVE 11's own C loader names it", function()
    for _, os_name in ipairs { "Linux", "Android" } do
      local ok, m, log = run_loader { love = love_stub(os_name, BASE, SAVE) }
      assert.is_true(ok, m)
      assert.are.same({ BASE .. "/astar/core.so", SAVE .. "/astar/core.so" }, log.opened)
    end
  end)

  it("macOS: astar/core.dylib, then astar/core.so, in each directory (LÖVE 11's order)", function()
    local path = SAVE .. "/astar/core.so"
    local ok, m, log = run_loader { love = love_stub("OS X", BASE, SAVE),
      files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same({ BASE .. "/astar/core.dylib", BASE .. "/astar/core.so",
      SAVE .. "/astar/core.dylib", path }, log.opened)
    assert.are.same({ path .. " luaopen_astar_core" }, log.loadlib)
  end)

  it("love.js and iOS: no native library search", function()
    for _, os_name in ipairs { "Web", "iOS" } do
      local ok, m, log = run_loader { love = love_stub(os_name, BASE, SAVE) }
      assert.is_true(ok, m)
      assert.are.equal("lua", m.backend)
      assert.are.equal(NOT_FOUND, m.backendError)
      assert.are.same({}, log.opened)
      assert.are.same({}, log.loadlib)
    end
  end)

  it("the same directory twice is tried once; empty or missing directories are skipped", function()
    local ok, _, log = run_loader { love = love_stub("Linux", SAVE, SAVE .. "/") }
    assert.is_true(ok)
    assert.are.same({ SAVE .. "/astar/core.so" }, log.opened)
    ok, _, log = run_loader { love = love_stub("Linux", "", nil) }
    assert.is_true(ok)
    assert.are.same({}, log.opened)
  end)

  it("a library there that does not load (another architecture) is an error", function()
    local path = BASE .. "/astar/core.so"
    local ok, err = run_loader { love = love_stub("Linux", BASE, SAVE), files = { [path] = true },
      loadlib = { [path] = { nil, path .. ": wrong ELF class: ELFCLASS32", "open" } } }
    assert.is_false(ok)
    assert.are.equal("error loading module 'astar.core' from file '" .. path .. "':\n\t"
      .. path .. ": wrong ELF class: ELFCLASS32", err)
  end)

  it("a library there without luaopen_astar_core is an error", function()
    local path = WPATHS[1]
    local ok, err = run_loader { love = love_stub("Windows", WBASE, WSAVE), files = { [path] = true },
      loadlib = { [path] = { nil, "The specified procedure could not be found.", "init" } } }
    assert.is_false(ok)
    assert.are.equal("error loading module 'astar.core' from file '" .. path
      .. "':\n\tThe specified procedure could not be found.", err)
  end)

  it("without io.open, tries package.loadlib on each path; 'open' failures mean not there", function()
    local ok, m, log = run_loader { no_io = true, love = love_stub("Linux", BASE, SAVE),
      loadlib = { [SAVE .. "/astar/core.so"] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same({ BASE .. "/astar/core.so luaopen_astar_core",
      SAVE .. "/astar/core.so luaopen_astar_core" }, log.loadlib)
    ok, m = run_loader { no_io = true, love = love_stub("Linux", BASE, SAVE) }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal(NOT_FOUND
      .. "\n\tno file '" .. BASE .. "/astar/core.so' (cannot open " .. BASE .. "/astar/core.so)"
      .. "\n\tno file '" .. SAVE .. "/astar/core.so' (cannot open " .. SAVE .. "/astar/core.so)",
      m.backendError)
  end)

  it("without package.loadlib (a Lua built without C modules): the fallback", function()
    local ok, m, log = run_loader { no_loadlib = true, love = love_stub("Linux", BASE, SAVE),
      files = { [BASE .. "/astar/core.so"] = true } }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal(NOT_FOUND, m.backendError)
    assert.are.same({}, log.opened)
  end)

  it("ASTAR_BACKEND=c: searched too, and an error naming every place when nowhere", function()
    local path = SAVE .. "/astar/core.so"
    local ok, m = run_loader { env = { ASTAR_BACKEND = "c" }, love = love_stub("Linux", BASE, SAVE),
      files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    local err
    ok, err = run_loader { env = { ASTAR_BACKEND = "c" }, love = love_stub("Linux", BASE, SAVE) }
    assert.is_false(ok)
    assert.are.equal(NOT_FOUND .. "\n\tno file '" .. BASE .. "/astar/core.so'"
      .. "\n\tno file '" .. SAVE .. "/astar/core.so'", err)
  end)

  it("ASTAR_BACKEND=lua: no search", function()
    local ok, m, log = run_loader { env = { ASTAR_BACKEND = "lua" }, love = love_stub("Linux", BASE, SAVE) }
    assert.is_true(ok, m)
    assert.are.same({}, log.opened)
  end)

  it("a C module found by require is used as it is: no search", function()
    local ok, m, log = run_loader { core = C, love = love_stub("Windows", WBASE, WSAVE) }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same({}, log.opened)
  end)
end)

describe("the loader in LÖVE's game directories (issue 21)", function()
  -- LÖVE's own C loader finds astar/core.so in the game folder or the save
  -- directory, and says "not found" when the file there does not load: the
  -- loader takes the same file by its full path, so the reason comes out.
  local GAME, LOVE_FILE = BASE .. "/tactics", BASE .. "/tactics.love"
  local IN_GAME = GAME .. "/astar/core.so"

  it("a folder game's astar/core.so that does not load: the error naming it, from any directory", function()
    local reason = IN_GAME .. ": undefined symbol: lua_getiuservalue"
    local love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = GAME })
    local ok, err, log = run_loader { love = love, files = { [IN_GAME] = true },
      loadlib = { [IN_GAME] = { nil, reason, "open" } } }
    assert.is_false(ok)
    assert.are.equal("error loading module 'astar.core' from file '" .. IN_GAME .. "':\n\t" .. reason, err)
    assert.are.same({ "astar/core.so" }, love.asked)
    assert.are.same({ IN_GAME }, log.opened) -- the first place tried
  end)

  it("a folder game's astar/core.so that loads is used, before the base and save directories", function()
    local love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = GAME })
    local ok, m, log = run_loader { love = love, files = { [IN_GAME] = true, [SAVE .. "/astar/core.so"] = true },
      loadlib = { [IN_GAME] = { opener }, [SAVE .. "/astar/core.so"] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.is_nil(m.backendError)
    assert.are.same({ IN_GAME .. " luaopen_astar_core" }, log.loadlib)
  end)

  it("inside a .love: not loadable, the fallback, and backendError says where it is", function()
    local love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = LOVE_FILE })
    local ok, m, log = run_loader { love = love }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal(NOT_FOUND
      .. "\n\tno file '" .. LOVE_FILE .. "/astar/core.so' (it is inside '" .. LOVE_FILE
      .. "', and a library loads only from a file on disk)"
      .. "\n\tno file '" .. BASE .. "/astar/core.so'"
      .. "\n\tno file '" .. SAVE .. "/astar/core.so'", m.backendError)
    assert.are.same({ LOVE_FILE .. "/astar/core.so", BASE .. "/astar/core.so", SAVE .. "/astar/core.so" },
      log.opened)
    assert.are.same({}, log.loadlib)
  end)

  it("inside a .love and beside it: the one beside it", function()
    local path = BASE .. "/astar/core.so"
    local ok, m, log = run_loader { love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = LOVE_FILE }),
      files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same({ path .. " luaopen_astar_core" }, log.loadlib)
  end)

  it("ASTAR_BACKEND=c and only inside a .love: the error says it is inside", function()
    local ok, err = run_loader { env = { ASTAR_BACKEND = "c" },
      love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = LOVE_FILE }) }
    assert.is_false(ok)
    assert.are.equal(NOT_FOUND
      .. "\n\tno file '" .. LOVE_FILE .. "/astar/core.so' (it is inside '" .. LOVE_FILE
      .. "', and a library loads only from a file on disk)"
      .. "\n\tno file '" .. BASE .. "/astar/core.so'"
      .. "\n\tno file '" .. SAVE .. "/astar/core.so'", err)
  end)

  it("the save directory found there is tried once", function()
    local path = SAVE .. "/astar/core.so"
    local ok, err, log = run_loader { love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = SAVE }),
      files = { [path] = true }, loadlib = { [path] = { nil, path .. ": wrong ELF class: ELFCLASS32", "open" } } }
    assert.is_false(ok)
    assert.are.equal("error loading module 'astar.core' from file '" .. path .. "':\n\t"
      .. path .. ": wrong ELF class: ELFCLASS32", err)
    assert.are.same({ path }, log.opened)
    ok, err, log = run_loader { no_io = true, love = love_stub("Linux", BASE, SAVE, { ["astar/core.so"] = SAVE }) }
    assert.is_true(ok, err)
    assert.are.same({ path .. " luaopen_astar_core", BASE .. "/astar/core.so luaopen_astar_core" }, log.loadlib)
  end)

  it("follows getCRequirePath(): ?? is astar/core.<ext>, ? is astar/core, each template in order", function()
    local love = love_stub("OS X", BASE, SAVE, { ["lib/astar/core.so"] = GAME }, "lib/??;??;plugins/?.bundle")
    local path = GAME .. "/lib/astar/core.so"
    local ok, m, log = run_loader { love = love, files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same({ "lib/astar/core.dylib", "lib/astar/core.so", "astar/core.dylib", "astar/core.so",
      "plugins/astar/core.bundle", "plugins/astar/core.bundle" }, love.asked)
    assert.are.same({ path }, log.opened)
  end)

  it("Windows: the game folder's astar\\core.dll with backslashes", function()
    local game = "C:\\Games\\Tactics"
    local path = game .. "\\astar\\core.dll"
    local ok, err = run_loader { love = love_stub("Windows", WBASE, WSAVE, { ["astar/core.dll"] = game .. "/" }),
      files = { [path] = true }, loadlib = { [path] = { nil, "The specified module could not be found.", "open" } } }
    assert.is_false(ok)
    assert.are.equal("error loading module 'astar.core' from file '" .. path
      .. "':\n\tThe specified module could not be found.", err)
  end)

  it("love.js and iOS: no game directory search either", function()
    local love = love_stub("Web", BASE, SAVE, { ["astar/core.so"] = GAME })
    local ok, m, log = run_loader { love = love, files = { [IN_GAME] = true } }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.same({}, love.asked)
    assert.are.same({}, log.opened)
  end)
end)

describe("the loader in a love.thread", function()
  -- A thread's love table has love.thread only; require "love.filesystem" and
  -- require "love.system" add the modules to it.
  local function thread_love(os_name, can)
    local love = { thread = {} }
    local full = love_stub(os_name, BASE, SAVE)
    local requires = {}
    if can.filesystem then
      requires["love.filesystem"] = function() love.filesystem = full.filesystem; return full.filesystem end
    end
    if can.system then
      requires["love.system"] = function() love.system = full.system; return full.system end
    end
    return love, requires
  end

  it("requires love.filesystem and love.system, then searches as the main state does", function()
    local love, requires = thread_love("Linux", { filesystem = true, system = true })
    local path = SAVE .. "/astar/core.so"
    local ok, m, log = run_loader { love = love, requires = requires,
      files = { [path] = true }, loadlib = { [path] = { opener } } }
    assert.is_true(ok, m)
    assert.are.equal("c", m.backend)
    assert.are.same({ "astar.core", "love.filesystem", "love.system", "astar.version" }, log.required)
    assert.are.same({ BASE .. "/astar/core.so", path }, log.opened)
  end)

  it("without love.system, the extension comes from package.config", function()
    local love, requires = thread_love("Windows", { filesystem = true })
    local ok, m, log = run_loader { love = love, requires = requires, config = "\\\n;\n?\n!\n-\n" }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.same({ "\\home\\ada\\games\\astar\\core.dll",
      "\\home\\ada\\.local\\share\\love\\tactics\\astar\\core.dll" }, log.opened)
    love, requires = thread_love("Linux", { filesystem = true })
    ok, m, log = run_loader { love = love, requires = requires }
    assert.is_true(ok, m)
    assert.are.same({ BASE .. "/astar/core.so", SAVE .. "/astar/core.so" }, log.opened)
  end)

  it("without love.filesystem (it cannot be required): the fallback, no error", function()
    local love, requires = thread_love("Linux", { system = true })
    local ok, m, log = run_loader { love = love, requires = requires }
    assert.is_true(ok, m)
    assert.are.equal("lua", m.backend)
    assert.are.equal(NOT_FOUND, m.backendError)
    assert.are.same({}, log.opened)
  end)
end)
