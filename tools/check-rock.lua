-- Run against an installed rock (make rock-install-test, make rock): the
-- modules load from the tree, the C backend is used, the version is right,
-- answers are exact, the tactics layer loads, and the editor annotations
-- (types/) are installed beside the rock.
--
--   LUA_PATH=TREE/share/lua/V/?.lua LUA_CPATH=TREE/lib/lua/V/?.so lua tools/check-rock.lua VERSION [TREE]
--
-- LUA_PATH and LUA_CPATH name the tree only (no ";;", no "./?.so"): a module
-- found anywhere else would be a wrong pass. With TREE, each module's file must
-- lie in it. Runs on Lua 5.1 to 5.4 and LuaJIT.
local expected, tree = arg[1], arg[2]
assert(expected, "usage: check-rock.lua VERSION [TREE]")
local lua_name = (type(jit) == "table" and jit.version) or _VERSION

local function check(ok, fmt, ...)
  if not ok then
    io.stderr:write(("check-rock (%s): "):format(lua_name), fmt:format(...), "\n")
    os.exit(1)
  end
end

local astar = require "astar"
local version = require "astar.version"
check(version == expected, "astar.version is %s, expected %s", tostring(version), expected)
check(astar._VERSION == expected, "astar._VERSION is %s, expected %s", tostring(astar._VERSION), expected)
check(astar.backend == "c" and astar.backendError == nil, "astar.backend is %s (%s)",
  tostring(astar.backend), tostring(astar.backendError))

-- The modules came from the tree.
if tree then
  local search = package.searchpath
  if search then
    for _, m in ipairs({ { "astar", package.path }, { "astar.tactics", package.path },
                         { "astar.core", package.cpath } }) do
      local file = search(m[1], m[2])
      check(file and file:sub(1, #tree) == tree, "%s is %s, not in %s", m[1], tostring(file), tree)
    end
  end
end

-- The LuaLS annotations were installed beside the rock (copy_directories):
-- TREE/lib/luarocks/rocks-5.4/astar-grid/2.0.0-1/types/ (scm-1 for luarocks make).
if tree then
  local api = _VERSION:match("%d+%.%d+")
  local found
  for _, v in ipairs({ expected .. "-1", "scm-1" }) do
    local dir = ("%s/lib/luarocks/rocks-%s/astar-grid/%s/types/"):format(tree, api, v)
    local f = io.open(dir .. "astar.lua", "r")
    if f then
      f:close()
      local t = io.open(dir .. "astar/tactics.lua", "r")
      check(t ~= nil, "%sastar/tactics.lua is missing", dir)
      t:close()
      found = true
    end
  end
  check(found, "types/astar.lua is not installed in %s/lib/luarocks/rocks-%s/astar-grid/", tree, api)
end

-- An exact answer: 4 directions around a wall, terrain costs that are exact in
-- binary, so the cost is compared with ==.
--   . . # . .        the wall (3, 1..4) leaves row 5 open
--   . . # . .        cost 2 on (2, 5), 0.5 on (4, 5)
--   . . # . .        (1,1) -> (5,1): down 4, right 4 (entering (2,5) costs 2,
--   . . # . .        (3,5) 1, (4,5) 0.5, (5,5) 1), up 4: 4 + 4.5 + 4 = 12.5
--   . 2 . h .
local g = astar.new(5, 5)
for y = 1, 4 do g:setWalkable(3, y, false) end
g:setCost(2, 5, 2)
g:setCost(4, 5, 0.5)
local path, cost = g:findPath(1, 1, 5, 1, { diagonal = "never" })
check(cost == 12.5, "findPath cost %s, expected 12.5", tostring(cost))
check(path and #path == 13 and path[1].x == 1 and path[1].y == 1 and path[13].x == 5 and path[13].y == 1,
  "findPath path of %s cells", path and #path or "no")
-- 8 directions on an open grid: 2 diagonal steps.
local _, diag = astar.new(3, 3):findPath(1, 1, 3, 3)
check(math.abs(diag - 2 * math.sqrt(2)) < 1e-12, "diagonal cost %s", tostring(diag))

local tactics = require "astar.tactics"
check(type(tactics) == "table", "astar.tactics is a %s", type(tactics))
check(type(g.movementRange) == "function", "grid:movementRange is missing after require \"astar.tactics\"")
local range = g:movementRange(1, 1, 3)
check(range:contains(1, 4) and not range:contains(1, 5) and range:costTo(2, 3) == 3,
  "movementRange(1, 1, 3) is wrong")

print(("rock ok: %s, astar %s, backend %s"):format(lua_name, astar._VERSION, astar.backend))
