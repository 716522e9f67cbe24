# Large units (issue 14; README, Large units):
#
#   make bench-large   bench/large_bench.lua on Lua 5.4 and LuaJIT: findPath
#                      for units of size 2 and 3 against size 1 (jump point
#                      search and A* on the size's layer, the step-pricing
#                      loop on a costed grid), building a layer, setWalkable
#                      with layers, movementRange of sizes 2 and 3 against
#                      size 1 (den312d 64x64 cut and AR0011SR); then growth
#                      in k: findPath, movementRange and distanceMap of sizes
#                      1, 4, 16 and 64 on a 512x512 board with one cell of
#                      cost 2, time per expanded position (a step newly covers
#                      k or 2k - 1 cells: at most linear in k), on both
#                      backends (the pure-Lua one: the growth rows only)

BENCH_TARGETS += bench-large

.PHONY: bench-large

bench-large:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/large_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/large_bench.lua $(MAPS)
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/large_bench.lua $(MAPS) growth
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/large_bench.lua $(MAPS) growth
