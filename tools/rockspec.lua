-- Writes the rockspec of a release (make dist) from the development rockspec
-- and the version file, so that the version is written in one place only.
--
--   lua tools/rockspec.lua VERSION_FILE SCM_ROCKSPEC URL OUT FILE...
--
-- VERSION_FILE  lua/astar/version.lua (`return "X.Y.Z"`)
-- SCM_ROCKSPEC  rockspec/astar-grid-scm-1.rockspec: package, description,
--               dependencies and build.copy_directories are taken from it
-- URL           source.url of the release: the tarball astar-grid-X.Y.Z.tar.gz
-- OUT           the rockspec to write (astar-grid-X.Y.Z-1.rockspec)
-- FILE...       the sources: src/**/*.c become the C module astar.core, lua/**/*.lua
--               the Lua modules (lua/astar/pure/args.lua is astar.pure.args)
--
-- The release builds with LuaRocks' portable "builtin" type: LuaRocks compiles
-- in its own temporary copy of the tarball, so nothing is left anywhere.
-- Runs on Lua 5.1 to 5.4.
local version_file, scm_file, url, out = arg[1], arg[2], arg[3], arg[4]
if not out then
  io.stderr:write("usage: lua tools/rockspec.lua VERSION_FILE SCM_ROCKSPEC URL OUT FILE...\n")
  os.exit(2)
end

local function fail(fmt, ...)
  io.stderr:write("tools/rockspec.lua: ", fmt:format(...), "\n")
  os.exit(1)
end

-- Runs a Lua file in an empty environment; returns the environment and the
-- chunk's results.
local function run(path)
  local env = {}
  local chunk, err
  if setfenv then
    chunk, err = loadfile(path)
    if chunk then setfenv(chunk, env) end
  else
    chunk, err = loadfile(path, "t", env)
  end
  if not chunk then fail("%s", err) end
  local results = { pcall(chunk) }
  if not results[1] then fail("%s: %s", path, tostring(results[2])) end
  return env, results[2]
end

local _, version = run(version_file)
if type(version) ~= "string" or not version:match("^%d+%.%d+%.%d+$") then
  fail("%s must return a version string \"X.Y.Z\", got %s", version_file, tostring(version))
end

local scm = run(scm_file)
for _, field in ipairs({ "rockspec_format", "package", "description", "dependencies" }) do
  if scm[field] == nil then fail("%s has no %s", scm_file, field) end
end
-- Folders installed beside the rock (the annotations in types/): the same in
-- the release.
local copy_directories = type(scm.build) == "table" and scm.build.copy_directories or nil

