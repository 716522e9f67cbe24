# Windows (issue 11): astar/core.dll cross-compiled with Debian's mingw-w64.
#
#   make windows-dlls   build/windows/love-win64/astar/core.dll  64-bit LÖVE 11 (lua51.dll)
#                       build/windows/love-win32/astar/core.dll  32-bit LÖVE 11 (lua51.dll)
#                       build/windows/lua54-win64/astar/core.dll 64-bit Lua 5.4 (lua54.dll)
#   make windows-test   the DLLs, then: each exports luaopen_astar_core only and
#                       imports only from its Lua DLL, msvcrt.dll and KERNEL32.dll;
#                       under Wine (no display): tests/core_api.c cross-compiled
#                       with the core, and each DLL loaded the way require loads
#                       it, next to a stand-in Lua DLL (see docs/windows.md)
#
# The module links against the Lua DLL through an import library made with
# dlltool from a .def that tools/lua-def.sh writes from the objects: exactly the
# Lua C API functions they call, each checked to be LUA_API / LUALIB_API in that
# Lua's headers. libgcc is linked statically, so the DLL needs nothing beyond
# the Lua DLL and what every Windows has. -D__USE_MINGW_ANSI_STDIO=1 gives C99
# printf (snprintf "%.14g" writes 1e+15, as on Linux, not msvcrt's 1e+015).
# --no-insert-timestamp makes the DLLs reproducible (the same bytes every build).

WIN_OUT = build/windows
WIN_VARIANTS = love-win64 love-win32 lua54-win64
WIN_CFLAGS ?= -O2
WIN_FLAGS = $(WARNINGS) -Werror -D__USE_MINGW_ANSI_STDIO=1
WIN_LDFLAGS = -static-libgcc -s -Wl,--no-undefined -Wl,--no-insert-timestamp

# per variant: the mingw-w64 target, the Lua headers and the Lua DLL's name
love-win64_ARCH = x86_64-w64-mingw32
love-win64_INC = /usr/include/luajit-2.1
love-win64_LUADLL = lua51.dll
love-win32_ARCH = i686-w64-mingw32
love-win32_MFLAGS = $(WIN32_MFLAGS)
love-win32_INC = /usr/include/luajit-2.1
love-win32_LUADLL = lua51.dll
lua54-win64_ARCH = x86_64-w64-mingw32
lua54-win64_INC = /usr/include/lua5.4
lua54-win64_LUADLL = lua54.dll

# 32-bit x86: SSE2 arithmetic, as on x86-64, so doubles are rounded the same way
# (x87 registers keep 80 bits and could order equal-cost cells differently);
# LuaJIT 2.1, LÖVE 11's Lua, needs SSE2 itself. Windows only promises a 4-byte
# aligned stack to a 32-bit callee, so GCC realigns where SSE needs 16.
WIN32_MFLAGS = -msse2 -mfpmath=sse -mincoming-stack-boundary=2

WIN_DLLS = $(foreach v,$(WIN_VARIANTS),$(WIN_OUT)/$(v)/astar/core.dll)

# $(1): variant. Objects, the Lua DLL's .def and import library, the module,
# and a load-test folder laid out like a LÖVE install (loadtest.exe where
# love.exe is, the stand-in Lua DLL beside it, astar\core.dll below).
# The C core knows no Lua: its objects are compiled once per architecture
# (win64, win32) and shared by that architecture's DLLs and core_api.exe.
win64_ARCH = x86_64-w64-mingw32
win32_ARCH = i686-w64-mingw32
win32_MFLAGS = $(WIN32_MFLAGS)
love-win64_CORE = win64
love-win32_CORE = win32
lua54-win64_CORE = win64

define WIN_ARCH_RULES
$(1)_CORE_OBJECTS = $$(patsubst src/core/%.c,$(WIN_OUT)/core-$(1)/%.o,$$(CORE_SRC))

$(WIN_OUT)/core-$(1)/%.o: src/core/%.c $$(HEADERS) mk/windows.mk
	@mkdir -p $$(dir $$@)
	$$($(1)_ARCH)-gcc $$(WIN_FLAGS) $$(WIN_CFLAGS) $$($(1)_MFLAGS) -c $$< -o $$@

$(WIN_OUT)/test-$(1)/core_api.exe: tests/core_api.c $$($(1)_CORE_OBJECTS)
	@mkdir -p $$(dir $$@)
	$$($(1)_ARCH)-gcc $$(WIN_FLAGS) $$(WIN_CFLAGS) $$($(1)_MFLAGS) -static-libgcc -Isrc/core -o $$@ $$^
endef
$(foreach a,win64 win32,$(eval $(call WIN_ARCH_RULES,$(a))))

define WIN_VARIANT_RULES
$(1)_OBJECTS = $$($$($(1)_CORE)_CORE_OBJECTS) \
    $$(patsubst src/lua/%.c,$(WIN_OUT)/$(1)/obj/lua/%.o,$$(BINDING_SRC))

$(WIN_OUT)/$(1)/obj/lua/%.o: src/lua/%.c $$(HEADERS) mk/windows.mk
	@mkdir -p $$(dir $$@)
	$$($(1)_ARCH)-gcc $$(WIN_FLAGS) $$(WIN_CFLAGS) $$($(1)_MFLAGS) -I$$($(1)_INC) -c $$< -o $$@

$(WIN_OUT)/$(1)/lua.def: $$($(1)_OBJECTS) tools/lua-def.sh
	tools/lua-def.sh $$($(1)_ARCH)-nm $$($(1)_LUADLL) $$($(1)_INC) $$($(1)_OBJECTS) > $$@.tmp
	@mv $$@.tmp $$@

