# Hardening (issue 6): sanitizers, valgrind, fuzzing, memory and thread checks.
#
#   make sanitize      the spec suite on Lua 5.4 with the module built with
#                      AddressSanitizer + UndefinedBehaviorSanitizer (zero reports),
#                      less the tests tagged #slow (below)
#   make valgrind      the spec suite under memcheck (zero errors, zero
#                      definitely-lost bytes), less the tests tagged #slow: the
#                      long generated sweeps and long lists (they run in the C
#                      suites of Lua 5.4 and LuaJIT, and in make soak; the
#                      code they drive is met by the smaller tests of the same files),
#                      and less the re-entrancy and bad-input lists (VALGRIND_SKIP)
#   make valgrind-lists  those lists under memcheck (part of make soak)
#   make soak          the #slow tests that make test's sanitize and pure-backend
#                      runs leave out: under ASan, and on the pure backend on LuaJIT
#                      and Lua 5.4; the pure backend's FALLBACK_ONE_LUA on Lua 5.4
#                      (mk/fallback.mk); and make valgrind-lists
#                      (sanitize and valgrind skip HARDEN_SKIP, see below)
#   make fuzz          every libFuzzer target for FUZZ_SECONDS each (default 300)
#   make fuzz-short    the same for FUZZ_SHORT_SECONDS each (default 20): CI
#   make rss-check     peak RSS of loops that drop grids, searches, ranges and
#                      levels to the collector stays within 3 x live + 50 MB
#                      (Lua 5.4 incremental and generational, LuaJIT, Lua 5.1);
#                      10,000 grids and 10,000 aborted searches do not grow RSS;
#                      an allocation too large for memory is an error, not an abort
#   make threads-test  under TSan: 4 Lua states on 4 threads searching at once;
#                      4 threads searching one read-only grid through the C API;
#                      4 Lua states running tactics, stepped searches and decode
#                      of one shared encoding; answers equal to a 1-thread run
#
# The interpreter is not instrumented: the sanitized module is loaded into the
# stock lua5.4 with the ASan runtime preloaded. Every target picks up the whole
# spec suite (busted's ROOT in .busted), so new specs are covered as they land.

HARDEN_LUA = 5.4
HARDEN_LUA_INC = /usr/include/lua$(HARDEN_LUA)
HARDEN_SRC = $(CORE_SRC) $(BINDING_SRC)
HARDEN_LUA_PATH = lua/?.lua;lua/?/init.lua;spec/?.lua;;
# Every spec file except the sweeps over the Moving AI benchmark maps (minutes
# natively; the loader, A* and JPS code they run is covered by the other specs
# and the fuzzers). valgrind (20-50x slower) also skips the reference sweep.
HARDEN_SKIP ?= spec/maps_spec.lua spec/jps_spec.lua
# It also skips the specs of Lua-side logic alone (the annotation files, the
# loader's search, the lazy tactics methods): the C they load is every spec's.
# And, to keep make test within its 20 minutes, the three long lists of error
# paths, callbacks and finalizers (VALGRIND_LISTS: bad input, re-entrancy by
# callbacks and by finalizers; the finalizer matrix alone took 6 of the 26
# minutes valgrind's files added up to): ASan and UBSan run them in make test (make
# sanitize), where a use after free or an overflow of theirs shows at once,
# and make valgrind-lists runs them under memcheck.
VALGRIND_LISTS = spec/bad_input_spec.lua spec/reentrancy_spec.lua \
    spec/reentrancy_finalizers_spec.lua
VALGRIND_SKIP ?= $(HARDEN_SKIP) spec/reference_spec.lua spec/annotations_spec.lua \
    spec/loader_spec.lua spec/tactics_lazy_spec.lua $(VALGRIND_LISTS)
