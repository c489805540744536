10 REM -32768 \ -1 is 32768, a single: GW-BASIC's IDIV (MATH1.ASM) floats the dividend and negates it; an integer cannot hold it
20 ON ERROR GOTO 100
30 A%=-32768:PRINT A%\-1
40 PRINT -32767\-1;-32768\1;-32768\-1;(-32768\-1)/2
50 B%=A%\-1:PRINT "after the store"
60 PRINT (A%\-1)\2
70 PRINT -32768 MOD -1
80 END
100 PRINT "ERR";ERR;"ERL";ERL:RESUME NEXT
