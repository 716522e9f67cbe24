#!/bin/sh
# The pure-Lua backend's speed against git revision BASE's lua/ tree, row by
# row (tools/compare-fallback.lua), on Lua 5.4 and LuaJIT: runs of the two
# trees alternate, REPS times, with the same C module for the helpers; each
# row's ratio is now/base of the best times (below 1: faster now). The
# working tree's lua/ is copied first, so edits made meanwhile do not count.
#
#   tools/compare-fallback.sh BASE          (make bench-fallback-compare BASE=rev)
set -eu
base=${1:?usage: tools/compare-fallback.sh BASE}
dir=build/fallback-base-$(git rev-parse --short "$base")
rm -rf "$dir" && mkdir -p "$dir"
git archive "$base" lua | tar -x -C "$dir"
now=build/fallback-now
rm -rf "$now" && mkdir -p "$now" && cp -R lua "$now/"
REPS=${REPS:-3}
MAPS=${MAPS:-maps}
out=$(mktemp -d)
for v in ${FALLBACK_LUAS:-5.4 luajit}; do
    make --no-print-directory LUA="$v" all >/dev/null
    if [ "$v" = luajit ]; then bin=luajit; else bin=lua$v; fi
    for rep in $(seq "$REPS"); do
        for tree in base now; do
            if [ $tree = base ]; then lp="$dir/lua"; else lp="$now/lua"; fi
            LUA_PATH="$lp/?.lua;$lp/?/init.lua;;" LUA_CPATH="build/$v/?.so;;" \
                "$bin" tools/compare-fallback.lua "$MAPS" | sed "s/^/$v\t$tree\t/" >>"$out/times"
        done
        echo "$bin: pass $rep of $REPS done" >&2
    done
done
awk -F'\t' -v base="$base" '
    { k = $1 "\t" $3; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      t = $2 "\t" k; if (!(t in best) || $4 < best[t]) best[t] = $4 }
    END {
        printf "%-8s %-28s %10s %10s %7s\n", "lua", "row", "base ms", "now ms", "now/base"
        worst = 0
        for (i = 1; i <= n; i++) {
            split(order[i], p, "\t")
            b = best["base\t" order[i]]; c = best["now\t" order[i]]
            printf "%-8s %-28s %10.3f %10.3f %7.3f\n", p[1], p[2], b * 1e3, c * 1e3, c / b
            if (c / b > worst) worst = c / b
        }
        printf "worst ratio vs %s: %.3f\n", base, worst
    }' "$out/times"
rm -rf "$out"
