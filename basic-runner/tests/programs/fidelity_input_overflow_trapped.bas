5 REM overflow at INPUT: without a handler the warning and the largest number; with one, ?Redo for a single and error 6 for an integer
6 ON ERROR GOTO 900
10 INPUT A:PRINT "A";A
20 INPUT B%:PRINT B%
30 END
900 PRINT "ERR";ERR;ERL:RESUME NEXT
