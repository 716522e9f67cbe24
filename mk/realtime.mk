# Real time (issue 24; README, The LÖVE demo):
#
#   make bench-realtime   bench/realtime_bench.lua on Lua 5.4 and LuaJIT, the C module
#                         and the pure-Lua fallback: peak RSS over 600 moves of the
#                         source of one 256x256 distance map (no collectgarbage), and
#                         the pathfinding time per frame of the LÖVE demo's chase
#                         scene (1000 enemies on one map) outside LÖVE

BENCH_TARGETS += bench-realtime

.PHONY: bench-realtime

REALTIME_BENCH_ENV = LUA_PATH="lua/?.lua;lua/?/init.lua;;"

bench-realtime:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	$(REALTIME_BENCH_ENV) LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/realtime_bench.lua
	$(REALTIME_BENCH_ENV) LUA_CPATH="build/luajit/?.so;;" luajit bench/realtime_bench.lua
	$(REALTIME_BENCH_ENV) ASTAR_BACKEND=lua lua5.4 bench/realtime_bench.lua
	$(REALTIME_BENCH_ENV) ASTAR_BACKEND=lua luajit bench/realtime_bench.lua
