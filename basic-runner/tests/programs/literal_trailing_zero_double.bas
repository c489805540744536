5 REM an eighth digit makes a number double even when it is a 0 after the point: $FIDIG (MATH2.ASM)
6 REM goes to double (FI35) once the single it has built reaches 1000000, whatever digit comes next
10 PRINT 1234567.0/3; 0.12345670/3; 95.935450/3
20 PRINT 1234567/3; 0.1234567/3; 0.000012345670/3
30 PRINT 12345670/2; 1234567.0!/3
