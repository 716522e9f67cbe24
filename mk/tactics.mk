# Tactics layer (issue 3): movement ranges, attack ranges, danger zones.
#
#   make bench-tactics   bench/tactics_bench.lua on Lua 5.4 and LuaJIT: ranges
#                        for move 5, 10, 20 and a 20-enemy danger zone on a
#                        64x64 cut of den312d.map, against pure-Lua Dijkstra
#   make example-tactics examples/tactics.lua (a board in the terminal)

TACTICS_MAP ?= maps/den312d.map

BENCH_TARGETS += bench-tactics

.PHONY: bench-tactics example-tactics

bench-tactics:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/tactics_bench.lua $(TACTICS_MAP)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/tactics_bench.lua $(TACTICS_MAP)

example-tactics:
	@$(MAKE) --no-print-directory LUA=5.4 all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 examples/tactics.lua
