# Our 8-direction floods against libtcod's Dijkstra map (issue 22), the C
# core alone on both sides (bench/libtcod_dijkstra.c): AR0011SR, whole-map
# floods from the same sources, ratios ours / libtcod in one run.
#
#   make bench-libtcod        installs libtcod-dev (Debian) when missing, runs it
#   make bench                runs it only where libtcod is installed already
#   make bench-libtcod LIBTCOD_ARGS="maps/AR0011SR.map 20 7"   map, sources, passes

LIBTCOD_BENCH = build/bench/libtcod_dijkstra
LIBTCOD_ARGS ?= maps/AR0011SR.map 20 7
BENCH_TARGETS += bench-libtcod-if-present

.PHONY: bench-libtcod bench-libtcod-if-present

$(LIBTCOD_BENCH): bench/libtcod_dijkstra.c $(CORE_SRC) $(wildcard src/core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) $$(pkg-config --cflags libtcod) -o $@ bench/libtcod_dijkstra.c \
	    $(CORE_SRC) $$(pkg-config --libs libtcod) -lm

bench-libtcod:
	@tools/install-deps.sh libtcod-dev pkg-config
	@$(MAKE) --no-print-directory $(LIBTCOD_BENCH)
	$(LIBTCOD_BENCH) $(LIBTCOD_ARGS)

bench-libtcod-if-present:
	@if pkg-config --exists libtcod 2>/dev/null; then \
	    $(MAKE) --no-print-directory $(LIBTCOD_BENCH) && $(LIBTCOD_BENCH) $(LIBTCOD_ARGS); \
	else echo "bench-libtcod: libtcod not installed, skipped (make bench-libtcod installs it)"; fi
