# The chart of make bench: mean time per query on every map, one bar per
# column (C core, findPath from Lua 5.4 and LuaJIT, JPS also with a flat
# path, the pure-Lua A*), log scale. Called by bench/maps_bench.lua:
#   gnuplot -e "datafile='...'; outfile='...'; ncols=N; machine='...'" bench/maps.gp
if (!exists("datafile")) datafile = 'build/bench/chart.dat'
if (!exists("outfile")) outfile = 'bench/results/maps.png'
if (!exists("machine")) machine = 'mean time per query (log scale)'
if (!exists("ncols")) ncols = 11

set terminal pngcairo size 1400,700 noenhanced font ",11"
set output outfile
set title machine
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
# up to ten bars a map: gnuplot repeats its eight colours otherwise
set linetype 9 lc rgb "#8c564b"
set linetype 10 lc rgb "#a0a0a0"
set boxwidth 0.9
set logscale y
set format y "%g"
set ylabel "microseconds per query"
set grid ytics
set key outside right top vertical
set xtics rotate by -30
plot for [i=2:ncols] datafile using i:xtic(1) title columnheader(i)
