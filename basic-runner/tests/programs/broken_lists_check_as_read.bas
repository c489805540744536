5 REM A list broken before its ")" has checked what it read, as GW-BASIC
6 REM reads it: subscripts are made integers (INTIDX), LEFT$, RIGHT$ and
7 REM MID$ want their string once its "," is read and read each count as a
8 REM number at once, STRING$ its count, INSTR its start or text searched; the arguments
9 REM past the most a function takes are never read
10 ON ERROR GOTO 1000
20 B$ = "HELLO"
30 A% ( 40000 + 2
40 A = Q ( "S" X
50 DIM R ( 40000 X
60 Q ( 1 , 40000 X ) = 1
70 A$ = LEFT$ ( 5 , 2 X
80 A$ = LEFT$ ( 5 X
90 A$ = LEFT$ ( B$ , "S" X
100 A$ = MID$ ( B$ , 40000 X
110 A$ = MID$ ( B$ , 2 , "S" 1 )
120 A$ = STRING$ ( 40000 X
130 A$ = STRING$ ( 300 X
140 A = INSTR ( B$ , 5 , X
150 A = INSTR ( 5 , 6 X
160 A$ = CHR$ ( 65 , LOG ( 0 ) )
170 A$ = MID$ ( B$ , 2 , 3 , LOG ( 0 ) )
180 A$ = LEFT$ ( B$ )
190 PRINT "END"; B$
200 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT
