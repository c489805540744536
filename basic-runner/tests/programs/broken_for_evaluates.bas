10 REM A broken FOR has evaluated its start, limit and step before the bad
20 REM token, converted to the loop's type (a string is Type mismatch), and assigned nothing
30 ON ERROR GOTO 200
40 FOR I = 1 / 0 TO 2 X
50 PRINT "I="; I
60 FOR I = 2 TO LOG(0) STEP ;
70 FOR I% = 40000 X
80 FOR I% = 7 TO 9 STEP 1 Y
90 PRINT "I%="; I%
100 FOR J = 1 TO 3 STEP 1 / 0 Z
110 FOR K = 5 TO
120 PRINT "J="; J; "K="; K
122 FOR I = "S" 1 TO 3
124 FOR I = 1 TO "S" 3
126 FOR I% = 1 TO 3 STEP "X" Y
130 END
200 PRINT "ERR"; ERR; "ERL"; ERL
210 RESUME NEXT
