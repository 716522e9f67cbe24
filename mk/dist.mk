# Releases (issue 11): the version, the source tarball, the rock, the LÖVE folder.
#
#   make dist              build/dist/: astar-grid-$(VERSION).tar.gz (the sources:
#                          src, lua, the rockspec, LICENSE, README, CHANGELOG, docs,
#                          types: the editor annotations),
#                          astar-grid-$(VERSION)-1.rockspec (source: that tarball),
#                          astar-grid-$(VERSION)-1.src.rock (luarocks pack of both),
#                          love/ (the Lua files for a game, the editor annotations
#                          types/, and astar/core.dll for
#                          64- and 32-bit LÖVE 11 on Windows from `make windows-dlls`,
#                          astar/core.so for LÖVE on Linux x86-64) and
#                          lua54-win64/astar/core.dll (Lua 5.4 on Windows)
#   make dist-rock         the tarball, rockspec and rock only
#   make rock-install-test the rock installed offline into a fresh tree for Lua 5.1,
#                          5.4 and LuaJIT, and tools/check-rock.lua run against each
#                          (in make test)
#   make dist DIST_URL=https://.../astar-grid-X.Y.Z.tar.gz
#                          the rockspec's source.url (default: file:// of the tarball
#                          in build/dist; docs/releasing.md)
#
# The version is written in lua/astar/version.lua only: the rockspec is made
# from it (tools/rockspec.lua), astar._VERSION is read from it, CHANGELOG.md
# must have a "## X.Y.Z" entry for it and the README must name it.
#
# rock-build and rock-install are the steps of rockspec/astar-grid-scm-1.rockspec
# (`luarocks make`, build type "make"): they compile in build/luarocks/ with the
# flags LuaRocks passes, install, and remove what they built, so luarocks make
# leaves the checkout as it was.

VERSION := $(shell sed -n 's/^return "\([0-9][0-9.]*\)"$$/\1/p' lua/astar/version.lua)
DIST = build/dist
DIST_NAME = astar-grid-$(VERSION)
DIST_TARBALL = $(DIST)/$(DIST_NAME).tar.gz
DIST_ROCKSPEC = $(DIST)/$(DIST_NAME)-1.rockspec
DIST_ROCK = $(DIST)/$(DIST_NAME)-1.src.rock
DIST_URL ?= file://$(CURDIR)/$(DIST_TARBALL)
SCM_ROCKSPEC = rockspec/astar-grid-scm-1.rockspec

# What the tarball holds: sources and documents only, never a build artefact.
DIST_C = $(sort $(shell find src -name '*.c'))
DIST_H = $(sort $(shell find src -name '*.h'))
DIST_LUA = $(sort $(shell find lua -name '*.lua'))
DIST_DOCS = $(sort $(shell find docs -type f))
DIST_TYPES = $(sort $(shell find types -name '*.lua'))
DIST_FILES = LICENSE README.md CHANGELOG.md $(DIST_C) $(DIST_H) $(DIST_LUA) $(DIST_DOCS) $(DIST_TYPES)
# Reproducible: sorted names, no owner, every date that of the last commit.
DIST_DATE = $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
DIST_TAR = tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(DIST_DATE) \
    --mode=u+rw,go+r,go-w --format=gnu

# The luarocks of the tests: its own config (no servers: nothing can be fetched).
ROCK_TEST = build/rock-test
ROCK_TEST_LUAS = 5.1 5.4 luajit

TEST_TARGETS += rock-install-test
TEST_PACKAGES += lua5.1 liblua5.1-0-dev zip unzip

.PHONY: dist dist-rock dist-check dist-love rock-install-test rock-build rock-install

dist-check:
	@test -n "$(VERSION)" || { echo "lua/astar/version.lua must be: return \"X.Y.Z\""; exit 1; }
	@grep -q '^## $(subst .,\.,$(VERSION))\b' CHANGELOG.md \
	    || { echo "CHANGELOG.md has no '## $(VERSION)' entry"; exit 1; }

