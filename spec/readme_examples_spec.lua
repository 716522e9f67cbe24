-- The manual is checked like code (README, Development; docs/development.md):
--
-- 1. Every ```lua block of README.md and docs/*.md runs as written, on the
--    backend this busted run uses (make test runs the specs on the C module and,
--    through ASTAR_BACKEND=lua, on the pure-Lua fallback; Lua 5.4 and LuaJIT).
--    A block is a chunk of its own, compiled with its file's line numbers, so an
--    error reads "README.md:123: ...". A block preceded by a line
--    "<!-- not run: REASON -->" (LÖVE-only code) is only compiled.
--    When a ```text block preceded by "<!-- output -->" follows a lua block, what
--    the lua block prints (print, io.write) must be that text exactly (trailing
--    spaces of each line ignored): the same on every backend and Lua version.
-- 2. The API reference is complete and true: every function and field the
--    module exports (module, Grid, Search, Range, attack range, danger zone,
--    DistanceMap, tactics) is named in README.md in a heading or a table row, as
--    `astar.new(`, `grid:findPath(`, `search:step(`, `range:cells(`,
--    `area:size(`, `zone:count(`, `tactics.cellSet(` or `astar.MAX_CELLS`;
--    and every such name in a heading or table row exists.
-- 3. Every `make TARGET` the pages mention is a target of the Makefile or mk/*.mk.

local astar = require "astar"
local tactics = require "astar.tactics"
local public_api = require "helpers.public_api"

local PAGES = { "README.md" }
do -- docs/*.md, in a stable order, without a directory-listing library
  local p = io.popen("ls docs/*.md 2>/dev/null")
  if p then
    local names = {}
    for name in p:lines() do names[#names + 1] = name end
    p:close()
    table.sort(names)
    for _, name in ipairs(names) do PAGES[#PAGES + 1] = name end
  end
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local function lines_of(text)
  local out = {}
  for line in (text:gsub("\r\n", "\n") .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
  if out[#out] == "" then out[#out] = nil end
  return out
end

-- The fenced blocks of a page: {lang =, line = (the opening fence), code =,
-- marker = (the HTML comment on the line before the fence, if any)}.
local function blocks_of(path)
  local lines = lines_of(read(path))
  local blocks, open = {}, nil
  for i, line in ipairs(lines) do
    if open then
      if line:match("^```%s*$") then
        open.code = table.concat(open.body, "\n")
        blocks[#blocks + 1] = open
        open = nil
      else
        open.body[#open.body + 1] = line
      end
    else
      local lang = line:match("^```(%S*)%s*$")
      if lang then
        local before = lines[i - 1] or ""
        open = { lang = lang, line = i, body = {}, marker = before:match("^<!%-%-%s*(.-)%s*%-%->$") }
      end
    end
  end
  assert(open == nil, path .. ":" .. (open and open.line or 0) .. ": unclosed code fence")
  return blocks, lines
end

local load_in -- load(code, name, env): one form on Lua 5.1/LuaJIT and 5.2+
if setfenv then
  load_in = function(code, name, env)
    local f, err = loadstring(code, name) -- luacheck: ignore 113
    if f and env then setfenv(f, env) end
    return f, err
  end
else
  load_in = function(code, name, env) return load(code, name, "t", env) end
end

-- Compiles a block with its page's line numbers: the chunk starts with as many
-- newlines as there are lines up to the fence.
local function compile(path, block, env)
  return load_in(string.rep("\n", block.line) .. block.code, "@" .. path, env)
end

-- Runs a block in a fresh environment whose print and io.write are recorded.
local function run(path, block)
  local out = {}
  local function write(...)
    for i = 1, select("#", ...) do out[#out + 1] = tostring((select(i, ...))) end
  end
  local env = setmetatable({}, { __index = _G })
  env.print = function(...)
    local n = select("#", ...)
    for i = 1, n do
      out[#out + 1] = tostring((select(i, ...)))
      if i < n then out[#out + 1] = "\t" end
    end
    out[#out + 1] = "\n"
  end
  env.io = setmetatable({ write = function(...) write(...); return env.io end }, { __index = io })
  local chunk, err = compile(path, block, env)
  if not chunk then return false, err end
  local ok, e = xpcall(chunk, debug.traceback)
  collectgarbage()
  if not ok then return false, e end
  return true, table.concat(out)
end

local function trim_lines(text)
  local out = {}
  for _, line in ipairs(lines_of(text)) do out[#out + 1] = (line:gsub("%s+$", "")) end
  return table.concat(out, "\n")
end

describe("examples in the documentation (" .. astar.backend .. " backend)", function()
  for _, path in ipairs(PAGES) do
    local blocks = blocks_of(path)
    for n, block in ipairs(blocks) do
      if block.lang == "lua" then
        local where = path .. ":" .. block.line
        local expected
        local nxt = blocks[n + 1]
        if nxt and nxt.marker == "output" then expected = nxt.code end
        local skip = block.marker and block.marker:match("^not run:%s*(.+)$")
        if skip then
          it(where .. " compiles (not run: " .. skip .. ")", function()
            local chunk, err = compile(path, block)
            assert(chunk, where .. ": does not compile: " .. tostring(err))
            assert(expected == nil, where .. ": a block that is not run has an output block")
          end)
        else
          it(where .. " runs", function()
            local ok, out = run(path, block)
            assert(ok, where .. ": the example fails:\n" .. tostring(out))
            if expected then
              local got, want = trim_lines(out), trim_lines(expected)
              assert(got == want, ("%s: the example prints\n%s\nbut the page says (line %d)\n%s")
                :format(where, got, nxt.line, want))
            end
          end)
        end
      elseif block.marker == "output" then
        it(path .. ":" .. block.line .. " output block follows a lua block", function()
          local prev = blocks[n - 1]
          assert(prev and prev.lang == "lua" and not (prev.marker or ""):match("^not run"),
            path .. ":" .. block.line .. ": an output block must follow a lua block that is run")
        end)
      end
    end
  end

  it("the version in the manual is astar._VERSION", function()
    local text = read("README.md")
    local v = text:match("This is astar %*%*([%d%.]+)%*%*")
    assert(v, "README.md does not say 'This is astar **VERSION**'")
    assert.are.equal(v, astar._VERSION)
    assert(text:find("`astar._VERSION` | `\"" .. v .. "\"`", 1, true), "the module table's _VERSION row")
  end)
end)

-- ---- the API reference --------------------------------------------------------

-- What the module exports, by the name the manual uses for the object
-- (spec/helpers/public_api.lua, shared with the annotations' spec).
local function exported()
  return public_api.names(astar, tactics)
end

-- Module names, not functions: require "astar.tactics".
local MODULES = { ["astar.tactics"] = true, ["astar.pure"] = true, ["astar.core"] = true }

-- What the manual documents: names in backquotes in headings and table rows.
local function documented()
  local names = {}
  local _, lines = blocks_of("README.md")
  local in_fence = false
  for i, line in ipairs(lines) do
    if line:match("^```") then in_fence = not in_fence end
    if not in_fence and (line:match("^#+ ") or line:match("^|")) then
      -- headings name them without backquotes: "### grid:findPath(sx, ...)"
      local text = line:match("^#+ ") and line or line:gsub("[^`]*`([^`]*)`", " %1 ")
      for kind, sep, name in text:gmatch("%f[%w_](%l+)([:.])([%a_][%w_]*)") do
        if kind == "astar" or kind == "grid" or kind == "search" or kind == "range"
          or kind == "area" or kind == "zone" or kind == "tactics" or kind == "map" then
          local full = kind .. sep .. name
          if not MODULES[full] then names[full] = names[full] or i end
        end
      end
    end
  end
  return names
end

describe("the API reference in README.md (" .. astar.backend .. " backend)", function()
  it("documents every exported function and field", function()
    local doc, missing = documented(), {}
    for name in pairs(exported()) do
      if not doc[name] then missing[#missing + 1] = name end
    end
    table.sort(missing)
    assert(#missing == 0, "exported but not in a heading or table row of README.md: "
      .. table.concat(missing, ", "))
  end)

  it("documents nothing that is not exported", function()
    local code, extra = exported(), {}
    for name, line in pairs(documented()) do
      if not code[name] then extra[#extra + 1] = ("README.md:%d: %s"):format(line, name) end
    end
    table.sort(extra)
    assert(#extra == 0, "documented but not exported:\n" .. table.concat(extra, "\n"))
  end)
end)

-- ---- make targets ---------------------------------------------------------------

describe("make targets named in the documentation", function()
  it("exist", function()
    local targets = {}
    local files = { "Makefile" }
    local p = io.popen("ls mk/*.mk 2>/dev/null")
    for name in p:lines() do files[#files + 1] = name end
    p:close()
    for _, f in ipairs(files) do
      for line in read(f):gmatch("[^\n]+") do
        local names = line:match("^([%w%-%._%%/ $()]+):[^=]") or line:match("^([%w%-%._ ]+):$")
        if names then
          for t in names:gmatch("%S+") do targets[t] = true end
        end
        local phony = line:match("^%.PHONY:(.*)$")
        if phony then for t in phony:gmatch("%S+") do targets[t] = true end end
      end
    end
    local unknown = {}
    local function check(path, i, t)
      if not targets[t] then unknown[#unknown + 1] = ("%s:%d: make %s"):format(path, i, t) end
    end
    for _, path in ipairs(PAGES) do
      local in_sh = false
      for i, line in ipairs(lines_of(read(path))) do
        if line:match("^```") then
          in_sh = not in_sh and (line:match("^```sh") ~= nil)
        elseif in_sh then
          for t in (" " .. line):gmatch("[%s&;(]make ([%l][%w%-]*)") do check(path, i, t) end
        end
        for t in line:gmatch("`make ([%l][%w%-]*)") do check(path, i, t) end
      end
    end
    assert(#unknown == 0, "no such make target:\n" .. table.concat(unknown, "\n"))
  end)
end)

-- ---- links ----------------------------------------------------------------------

-- GitHub's anchor for a heading: lower case, punctuation dropped, spaces to
-- hyphens, "-1", "-2" for repeats.
local function anchors_of(path)
  local seen, out = {}, {}
  local in_fence = false
  for _, line in ipairs(lines_of(read(path))) do
    if line:match("^```") then in_fence = not in_fence end
    local title = not in_fence and line:match("^#+%s+(.-)%s*$")
    if title then
      local a = title:lower():gsub("Ö", "ö"):gsub("[^%w%s%-\128-\255]", ""):gsub("%s", "-")
      local n = seen[a]
      seen[a] = (n or 0) + 1
      out[n and (a .. "-" .. n) or a] = true
    end
  end
  return out
end

describe("links in the documentation", function()
  it("point at files and headings that exist", function()
    local bad = {}
    for _, path in ipairs(PAGES) do
      local dir = path:match("^(.*/)") or ""
      local in_fence = false
      for i, line in ipairs(lines_of(read(path))) do
        if line:match("^```") then in_fence = not in_fence end
        for target in (in_fence and "" or line):gmatch("%]%(([^)%s]+)%)") do
          if not target:match("^%a+:") then
            local file, anchor = target:match("^([^#]*)#?(.*)$")
            local full = file == "" and path or dir .. file
            local f = io.open(full, "rb")
            if not f then
              bad[#bad + 1] = ("%s:%d: no file %s"):format(path, i, full)
            else
              f:close()
              if anchor ~= "" and full:match("%.md$") and not anchors_of(full)[anchor] then
                bad[#bad + 1] = ("%s:%d: no heading #%s in %s"):format(path, i, anchor, full)
              end
            end
          end
        end
      end
    end
    assert(#bad == 0, "broken links:\n" .. table.concat(bad, "\n"))
  end)
end)
