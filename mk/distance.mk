# Distance maps (issue 13; README, Distance maps):
#
#   make bench-distance   bench/distance_bench.lua on Lua 5.4 and LuaJIT: one
#                         distanceMap + nextStep walks for 1000 units against
#                         1000 findPath calls to the nearest of 5 goals (AR0011SR
#                         and a 64x64 board), whole maps of 512x512 and
#                         2048x2048, bytes per cell

BENCH_TARGETS += bench-distance

.PHONY: bench-distance

bench-distance:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/distance_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/distance_bench.lua $(MAPS)