$(DIST_ROCKSPEC): $(SCM_ROCKSPEC) lua/astar/version.lua tools/rockspec.lua $(DIST_C) $(DIST_LUA) | dist-check
	@mkdir -p $(DIST)
	lua5.4 tools/rockspec.lua lua/astar/version.lua $(SCM_ROCKSPEC) "$(DIST_URL)" $@ \
	    $(DIST_C) $(DIST_LUA)

# The tarball: astar-grid-X.Y.Z/ with the files above and the rockspec (so that
# `luarocks make` works in an unpacked copy).
$(DIST_TARBALL): $(DIST_FILES) $(DIST_ROCKSPEC)
	@rm -f $@
	$(DIST_TAR) --transform 's,^,$(DIST_NAME)/,' -cf - $(DIST_FILES) \
	    -C $(DIST) $(notdir $(DIST_ROCKSPEC)) | gzip -n -9 > $@.tmp
	@if tar -tzf $@.tmp | grep -E '\.(o|so|dll|a|rock)$$'; then \
	    echo "$@: build artefacts in the tarball"; exit 1; fi
	@mv $@.tmp $@

$(DIST_ROCK): $(DIST_TARBALL) $(DIST_ROCKSPEC)
	@rm -f $@
	cd $(DIST) && LUAROCKS_CONFIG=/dev/null luarocks --lua-version=5.4 pack $(notdir $(DIST_ROCKSPEC))

dist-rock: dist-check $(DIST_ROCK)
	luarocks --lua-version=5.4 lint $(DIST_ROCKSPEC)

# The LÖVE folder: game/ goes into the game (its .love or folder); each
# platform's folder holds astar/core.<ext>, to put beside the game's executable
# or .love (README, LÖVE). The Windows DLLs come from mk/windows.mk.
DIST_LOVE = $(DIST)/love
DIST_LINUX_SO = build/dist-luajit/astar/core.so
dist-love:
	@rm -rf $(DIST_LOVE) $(DIST)/lua54-win64
	@mkdir -p $(DIST_LOVE)/game $(DIST_LOVE)/linux-x86_64/astar
	cp -R lua/. $(DIST_LOVE)/game/
	cp -R types $(DIST_LOVE)/types
	@$(MAKE) --no-print-directory LUA=luajit BUILD=build/dist-luajit CFLAGS=-O2 LDFLAGS=-s all
	cp $(DIST_LINUX_SO) $(DIST_LOVE)/linux-x86_64/astar/core.so
	@if $(MAKE) --no-print-directory -n windows-dlls >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory windows-dlls || exit 1; \
	    for v in win64 win32; do \
	        mkdir -p $(DIST_LOVE)/$$v/astar; \
	        cp build/windows/love-$$v/astar/core.dll $(DIST_LOVE)/$$v/astar/core.dll || exit 1; \
	    done; \
	    mkdir -p $(DIST)/lua54-win64/astar; \
	    cp build/windows/lua54-win64/astar/core.dll $(DIST)/lua54-win64/astar/core.dll || exit 1; \
	else echo "dist: no windows-dlls target (mk/windows.mk): love/ has no Windows DLLs"; fi
	sed 's/@VERSION@/$(VERSION)/g' tools/love-README.md > $(DIST_LOVE)/README.md

dist: dist-rock dist-love
	@grep -qF '$(VERSION)' README.md || { echo "README.md does not name version $(VERSION)"; exit 1; }
	@cd $(DIST) && find . -type f \( -name '*.gz' -o -name '*.rock' -o -name '*.rockspec' \
	    -o -name '*.dll' -o -name '*.so' \) | sort | xargs ls -l | awk '{print $$5, $$9}'

