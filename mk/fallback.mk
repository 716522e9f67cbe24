# The pure-Lua fallback (issue 4, part 5): lua/astar/pure.lua and lua/astar/pure/.
#
#   make test-lua-backend   the busted suite with ASTAR_BACKEND=lua on Lua 5.4 and
#                           LuaJIT: the same specs, the pure-Lua backend, without
#                           the #slow ones (long sweeps and long lists, which the C
#                           suites run) and, on Lua 5.4, FALLBACK_ONE_LUA (below):
#                           make soak runs those on both
#   make bench-fallback     bench/fallback_bench.lua: C vs pure Lua on real maps
#                           (the fallback's default and its A*), then the pure
#                           backend's rows of bench/fallback_rows.lua
#   make bench-fallback JUMPER_DIR=dir
#                           also Jumper (pure Lua, not in this repository: a folder
#                           holding its jumper/*.lua) on AR0011SR (bench/jumper_peer.lua)
#   make bench-fallback-compare BASE=rev
#                           tools/compare-fallback.sh: the pure backend's rows,
#                           now against rev's lua/ tree, in one run
#
# FALLBACK_SKIP lists spec files the pure backend should not run: none. Specs
# that check a C-only speed-up hold only the C backend to it (astar.backend).
# FALLBACK_ONE_LUA lists the long sweeps against the independent reference
# (random boards, the Moving AI maps: 2 of the 7 minutes this target took)
# that make test runs on LuaJIT alone, the Lua of LÖVE: they drive the same
# pure code as the other specs, which run on both. make soak runs them on
# Lua 5.4 too.
FALLBACK_SKIP ?=
FALLBACK_ONE_LUA = spec/reference_spec.lua spec/maps_spec.lua
FALLBACK_LUAS ?= 5.4 luajit
FALLBACK_SPECS = $(filter-out $(FALLBACK_SKIP),$(sort $(wildcard spec/*_spec.lua)))

TEST_TARGETS += test-lua-backend
BENCH_TARGETS += bench-fallback

.PHONY: test-lua-backend bench-fallback bench-fallback-compare

# The C module is built too: the fallback is forced by ASTAR_BACKEND, not by
# its absence, so the helpers that need astar.core still load.
test-lua-backend:
	@for v in $(FALLBACK_LUAS); do \
	    $(MAKE) --no-print-directory LUA=$$v all || exit 1; \
	    if [ $$v = luajit ]; then bin=luajit; specs="$(FALLBACK_SPECS)"; \
	    else bin=lua$$v; specs="$(filter-out $(FALLBACK_ONE_LUA),$(FALLBACK_SPECS))"; fi; \
	    echo "busted, ASTAR_BACKEND=lua, $$bin"; \
	    ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/$$v/?.so;;" \
	        tools/run-specs $$bin -o spec/support/summary.lua --exclude-tags=slow \
	        -- $$specs || exit 1; \
	done

bench-fallback:
	@$(MAKE) --no-print-directory LUA=5.4 all
	@$(MAKE) --no-print-directory LUA=luajit all
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 bench/fallback_bench.lua $(or $(MAPS),maps)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" luajit bench/fallback_bench.lua $(or $(MAPS),maps)

bench-fallback-compare:
	@test -n "$(BASE)" || { echo "usage: make bench-fallback-compare BASE=rev"; exit 2; }
	tools/compare-fallback.sh $(BASE)
