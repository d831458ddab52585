# Fixture chart
# Written by roofline plot: script and data in one file.
#   gnuplot -p this.gp                      draws in a window
#   gnuplot -e "out='chart.svg'" this.gp    writes .svg, .png, .pdf or .txt
# CARM: one marker per memory level the point has bytes for, joined; bandwidth: L1 in nominal bytes, below in traffic (+WA)
if (exists("out")) {
    ext = strlen(out) > 4 ? out[strlen(out)-3:strlen(out)] : ""
    if (ext eq ".svg") { set terminal svg size 960,658 font "DejaVu Sans,11" background rgb "white" }
    if (ext eq ".png") { set terminal pngcairo size 960,658 font "DejaVu Sans,10" }
    if (ext eq ".pdf") { set terminal pdfcairo size 10in,6.67in font "DejaVu Sans,11" }
    if (ext eq ".txt") { set terminal dumb size 120,40 }
    set output out
}
set encoding utf8
set termoption noenhanced
set logscale xy 10
set format x "%g"
set format y "%g"
set mxtics 10
set mytics 10
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4" lw 0.5, lc rgb "#f0f0f0" lw 0.5
set border lc rgb "#333333"
set lmargin at screen 0.0938
set rmargin at screen 0.9688
set tmargin at screen 0.8784
set bmargin at screen 0.2097
set title 'Fixture chart' noenhanced
set xlabel 'Arithmetic intensity [FLOP/byte]' noenhanced
set ylabel 'Performance [GFLOP/s]' noenhanced
set xrange [0.01:1000]
set yrange [0.1:1000]
set label 1 'I = 0.5' at 0.520987, 828.289 left rotate by -0.00 textcolor rgb '#6f6f6f' font ',8' front noenhanced
set label 2 'no FMA 32.0 GFLOP/s' at 921.055, 25.9562 right rotate by -0.00 textcolor rgb '#555555' font ',8' front noenhanced
set label 3 'scalar (no SIMD) 8.00 GFLOP/s' at 921.055, 9.45839 right rotate by -0.00 textcolor rgb '#555555' font ',8' front noenhanced
set label 4 'DRAM 1 thread 12.0 GB/s' at 0.0139822, 0.204968 left rotate by 33.22 textcolor rgb '#555555' font ',8' front noenhanced
set label 5 'DP peak 64.0 GFLOP/s' at 921.055, 76.6235 right rotate by -0.00 textcolor rgb '#1f3a93' font ',10' front noenhanced
set label 6 'L1 load 400 GB/s' at 0.031769, 15.7584 left rotate by 33.22 textcolor rgb '#1b9e77' font ',10' front noenhanced
set label 7 'L2 load 200 GB/s' at 0.0115777, 2.87145 left rotate by 33.22 textcolor rgb '#7570b3' font ',10' front noenhanced
set label 8 'DRAM copy 24.0 GB/s' at 0.0121139, 0.360532 left rotate by 33.22 textcolor rgb '#e7298a' font ',10' front noenhanced
set label 9 '0.16 FLOP/B' at 0.147369, 0.111034 left rotate by 90.00 textcolor rgb '#1b9e77' font ',8' front noenhanced
set label 10 '0.32 FLOP/B' at 0.294738, 0.111034 left rotate by 90.00 textcolor rgb '#7570b3' font ',8' front noenhanced
set label 11 '2.67 FLOP/B' at 2.45615, 0.111034 left rotate by 90.00 textcolor rgb '#e7298a' font ',8' front noenhanced
set label 12 'triad 16KiB' at 0.0702223, 19.7504 left rotate by -0.00 textcolor rgb '#222222' font ',9' front noenhanced
set label 13 'triad 1GiB' at 0.0702223, 1.2344 left rotate by -0.00 textcolor rgb '#222222' font ',9' front noenhanced
set label 14 'dgemm' at 4.49423, 39.5008 left rotate by -0.00 textcolor rgb '#222222' font ',9' front noenhanced
set label 15 'Jacobi 7-pt' at 0.280889, 1.97504 left rotate by -0.00 textcolor rgb '#222222' font ',9' front noenhanced
$lines << EOD
# 0: I = 0.5
0.5 0.1
0.5 1000


# 1: no FMA 32.0 GFLOP/s
0.08 32
1000 32


# 2: scalar (no SIMD) 8.00 GFLOP/s
0.02 8
1000 8


# 3: DRAM 1 thread 12.0 GB/s
0.01 0.12
5.33333 64


# 4: DP peak 64.0 GFLOP/s
0.16 64
1000 64


# 5: L1 load 400 GB/s
0.01 4
0.16 64


# 6: L2 load 200 GB/s
0.01 2
0.32 64


# 7: DRAM copy 24.0 GB/s
0.01 0.24
2.66667 64


EOD
$ridges << EOD
0.16 64 1810039
0.32 64 7696563
2.66667 64 15149450
EOD
$markers << EOD
20 40


4 40


200 40


0.25 2


1 2


0.0625 20


0.0625 20
0.0625 1.25


0.0625 20
0.0625 1.25


EOD
$joins << EOD
0.0625 20 14034728
0.0625 20 14034728
0.0625 20 14034728

0.0625 1.25 14034728
0.0625 1.25 14034728

4 40 2924588
20 40 2924588
200 40 2924588

0.25 2 9725885
1 2 9725885

EOD
$series << EOD
0.0625 20
0.0625 1.25


EOD
set key outside bottom center horizontal noenhanced
plot $lines index 0 with lines lw 1 dt 3 lc rgb '#6f6f6f' notitle, \
     $lines index 1 with lines lw 1.2 dt 2 lc rgb '#8c8c8c' notitle, \
     $lines index 2 with lines lw 1.2 dt 2 lc rgb '#8c8c8c' notitle, \
     $lines index 3 with lines lw 1.2 dt 2 lc rgb '#e7298a' notitle, \
     $lines index 4 with lines lw 2.5 dt 1 lc rgb '#1f3a93' notitle, \
     $lines index 5 with lines lw 2 dt 1 lc rgb '#1b9e77' notitle, \
     $lines index 6 with lines lw 2 dt 1 lc rgb '#7570b3' notitle, \
     $lines index 7 with lines lw 2 dt 1 lc rgb '#e7298a' notitle, \
     $ridges using 1:2:3 with points pt 7 ps 0.9 lc rgb variable notitle, \
     $joins using 1:2:3 with lines lw 0.8 lc rgb variable notitle, \
     $series index 0 with lines lw 1.3 lc rgb '#d62728' title 'series triad', \
     $markers index 0 with points pt 4 ps 0.8 lc rgb '#2ca02c' notitle, \
     $markers index 1 with points pt 7 ps 0.8 lc rgb '#2ca02c' notitle, \
     $markers index 2 with points pt 8 ps 0.8 lc rgb '#2ca02c' notitle, \
     $markers index 3 with points pt 7 ps 0.8 lc rgb '#9467bd' notitle, \
     $markers index 4 with points pt 8 ps 0.8 lc rgb '#9467bd' notitle, \
     $markers index 5 with points pt 4 ps 0.8 lc rgb '#d62728' notitle, \
     $markers index 6 with points pt 7 ps 0.8 lc rgb '#d62728' notitle, \
     $markers index 7 with points pt 8 ps 0.8 lc rgb '#d62728' notitle
