10 REM a negative power is the inverted power of its magnitude, an overflow of that printed once
20 PRINT 2^-126
30 PRINT 2^-127
40 PRINT 2^-200
50 PRINT .5^-126
60 PRINT .5^-200
70 PRINT (-2)^-201
80 PRINT 10^-38; 10^-39
90 ON ERROR GOTO 200
100 PRINT 2^-130
110 END
200 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
