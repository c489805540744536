5 REM the number reader skips blanks before a ! or # type sign (2 # is 2#), not before %
10 ON ERROR GOTO 90
20 A = (2 # + 1) / 3: PRINT A
30 PRINT 10 / 3 !; 1.5 #
40 PRINT 1 %
50 PRINT LOG(0 #)
60 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT
