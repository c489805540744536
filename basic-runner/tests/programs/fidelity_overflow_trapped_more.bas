5 REM more trapped overflows: an integer loop stepping past 32767, INPUT into array elements, \ of -32768 by -1, ^ and doubles (checked with PC-BASIC)
10 ON ERROR GOTO 900
20 FOR I%=32765 TO 32767:PRINT I%;:NEXT:PRINT "A";I%
40 DIM A(3):INPUT A(1),B%(2):PRINT A(1);B%(2)
50 X%=-32768:Y%=X%\-1:PRINT Y%
60 Z=2^200:PRINT Z
70 Z#=1D+38*10:PRINT Z#
80 PRINT 40000*40000, -32768%*1%
90 END
900 PRINT "ERR";ERR;"ERL";ERL:RESUME NEXT
