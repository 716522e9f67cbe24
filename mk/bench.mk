# make bench, the maps part (bench/; README, Performance): every map and
# scenario file in $(MAPS), timed in the C core alone, from Lua 5.4 and
# LuaJIT (findPath's default path, and the -flat columns: {flat = true,
# into = buf}), and in a pure-Lua A*; prints the table, writes
# build/bench/*.tsv and bench/results/ (maps.tsv, ratios.tsv, big.tsv, maps.png).
#
#   make bench MAPS=dir               another map folder
#   make bench-maps BENCH_ARGS="--only AR0011SR --big 0"   one map, no 4096 check
#                                     (--only leaves bench/results as it is)
#   make bench BENCH_ARGS="--astar-flat subset"   A* -flat columns on the pure-Lua
#                                     queries only (a minute less; the default is all)

MAPS ?= maps
BENCH_ARGS ?=
BENCH_PACKAGES = gnuplot-nox
BENCH_DRIVER = build/bench/driver
BENCH_TARGETS += bench-maps

.PHONY: bench-maps

# The driver links the core's sources directly: no Lua, same flags as the module.
$(BENCH_DRIVER): bench/driver.c $(CORE_SRC) $(wildcard src/core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) -o $@ bench/driver.c $(CORE_SRC) -lm

bench-maps:
	@tools/install-deps.sh $(BENCH_PACKAGES) lua5.4 luajit
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	@$(MAKE) --no-print-directory $(BENCH_DRIVER)
	lua5.4 bench/maps_bench.lua --maps "$(MAPS)" $(BENCH_ARGS)

# Instruction counts of the plain queries (bench/plain_queries.lua) under
# callgrind, the module of revision BASE against the working tree, row by row:
#   make bench-instructions BASE=062c5b5
BASE ?= HEAD
.PHONY: bench-instructions
bench-instructions:
	@tools/install-deps.sh valgrind lua5.4 liblua5.4-dev
	tools/compare-instructions.sh $(BASE)
