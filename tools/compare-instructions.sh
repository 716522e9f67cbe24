#!/bin/sh
# Instruction counts of bench/plain_queries.lua under callgrind, row by row,
# for the module built from git revision BASE against the working tree: a
# change must not slow the queries that do not use it (docs/performance.md).
# Counts do not depend on the machine's load, so one run decides.
#
#   tools/compare-instructions.sh BASE [ROW...]     (make bench-instructions BASE=rev)
#
# Each row is run alone (ROW=name, NQ queries, one pass) and a run with
# ROW=none (set-up only) is subtracted. Prints base, now and now/base.
set -eu
base=${1:?usage: tools/compare-instructions.sh BASE [ROW...]}
shift
root=$(pwd)
dir=build/base-$(git rev-parse --short "$base")
if [ ! -f "$dir/astar/core.so" ]; then
    rm -rf "$dir.src" && mkdir -p "$dir.src"
    git archive "$base" src | tar -x -C "$dir.src"
    mkdir -p "$dir/astar"
    cc -std=c99 -O2 -g -fPIC -shared -I/usr/include/lua5.4 -o "$dir/astar/core.so" \
        "$dir.src"/src/core/*.c "$dir.src"/src/lua/*.c -lm
fi
make --no-print-directory LUA=5.4 all >/dev/null
NQ=${NQ:-40}
# Lua seeds its string hashes from the clock and addresses, so a table's
# layout, and the collector's work, vary a little from run to run: each
# count is the least of RUNS runs.
RUNS=${RUNS:-3}
count() {   # cpath row -> instructions
    out=$(mktemp)
    best=
    for _ in $(seq "$RUNS"); do
        ROW="$2" PASSES=1 NQ=$NQ LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$1/?.so;;" \
            valgrind --tool=callgrind --callgrind-out-file="$out" lua5.4 bench/plain_queries.lua \
            >/dev/null 2>&1
        c=$(sed -n 's/^summary: //p' "$out")
        if [ -z "$best" ] || [ "$c" -lt "$best" ]; then best=$c; fi
    done
    rm -f "$out"
    echo "$best"
}
if [ $# -eq 0 ]; then
    set -- $(sed -n 's/^row("\([^"]*\)".*/\1/p' bench/plain_queries.lua | tr ' ' '~')
fi
printf '%-40s %14s %14s %8s\n' row "$base" now ratio
b0=$(count "$dir" none); n0=$(count build/5.4 none)
for r in "$@"; do
    name=$(echo "$r" | tr '~' ' ')
    b=$(( $(count "$dir" "$name") - b0 )); n=$(( $(count build/5.4 "$name") - n0 ))
    printf '%-40s %14d %14d %8s\n' "$name" "$b" "$n" "$(awk "BEGIN { printf \"%.4f\", $n / $b }")"
done
cd "$root"
