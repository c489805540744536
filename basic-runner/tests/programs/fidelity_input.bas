5 REM INPUT redo, LINE INPUT drops trailing blanks, quoted entries, integer overflow (checked with PC-BASIC)
10 INPUT "NAME";N$: PRINT "HI ";N$
20 INPUT A,B: PRINT A+B
30 INPUT "NUM",X: PRINT X
40 INPUT X: PRINT X
50 LINE INPUT "LINE? ";L$: PRINT "[";L$;"]"
60 INPUT A$,B$: PRINT A$;"|";B$
80 INPUT "Q? ", Q$: PRINT Q$
90 INPUT X%: PRINT X%
