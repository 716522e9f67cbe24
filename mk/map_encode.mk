# Handing distance maps to threads (issue 24; README, Threads):
#
#   make bench-map-encode  bench/map_encode_bench.lua on Lua 5.4 and LuaJIT,
#                          the C module and the pure-Lua backend: map:encode()
#                          and astar.decodeMap(s) of a 256x256 map with terrain
#                          costs and 20% walls against building it (time, ratio)

BENCH_TARGETS += bench-map-encode

.PHONY: bench-map-encode

bench-map-encode:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/map_encode_bench.lua
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/map_encode_bench.lua
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" lua5.4 bench/map_encode_bench.lua
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" luajit bench/map_encode_bench.lua
