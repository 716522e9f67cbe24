# Searches that cost what they explore (issue 24; README, Searches spread over
# frames):
#
#   make bench-search-start  bench/search_start_bench.lua on Lua 5.4 and LuaJIT:
#                            on a generated 256x256 board (20% walls, costs 1
#                            to 4, seed 24), short queries as findPath, as
#                            newSearch + step(math.huge) + result, and as one
#                            search restarted per query, C and the fallback;
#                            the ratios to findPath (targets: 1.05x in C,
#                            1.2x on the fallback)

BENCH_TARGETS += bench-search-start

.PHONY: bench-search-start

bench-search-start:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/search_start_bench.lua
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/search_start_bench.lua
