# astar: build the C module for one Lua, run specs, demo and checks.
#
#   make                 build build/5.4/astar/core.so (LUA=5.1|5.2|5.3|5.4|luajit)
#   make demo            install what is missing, build, draw a path on a real map
#   make test            install what is missing, build, run every spec on Lua 5.4 and LuaJIT
#   make check           the specs alone, on Lua 5.4 and LuaJIT (C module), quickly
#   make test-all        the specs on Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT
#   make lint            luacheck, the C built warning-free with gcc and clang, and
#                        src/core's layers depending downward only (tools/check-layers)
#   make bench           benchmarks on the Moving AI maps in maps/ (see mk/*.mk)
#   make rock            luarocks make on the rockspec (into build/rocktree, no server)
#   make dist            the release in build/dist: tarball, rockspec, rock, love/ (mk/dist.mk)

LUA ?= 5.4
CC ?= cc
CFLAGS ?= -O2 -g
WARNINGS = -std=c99 -Wall -Wextra -Wpedantic
ifeq ($(LUA),luajit)
  LUA_BIN = luajit
  LUA_INC = /usr/include/luajit-2.1
else
  LUA_BIN = lua$(LUA)
  LUA_INC = /usr/include/lua$(LUA)
endif

BUILD = build/$(LUA)
MODULE = $(BUILD)/astar/core.so
CORE_SRC = $(wildcard src/core/*.c)
BINDING_SRC = $(wildcard src/lua/*.c)
HEADERS = $(wildcard src/core/*.h src/lua/*.h)
OBJECTS = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(CORE_SRC) $(BINDING_SRC))

# What each job needs on Debian/Ubuntu (installed by tools/install-deps.sh).
DEMO_PACKAGES = gcc make lua5.4 liblua5.4-dev
TEST_PACKAGES = $(DEMO_PACKAGES) luajit libluajit-5.1-dev lua-busted lua-check clang luarocks
ALL_LUA_PACKAGES = lua5.1 liblua5.1-0-dev lua5.2 liblua5.2-dev lua5.3 liblua5.3-dev

# Run Lua against this checkout: our Lua files and the module built for $(LUA).
RUN_ENV = LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$(BUILD)/?.so;;"

# The objects of one kind of build (a sanitizer's, a fuzzer's), each source
# compiled once and shared by every module and program linked from them:
# $(eval $(call object_rule,DIR,COMPILER AND FLAGS)) makes DIR/core/x.o and
# DIR/lua/x.o from src/core/x.c and src/lua/x.c; $(call objects,DIR,SOURCES)
# names them.
define object_rule
$(1)/%.o: src/%.c $$(HEADERS)
	@mkdir -p $$(dir $$@)
	$(2) -c $$< -o $$@
endef
objects = $(patsubst src/%.c,$(1)/%.o,$(2))

# Parts of the project add their own targets in mk/*.mk: a part appends to
# TEST_TARGETS (run by make test after the specs), BENCH_TARGETS (make bench)
# and TEST_PACKAGES (what make test installs).
.DEFAULT_GOAL := all
TEST_TARGETS =
BENCH_TARGETS =
-include $(sort $(wildcard mk/*.mk))

.PHONY: all demo test test-all test-one check lint rock deps bench clean

all: $(MODULE)

$(BUILD)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) -fPIC -I$(LUA_INC) -c $< -o $@

$(MODULE): $(OBJECTS)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $(OBJECTS) -lm

demo:
	@tools/install-deps.sh $(DEMO_PACKAGES)
	@$(MAKE) --no-print-directory LUA=5.4 all
	LUA_PATH="lua/?.lua;;" LUA_CPATH="build/5.4/?.so;;" lua5.4 examples/demo.lua

deps:
	@tools/install-deps.sh $(TEST_PACKAGES)

# The spec suite on one Lua: make test-one LUA=luajit
test-one: all
	@$(RUN_ENV) tools/run-specs $(LUA_BIN) -o spec/support/summary.lua $(SPEC_OPTS)

# The specs alone (no lint, sanitizers, LÖVE...): a quick run while working.
check:
	@tools/install-deps.sh $(DEMO_PACKAGES) luajit libluajit-5.1-dev lua-busted
	@$(MAKE) --no-print-directory test-one LUA=5.4
	@$(MAKE) --no-print-directory test-one LUA=luajit

# make test runs in two lanes at once, one per core, once the modules are
# built: each lane runs its targets in order, and no target of one lane writes
# what the other reads (their own build/ folders). Lane 2 prints into
# build/lane2.log, shown when both are done; any failure fails the run. The
# #slow tests (long sweeps, long lists) run in lane 2's LuaJIT suite; lane 1's
# Lua 5.4 suite leaves them out, as the sanitizer, valgrind and pure-backend
# runs do (make soak runs them under ASan and on the pure backend).
# The lanes as measured on an idle 2-core VM (build/lanes.times, a clean
# clone, 15:41 in all): lane 1 the Lua 5.4 specs 148 s, rock 28,
# rock-install-test 76, test-lua-backend 163, fuzz-lua 309, fuzz-short 44,
# windows-test 67; lane 2 the LuaJIT specs 95, lint 17, sanitize 162,
# valgrind 426, rss-check 118, threads-test 40, LÖVE 10.
TEST_LANE2 = sanitize valgrind rss-check threads-test love-test love-screenshot-test
LANE2 = $(filter $(TEST_LANE2),$(TEST_TARGETS))
LANE1 = $(filter-out $(TEST_LANE2),$(TEST_TARGETS))
# One lane step ($$t, a target and its variables), with its time printed: the
# times say which lane to move a target to when make test grows.
TIMED = s=$$(date +%s); $(MAKE) --no-print-directory $$t; r=$$?; \
	echo "make test: lane $(1): $$t took $$(( $$(date +%s) - s )) s" | tee -a build/lanes.times; \
	test $$r -eq 0

test: deps
	@for v in 5.4 luajit 5.1; do $(MAKE) --no-print-directory -j2 LUA=$$v all || exit 1; done
	@mkdir -p build && rm -f build/lanes.times
	@( for t in "test-one LUA=luajit" lint $(LANE2); do $(call TIMED,2) || exit 1; done \
	 ) > build/lane2.log 2>&1 & lane2=$$!; \
	( for t in "test-one LUA=5.4 SPEC_OPTS=--exclude-tags=slow" rock $(LANE1); do \
	      $(call TIMED,1) || exit 1; done ); lane1=$$?; \
	wait $$lane2; lane2=$$?; \
	echo "---- lane 2: test-one LUA=luajit, lint, $(LANE2) (build/lane2.log)"; \
	cat build/lane2.log; \
	echo "make test: lane 1 $$( [ $$lane1 -eq 0 ] && echo ok || echo FAILED )," \
	     "lane 2 $$( [ $$lane2 -eq 0 ] && echo ok || echo FAILED )"; \
	cat build/lanes.times; \
	test $$lane1 -eq 0 && test $$lane2 -eq 0

bench: deps
	@for t in $(BENCH_TARGETS); do $(MAKE) --no-print-directory $$t || exit 1; done

test-all: deps
	@tools/install-deps.sh $(ALL_LUA_PACKAGES)
	@for v in 5.1 5.2 5.3 5.4 luajit; do \
	    $(MAKE) --no-print-directory test-one LUA=$$v || exit 1; done

lint:
	luacheck -q lua spec examples bench fuzz types
	@for cc in gcc clang; do \
	    for f in $(CORE_SRC) $(BINDING_SRC); do \
	        $$cc $(WARNINGS) -Werror -O2 -I$(LUA_INC) -fsyntax-only $$f || exit 1; \
	    done; echo "$$cc: no warnings"; done
	CC="$(CC)" tools/check-layers src/core

# luarocks make on the development rockspec, into a tree under build/: it builds
# out of tree (mk/dist.mk, rock-build), so the checkout must be left exactly as
# it was (no astar/core.so, no src/*/*.o: a stray ./astar/core.so would be found
# by the default ./?.so cpath). Then tools/check-rock.lua runs against the tree.
ROCK_TREE ?= build/rocktree
rock:
	luarocks --lua-version=5.4 --tree $(ROCK_TREE) make rockspec/astar-grid-scm-1.rockspec
	@test ! -e astar && test ! -e build/luarocks && test -z "$$(find src -name '*.o')" \
	    || { echo "luarocks make left astar/, build/luarocks or src/**/*.o"; exit 1; }
	cd $(ROCK_TREE) && env -u ASTAR_BACKEND LUA_PATH="$(CURDIR)/$(ROCK_TREE)/share/lua/5.4/?.lua" \
	    LUA_CPATH="$(CURDIR)/$(ROCK_TREE)/lib/lua/5.4/?.so" \
	    lua5.4 $(CURDIR)/tools/check-rock.lua $(VERSION) $(CURDIR)/$(ROCK_TREE)

clean:
	rm -rf build
