5 REM PRINT USING prints each value as it meets it; text after the last one is a Syntax error where FNSTRF (BIPRTU.ASM) looks for ; or , with no more of the format and no line end
10 ON ERROR GOTO 90
20 PRINT USING "## END"; 1 X
30 PRINT USING "##"; 1, 2 X; 3
40 PRINT USING "AB##CD##"; 1; 2 X
50 PRINT "NEXT"
80 END
90 PRINT "ERR"; ERR; ERL: RESUME NEXT
