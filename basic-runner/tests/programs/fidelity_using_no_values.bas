10 REM PRINT USING with nothing after its ";" scans its format to a field and is Missing operand (22) there,
15 REM trapped and then fatal; a format with no field prints its text and is Illegal function call (BIPRTU.ASM, REUSST)
20 ON ERROR GOTO 100
30 PRINT USING "##.#";
40 PRINT USING "ABC";:PRINT "NEXT STATEMENT"
50 ON ERROR GOTO 0
60 PRINT USING "#";
70 PRINT "NOT REACHED"
100 PRINT "ERR";ERR;"ERL";ERL:RESUME NEXT
