5 REM a negative subscript is Illegal function call, one past the bound Subscript out of range, the first wrong subscript deciding (checked with PC-BASIC)
10 ON ERROR GOTO 100
20 DIM A(10), B(3,3)
30 PRINT A(-1)
40 A(-.6)=5
50 PRINT A(11)
60 PRINT B(5,-1)
70 PRINT B(-1,5)
80 PRINT C$(-2);A(-.4)
90 END
100 PRINT "ERROR";ERR;"IN";ERL: RESUME NEXT
