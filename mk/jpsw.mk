# Jump point search on weighted grids (issue 22; docs/performance.md):
#
#   make bench-jpsw  bench/jpsw_bench.lua on Lua 5.4: findPath with the default
#                    "auto" against algorithm = "astar" on AR0011SR with about
#                    30% of its open cells in patches of cost 2-4 (seed 22),
#                    then with 3%, 8 and 4
#                    directions, the ratio in one run, every cost checked
#                    equal to A*'s to the last bit

BENCH_TARGETS += bench-jpsw

.PHONY: bench-jpsw

bench-jpsw:
	@$(MAKE) --no-print-directory LUA=5.4 all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/jpsw_bench.lua $(MAPS)
	SHARE=0.03 LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/jpsw_bench.lua $(MAPS)
