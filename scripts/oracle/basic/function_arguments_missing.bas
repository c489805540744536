10 REM a string function with too few arguments is a Syntax error when it runs, trappable
20 ON ERROR GOTO 100
30 PRINT STRING$(4)
40 PRINT LEFT$("QRS")
50 PRINT "ON"; MID$("QRS")
60 PRINT INSTR("Q"); "ON"
70 PRINT CHR$(); RIGHT$("A")
80 PRINT "END"
90 END
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
