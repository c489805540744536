5 REM INSTR with its start last: Syntax error at the comma once the strings are read (a number for the second is Type mismatch first) (PC-BASIC's output)
10 ON ERROR GOTO 100
20 PRINT INSTR("ABCABC","C",3)
30 PRINT INSTR("AB",1,2)
40 PRINT INSTR(2,"ABCB","B");INSTR(1.7,"AB","B")
50 END
100 PRINT "ERR";ERR;"ERL";ERL:RESUME NEXT
