5 REM a loop left by a jump is still on the stack, but only its own NEXT continues it
10 I=0
20 I=I+1:FOR J=1 TO 3:IF J=2 THEN 40
30 NEXT J
40 IF I<3 THEN 20
50 PRINT I;J
60 NEXT J
