5 REM LEFT$, RIGHT$ and MID$ read each count with GETBYT (ISFUN, GWEVAL.ASM;
6 REM MIDRST, BISTRS.ASM): a value past a byte, and MID$'s start 0, is
7 REM Illegal function call before the text after it is looked at
10 ON ERROR GOTO 1000
20 B$ = "HELLO"
30 A$ = MID$ ( B$ , 300 X
40 A$ = MID$ ( B$ , 0 X
50 A$ = RIGHT$ ( B$ , -1 X
60 A$ = MID$ ( B$ , 2 , 300 X
70 A$ = LEFT$ ( B$ , 255 X
80 A$ = MID$ ( B$ , 1 , 0 X
90 PRINT "END"
100 END
1000 PRINT "ERR"; ERR; ERL: RESUME NEXT
