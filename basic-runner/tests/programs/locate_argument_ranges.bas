10 REM LOCATE places nothing in a chat, but checks each argument's range:
20 REM row 1-25, column 1 to the width, cursor 0-1, scan lines 0-31
30 ON ERROR GOTO 500
40 LOCATE 1,1: PRINT "top left"
50 LOCATE ,,0,7,31,: PRINT "five and a comma"
60 LOCATE 1,80: LOCATE 25,1,1: PRINT "row 25, column 80 taken"
70 LOCATE 0: PRINT "after row 0"
80 LOCATE 26,1: PRINT "after row 26"
90 LOCATE 1,81: PRINT "after column 81"
100 WIDTH 40: LOCATE 1,41: PRINT "after column 41 at width 40"
110 WIDTH 80: LOCATE ,,2: PRINT "after cursor 2"
120 LOCATE ,,,32: PRINT "after start 32"
130 LOCATE ,,,,-1: PRINT "after stop -1"
140 LOCATE 40000: PRINT "after 40000"
150 LOCATE A$: PRINT "after a string"
160 LOCATE 1,2,1,4,5,6: PRINT "after six"
170 LOCATE 99,99,99 X: PRINT "after a break"
180 END
500 PRINT "error"; ERR; "in"; ERL
510 RESUME NEXT
