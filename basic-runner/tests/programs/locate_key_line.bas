10 REM LOCATE 25 while the function-key line shows (KEY ON) is Illegal
20 REM function call; KEY OFF gives the row back. The line starts off, as
30 REM when GW-BASIC runs a program named on its command line.
40 ON ERROR GOTO 500
50 LOCATE 25,1: PRINT "row 25 at the start"
60 KEY ON: LOCATE 25,1: PRINT "after row 25 with the key line"
70 LOCATE 24,1: PRINT "row 24 with the key line"
80 LOCATE 26: PRINT "after row 26 with the key line"
90 KEY ON: LOCATE 25: PRINT "after row 25, KEY ON twice"
100 KEY OFF: LOCATE 25,1: PRINT "row 25 after KEY OFF"
110 KEY OFF: LOCATE 25: PRINT "row 25, KEY OFF twice"
120 KEY ON: LOCATE ,1: PRINT "no row given with the key line"
130 KEY ON X: PRINT "after KEY ON X"
140 LOCATE 25: PRINT "after row 25, KEY ON X ran"
150 END
500 PRINT "error"; ERR; "in"; ERL
510 RESUME NEXT
