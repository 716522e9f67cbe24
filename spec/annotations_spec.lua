-- The editor annotations (types/, README, Editor support) against the running
-- backend (make test runs this file on the C module and on the fallback):
--
-- 1. Every public function of the API (the module, Grid, Search, Range, attack
--    range, danger zone, DistanceMap, astar.tactics: spec/helpers/public_api.lua)
--    is declared in types/ as `function astar.new(`, `function Grid:findPath(`...,
--    under the ---@class of its object; every declared function exists; the
--    module's other fields (MAX_SIDE, backend...) are its class's ---@field.
-- 2. Every options class names exactly the options its query accepts: each
--    option is tried with a value no option takes (a coroutine), and a query
--    that checks the value's type (`opts.near: number expected, got thread`)
--    has accepted the name.
-- 3. Every astar.* type the annotations use is declared, each file is Lua, and
--    each function's ---@param lines name its parameters, in order.
local astar = require "astar"
local tactics = require "astar.tactics"
local public_api = require "helpers.public_api"

-- The class that annotates each object of public_api.objects.
local CLASS = {
  astar = "astar",
  grid = "astar.Grid",
  search = "astar.Search",
  range = "astar.Range",
  area = "astar.AttackRange",
  zone = "astar.DangerZone",
  map = "astar.DistanceMap",
  tactics = "astar.tactics",
}

