5 REM EXP of a large negative number is 0 without a message: $EXP (MATH1.ASM) takes y = x*LOG2(e),
6 REM and where y is 128 or more in size EXP110 overflows only for a positive y, else it is $ZERO
10 PRINT EXP(-89); EXP(-734); EXP(-1E30)
20 PRINT 81.60321E-39^8.6; .001^20.5
30 ON ERROR GOTO 100
40 PRINT EXP(-734); EXP(89)
50 END
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