$(WIN_OUT)/$(1)/liblua.dll.a: $(WIN_OUT)/$(1)/lua.def
	$$($(1)_ARCH)-dlltool -d $$< -D $$($(1)_LUADLL) -l $$@

$(WIN_OUT)/$(1)/astar/core.dll: $$($(1)_OBJECTS) $(WIN_OUT)/$(1)/liblua.dll.a
	@mkdir -p $$(dir $$@)
	$$($(1)_ARCH)-gcc -shared $$(WIN_LDFLAGS) -o $$@ $$($(1)_OBJECTS) $(WIN_OUT)/$(1)/liblua.dll.a

$(WIN_OUT)/$(1)/loadtest/loadtest.exe: tools/windows-loadtest.c tools/windows-luastub.c \
        $(WIN_OUT)/$(1)/lua.def $(WIN_OUT)/$(1)/astar/core.dll
	@rm -rf $$(dir $$@) && mkdir -p $$(dir $$@)astar
	sed 's/^[[:space:]]*\(luaL\{0,1\}_[A-Za-z0-9_]*\)$$$$/    \1 = astar_lua_stub/' \
	    $(WIN_OUT)/$(1)/lua.def > $$(dir $$@)stub.def
	$$($(1)_ARCH)-gcc $$(WIN_FLAGS) -O2 -shared $$(WIN_LDFLAGS) \
	    -o $$(dir $$@)$$($(1)_LUADLL) tools/windows-luastub.c $$(dir $$@)stub.def
	cp $(WIN_OUT)/$(1)/astar/core.dll $$(dir $$@)astar/core.dll
	$$($(1)_ARCH)-gcc $$(WIN_FLAGS) -O2 -static-libgcc -o $$@ tools/windows-loadtest.c
endef
$(foreach v,$(WIN_VARIANTS),$(eval $(call WIN_VARIANT_RULES,$(v))))

windows-dlls: $(WIN_DLLS)

# tests/core_api.c with the core, no Lua: one executable per architecture.
# ---- Wine ---------------------------------------------------------------------
# A prefix of our own under build/, made once (wineboot -i; about 5 s and 700 MB,
# most of it Wine's own DLLs copied in), with no display, no Mono or Gecko
# installer (WINEDLLOVERRIDES), and a marker written only when it is complete,
# so an interrupted first run is redone, not reused. Debian's wine64 runs 64-bit
# programs only; the 32-bit ones run when wine32 (i386) is installed too.
WINE_PREFIX = $(CURDIR)/$(WIN_OUT)/wineprefix
WINE_ENV = env -u DISPLAY -u WAYLAND_DISPLAY WINEPREFIX="$(WINE_PREFIX)" WINEARCH=win64 \
    WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
WINE_TIMEOUT ?= 300
WINE32 = $(wildcard /usr/lib/wine/wine)
WINE_RUN_ARCHES = win64 $(if $(WINE32),win32)

$(WIN_OUT)/wineprefix/.astar-ready:
	@rm -rf "$(WINE_PREFIX)" && mkdir -p "$(WINE_PREFIX)"
	@echo "wine: creating the prefix $(WINE_PREFIX) (first run only)"
	@start=$$(date +%s); log="$(WIN_OUT)/wineboot.log"; \
	{ $(WINE_ENV) timeout $(WINE_TIMEOUT) wine wineboot -i \
	    && $(WINE_ENV) timeout $(WINE_TIMEOUT) wineserver -w; } >"$$log" 2>&1 \
	    || { cat "$$log"; echo "wine: wineboot -i failed or took over $(WINE_TIMEOUT) s" >&2; exit 1; }; \
	echo "wine: prefix ready in $$(( $$(date +%s) - start )) s"
	@touch $@

# Runs $(2) (a Windows program and its arguments) in directory $(1) under Wine.
define wine_run
	cd $(1) && $(WINE_ENV) timeout $(WINE_TIMEOUT) wine $(2)
endef

windows-test: windows-dlls $(foreach v,$(WIN_VARIANTS),$(WIN_OUT)/$(v)/loadtest/loadtest.exe) \
        $(WIN_OUT)/test-win64/core_api.exe $(WIN_OUT)/test-win32/core_api.exe \
        $(WIN_OUT)/wineprefix/.astar-ready
	@for v in $(WIN_VARIANTS); do \
	    case $$v in *win32) od=i686-w64-mingw32-objdump;; *) od=x86_64-w64-mingw32-objdump;; esac; \
	    case $$v in lua54*) lua=lua54.dll;; *) lua=lua51.dll;; esac; \
	    tools/windows-check.sh $$od $(WIN_OUT)/$$v/astar/core.dll $$lua || exit 1; \
	    ls -l $(WIN_OUT)/$$v/astar/core.dll | awk '{ print "  " $$5 " bytes" }'; \
	done
	@for a in $(WINE_RUN_ARCHES); do \
	    echo "wine: core_api ($$a)"; \
	    ( $(call wine_run,$(WIN_OUT)/test-$$a,core_api.exe) ) || exit 1; \
	    for v in $(WIN_VARIANTS); do case $$v in *$$a) \
	        echo "wine: load $$v/astar/core.dll"; \
	        ( $(call wine_run,$(WIN_OUT)/$$v/loadtest,loadtest.exe 'astar\core.dll') ) || exit 1;; \
	    esac; done; \
	done
	@$(if $(WINE32),,echo "wine: the 32-bit programs were built, not run (wine32 is not installed)")

.PHONY: windows-dlls windows-test

TEST_TARGETS += windows-test
TEST_PACKAGES += mingw-w64 gcc-mingw-w64 binutils-mingw-w64-x86-64 binutils-mingw-w64-i686 \
    wine wine64
