10 REM ERROR evaluates its number before the text after it is found bad;
20 REM IF evaluates its condition before a missing THEN
30 ON ERROR GOTO 200
40 ERROR LOG(0) 1
50 ERROR 5 X
60 IF LOG(0) X THEN PRINT "NO"
70 IF 1 / 0 X THEN PRINT "NO"
80 PRINT "END"
90 END
200 PRINT "ERR"; ERR; "ERL"; ERL
210 RESUME NEXT
