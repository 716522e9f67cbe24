-- The public API as the running backend has it: what the manual
-- (spec/readme_examples_spec.lua) and the editor annotations
-- (spec/annotations_spec.lua) are both held to.
local M = {}

-- The objects of the API, by the name the manual uses for each, with the
-- table that holds its functions (the methods of an object: its metatable's
-- __index). `astar.tactics` is required, so the Grid has its methods.
function M.objects(astar, tactics)
  local grid = astar.new(4, 4)
  local search = grid:newSearch(1, 1, 4, 4)
  local range = grid:movementRange(1, 1, 2)
  return {
    astar = astar,
    grid = astar.Grid,
    search = getmetatable(search).__index,
    range = getmetatable(range).__index,
    area = getmetatable(grid:attackRange(range, 1, 1)).__index,
    zone = getmetatable(grid:dangerZone({ { x = 1, y = 1, move = 1, minRange = 1, maxRange = 1 } })).__index,
    tactics = tactics,
    map = getmetatable(grid:distanceMap({ { x = 1, y = 1 } })).__index,
  }
end

-- Whether key k of an object is public: not a metamethod, not one of the
-- backend's primitives that astar.tactics wraps (_movementRange); _VERSION is.
function M.is_public(k)
  return type(k) == "string" and not k:match("^__") and not k:match("^_%l")
end

-- How the manual writes a name of object `kind`: astar.new, grid:findPath.
function M.separator(kind)
  return (kind == "astar" or kind == "tactics") and "." or ":"
end

-- Every public name, "kind.name" or "kind:name" -> true. astar.backendError
-- is nil on the C backend and a string on the fallback: a field all the same.
function M.names(astar, tactics)
  local names = {}
  for kind, t in pairs(M.objects(astar, tactics)) do
    for k in pairs(t) do
      if M.is_public(k) then names[kind .. M.separator(kind) .. k] = true end
    end
  end
  names["astar.backendError"] = true
  return names
end

return M
