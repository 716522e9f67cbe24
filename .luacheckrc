-- luacheck configuration for the whole repository (make lint).
std = "max+busted"
max_line_length = 120
codes = true
-- W581 asks for 'x < y' instead of 'not (x >= y)'; we write the latter on
-- purpose where NaN must fail a range check.
ignore = { "581" }

-- types/: the LuaLS annotations (---@meta files, never run): empty functions
-- whose arguments only name the parameters, class tables only declared, and
-- an ---@overload is one line however long.
files["types"] = {
  ignore = { "212", "241", "631" },
}

files["spec/helpers"] = {
  std = "max",
}

exclude_files = {
  "build/",
  ".luarocks/",
  "lua_modules/",
}