local expected_tarball = scm.package .. "-" .. version .. ".tar.gz"
if url:sub(-#expected_tarball - 1) ~= "/" .. expected_tarball and url ~= expected_tarball then
  fail("the source URL must end in %s, got %s", expected_tarball, url)
end

-- ---- the modules ------------------------------------------------------------
local c_sources, lua_modules, names = {}, {}, {}
for i = 5, #arg do
  local f = arg[i]
  if f:match("^src/.+%.c$") then
    c_sources[#c_sources + 1] = f
  elseif f:match("^lua/.+%.lua$") then
    local name = f:match("^lua/(.+)%.lua$"):gsub("/init$", ""):gsub("/", ".")
    if lua_modules[name] then fail("two files for module %s", name) end
    lua_modules[name] = f
    names[#names + 1] = name
  else
    fail("not a source of the rock: %s", f)
  end
end
if #c_sources == 0 or not lua_modules.astar or not lua_modules["astar.version"] then
  fail("the sources must include src/*.c, lua/astar.lua and lua/astar/version.lua")
end
table.sort(c_sources)
table.sort(names)

-- ---- writing ------------------------------------------------------------------
local function quote(s)
  if s:find("\n") then
    local eq = ""
    while s:find("]" .. eq .. "]", 1, true) do eq = eq .. "=" end
    return "[" .. eq .. "[\n" .. s .. "]" .. eq .. "]"
  end
  return (("%q"):format(s))
end

local function is_identifier(k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") ~= nil
end

-- Keys written first, in this order (as rockspecs usually read); others sorted.
local KEY_ORDER = {}
for i, k in ipairs({ "summary", "detailed", "homepage", "license", "labels" }) do KEY_ORDER[k] = i end

-- Plain data only: strings, numbers, booleans, tables (arrays first, then the
-- other keys sorted).
local function write_value(buf, v, indent)
  local t = type(v)
  if t == "string" then
    buf[#buf + 1] = quote(v)
  elseif t == "number" or t == "boolean" then
    buf[#buf + 1] = tostring(v)
  elseif t == "table" then
    local inner = indent .. "   "
    buf[#buf + 1] = "{\n"
    local n = #v
    for i = 1, n do
      buf[#buf + 1] = inner
      write_value(buf, v[i], inner)
      buf[#buf + 1] = ",\n"
    end
    local keys = {}
    for k in pairs(v) do
      if not (type(k) == "number" and k >= 1 and k <= n and k % 1 == 0) then
        if type(k) ~= "string" then fail("unexpected key %s", tostring(k)) end
        keys[#keys + 1] = k
      end
    end
    table.sort(keys, function(a, b)
      local ra, rb = KEY_ORDER[a] or math.huge, KEY_ORDER[b] or math.huge
      if ra ~= rb then return ra < rb end
      return a < b
    end)
    for _, k in ipairs(keys) do
      buf[#buf + 1] = inner .. (is_identifier(k) and k or "[" .. quote(k) .. "]") .. " = "
      write_value(buf, v[k], inner)
      buf[#buf + 1] = ",\n"
    end
    buf[#buf + 1] = indent .. "}"
  else
    fail("cannot write a %s", t)
  end
end

local modules_lines = {}
for _, name in ipairs(names) do
  modules_lines[#modules_lines + 1] = ("      [%s] = %s,\n"):format(quote(name), quote(lua_modules[name]))
end
local core_sources = {}
for _, f in ipairs(c_sources) do core_sources[#core_sources + 1] = ("            %s,\n"):format(quote(f)) end

local buf = {
  ("-- %s %s: written by `make dist` (tools/rockspec.lua) from %s\n"):format(scm.package, version, scm_file),
  ("-- and %s; edit those, not this file.\n"):format(version_file),
  ("-- Install the release offline: luarocks --lua-version=5.4 install %s-%s-1.src.rock\n")
    :format(scm.package, version),
  ("rockspec_format = %s\n"):format(quote(scm.rockspec_format)),
  ("package = %s\n"):format(quote(scm.package)),
  ("version = %s\n"):format(quote(version .. "-1")),
  "source = {\n",
  ("   url = %s,\n"):format(quote(url)),
  ("   dir = %s,\n"):format(quote(scm.package .. "-" .. version)),
  "}\n",
  "description = ",
}
write_value(buf, scm.description, "")
buf[#buf + 1] = "\ndependencies = "
write_value(buf, scm.dependencies, "")
buf[#buf + 1] = "\nbuild = {\n   type = \"builtin\",\n   modules = {\n"
for _, line in ipairs(modules_lines) do buf[#buf + 1] = line end
buf[#buf + 1] = "      [\"astar.core\"] = {\n         sources = {\n"
for _, line in ipairs(core_sources) do buf[#buf + 1] = line end
buf[#buf + 1] = "         },\n      },\n   },\n"
if copy_directories then
  buf[#buf + 1] = "   copy_directories = "
  write_value(buf, copy_directories, "   ")
  buf[#buf + 1] = ",\n"
end
buf[#buf + 1] = table.concat({
  "   platforms = {\n",
  "      -- libm on Unix; the C runtime has the math functions on Windows\n",
  "      unix = { modules = { [\"astar.core\"] = { libraries = { \"m\" } } } },\n",
  "   },\n",
  "}\n",
})

local text = table.concat(buf)
-- The result must load, and say what it was asked to.
local check = {}
local chunk = (loadstring or load)(text)
if not chunk then fail("the written rockspec does not load") end
if setfenv then setfenv(chunk, check) else chunk = load(text, "=rockspec", "t", check) end
chunk()
assert(check.version == version .. "-1" and check.source.url == url)
assert(#(check.build.copy_directories or {}) == #(copy_directories or {}))

local f = assert(io.open(out, "w"))
f:write(text)
f:close()
