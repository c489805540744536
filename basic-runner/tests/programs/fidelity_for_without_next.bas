5 REM FOR looks for its NEXT in the text every time it runs; a FOR with a double counts there too
10 FOR I=1 TO 3:FOR J=1 TO 3:FOR I=1 TO 2:PRINT I;J;:NEXT I:PRINT:NEXT J
20 PRINT "X"
30 FOR D#=0 TO 1:PRINT D#:NEXT
