5 REM VAL reads an &H/&O number with OCTCNS as READ does (BISTRS.ASM: VAL calls FINDBL; GWEVAL.ASM: OCTCNS, FLGSCN 0 outside INPUT):
6 REM a fifth hex digit is Overflow whatever its value, octal past 16 bits Overflow, an 8 or 9 among octal digits Syntax error, all at VAL's line
10 ON ERROR GOTO 100
20 PRINT VAL("&HFFFF"); VAL("&H7FFF"); VAL("&O177777"); VAL("&17")
30 PRINT VAL("&H0FFFF")
40 PRINT VAL("&HFFFFF")
50 PRINT VAL("&O200000")
60 PRINT VAL("&O8")
70 PRINT VAL("&O78")
75 PRINT VAL("&H1G"); VAL("&HG"); VAL(" &H10")
80 END
100 PRINT "ERROR";ERR;"IN";ERL: RESUME NEXT
