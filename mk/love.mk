# LÖVE (issue 4): the headless test game in spec/love, run by a real LÖVE 11.
#
#   make love-test     build the module for LuaJIT, assemble a game folder the way
#                      a game ships it (build/love-test: main.lua, astar.lua,
#                      astar/*.lua, astar/core.so) and run it with no display
#
# LOVE_BACKENDS lists the backends the game is run with (ASTAR_BACKEND=...);
# "lua" runs the same checks on the pure-Lua fallback.

LOVE_GAME = build/love-test
LOVE_BACKENDS ?= c lua

love-test:
	@$(MAKE) --no-print-directory LUA=luajit all
	@rm -rf $(LOVE_GAME) && mkdir -p $(LOVE_GAME)
	@cp spec/love/*.lua spec/helpers/reference.lua $(LOVE_GAME)/
	@cp -R lua/astar.lua lua/astar $(LOVE_GAME)/
	@cp build/luajit/astar/core.so $(LOVE_GAME)/astar/core.so
	@for b in $(LOVE_BACKENDS); do \
	    env -u DISPLAY -u WAYLAND_DISPLAY XDG_DATA_HOME="$(CURDIR)/build/love-home" \
	        ASTAR_BACKEND=$$b timeout 300 love $(LOVE_GAME) || exit 1; \
	done

.PHONY: love-test

TEST_TARGETS += love-test
TEST_PACKAGES += love