# ---- the rock, installed offline into fresh trees ------------------------------
# $(1): 5.1, 5.4 or luajit. LuaJIT is LuaRocks' Lua 5.1 with LuaJIT's headers and
# interpreter (a config file says so: lua_interpreter, LUA_INCDIR).
define ROCK_TEST_CONFIG_luajit
lua_interpreter = "luajit"
variables = { LUA_DIR = "/usr", LUA_BINDIR = "/usr/bin", LUA_INCDIR = "/usr/include/luajit-2.1" }
endef
export ROCK_TEST_CONFIG_luajit

# Offline for sure where the machine allows it: no network namespace at all.
rock-install-test: dist-rock
	@rm -rf $(ROCK_TEST)
	@if unshare -n true 2>/dev/null; then offline="unshare -n"; \
	    echo "rock-install-test: luarocks runs without a network (unshare -n)"; else offline=; fi; \
	for v in $(ROCK_TEST_LUAS); do \
	    d="$(CURDIR)/$(ROCK_TEST)/$$v"; mkdir -p "$$d"; \
	    if [ $$v = luajit ]; then api=5.1; bin=luajit; printf '%s\n' "$$ROCK_TEST_CONFIG_luajit" > "$$d/config.lua"; \
	    else api=$$v; bin=lua$$v; : > "$$d/config.lua"; fi; \
	    echo 'rocks_servers = {}' >> "$$d/config.lua"; \
	    ( cd "$$d" && LUAROCKS_CONFIG="$$d/config.lua" $$offline luarocks --lua-version=$$api --tree "$$d/tree" \
	        install "$(CURDIR)/$(DIST_ROCK)" > install.log 2>&1 ) \
	        || { cat "$$d/install.log"; echo "rock-install-test: luarocks install failed for $$bin"; exit 1; }; \
	    ( cd "$$d" && env -u ASTAR_BACKEND \
	        LUA_PATH="$$d/tree/share/lua/$$api/?.lua;$$d/tree/share/lua/$$api/?/init.lua" \
	        LUA_CPATH="$$d/tree/lib/lua/$$api/?.so" \
	        $$bin "$(CURDIR)/tools/check-rock.lua" "$(VERSION)" "$$d/tree" ) || exit 1; \
	done
	@rm -rf $(ROCK_TEST)

# ---- luarocks make (rockspec/astar-grid-scm-1.rockspec) ---------------------------
# LuaRocks passes CFLAGS, LIBFLAG, LUA_INCDIR, LIB_EXTENSION (build) and LUADIR,
# LIBDIR (install).
ROCK_BUILD = build/luarocks/$(notdir $(LUA_INCDIR))
ROCK_OBJECTS = $(patsubst src/%.c,$(ROCK_BUILD)/obj/%.o,$(CORE_SRC) $(BINDING_SRC))
ROCK_MODULE = $(ROCK_BUILD)/astar/core.$(or $(LIB_EXTENSION),so)

$(ROCK_BUILD)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARNINGS) $(CFLAGS) -fPIC -I$(LUA_INCDIR) -c $< -o $@

$(ROCK_MODULE): $(ROCK_OBJECTS)
	@mkdir -p $(dir $@)
	$(CC) $(or $(LIBFLAG),-shared) -o $@ $(ROCK_OBJECTS) -lm

rock-build:
	@test -n "$(LUA_INCDIR)" || { echo "rock-build is run by luarocks make (LUA_INCDIR is not set)"; exit 1; }
	@rm -rf $(ROCK_BUILD)
	@$(MAKE) --no-print-directory $(ROCK_MODULE)

rock-install:
	@test -n "$(LIBDIR)" -a -n "$(LUADIR)" || { echo "rock-install is run by luarocks make"; exit 1; }
	mkdir -p "$(LIBDIR)/astar" "$(LUADIR)"
	cp $(ROCK_MODULE) "$(LIBDIR)/astar/"
	cp -R lua/. "$(LUADIR)/"
	rm -rf $(ROCK_BUILD)
	@rmdir build/luarocks build 2>/dev/null || true
