# Smoothing (issue 20; README, Moving sprites along a path):
#
#   make bench-smooth  bench/smooth_bench.lua on Lua 5.4 and LuaJIT: findPath
#                      on AR0011SR's scenarios with smooth = "corners", "sight"
#                      and "theta" against the plain query (time, ratio, cost
#                      and length saved, waypoints), on the map as it is (jump
#                      point search) and with patches of costs (A*)

BENCH_TARGETS += bench-smooth

.PHONY: bench-smooth

bench-smooth:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/smooth_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/smooth_bench.lua $(MAPS)