HARDEN_SPECS = $(filter-out $(HARDEN_SKIP),$(sort $(wildcard spec/*_spec.lua)))

# ---- AddressSanitizer + UBSan -------------------------------------------------
# gcc's runtimes: the module links libasan/libubsan dynamically, and the same
# libasan is preloaded so it comes first in the interpreter.
# -fsanitize=undefined leaves out float-cast-overflow (a double converted to an
# integer type that cannot hold it: UB in C99 6.3.1.4), so it is asked for by name.
SAN_CC = gcc
SAN_FLAGS = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
    -fno-omit-frame-pointer
SAN_MODULE = build/asan/astar/core.so
SAN_ENV = LD_PRELOAD=$(shell $(SAN_CC) -print-file-name=libasan.so) \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:check_initialization_order=1:strict_string_checks=1:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

$(SAN_MODULE): $(HARDEN_SRC) $(HEADERS) mk/hardening.mk
	@mkdir -p $(dir $@)
	$(SAN_CC) $(WARNINGS) -O1 -g $(SAN_FLAGS) -fPIC -shared -I$(HARDEN_LUA_INC) \
	    -o $@ $(HARDEN_SRC) -lm

sanitize: $(SAN_MODULE)
	ASTAR_BACKEND=c LUA_PATH="$(HARDEN_LUA_PATH)" LUA_CPATH="build/asan/?.so;;" \
	    tools/run-specs --env "$(SAN_ENV)" lua$(HARDEN_LUA) -o spec/support/summary.lua \
	    --exclude-tags=slow -- $(HARDEN_SPECS)

# make test's sanitize and pure-backend runs without their #slow tests: those alone
.PHONY: soak
soak: $(SAN_MODULE)
	ASTAR_BACKEND=c LUA_PATH="$(HARDEN_LUA_PATH)" LUA_CPATH="build/asan/?.so;;" \
	    tools/run-specs --env "$(SAN_ENV)" lua$(HARDEN_LUA) -o spec/support/summary.lua \
	    --tags=slow -- $(HARDEN_SPECS)
	@$(MAKE) --no-print-directory LUA=luajit all
	@$(MAKE) --no-print-directory LUA=5.4 all
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/luajit/?.so;;" \
	    tools/run-specs luajit -o spec/support/summary.lua --tags=slow
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" \
	    tools/run-specs lua5.4 -o spec/support/summary.lua --tags=slow
	ASTAR_BACKEND=lua LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" \
	    tools/run-specs lua5.4 -o spec/support/summary.lua --exclude-tags=slow -- $(FALLBACK_ONE_LUA)
	@$(MAKE) --no-print-directory valgrind-lists

# ---- valgrind memcheck --------------------------------------------------------
# A plain -O1 -g build (no sanitizer) so memcheck sees the real allocations.
VG_MODULE = build/valgrind/astar/core.so
# --track-origins doubles memcheck's time (48 against 22 s for grid_spec): it only
# says where an uninitialised value came from, so it is off in make test; turn
# it on to read a report: make valgrind VG_ORIGINS=yes
VG_ORIGINS ?= no
VG_FLAGS = --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --track-origins=$(VG_ORIGINS) --quiet

VG_OBJ = build/valgrind/obj
$(eval $(call object_rule,$(VG_OBJ),$(CC) $(WARNINGS) -O1 -g -fPIC -I$(HARDEN_LUA_INC)))

$(VG_MODULE): $(call objects,$(VG_OBJ),$(HARDEN_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $^ -lm

# tests/core_api.c calls the C core without Lua, covering the public functions
# the binding never calls (versions, memory reports, walking a path by hand).
build/valgrind/core_api: tests/core_api.c $(call objects,$(VG_OBJ),$(CORE_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) -O1 -g -Isrc/core -o $@ $^ -lm

# The specs run in two memcheck processes at once, one per core, each taking
# the next file (tools/run-specs -j 2): memcheck is single-threaded and the
# longest target.
VG_SPECS = $(filter-out $(VALGRIND_SKIP),$(HARDEN_SPECS))
VG_BUSTED = ASTAR_BACKEND=c LUA_PATH="$(HARDEN_LUA_PATH)" LUA_CPATH="build/valgrind/?.so;;" \
    tools/run-specs -j 2 "valgrind $(VG_FLAGS) lua$(HARDEN_LUA)" -o spec/support/summary.lua \
    --exclude-tags=slow --

valgrind: $(VG_MODULE) build/valgrind/core_api
	valgrind $(VG_FLAGS) build/valgrind/core_api
	@$(VG_BUSTED) $(VG_SPECS)

valgrind-lists: $(VG_MODULE)
	@$(VG_BUSTED) $(VALGRIND_LISTS)

# ---- libFuzzer ------------------------------------------------------------------
# One binary per fuzz/*_fuzz.c, linked with the pure-C core only (no Lua), from
# the objects mk/fuzz.mk compiles once for every fuzzer.
FUZZ_TARGETS = $(patsubst fuzz/%.c,build/fuzz/%,$(wildcard fuzz/*_fuzz.c))
FUZZ_SECONDS ?= 300
FUZZ_SHORT_SECONDS ?= 20

build/fuzz/%: fuzz/%.c $(FUZZ_CORE_OBJECTS) mk/hardening.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c99 -Wall -Wextra $(FUZZ_FLAGS) -Isrc/core -o $@ $< $(FUZZ_CORE_OBJECTS) -lm

fuzz-build: $(FUZZ_TARGETS)

# Runs each target on its committed seed corpus (fuzz/corpus/NAME) plus new
# inputs kept in build/fuzz/corpus/NAME, for $(1) seconds; a crash or a failed
# check leaves its input in build/fuzz/ and fails the target.
define run_fuzzers
	@for t in $(FUZZ_TARGETS); do \
	    name=$$(basename $$t _fuzz); \
	    mkdir -p build/fuzz/corpus/$$name; \
	    echo "fuzz $$name for $(1) s"; \
	    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	    $$t -max_total_time=$(1) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	        -artifact_prefix=build/fuzz/$$name- \
	        build/fuzz/corpus/$$name fuzz/corpus/$$name 2>build/fuzz/$$name.log \
	        || { tail -60 build/fuzz/$$name.log; exit 1; }; \
	    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' build/fuzz/$$name.log; \
	done
endef

fuzz: $(FUZZ_TARGETS)
	$(call run_fuzzers,$(FUZZ_SECONDS))

fuzz-short: $(FUZZ_TARGETS)
	$(call run_fuzzers,$(FUZZ_SHORT_SECONDS))

# ---- memory: peak RSS, growth and allocation failures -----------------------
# tests/rss.lua runs every scenario in its own process on each Lua below
# (NAME=INTERPRETER=MODULE_DIR[=generational]), prints a table and keeps it in
# build/rss-peak.txt: peak RSS <= 3 x live data + 50 MB with no collectgarbage
# in the loops, and no RSS growth over 10,000 rounds.
RSS_LUAS = 5.4=lua5.4=build/5.4 5.4-gen=lua5.4=build/5.4=generational \
    luajit=luajit=build/luajit 5.1=lua5.1=build/5.1

rss-check:
	@for v in 5.4 luajit 5.1; do $(MAKE) --no-print-directory LUA=$$v all || exit 1; done
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" lua$(HARDEN_LUA) tests/rss.lua \
	    --out build/rss-peak.txt $(RSS_LUAS)
	# 800 MB of address space: a grid whose cost layer or search scratch does not
	# fit must give "not enough memory", not a crash
	ulimit -v 800000 && LUA_PATH="lua/?.lua;lua/?/init.lua;;" \
	    LUA_CPATH="build/$(HARDEN_LUA)/?.so;;" lua$(HARDEN_LUA) tests/oom.lua

# ---- ThreadSanitizer ------------------------------------------------------------
TSAN_FLAGS = -g -O1 -fsanitize=thread -fno-omit-frame-pointer
TSAN_MODULE = build/tsan/astar/core.so
TSAN_OBJ = build/tsan/obj
$(eval $(call object_rule,$(TSAN_OBJ),clang $(WARNINGS) $(TSAN_FLAGS) -fPIC -I$(HARDEN_LUA_INC)))

$(TSAN_MODULE): $(call objects,$(TSAN_OBJ),$(HARDEN_SRC)) mk/hardening.mk
	@mkdir -p $(dir $@)
	clang $(TSAN_FLAGS) -shared -o $@ $(call objects,$(TSAN_OBJ),$(HARDEN_SRC)) -lm

# The test program calls the C core itself too (one grid searched by several
# threads), so it is linked with the same TSan objects of the core.
build/tsan/threads: tests/threads.c $(call objects,$(TSAN_OBJ),$(CORE_SRC)) mk/hardening.mk
	@mkdir -p $(dir $@)
	clang $(WARNINGS) $(TSAN_FLAGS) -I$(HARDEN_LUA_INC) -Isrc/core -o $@ tests/threads.c \
	    $(call objects,$(TSAN_OBJ),$(CORE_SRC)) -llua$(HARDEN_LUA) -lpthread -lm

# history_size=7 (the largest) keeps enough of each thread's past for TSan to
# report a race whose first access is long gone: with the default, a global
# counter written by every range query went unreported in 2 runs out of 3.
threads-test: $(TSAN_MODULE) build/tsan/threads
	ASTAR_BACKEND=c TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:history_size=7 \
	    LUA_PATH="$(HARDEN_LUA_PATH)" LUA_CPATH="build/tsan/?.so;;" build/tsan/threads

.PHONY: sanitize valgrind valgrind-lists fuzz fuzz-short fuzz-build rss-check threads-test

TEST_TARGETS += sanitize valgrind fuzz-short rss-check threads-test
TEST_PACKAGES += valgrind clang libclang-rt-14-dev lua5.1 liblua5.1-0-dev
