# What the robustness work of issue 10 costs (docs/robustness.md):
#
#   make bench-robustness   bench/setcost_bench.c (the C core alone: ns per
#                           setCost rewriting every cost of a 512x512 grid,
#                           rising, falling, lower) and bench/robustness_bench.lua
#                           on Lua 5.4 and LuaJIT (newSearch + step + result
#                           against findPath on AR0011SR, setCost from Lua,
#                           ranges with a callback, grids dropped in a loop,
#                           stepped searches on a grid edited every frame)

SETCOST_BENCH = build/bench/setcost_bench
BENCH_TARGETS += bench-robustness

.PHONY: bench-robustness

$(SETCOST_BENCH): bench/setcost_bench.c $(CORE_SRC) $(wildcard src/core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) -o $@ bench/setcost_bench.c $(CORE_SRC) -lm

bench-robustness: $(SETCOST_BENCH)
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	$(SETCOST_BENCH) 512 3
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/robustness_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/robustness_bench.lua $(MAPS)
