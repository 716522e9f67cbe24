# A board full of units (issue 12; README, Units on the board):
#
#   make bench-units   bench/units_bench.lua on Lua 5.4 and LuaJIT: findPath
#                      around 20 units given as a rule against toggling walls,
#                      near = 1 against a query per neighbour, a list of 5
#                      goals against 5 queries (den312d cut and AR0011SR)

BENCH_TARGETS += bench-units

.PHONY: bench-units

bench-units:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/units_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/units_bench.lua $(MAPS)
