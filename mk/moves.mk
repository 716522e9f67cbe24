# Moves and links (issue 19; README, Moves and links):
#
#   make bench-moves   bench/moves_bench.lua on Lua 5.4 and LuaJIT: findPath,
#                      movementRange and distanceMap on AR0011SR with 1% of the
#                      moves overridden and 100 links, against the same
#                      queries on the plain board

BENCH_TARGETS += bench-moves

.PHONY: bench-moves

bench-moves:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/moves_bench.lua $(MAPS)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/moves_bench.lua $(MAPS)
