# The Lua API fuzzer (issue 10): libFuzzer drives require "astar" and
# require "astar.tactics" (binding + core, ASan + UBSan) through
# fuzz/lua/api_driver.lua, which turns each input into a program of API
# calls, callbacks and finalizers and checks every answer.
#
#   make fuzz-lua         run it for FUZZ_LUA_SECONDS (default 40) on the
#                         committed corpus fuzz/corpus/lua_api plus the inputs
#                         it found before (build/fuzz/corpus/lua_api); a crash
#                         or failed check leaves build/fuzz/lua_api-crash-*
#                         and fails the target (part of make test)
#   make fuzz-lua-long    the same for FUZZ_SECONDS (default 300)
#   make fuzz-lua-replay INPUT=FILE
#                         run one input, printing its program (Lua) first
#
# By hand: build/fuzz/lua_api FILE replays an input (from the repository
# root: the Lua files are read from lua/); ASTAR_FUZZ_PRINT=1 prints each
# program; ASTAR_FUZZ_CONTRACT=0 checks plain answers and crashes only; a
# program can be edited and rerun with the stock module:
#   lua5.4 fuzz/lua/api_driver.lua --print FILE > prog.lua
#   LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/5.4/?.so;;" \
#       lua5.4 fuzz/lua/api_driver.lua --program prog.lua

FUZZ_LUA_LIB = /usr/lib/$(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)/liblua5.4.a
FUZZ_LUA_BIN = build/fuzz/lua_api
FUZZ_LUA_SECONDS ?= 40
FUZZ_LUA_RUN = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1

# The driver, compiled into the binary as a C array.
build/fuzz/lua_api_driver.h: fuzz/lua/api_driver.lua
	@mkdir -p $(dir $@)
	{ echo 'static const char LUA_API_DRIVER[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0};'; } > $@

$(FUZZ_LUA_BIN): fuzz/lua/api_fuzz.c build/fuzz/lua_api_driver.h $(FUZZ_CORE_OBJECTS) \
        $(FUZZ_BINDING_OBJECTS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c99 -Wall -Wextra $(FUZZ_FLAGS) -Ibuild/fuzz -Isrc/core -Isrc/lua \
	    -I$(FUZZ_LUA_INC) -o $@ fuzz/lua/api_fuzz.c $(FUZZ_CORE_OBJECTS) $(FUZZ_BINDING_OBJECTS) \
	    $(FUZZ_LUA_LIB) -lm -ldl

# $(1) seconds on both corpora; new inputs go to build/fuzz/corpus/lua_api.
define run_lua_fuzz
	@mkdir -p build/fuzz/corpus/lua_api
	@echo "fuzz lua_api for $(1) s"
	@$(FUZZ_LUA_RUN) $(FUZZ_LUA_BIN) -max_total_time=$(1) -timeout=30 -rss_limit_mb=2048 \
	    -max_len=4096 -print_final_stats=1 -artifact_prefix=build/fuzz/lua_api- \
	    build/fuzz/corpus/lua_api fuzz/corpus/lua_api 2>build/fuzz/lua_api.log \
	    || { tail -80 build/fuzz/lua_api.log; exit 1; }
	@grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)|cov: .*(DONE|INITED)' \
	    build/fuzz/lua_api.log
endef

fuzz-lua: $(FUZZ_LUA_BIN)
	$(call run_lua_fuzz,$(FUZZ_LUA_SECONDS))

fuzz-lua-long: $(FUZZ_LUA_BIN)
	$(call run_lua_fuzz,$(FUZZ_SECONDS))

fuzz-lua-replay: $(FUZZ_LUA_BIN)
	@test -n "$(INPUT)" || { echo "usage: make fuzz-lua-replay INPUT=FILE"; exit 2; }
	$(FUZZ_LUA_RUN) ASTAR_FUZZ_PRINT=1 $(FUZZ_LUA_BIN) $(INPUT)

.PHONY: fuzz-lua fuzz-lua-long fuzz-lua-replay

TEST_TARGETS += fuzz-lua
TEST_PACKAGES += liblua5.4-dev clang libclang-rt-14-dev
