-- luacheck configuration for the whole repository (make lint).
std = "max+busted"
max_line_length = 120
codes = true
-- W581 asks for 'x < y' instead of 'not (x >= y)'; we write the latter on
-- purpose where NaN must fail a range check.
ignore = { "581" }

files["spec/helpers"] = {
  std = "max",
}

exclude_files = {
  "build/",
  ".luarocks/",
  "lua_modules/",
}
