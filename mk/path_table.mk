# The default path form against the flat one (issue 22; docs/performance.md,
# The default path form):
#
#   make bench-path-table   bench/path_table_bench.lua on Lua 5.4 and LuaJIT:
#                           AR0011SR, 200 scenarios, JPS; findPath with a new
#                           {x =, y =} per cell, flat, flat into a reused
#                           table, into a reused table; pathFrom and pathTo
#                           table against flat; the collector's work counted

BENCH_TARGETS += bench-path-table

.PHONY: bench-path-table

bench-path-table:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/path_table_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/path_table_bench.lua $(MAPS)
