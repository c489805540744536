5 REM text after an argument of COLOR or LOCATE is Illegal function call (SCNINT in GWSTS.ASM takes only the end, a comma or a parenthesis after a value), once the values before it are checked
10 ON ERROR GOTO 90
20 LOCATE 99, 1 X
30 COLOR 300 X
40 COLOR 1 X
50 LOCATE 1, 1 X
60 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT
