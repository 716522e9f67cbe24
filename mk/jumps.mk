# Jump tables (issue 22; docs/performance.md, Jump tables):
#
#   make bench-jumps  build/bench/jumps_bench (the C core, bench/jumps_bench.c) on
#                     AR0011SR and 8room_000: jump point search with the grid's jump
#                     tables against plain jump point search on the same 500
#                     queries in one run, with 0, 2, 10 and 100 random
#                     setWalkable between queries, as the library applies them
#                     (when calm) and, built with -DJUMPS_APPLY_ALL, every one
#                     before the next query; the tables' memory per cell and the
#                     cost of one edit on the map and on 4096x4096; then findPath
#                     from Lua 5.4 with {flat = true} (bench/jumps_lua.lua)

BENCH_TARGETS += bench-jumps
JUMPS_BENCH = build/bench/jumps_bench
JUMPS_BENCH_ALL = build/bench/jumps_bench_all
JUMPS_EDITS = 2,10,100

.PHONY: bench-jumps

$(JUMPS_BENCH): bench/jumps_bench.c $(CORE_SRC) $(wildcard src/core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) -o $@ bench/jumps_bench.c $(CORE_SRC) -lm

$(JUMPS_BENCH_ALL): bench/jumps_bench.c $(CORE_SRC) $(wildcard src/core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) -DJUMPS_APPLY_ALL -o $@ bench/jumps_bench.c $(CORE_SRC) -lm

bench-jumps: $(JUMPS_BENCH) $(JUMPS_BENCH_ALL)
	@$(MAKE) --no-print-directory LUA=5.4 all
	$(JUMPS_BENCH) $(MAPS)/AR0011SR.map $(MAPS)/AR0011SR.map.scen $(JUMPS_EDITS) 4096
	$(JUMPS_BENCH_ALL) $(MAPS)/AR0011SR.map $(MAPS)/AR0011SR.map.scen $(JUMPS_EDITS) 0
	$(JUMPS_BENCH) $(MAPS)/8room_000.map $(MAPS)/8room_000.map.scen $(JUMPS_EDITS) 0
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/jumps_lua.lua $(MAPS)/AR0011SR.map $(MAPS)/AR0011SR.map.scen
