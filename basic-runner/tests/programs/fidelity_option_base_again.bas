5 REM OPTION BASE again with the same base is allowed; with another, once an array exists, Duplicate Definition
10 OPTION BASE 1
20 OPTION BASE 1
30 PRINT "ok"
40 DIM B(3)
50 OPTION BASE 0
