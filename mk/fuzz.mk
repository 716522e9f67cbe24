# The libFuzzer builds' objects: mk/hardening.mk's fuzzers of the C core and
# mk/fuzz_lua.mk's fuzzer of the Lua API link the same sources, compiled once
# here with the same flags (a third of make test's time went to compiling
# them three times: UBSan's checks make src/core's kernels slow to compile).
# clang's -fsanitize=undefined already has float-cast-overflow (gcc's does not):
# it is named anyway so the flags stay right with FUZZ_CC=gcc.
FUZZ_CC = clang
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined,float-cast-overflow \
    -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LUA_INC = /usr/include/lua5.4
FUZZ_OBJ = build/fuzz/obj
FUZZ_CORE_OBJECTS = $(call objects,$(FUZZ_OBJ),$(CORE_SRC))
FUZZ_BINDING_OBJECTS = $(call objects,$(FUZZ_OBJ),$(BINDING_SRC))

$(eval $(call object_rule,$(FUZZ_OBJ),$(FUZZ_CC) -std=c99 -Wall -Wextra $(FUZZ_FLAGS) \
    -Isrc/core -Isrc/lua -I$(FUZZ_LUA_INC)))
