5 REM NEXT's names run one after another: a comma with no name after it is a
6 REM NEXT of its own that fails when it runs, after the ones before it
10 ON ERROR GOTO 100
20 FOR I = 1 TO 2: PRINT I: NEXT I ,
25 PRINT "A"
30 NEXT I ,
35 FOR I = 1 TO 2: FOR J = 1 TO 2: PRINT I; J: NEXT J, I, 5
40 PRINT "B"
60 END
100 PRINT "ERR"; ERR; ERL: RESUME NEXT
