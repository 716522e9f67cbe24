# LÖVE (issue 4): the headless test game in spec/love, run by a real LÖVE 11.
#
#   make love-test     build the module for LuaJIT, assemble a game folder the way
#                      a game ships it (build/love-test: main.lua, astar.lua,
#                      astar/*.lua, astar/core.so) and run it with no display
#
# LOVE_BACKENDS lists the backends the game is run with (ASTAR_BACKEND=...);
# "lua" runs the same checks on the pure-Lua fallback. Then the game runs once
# more with astar/core.so only beside the game folder (build/love-test-beside:
# game/ and astar/core.so), where LÖVE's own loader does not look: astar.lua's
# search (getSourceBaseDirectory) must find it, in the main state and the worker
# threads, as it does beside a .love or a fused executable (about 0.5 s).
#
#   make love-loader-test   (run by love-test) where astar/core.so is found and
#                      what happens when it does not load, each game run from
#                      the root directory: a folder game with a good module
#                      (the C backend) and with one built for Lua 5.4 (the
#                      error naming the file and the reason); a .love holding
#                      the module inside (the fallback, saying so), beside a
#                      good one and beside a wrong one; a fused executable beside
#                      a wrong one (spec/love_loader; about 1 s)

LOVE_GAME = build/love-test
LOVE_BACKENDS ?= c lua
LOVE_BESIDE = build/love-test-beside

love-test:
	@$(MAKE) --no-print-directory LUA=luajit all
	@rm -rf $(LOVE_GAME) && mkdir -p $(LOVE_GAME)
	@cp spec/love/*.lua spec/helpers/reference.lua $(LOVE_GAME)/
	@cp -R lua/astar.lua lua/astar $(LOVE_GAME)/
	@cp build/luajit/astar/core.so $(LOVE_GAME)/astar/core.so
	@for b in $(LOVE_BACKENDS); do \
	    env -u DISPLAY -u WAYLAND_DISPLAY -u LUA_PATH -u LUA_CPATH XDG_DATA_HOME="$(CURDIR)/build/love-home" \
	        ASTAR_BACKEND=$$b timeout 300 love $(LOVE_GAME) || exit 1; \
	done
	@rm -rf $(LOVE_BESIDE) && mkdir -p $(LOVE_BESIDE)/astar
	@cp -R $(LOVE_GAME) $(LOVE_BESIDE)/game && mv $(LOVE_BESIDE)/game/astar/core.so $(LOVE_BESIDE)/astar/
	env -u DISPLAY -u WAYLAND_DISPLAY -u LUA_PATH -u LUA_CPATH XDG_DATA_HOME="$(CURDIR)/build/love-home" \
	    ASTAR_BACKEND=c timeout 300 love $(LOVE_BESIDE)/game
	@$(MAKE) --no-print-directory love-loader-test

LOVE_LOADER = $(CURDIR)/build/love-loader
LOVE_FROM_ROOT = cd / && env -u DISPLAY -u WAYLAND_DISPLAY -u LUA_PATH -u LUA_CPATH -u ASTAR_BACKEND \
	XDG_DATA_HOME="$(CURDIR)/build/love-home" timeout 60

love-loader-test:
	@$(MAKE) --no-print-directory LUA=luajit all
	@$(MAKE) --no-print-directory LUA=5.4 all
	@rm -rf $(LOVE_LOADER) && mkdir -p $(LOVE_LOADER)/dotlove/astar $(LOVE_LOADER)/fused/astar
	@mkdir -p $(LOVE_LOADER)/folder && cp spec/love_loader/*.lua lua/astar.lua $(LOVE_LOADER)/folder/
	@cp -R lua/astar $(LOVE_LOADER)/folder/
	@cp build/luajit/astar/core.so $(LOVE_LOADER)/folder/astar/core.so
	$(LOVE_FROM_ROOT) love $(LOVE_LOADER)/folder c
	@cp build/5.4/astar/core.so $(LOVE_LOADER)/folder/astar/core.so
	$(LOVE_FROM_ROOT) love $(LOVE_LOADER)/folder error $(LOVE_LOADER)/folder/astar/core.so
	@cd $(LOVE_LOADER)/folder && zip -qr $(LOVE_LOADER)/dotlove/game.love .
	$(LOVE_FROM_ROOT) love $(LOVE_LOADER)/dotlove/game.love inside $(LOVE_LOADER)/dotlove/game.love
	@cp build/luajit/astar/core.so $(LOVE_LOADER)/dotlove/astar/core.so
	$(LOVE_FROM_ROOT) love $(LOVE_LOADER)/dotlove/game.love c
	@cp build/5.4/astar/core.so $(LOVE_LOADER)/dotlove/astar/core.so
	$(LOVE_FROM_ROOT) love $(LOVE_LOADER)/dotlove/game.love error $(LOVE_LOADER)/dotlove/astar/core.so
	@cat "$$(command -v love)" $(LOVE_LOADER)/dotlove/game.love > $(LOVE_LOADER)/fused/game
	@chmod +x $(LOVE_LOADER)/fused/game && cp build/5.4/astar/core.so $(LOVE_LOADER)/fused/astar/core.so
	$(LOVE_FROM_ROOT) $(LOVE_LOADER)/fused/game error $(LOVE_LOADER)/fused/astar/core.so

.PHONY: love-test love-loader-test

TEST_TARGETS += love-test
TEST_PACKAGES += love zip
