# gnuplot script for scripts/bench/coalesce.sh: dat=DATA out=PNG n=BLOCKS
# (the number of settings: the data blocks, each headed by its name).
# Per setting (one data block each): interrupts per I/O, p50 latency and
# IOPS against queue depth, for the random-read runs (column 1 == 0).
set terminal pngcairo size 1500,500 font ",9"
set output out
set multiplot layout 1,3 title "ssdtune interrupt coalescing: 4K random read, QEMU TCG"
set logscale x 2
set xlabel "queue depth"
set key top left
set title "interrupts per completed I/O (0 drawn at 0.0001)"
set logscale y
set yrange [0.0001:*]
plot for [i=0:n-1] dat index i using ($1 == 0 ? $2 : NaN):($3 > 0 ? $3 : 0.0001) with linespoints title columnheader(1)
set autoscale y
set title "p50 completion latency (us)"
plot for [i=0:n-1] dat index i using ($1 == 0 ? $2 : NaN):4 with linespoints title columnheader(1)
unset logscale y
set title "IOPS"
plot for [i=0:n-1] dat index i using ($1 == 0 ? $2 : NaN):5 with linespoints title columnheader(1)
unset multiplot
