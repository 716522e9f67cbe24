-- luacheck configuration for the busted specs (and anything else in the repo).
std = "max+busted"
max_line_length = 120
codes = true

files["spec/helpers"] = {
  std = "max",
}

exclude_files = {
  "build/",
  ".luarocks/",
  "lua_modules/",
}
