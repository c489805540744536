5 REM text after LOCATE's five values is EOSCHK's Syntax error, after the row and column were checked and the rest read as bytes
10 ON ERROR GOTO 500
20 LOCATE 1,2,1,4,5,6: PRINT "after six"
30 LOCATE 99,2,1,4,5,6: PRINT "after row 99 and six"
40 LOCATE 1,99,1,4,5,6: PRINT "after column 99 and six"
50 LOCATE 1,1,7,4,5,6: PRINT "after cursor 7 and six"
60 LOCATE 1,1,1,4,300,6: PRINT "after stop 300 and six"
70 LOCATE 1,1,1,4,A$,6: PRINT "after a string stop and six"
80 LOCATE ,,,,,,: PRINT "after six commas"
90 LOCATE 0,,,,,7: PRINT "after row 0 and six"
100 LOCATE 1,1,1,4,5,1/0: PRINT "after a sixth 1/0"
110 END
500 PRINT "error"; ERR; "in"; ERL
510 RESUME NEXT
