-- make bench: every map of the Moving AI set in MAPS, the same queries timed
-- in every column (C core, findPath from Lua 5.4 and LuaJIT, both in the
-- default form and with {flat = true, into = buf}, the pure-Lua A*), a table,
-- ratios, TSV files and a gnuplot chart. Run under Lua 5.4 from the
-- repository root (mk/bench.mk does); each column runs in its own process
-- (bench/driver.c, bench/worker.lua) and reports per-query times here. With
-- --only (one map) nothing is copied to --results: the committed figures stay.
--
--   lua5.4 bench/maps_bench.lua [--maps DIR] [--out DIR] [--results DIR]
--       [--sample N] [--pure N] [--rounds R] [--target US] [--only NAME]
--       [--big SIDE] [--astar-flat subset|all] [--no-chart]
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local scen = require "scen"

local settings = {
  maps = "maps",
  out = "build/bench",              -- query files, TSV, chart data
  results = "bench/results",        -- committed copies: maps.tsv, maps.png, ...
  sample = 500,      -- queries per big map (>= BIG_CELLS cells); small maps run all
  pure = 64,         -- pure-Lua queries per map: an even spread of the sample
  rounds = 5,        -- timed passes over the sample, columns interleaved; per-query median
  pure_rounds = 1,   -- the pure-Lua columns are slow: one pass
  -- queries of the A* -flat columns: "subset", the pure-Lua ones, or "all",
  -- the whole sample (over a minute more, for a path form A*'s search hides)
  ["astar-flat"] = "all",
  target = 200,      -- µs: shorter queries are timed in repeated batches this long
  big = 4096,        -- side of the large-grid check (0: skip)
  chart = true,
  driver = "build/bench/driver",
  timeout = 300,     -- seconds per column and map: a hung search fails loudly
  lua54 = "lua5.4",
  luajit = "luajit",
}
local BIG_CELLS = 100000
local notes = {}   -- printed under the table

local function fail(message)
  io.stderr:write("\nmaps_bench: FAILED: ", message, "\n")
  os.exit(1)
end

local function parse_args()
  local i = 1
  while arg[i] do
    local key = arg[i]:match("^%-%-(.+)$")
    if key == "no-chart" then
      settings.chart = false
      i = i + 1
    elseif key and settings[key] ~= nil or key == "only" then
      local value = arg[i + 1] or fail("missing value for " .. arg[i])
      settings[key] = tonumber(value) or value
      i = i + 2
    else
      fail("unknown argument " .. arg[i])
    end
  end
end

local function quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

-- Runs a shell command; returns its stdout lines. Fails unless it exits 0.
local function command_lines(cmd)
  local pipe = assert(io.popen(cmd, "r"))
  local lines = {}
  for line in pipe:lines() do lines[#lines + 1] = line end
  local ok, how, code = pipe:close()
  if not ok then fail(string.format("command ended (%s %s): %s", tostring(how), tostring(code), cmd)) end
  return lines
end

local function first_line(cmd)
  local pipe = io.popen(cmd .. " 2>&1")
  local line = pipe and pipe:read("*l") or "?"
  if pipe then pipe:close() end
  return line or "?"
end

-- The machine, named in every output.
local function machine()
  local model, cores = "unknown cpu", 0
  local f = io.open("/proc/cpuinfo", "r")
  if f then
    for line in f:lines() do
      local m = line:match("^model name%s*:%s*(.-)%s*$")
      if m and model == "unknown cpu" then model = m end
      if line:match("^processor%s*:") then cores = cores + 1 end
    end
    f:close()
  end
  return {
    cpu = model, cores = cores,
    cc = first_line("cc --version"),
    lua54 = first_line(settings.lua54 .. " -v"),
    luajit = first_line(settings.luajit .. " -v"),
    date = os.date("!%Y-%m-%d %H:%M UTC"),
    source = first_line("git rev-parse --short HEAD") .. " + src/ md5 "
      .. first_line("cat src/core/*.[ch] src/lua/*.[ch] | md5sum | cut -c1-12"),
  }
end

-- Columns run a frozen copy of the modules, Lua files and driver, taken at
-- the start (see snapshot): a rebuild during the run cannot mix versions.
local function lua_env(build)
  local snap = settings.out .. "/snap"
  return 'env LUA_PATH="' .. snap .. '/lua/?.lua;' .. snap .. '/lua/?/init.lua;' .. here
    .. '/?.lua;;" LUA_CPATH="' .. snap .. '/' .. build .. '/?.so;;" '
end

local function snapshot()
  local snap = settings.out .. "/snap"
  local cmd = table.concat({
    "rm -rf " .. quote(snap),
    "mkdir -p " .. quote(snap .. "/5.4/astar") .. " " .. quote(snap .. "/luajit/astar"),
    "cp build/5.4/astar/core.so " .. quote(snap .. "/5.4/astar/"),
    "cp build/luajit/astar/core.so " .. quote(snap .. "/luajit/astar/"),
    "cp -r lua " .. quote(snap .. "/lua"),
    "cp " .. quote(settings.driver) .. " " .. quote(snap .. "/driver"),
  }, " && ")
  if not os.execute(cmd) then fail("cannot snapshot the build: " .. cmd) end
  settings.driver = snap .. "/driver"
end

-- The algorithm columns: {name, c = driver argument, lua = findPath's
-- opts.algorithm or "default"}. A* and JPS when findPath and the core both
-- take opts.algorithm; before that, one A* column per engine. Second result:
-- whether findPath takes opts.flat and opts.into.
local function algorithms()
  local lua_names, c_names = {}, {}
  for _, name in ipairs(command_lines(lua_env("5.4") .. settings.lua54 .. " " .. here
    .. "/worker.lua algorithms")) do
    lua_names[name] = true
  end
  for _, name in ipairs(command_lines(settings.driver .. " algorithms")) do c_names[name] = true end
  local flat = lua_names["form flat"] or false
  if not flat then io.stderr:write("note: findPath takes no opts.flat/opts.into; no -flat columns\n") end
  if lua_names.astar and lua_names.jps and c_names.astar and c_names.jps then
    return {{name = "astar", c = "astar", lua = "astar"}, {name = "jps", c = "jps", lua = "jps"}}, flat
  end
  if lua_names.jps or c_names.jps then
    io.stderr:write("note: opts.algorithm is not in both findPath and the C core; measuring A* only\n")
  end
  return {{name = "astar", c = c_names.astar and "astar" or "default",
    lua = lua_names.astar and "astar" or "default"}}, flat
end

-- The columns, in table order. kind: c | binding | pure; form: findPath's
-- result, "table" or "flat" (opts.flat, opts.into; the -flat columns);
-- subset: the column times only the pure-Lua queries, an even spread of the
-- sample (ratios use common queries); chart: false keeps a column off maps.png.
local function columns(algos, flat)
  local list = {}
  if settings["astar-flat"] ~= "subset" and settings["astar-flat"] ~= "all" then
    fail("--astar-flat takes subset or all")
  end
  local astar_subset = settings["astar-flat"] == "subset"
  for _, a in ipairs(algos) do
    list[#list + 1] = {key = "c:" .. a.name, kind = "c", algorithm = a.name, arg = a.c}
    list[#list + 1] = {key = "lua5.4:" .. a.name, kind = "binding", algorithm = a.name, arg = a.lua,
      lua = settings.lua54, build = "5.4", form = "table"}
    list[#list + 1] = {key = "luajit:" .. a.name, kind = "binding", algorithm = a.name, arg = a.lua,
      lua = settings.luajit, build = "luajit", form = "table"}
    if flat then
      -- A* barely changes with the path's form: its flat bars would only crowd the chart
      list[#list + 1] = {key = "lua5.4:" .. a.name .. "-flat", kind = "binding", algorithm = a.name,
        arg = a.lua, lua = settings.lua54, build = "5.4", form = "flat", chart = a.name ~= "astar",
        subset = a.name == "astar" and astar_subset}
      list[#list + 1] = {key = "luajit:" .. a.name .. "-flat", kind = "binding", algorithm = a.name,
        arg = a.lua, lua = settings.luajit, build = "luajit", form = "flat", chart = a.name ~= "astar",
        subset = a.name == "astar" and astar_subset}
    end
  end
  list[#list + 1] = {key = "pure-lua5.4:astar", kind = "pure", algorithm = "astar", arg = "default",
    lua = settings.lua54, build = "5.4", subset = true}
  list[#list + 1] = {key = "pure-luajit:astar", kind = "pure", algorithm = "astar", arg = "default",
    lua = settings.luajit, build = "luajit", subset = true}
  return list
end

-- Ratios of total time over the queries both columns ran: {name, num, den, why}.
local RATIOS = {
  {"a/c", "lua5.4:astar", "c:astar", "binding overhead, Lua 5.4"},
  {"b/c", "luajit:astar", "c:astar", "binding overhead, LuaJIT"},
  {"d/a", "pure-lua5.4:astar", "lua5.4:astar", "gain over pure Lua, Lua 5.4"},
  {"d/b", "pure-luajit:astar", "luajit:astar", "gain over pure Lua, LuaJIT"},
  {"a/c jps", "lua5.4:jps", "c:jps", "binding overhead with JPS, Lua 5.4"},
  {"b/c jps", "luajit:jps", "c:jps", "binding overhead with JPS, LuaJIT"},
  {"jps a", "lua5.4:astar", "lua5.4:jps", "JPS speedup over A*, Lua 5.4"},
  {"jps b", "luajit:astar", "luajit:jps", "JPS speedup over A*, LuaJIT"},
  {"jps c", "c:astar", "c:jps", "JPS speedup over A*, C"},
  {"d/a jps", "pure-lua5.4:astar", "lua5.4:jps", "gain of findPath+JPS over pure Lua A*, Lua 5.4"},
  {"d/b jps", "pure-luajit:astar", "luajit:jps", "gain of findPath+JPS over pure Lua A*, LuaJIT"},
  -- the -flat columns: findPath with {flat = true, into = buf}, a table of its own
  {"a/c flat", "lua5.4:astar-flat", "c:astar", "binding overhead, flat path, Lua 5.4", group = "flat"},
  {"b/c flat", "luajit:astar-flat", "c:astar", "binding overhead, flat path, LuaJIT", group = "flat"},
  {"a/c jps flat", "lua5.4:jps-flat", "c:jps", "binding overhead with JPS, flat path, Lua 5.4", group = "flat"},
  {"b/c jps flat", "luajit:jps-flat", "c:jps", "binding overhead with JPS, flat path, LuaJIT", group = "flat"},
  {"flat a jps", "lua5.4:jps", "lua5.4:jps-flat", "gain of the flat path with JPS, Lua 5.4", group = "flat"},
  {"flat b jps", "luajit:jps", "luajit:jps-flat", "gain of the flat path with JPS, LuaJIT", group = "flat"},
  {"jps a flat", "lua5.4:astar-flat", "lua5.4:jps-flat", "JPS speedup over A*, flat path, Lua 5.4",
    group = "flat"},
  {"jps b flat", "luajit:astar-flat", "luajit:jps-flat", "JPS speedup over A*, flat path, LuaJIT",
    group = "flat"},
  {"d/a jps flat", "pure-lua5.4:astar", "lua5.4:jps-flat",
    "gain of findPath+JPS, flat path, over pure Lua A*, Lua 5.4", group = "flat"},
  {"d/b jps flat", "pure-luajit:astar", "luajit:jps-flat",
    "gain of findPath+JPS, flat path, over pure Lua A*, LuaJIT", group = "flat"},
}

local function column_command(col, map, qfile)
  local warm = col.kind == "pure" and 5 or 50
  local rounds = 1   -- one pass per process: passes are interleaved across columns
  if col.kind == "c" then
    return table.concat({settings.driver, "maps", quote(map), quote(qfile), rounds,
      settings.target, col.arg}, " ")
  end
  return lua_env(col.build) .. table.concat({col.lua, here .. "/worker.lua",
    col.kind, quote(map), quote(qfile), rounds, settings.target, warm, col.arg, col.form or "table"}, " ")
end

-- Runs one column: {by_id = {id = {ns, expanded, cost, length}}, ids, mem}.
local function run_column(col, map, qfile)
  local result = {by_id = {}, ids = {}}
  local done = false
  local cmd = "timeout " .. settings.timeout .. " " .. column_command(col, map, qfile)
  for _, line in ipairs(command_lines(cmd)) do
    local id, ns, expanded, cost, length, ran = line:match("^q (%d+) (%S+) (%d+) (%S+) (%d+) (%S+)$")
    if id then
      id = tonumber(id)
      result.by_id[id] = {ns = tonumber(ns), expanded = tonumber(expanded),
        cost = tonumber(cost), length = tonumber(length), ran = ran}
      result.ids[#result.ids + 1] = id
    end
    local grid, search, cells = line:match("^mem (%d+) (%d+) (%d+)$")
    if grid then
      result.mem = (tonumber(grid) + tonumber(search)) / tonumber(cells)
      done = true
    end
    if line == "done" then done = true end
  end
  if not done then fail(col.key .. " on " .. map .. " stopped early") end
  return result
end

-- One result from several passes of a column: each query's median time.
local function median_of_passes(list)
  local merged = list[1]
  for _, id in ipairs(merged.ids) do
    local times = {}
    for i, pass in ipairs(list) do
      local r = pass.by_id[id]
      if r.cost ~= merged.by_id[id].cost then fail("a query's cost changed between passes") end
      times[i] = r.ns
    end
    table.sort(times)
    local n = #times
    merged.by_id[id].ns = (times[math.floor((n + 1) / 2)] + times[math.floor(n / 2) + 1]) / 2
  end
  return merged
end

local function percentile(sorted, p)
  local k = math.ceil(p * #sorted)
  if k < 1 then k = 1 end
  return sorted[k]
end

local function stats(result)
  local times, total, expanded = {}, 0, 0
  for i, id in ipairs(result.ids) do
    local r = result.by_id[id]
    times[i] = r.ns
    total = total + r.ns
    expanded = expanded + r.expanded
  end
  table.sort(times)
  local n = #times
  return {
    queries = n,
    mean = total / n / 1e3,
    median = (times[math.floor((n + 1) / 2)] + times[math.floor(n / 2) + 1]) / 2 / 1e3,
    p99 = percentile(times, 0.99) / 1e3,
    expanded = expanded / n,
    ns_per_expansion = expanded > 0 and total / expanded or 0 / 0,
    bytes_per_cell = result.mem,
  }
end

-- Sum of num's times over sum of den's times, on the queries both ran.
local function ratio(num, den)
  local a, b, n = 0, 0, 0
  for _, id in ipairs(num.ids) do
    local d = den.by_id[id]
    if d then
      a, b, n = a + num.by_id[id].ns, b + d.ns, n + 1
    end
  end
  if n == 0 or b == 0 then return nil end
  return a / b, n
end

-- Every column must return the optimal cost (workers and driver check the
-- scenario's value; this also checks the columns agree with each other).
local function cross_check(name, queries, results, cols)
  for _, col in ipairs(cols) do
    for id, r in pairs(results[col.key].by_id) do
      local q = queries[id]
      if math.abs(r.cost - q.optimal) > q.tol then
        fail(string.format("%s: %s query %d cost %.10f, optimal %.10f", name, col.key, id,
          r.cost, q.optimal))
      end
    end
  end
  -- a column must run the algorithm it is named after (RAN "?": not reported)
  for _, col in ipairs(cols) do
    local other, n = 0, 0
    for _, r in pairs(results[col.key].by_id) do
      n = n + 1
      if r.ran ~= "?" and r.ran ~= col.algorithm then other = other + 1 end
    end
    if other > 0 and col.algorithm == "astar" then
      fail(string.format("%s: column %s ran another algorithm than A* on %d of %d queries",
        name, col.key, other, n))
    elseif other > 0 then
      notes[#notes + 1] = string.format("%s: %s ran A* on %d of %d queries", name, col.key, other, n)
    end
  end
  -- findPath and the driver run the same core: the same expansions
  for _, pair in ipairs({{"c:astar", "lua5.4:astar"}, {"c:astar", "luajit:astar"}, {"c:jps", "lua5.4:jps"}}) do
    local c, a = results[pair[1]], results[pair[2]]
    if c and a then
      for id, r in pairs(c.by_id) do
        if a.by_id[id] and a.by_id[id].expanded ~= r.expanded then
          notes[#notes + 1] = string.format("%s query %d: %s expanded %d, %s %d (not the same search?)",
            name, id, pair[1], r.expanded, pair[2], a.by_id[id].expanded)
          break
        end
      end
    end
  end
  -- the flat form changes only how the path is returned: the same search, the same path
  for _, col in ipairs(cols) do
    local plain_key = (col.key:gsub("%-flat$", ""))
    local plain = col.form == "flat" and results[plain_key]
    if plain then
      for id, r in pairs(results[col.key].by_id) do
        local p = plain.by_id[id]
        if p and (p.expanded ~= r.expanded or p.length ~= r.length) then
          fail(string.format("%s query %d: %s expanded %d, %d cells; %s %d, %d cells", name, id,
            col.key, r.expanded, r.length, plain_key, p.expanded, p.length))
        end
      end
    end
  end
end

local function bench_map(m, cols)
  local all = scen.read_scenarios(m.scen)
  local width, height = scen.read_map(m.map)
  local k = width * height >= BIG_CELLS and settings.sample or #all
  local queries, pure = {}, {}
  for i, index in ipairs(scen.spread(#all, k)) do
    local q = all[index]
    q.id = i
    queries[i] = q
  end
  for i, index in ipairs(scen.spread(#queries, settings.pure)) do pure[i] = queries[index] end
  local qfile = settings.out .. "/queries/" .. m.name .. ".q"
  local pfile = settings.out .. "/queries/" .. m.name .. ".pure.q"
  scen.write_queries(qfile, queries)
  scen.write_queries(pfile, pure)

  -- Pass after pass, every column in turn: a load change on a shared
  -- machine then hits every column alike instead of one column's whole run.
  local passes = {}
  for pass = 1, math.max(settings.rounds, settings.pure_rounds) do
    for _, col in ipairs(cols) do
      if pass <= (col.kind == "pure" and settings.pure_rounds or settings.rounds) then
        local t0 = os.time()
        io.stderr:write(string.format("  %-16s %-20s pass %d", m.name, col.key, pass))
        io.stderr:flush()
        passes[col.key] = passes[col.key] or {}
        table.insert(passes[col.key], run_column(col, m.map, col.subset and pfile or qfile))
        io.stderr:write(string.format(" %3ds\n", os.time() - t0))
      end
    end
  end
  local results = {}
  for _, col in ipairs(cols) do results[col.key] = median_of_passes(passes[col.key]) end
  cross_check(m.name, queries, results, cols)
  return {name = m.name, width = width, height = height, scenarios = #all, results = results}
end

local function fmt(x, digits)
  if x == nil or x ~= x then return "-" end
  return string.format("%." .. (digits or 1) .. "f", x)
end

local function print_tables(runs, cols, info)
  print(string.format("\nMachine: %s, %d cores; %s; %s; %s; %s", info.cpu, info.cores, info.cc,
    info.lua54, info.luajit, info.date))
  print("Source: " .. info.source)
  print(string.format("Queries: all scenarios, or an even spread of %d on maps of %d+ cells; " ..
    "pure Lua: an even spread of %d of those. Times: CPU time per query, median of %d interleaved passes " ..
    "(pure Lua: %d), no corner cutting, octile. -flat: findPath with {flat = true, into = buf}, " ..
    "one buf for all queries%s.\n", settings.sample, BIG_CELLS, settings.pure,
    settings.rounds, settings.pure_rounds,
    settings["astar-flat"] ~= "all" and "; A* -flat: the pure-Lua queries" or ""))
  local head = string.format("%-16s %-18s %7s %10s %10s %10s %10s %8s %7s",
    "map", "column", "queries", "mean us", "median us", "p99 us", "expanded", "ns/exp", "B/cell")
  print(head)
  print(string.rep("-", #head))
  for _, run in ipairs(runs) do
    for _, col in ipairs(cols) do
      local s = run.stats[col.key]
      print(string.format("%-16s %-18s %7d %10s %10s %10s %10s %8s %7s", run.name, col.key,
        s.queries, fmt(s.mean), fmt(s.median), fmt(s.p99), fmt(s.expanded, 0),
        fmt(s.ns_per_expansion), fmt(s.bytes_per_cell, 2)))
    end
  end
  for _, note in ipairs(notes) do print("note: " .. note) end
  print("\nRatios (total time of the first column over the second, on the queries both ran):")
  for _, r in ipairs(RATIOS) do
    if cols.by_key[r[2]] and cols.by_key[r[3]] then
      print(string.format("  %-12s %s / %s: %s", r[1], r[2], r[3], r[4]))
    end
  end
  -- one table per group: the default form's ratios, then the flat path's
  for _, group in ipairs({"default", "flat"}) do
    local names = {}
    for _, r in ipairs(RATIOS) do
      if (r.group or "default") == group and cols.by_key[r[2]] and cols.by_key[r[3]] then
        names[#names + 1] = r
      end
    end
    if #names > 0 then
      local line = string.format("\n%-16s", "map")
      for _, r in ipairs(names) do line = line .. string.format(" %9s", r[1]) end
      print(line)
      for _, run in ipairs(runs) do
        line = string.format("%-16s", run.name)
        for _, r in ipairs(names) do
          line = line .. string.format(" %" .. math.max(9, #r[1]) .. "s", fmt(run.ratios[r[1]], 2))
        end
        print(line)
      end
    end
  end
end

local function write_tsv(path, runs, cols, info)
  local f = assert(io.open(path, "w"))
  f:write(string.format("# machine: %s, %d cores; %s; %s; %s\n# date: %s\n# source: %s\n", info.cpu,
    info.cores, info.cc, info.lua54, info.luajit, info.date, info.source))
  f:write(string.format("# sample %d (maps of %d+ cells), pure %d, rounds %d, pure_rounds %d, target_us %d, "
    .. "astar-flat %s\n", settings.sample, BIG_CELLS, settings.pure, settings.rounds, settings.pure_rounds,
    settings.target, settings["astar-flat"]))
  f:write("map\tcolumn\tqueries\tmean_us\tmedian_us\tp99_us\texpanded\tns_per_expansion\tbytes_per_cell\n")
  for _, run in ipairs(runs) do
    for _, col in ipairs(cols) do
      local s = run.stats[col.key]
      f:write(table.concat({run.name, col.key, s.queries, fmt(s.mean, 2), fmt(s.median, 2),
        fmt(s.p99, 2), fmt(s.expanded, 1), fmt(s.ns_per_expansion, 1),
        fmt(s.bytes_per_cell, 2)}, "\t"), "\n")
    end
  end
  f:close()
end

local function write_ratios(path, runs, cols)
  local f = assert(io.open(path, "w"))
  f:write("map\tratio\tnumerator\tdenominator\tqueries\tvalue\n")
  for _, run in ipairs(runs) do
    for _, r in ipairs(RATIOS) do
      if cols.by_key[r[2]] and cols.by_key[r[3]] then
        f:write(table.concat({run.name, r[1], r[2], r[3], run.ratio_n[r[1]] or 0,
          fmt(run.ratios[r[1]], 3)}, "\t"), "\n")
      end
    end
  end
  f:close()
end

-- Wide table for gnuplot: one row per map, mean µs per charted column.
-- Returns the number of columns written.
local function write_chart_data(path, runs, cols)
  local f = assert(io.open(path, "w"))
  local head, charted = {"map"}, {}
  for _, col in ipairs(cols) do
    if col.chart ~= false then
      charted[#charted + 1] = col
      head[#head + 1] = col.key
    end
  end
  f:write(table.concat(head, "\t"), "\n")
  for _, run in ipairs(runs) do
    local row = {run.name}
    for _, col in ipairs(charted) do row[#row + 1] = fmt(run.stats[col.key].mean, 3) end
    f:write(table.concat(row, "\t"), "\n")
  end
  f:close()
  return #head
end

local function copy(from, to)
  local f = assert(io.open(from, "rb"))
  local text = f:read("*a")
  f:close()
  f = assert(io.open(to, "wb"))
  f:write(text)
  f:close()
end

-- The large-grid check: the C core alone, then findPath from Lua 5.4.
local function big_check(info)
  if settings.big == 0 then return end
  local side, walls = settings.big, 10
  io.stderr:write(string.format("  %dx%d grid, %d%% walls, corner to corner\n", side, side, walls))
  local c, lua = {}, {}
  for _, line in ipairs(command_lines(settings.driver .. " big " .. side .. " " .. walls)) do
    local k, v = line:match("^big (%S+) (%S+)$")
    if k then c[k] = v end
  end
  for _, line in ipairs(command_lines(lua_env("5.4") .. settings.lua54 .. " " .. here
    .. "/big_grid.lua " .. side .. " " .. walls)) do
    local k, v = line:match("^big (%S+) (%S+)$")
    if k then lua[k] = v end
  end
  if c.found ~= "1" or lua.found ~= "1" or math.abs(tonumber(c.cost) - tonumber(lua.cost)) > 1e-6 then
    fail("large grid: C and Lua disagree or found no path")
  end
  print(string.format("\nLarge grid: %dx%d, %d%% walls (seeded), corner to corner, no corner cutting, " ..
    "default algorithm (the core ran %s)", side, side, walls, c.algorithm or "?"))
  print(string.format("%-14s %10s %10s %10s %10s %10s %9s %12s", "", "create ms", "fill ms", "label ms",
    "query ms", "expanded", "cost", "memory"))
  print(string.format("%-14s %10s %10s %10s %10s %10s %9s %12s", "C core", c.create_ms, c.fill_ms,
    c.label_ms or "-", c.query_ms, c.expanded, fmt(tonumber(c.cost), 1),
    string.format("%.1f MiB", (c.grid_bytes + c.search_bytes) / 1048576)))
  print(string.format("%-14s %10s %10s %10s %10s %10s %9s %12s", "Lua 5.4", lua.create_ms, lua.fill_ms,
    "(in query)", lua.query_ms, lua.expanded, fmt(tonumber(lua.cost), 1),
    string.format("%.1f MiB RSS", lua.rss_growth_bytes / 1048576)))
  print(string.format("Memory (C core): grid %.1f MiB + search scratch %.1f MiB = %s bytes per cell. " ..
    "Lua 5.4 fill includes generating the walls in Lua (%d setWalkable calls over %d cells).",
    c.grid_bytes / 1048576, c.search_bytes / 1048576, c.bytes_per_cell, math.floor(side * side * walls / 100),
    side * side))
  local f = assert(io.open(settings.out .. "/big.tsv", "w"))
  f:write(string.format("# machine: %s, %d cores; %s\n", info.cpu, info.cores, info.date))
  f:write("column\tside\twalls_percent\tcreate_ms\tfill_ms\tlabel_ms\tquery_ms\texpanded\tcost\t"
    .. "memory_bytes (c: grid+search, lua5.4: RSS growth)\n")
  f:write(table.concat({"c", side, walls, c.create_ms, c.fill_ms, c.label_ms or "-", c.query_ms, c.expanded,
    c.cost, c.grid_bytes + c.search_bytes}, "\t"), "\n")
  f:write(table.concat({"lua5.4", side, walls, lua.create_ms, lua.fill_ms, "-", lua.query_ms, lua.expanded,
    lua.cost, lua.rss_growth_bytes}, "\t"), "\n")
  f:close()
end

local function chart(ncols, info, dir)
  if not settings.chart then return end
  local png = dir .. "/maps.png"
  local title = string.format("make bench: mean CPU time per query (log scale), Moving AI maps; %s, %d cores, %s",
    info.cpu, info.cores, info.date)
  local vars = string.format("datafile='%s'; outfile='%s'; ncols=%d; machine='%s'",
    settings.out .. "/chart.dat", png, ncols, (title:gsub("'", "")))
  local cmd = "gnuplot -e " .. quote(vars) .. " " .. here .. "/maps.gp"
  if not os.execute(cmd) then fail("gnuplot failed: " .. cmd) end
  print("Chart: " .. png)
end

local function main()
  parse_args()
  os.execute("mkdir -p " .. quote(settings.out .. "/queries") .. " " .. quote(settings.results))
  local info = machine()
  snapshot()
  local cols = columns(algorithms())
  cols.by_key = {}
  for _, col in ipairs(cols) do cols.by_key[col.key] = col end
  local maps = scen.find_maps(settings.maps)
  if #maps == 0 then fail("no .scen files in " .. settings.maps) end
  io.stderr:write(string.format("make bench on %s (%d cores): %d maps, columns:", info.cpu, info.cores,
    #maps))
  for _, col in ipairs(cols) do io.stderr:write(" ", col.key) end
  io.stderr:write("\n")

  local runs = {}
  for _, m in ipairs(maps) do
    if not settings.only or settings.only == m.name then
      local run = bench_map(m, cols)
      run.stats, run.ratios, run.ratio_n = {}, {}, {}
      for _, col in ipairs(cols) do run.stats[col.key] = stats(run.results[col.key]) end
      for _, r in ipairs(RATIOS) do
        local num, den = run.results[r[2]], run.results[r[3]]
        if num and den then run.ratios[r[1]], run.ratio_n[r[1]] = ratio(num, den) end
      end
      runs[#runs + 1] = run
    end
  end
  if #runs == 0 then fail("no map named " .. tostring(settings.only) .. " in " .. settings.maps) end

  print_tables(runs, cols, info)
  write_tsv(settings.out .. "/results.tsv", runs, cols, info)
  write_ratios(settings.out .. "/ratios.tsv", runs, cols)
  local ncols = write_chart_data(settings.out .. "/chart.dat", runs, cols)
  big_check(info)
  if settings.only then
    -- one map is not the committed figures: they stay as they are
    chart(ncols, info, settings.out)
    print("TSV: " .. settings.out .. "/results.tsv, " .. settings.out .. "/ratios.tsv (--only: "
      .. settings.results .. " left as it is)")
    return
  end
  copy(settings.out .. "/results.tsv", settings.results .. "/maps.tsv")
  copy(settings.out .. "/ratios.tsv", settings.results .. "/ratios.tsv")
  if settings.big ~= 0 then copy(settings.out .. "/big.tsv", settings.results .. "/big.tsv") end
  chart(ncols, info, settings.results)
  print("TSV: " .. settings.out .. "/results.tsv (copied to " .. settings.results .. "/maps.tsv), "
    .. settings.out .. "/ratios.tsv, " .. settings.out .. "/big.tsv")
end

main()
