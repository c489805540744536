10 REM string functions at their edges
20 A$="HELLO, WORLD"
30 PRINT LEFT$(A$,5);"|";RIGHT$(A$,5);"|";MID$(A$,8);"|";MID$(A$,8,3)
40 PRINT LEFT$(A$,0);"|";LEFT$(A$,50);"|";MID$(A$,20);"|";MID$(A$,1,0)
50 PRINT INSTR(A$,"O");INSTR(6,A$,"O");INSTR(A$,"");INSTR(20,A$,"O");INSTR("","")
60 PRINT LEN("");LEN(A$);ASC("A");CHR$(66);VAL("12AB");VAL("-3.5E2");VAL("")
70 PRINT HEX$(255);" ";OCT$(8);" ";HEX$(-1);" ";OCT$(-1)
80 PRINT UCASE$("abc")
90 B$="ABCDEF":MID$(B$,2,3)="xyzw":PRINT B$
100 MID$(B$,5)="12345":PRINT B$
110 PRINT STR$(123);LEN(STR$(123));VAL(" 1 2 3 ")
120 PRINT "A"+"B";"C"+STR$(1)+"D"
