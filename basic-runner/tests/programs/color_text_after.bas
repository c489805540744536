5 REM text after COLOR's arguments is a Syntax error once they are checked (COLOR 300 X is Illegal function call), after LOCATE's before they are
10 ON ERROR GOTO 90
20 LOCATE 99, 1 X
30 COLOR 300 X
40 COLOR 1 X
50 LOCATE 1, 1 X
60 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT
