5 REM a FOR without its NEXT evaluates its start, limit and step before FOR without NEXT, and assigns nothing
6 REM (an integer start past an integer is still its Overflow)
10 ON ERROR GOTO 90
20 FOR I = 1 / 0 TO 2
30 PRINT "I="; I
40 FOR I = 1 TO LOG(0)
50 FOR I = 3 TO 5 STEP SQR(-1)
60 FOR I% = 5 TO 1
62 FOR I% = 40000 TO 1
64 FOR I% = 32767.4 TO 1
70 PRINT "I="; I; "I%="; I%
75 ON ERROR GOTO 0: FOR K = 1 / 0 TO 2
80 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT
