10 REM ON x with neither GOTO nor GOSUB after it: x is evaluated first, so a
20 REM value outside 0-255 is error 5 (65536 overflows: 6) before the syntax error
30 ON ERROR GOTO 200
40 FOR I = 1 TO 6
50 READ N
60 ON N THEN 100
70 PRINT "went on after"; N
80 NEXT
90 END
100 PRINT "jumped"
110 END
200 PRINT "error"; ERR; "for"; N
210 RESUME 70
300 DATA 0, 3, 255, -2, 300, 65536
