# The LÖVE demo (issue 4, part 6): examples/love, a tactics board drawn by LÖVE 11.
#
#   make love-demo             build the module for LuaJIT and run `love examples/love`
#                              (main.lua finds lua/ and build/luajit/ of the checkout)
#   make love-screenshot-test  under xvfb-run (Mesa's software OpenGL), the demo draws
#                              scripted frames (tactics, danger zone, enemy turn, free A*, crowd, flee, hex,
#                              the building with floors, the real-time scene in each path mode, the chase), saves each
#                              as a PNG and quits; a headless LÖVE run (spec/love_screenshot) checks size,
#                              colours and probes, and that the real-time shots differ where their lines do
#   make love-screenshot       regenerate docs/images/love-demo*.png

LOVE_DEMO_SHOTS = build/love-demo
# the window size set in examples/love/conf.lua
LOVE_DEMO_SIZE = 1072 600
# the square board's rectangle in it (x y w h: MARGIN 16, 18 x 13 tiles of 42)
LOVE_DEMO_BOARD = 16 16 756 546
LOVE_DEMO_ENV = XDG_DATA_HOME="$(CURDIR)/build/love-home"
LOVE_DEMO_XVFB = xvfb-run -a -s "-screen 0 1280x1024x24"
# The probes each scene must have drawn (see spec/love_screenshot/main.lua).
LOVE_DEMO_PROBES_tactics = "selected unit" "path dot" "move tile" "attack tile"
LOVE_DEMO_PROBES_danger = "selected unit" "path dot" "move tile" "attack tile"
LOVE_DEMO_PROBES_enemy = "enemy path dot" "enemy unit" "grass tile"
LOVE_DEMO_PROBES_astar = "path dot" "explored tile" "grass tile"
LOVE_DEMO_PROBES_crowd = "crowd unit" "flow target" "heat tile"
LOVE_DEMO_PROBES_flee = "crowd unit" "flow target" "heat tile"
LOVE_DEMO_PROBES_hex = "hex unit" "path target" "path dot" "hex notch" "range tile" "beyond tile" "wall tile"
# the building (moves and links): tiles the range reaches only through the door, only
# by the stairs (links), only down the ledge (setMove false the other way)
LOVE_DEMO_PROBES_floors = "floor unit" "path dot" "link step" "stairs" "open door" "thin wall" \
                          "ledge arrow" "hall tile" "upstairs tile" "ledge tile" "beyond tile"
# the real-time scene (R) after 3 s in each path mode: the lit badge of its mode, a
# unit, each terrain, and "own line not M": a point on this mode's lines that mode M
# does not draw (the --apart run checks M's shot there), one against each other mode
LOVE_DEMO_REALTIME_MODES = grid sight theta
LOVE_DEMO_REALTIME = $(foreach m,$(LOVE_DEMO_REALTIME_MODES),$(LOVE_DEMO_SHOTS)/realtime-$(m).png)
$(foreach m,$(LOVE_DEMO_REALTIME_MODES),$(eval LOVE_DEMO_PROBES_realtime-$(m) = "mode $(m)" "mode off" \
    "rt unit" "grass tile" "forest tile" "swamp tile"))
LOVE_DEMO_PROBES_realtime-grid += "own line not sight" "own line not theta"
LOVE_DEMO_PROBES_realtime-sight += "own line not grid" "own line not theta"
LOVE_DEMO_PROBES_realtime-theta += "own line not grid" "own line not sight"
# the chase (C) after 5 s: the player, an enemy, each terrain, a wall built and one
# destroyed during the chase
LOVE_DEMO_PROBES_chase = "chase player" "chase enemy" "grass tile" "forest tile" "swamp tile" \
                         "wall tile" "built tile" "destroyed tile"

.PHONY: love-demo love-screenshot-test love-screenshot

love-demo:
	@tools/install-deps.sh love
	@$(MAKE) --no-print-directory LUA=luajit all
	love examples/love

# One scene: draw it under Xvfb, then check the PNG with no display at all.
$(LOVE_DEMO_SHOTS)/%.png: FORCE_LOVE_DEMO
	@$(MAKE) --no-print-directory LUA=luajit all
	@mkdir -p $(LOVE_DEMO_SHOTS)
	@rm -f $@ $@.probes
	$(LOVE_DEMO_ENV) timeout 120 $(LOVE_DEMO_XVFB) love examples/love --screenshot $@ --scene $*
	env -u DISPLAY -u WAYLAND_DISPLAY $(LOVE_DEMO_ENV) timeout 120 \
	    love spec/love_screenshot $@ $(LOVE_DEMO_SIZE) $(LOVE_DEMO_PROBES_$*)

love-screenshot-test: $(LOVE_DEMO_SHOTS)/tactics.png $(LOVE_DEMO_SHOTS)/danger.png \
                      $(LOVE_DEMO_SHOTS)/enemy.png $(LOVE_DEMO_SHOTS)/astar.png \
                      $(LOVE_DEMO_SHOTS)/crowd.png $(LOVE_DEMO_SHOTS)/flee.png \
                      $(LOVE_DEMO_SHOTS)/hex.png $(LOVE_DEMO_SHOTS)/floors.png $(LOVE_DEMO_REALTIME) \
                      $(LOVE_DEMO_SHOTS)/chase.png
	env -u DISPLAY -u WAYLAND_DISPLAY $(LOVE_DEMO_ENV) timeout 120 \
	    love spec/love_screenshot --apart $(LOVE_DEMO_BOARD) $(LOVE_DEMO_REALTIME)

love-screenshot: love-screenshot-test
	@mkdir -p docs/images
	cp $(LOVE_DEMO_SHOTS)/tactics.png docs/images/love-demo.png
	cp $(LOVE_DEMO_SHOTS)/astar.png docs/images/love-demo-astar.png
	cp $(LOVE_DEMO_SHOTS)/crowd.png docs/images/love-demo-crowd.png
	cp $(LOVE_DEMO_SHOTS)/hex.png docs/images/love-demo-hex.png
	cp $(LOVE_DEMO_SHOTS)/floors.png docs/images/love-demo-floors.png
	cp $(LOVE_DEMO_SHOTS)/realtime-theta.png docs/images/love-demo-realtime.png
	cp $(LOVE_DEMO_SHOTS)/chase.png docs/images/love-demo-chase.png

.PHONY: FORCE_LOVE_DEMO
FORCE_LOVE_DEMO:

TEST_TARGETS += love-screenshot-test
TEST_PACKAGES += love xvfb xauth libgl1-mesa-dri
