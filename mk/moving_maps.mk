# Distance maps that move (issue 24; README, Distance maps):
#
#   make bench-moving-maps   bench/moving_maps_bench.lua on Lua 5.4 and LuaJIT
#                            with the C module: map:update after one wall toggle
#                            near the source, maxCost = 40 against uncapped
#                            (distanceMap and setSources), setSources to a
#                            moving source, each against a new map (256x256,
#                            20% walls); a rebuild in slices of 5000 cells
#                            (the worst slice, the total)

BENCH_TARGETS += bench-moving-maps

.PHONY: bench-moving-maps

bench-moving-maps:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/moving_maps_bench.lua
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/moving_maps_bench.lua
