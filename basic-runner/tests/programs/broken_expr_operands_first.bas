10 REM A statement broken inside an expression evaluates the operands before
20 REM the break (and the operations already due) before its Syntax error
30 ON ERROR GOTO 200
40 A = LOG(0) + +
50 B$ = CHR$(300) + ,
60 PRINT "P"; 1; SQR(-1) * )
70 A = 1 / 0 +
80 PRINT "A="; A
90 A = (2 + LOG(0)
100 PRINT LEFT$("AB", LOG(0))
110 A = 2 * (3 + LEFT$("X", 1) +
120 PRINT "END"
130 END
200 PRINT "ERR"; ERR; "ERL"; ERL
210 RESUME NEXT
