-- A grid and its description (spec/helpers/reference.lua) changed together, for
-- the specs that edit a grid under a stepped search (search_edits_spec.lua,
-- search_goal_changes_spec.lua), and stepping a search to its end.

local R = require "helpers.reference"

local M = {}

-- { desc = desc, grid = a grid of module astar built from it }
function M.board(astar, desc)
  return { desc = desc, grid = R.build_grid(astar, desc) }
end

function M.set_walkable(b, x, y, v)
  b.desc.walkable[x][y] = v
  b.grid:setWalkable(x, y, v)
end

function M.set_cost(b, x, y, c)
  b.desc.cost[x][y] = c
  b.grid:setCost(x, y, c)
end

-- The description of a w x h grid, every cell walkable at cost 1.
function M.uniform(w, h)
  local walkable, cost = {}, {}
  for x = 1, w do
    walkable[x], cost[x] = {}, {}
    for y = 1, h do walkable[x][y], cost[x][y] = true, 1 end
  end
  return { w = w, h = h, walkable = walkable, cost = cost }
end

-- Steps the search n nodes at a time until it ends: its status and the calls.
function M.step_to_end(search, n)
  local status, calls = search:step(n), 1
  while status == "searching" do
    status, calls = search:step(n), calls + 1
    assert(calls < 1e6, "the search does not end")
  end
  return status, calls
end

return M
