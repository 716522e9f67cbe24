# Hex boards (issue 14; README, Hex boards):
#
#   make bench-hex   bench/hex_bench.lua on Lua 5.4 and LuaJIT: A* on hex boards
#                    against A* on square boards of the same size and walls
#                    (AR0011SR, and 256x256 with random walls and costs)

BENCH_TARGETS += bench-hex

.PHONY: bench-hex

bench-hex:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/hex_bench.lua $(or $(MAPS),maps)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/hex_bench.lua $(or $(MAPS),maps)