local function annotation_files()
  local p = assert(io.popen("find types -name '*.lua' | sort"))
  local files = {}
  for name in p:lines() do files[#files + 1] = name end
  p:close()
  assert(#files > 0, "no annotation files in types/ (busted runs from the checkout)")
  return files
end

-- What the files declare:
--   classes[name] = {parent =, fields = {name = true}, functions = {name = {sep =, where =}}}
--   aliases[name] = true; uses = { {type =, where =} } (every astar.Xxx in a ---@ line)
--   params = { {where =, declared = "a, b", documented = "a, b"} } per function
local function read_annotations()
  local classes, aliases, uses, params = {}, {}, {}, {}
  local function class(name)
    classes[name] = classes[name] or { fields = {}, functions = {} }
    return classes[name]
  end
  for _, path in ipairs(annotation_files()) do
    local locals, current = {}, nil   -- local name -> class; the class being annotated
    local documented = {}             -- the ---@param names since the last function
    local n = 0
    for line in io.lines(path) do
      n = n + 1
      local where = path .. ":" .. n
      if line:match("^%-%-%-@") then
        for t in line:gmatch("astar%.%u%l%w*") do uses[#uses + 1] = { type = t, where = where } end
      end
      local cname, parent = line:match("^%-%-%-@class ([%w_.]+)%s*:?%s*([%w_.]*)")
      local field = line:match("^%-%-%-@field ([%a_][%w_]*)%??%s")
      local alias = line:match("^%-%-%-@alias ([%w_.]+)")
      local var = line:match("^local ([%a_][%w_]*) = {}")
      local owner, sep, fname, args = line:match("^function ([%a_][%w_]*)([.:])([%a_][%w_]*)%(([^)]*)%)")
      local param = line:match("^%-%-%-@param ([%a_][%w_]*)")
      if param then documented[#documented + 1] = param end
      if cname then
        current = cname
        if parent ~= "" then class(cname).parent = parent end
        class(cname)
      elseif field and current then
        class(current).fields[field] = true
      elseif alias then
        aliases[alias] = true
      elseif var and current then
        locals[var] = current
      elseif owner then
        local cls = locals[owner]
        assert(cls, where .. ": " .. owner .. " is no local of a ---@class")
        assert(not class(cls).functions[fname], where .. ": " .. cls .. sep .. fname .. " declared twice")
        class(cls).functions[fname] = { sep = sep, where = where }
        params[#params + 1] = { where = where, declared = (args:gsub("%s", "")),
          documented = table.concat(documented, ",") }
        documented = {}
      end
      if not line:match("^%-%-%-") then current = nil end
      if var then current = nil end
    end
  end
  return classes, aliases, uses, params
end

local classes, aliases, uses, params = read_annotations()

-- The fields of a class and of the classes it extends.
local function fields_of(name)
  local all, c = {}, classes[name]
  while c do
    for f in pairs(c.fields) do all[f] = true end
    c = c.parent and classes[c.parent]
  end
  return all
end

local function sorted(set)
  local list = {}
  for k in pairs(set) do list[#list + 1] = k end
  table.sort(list)
  return list
end

describe("the editor annotations in types/ (" .. astar.backend .. " backend)", function()
  local objects = public_api.objects(astar, tactics)

  it("are Lua files", function()
    for _, path in ipairs(annotation_files()) do
      assert(loadfile(path), "cannot compile " .. path)
    end
  end)

  it("declare every public function, under its object's class", function()
    local missing = {}
    for kind, t in pairs(objects) do
      local cls = classes[CLASS[kind]]
      assert(cls, "no ---@class " .. CLASS[kind])
      local sep = public_api.separator(kind)
      for k, v in pairs(t) do
        if public_api.is_public(k) and type(v) == "function" then
          local f = cls.functions[k]
          if not f then
            missing[#missing + 1] = CLASS[kind] .. sep .. k
          else
            assert(f.sep == sep, f.where .. ": write " .. CLASS[kind] .. sep .. k)
          end
        end
      end
    end
    table.sort(missing)
    assert(#missing == 0, "public but not annotated: " .. table.concat(missing, ", "))
  end)

  it("declare the module's other fields as ---@field of class astar", function()
    local fields, missing = classes.astar.fields, {}
    for k, v in pairs(astar) do
      if public_api.is_public(k) and type(v) ~= "function" and not fields[k] then
        missing[#missing + 1] = k
      end
    end
    table.sort(missing)
    assert(#missing == 0, "astar fields not annotated: " .. table.concat(missing, ", "))
    for f in pairs(fields) do
      -- backendError is nil on the C backend
      assert(astar[f] ~= nil or f == "backendError", "annotated field astar." .. f .. " does not exist")
      assert(type(astar[f]) ~= "function", "astar." .. f .. " is a function: declare it as one")
    end
  end)

  it("declare nothing that does not exist", function()
    local kind_of, extra = {}, {}
    for kind, cname in pairs(CLASS) do kind_of[cname] = kind end
    for cname, c in pairs(classes) do
      for fname, f in pairs(c.functions) do
        local kind = kind_of[cname]
        local full = cname .. f.sep .. fname
        if not kind then
          extra[#extra + 1] = f.where .. ": " .. full .. " (no such object)"
        elseif type(objects[kind][fname]) ~= "function" then
          extra[#extra + 1] = f.where .. ": " .. full
        end
      end
    end
    table.sort(extra)
    assert(#extra == 0, "annotated but not in the API:\n" .. table.concat(extra, "\n"))
  end)

  it("document each function's parameters, in order", function()
    local wrong = {}
    for _, p in ipairs(params) do
      if p.declared ~= p.documented then
        wrong[#wrong + 1] = ("%s: (%s) documented as (%s)"):format(p.where, p.declared, p.documented)
      end
    end
    assert(#wrong == 0, "---@param lines that do not match:\n" .. table.concat(wrong, "\n"))
  end)

  it("use only astar types they declare", function()
    local unknown = {}
    for _, u in ipairs(uses) do
      if not classes[u.type] and not aliases[u.type] then unknown[#unknown + 1] = u.where .. ": " .. u.type end
    end
    assert(#unknown == 0, "undeclared types:\n" .. table.concat(unknown, "\n"))
  end)
end)

-- ---- options ---------------------------------------------------------------------

-- A value no option takes: a query that names it in a type error took the name.
local ODD = coroutine.create(function() end)

local function accepts(query, name)
  local ok, err = pcall(query, { [name] = ODD })
  assert(not ok, "opts." .. name .. " = a coroutine was not an error")
  err = tostring(err)
  return err:find("opts." .. name .. ": ", 1, true) ~= nil and err:find("expected, got thread", 1, true) ~= nil
end

describe("the options classes in types/ (" .. astar.backend .. " backend)", function()
  local grid = astar.new(4, 4)
  local range = grid:movementRange(1, 1, 2)
  local map = grid:distanceMap({ { x = 1, y = 1 } })
  local enemy = { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1 }
  local QUERIES = {
    ["astar.FindPathOptions"] = function(o) return grid:findPath(1, 1, 2, 2, o) end,
    ["astar.NewSearchOptions"] = function(o) return grid:newSearch(1, 1, 2, 2, o) end,
    ["astar.MovementRangeOptions"] = function(o) return grid:movementRange(1, 1, 2, o) end,
    ["astar.AttackRangeOptions"] = function(o) return grid:attackRange(range, 1, 1, o) end,
    ["astar.DangerZoneOptions"] = function(o) return grid:dangerZone({ enemy }, o) end,
    ["astar.DistanceMapOptions"] = function(o) return grid:distanceMap({ { x = 1, y = 1 } }, o) end,
    ["astar.PathToOptions"] = function(o) return range:pathTo(1, 1, o) end,
    ["astar.PathFromOptions"] = function(o) return map:pathFrom(1, 1, o) end,
    ["astar.BlendOptions"] = function(o) return astar.blend({ map, 1 }, o) end,
  }
  -- the budget of a build a slice at a time (issue 24)
  QUERIES["astar.MapBuildOptions"] = function(o) return map:update(grid, o) end
  -- every option name any class knows, tried on every query
  local universe = {}
  for cname in pairs(QUERIES) do
    assert(classes[cname], "no ---@class " .. cname)
    for f in pairs(fields_of(cname)) do universe[f] = true end
  end

  for _, cname in ipairs(sorted(QUERIES)) do
    it(cname .. " names exactly the options its query accepts", function()
      local annotated, wrong = fields_of(cname), {}
      for _, name in ipairs(sorted(universe)) do
        local taken = accepts(QUERIES[cname], name)
        if annotated[name] and not taken then
          wrong[#wrong + 1] = name .. " is annotated but not accepted"
        elseif taken and not annotated[name] then
          wrong[#wrong + 1] = name .. " is accepted but not annotated"
        end
      end
      assert(#wrong == 0, cname .. ": " .. table.concat(wrong, "; "))
    end)
  end

  it("astar.Enemy names fields dangerZone reads", function()
    for _, name in ipairs(sorted(fields_of("astar.Enemy"))) do
      local e = {}
      for k, v in pairs(enemy) do e[k] = v end
      e[name] = ODD
      local ok, err = pcall(grid.dangerZone, grid, { e })
      assert(not ok and tostring(err):find("enemies[1]." .. name .. ": ", 1, true)
        and tostring(err):find("expected, got thread", 1, true),
        "enemies[1]." .. name .. " = a coroutine: " .. tostring(err))
    end
  end)
end)
