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

.PHONY: love-test

TEST_TARGETS += love-test
TEST_PACKAGES += love
