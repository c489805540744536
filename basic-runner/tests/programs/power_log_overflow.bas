5 REM x^y past a whole y below 32768 is EXP(y*LOG(x)) in single precision ($FPWR, FP60, MATH1.ASM):
6 REM a product y*LOG(x) past the largest single prints Overflow once ($FLGOV 1) and EXP takes it
10 PRINT .084^1E38
20 PRINT 2^1E38
30 PRINT .5^1E30; 1.0001^1E30
40 ON ERROR GOTO 100
50 PRINT .117^1E38
60 END
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
