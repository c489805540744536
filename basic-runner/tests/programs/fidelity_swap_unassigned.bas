10 REM SWAP makes its first variable, but a second never given a value is Illegal function call
20 ON ERROR GOTO 200
30 A=2:SWAP Y,A:PRINT A;Y
40 SWAP P,Q:PRINT "AFTER";P;Q
50 B=3:SWAP B,R:PRINT "AFTER";B;R
60 A$="X":SWAP A$,Q$:PRINT "AFTER";A$;Q$
70 SWAP C$,A$:PRINT "[";A$;"]";C$
80 DIM Z(3):Z(1)=4:SWAP Z(1),Z(2):PRINT Z(1);Z(2)
90 SWAP Z(1),U(1):PRINT Z(1);U(1)
100 D=0:SWAP Y,D:PRINT Y;D
110 END
200 PRINT "ERR";ERR;"AT";ERL:RESUME NEXT
