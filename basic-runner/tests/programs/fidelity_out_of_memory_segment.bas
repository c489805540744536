5 REM Out of memory (7) for an array that fits GW-BASIC segment but not beside the strings, after a garbage collection (PC-BASIC output)
10 ON ERROR GOTO 900
20 DIM S$(250)
30 FOR I=1 TO 230: S$(I)=STRING$(250,"X"): NEXT
40 PRINT FRE(0), FRE("")
50 DIM A(1000)
60 PRINT FRE(0)
70 ERASE A: S$(1)="": S$(2)="": S$(3)="": S$(4)=""
80 PRINT FRE(0)
90 DIM B(1000)
100 PRINT FRE(0), FRE("")
110 DIM C(100): PRINT FRE(0)
120 Z=5: PRINT FRE(0)
130 END
900 PRINT "ERR";ERR;"AT";ERL;FRE(0): RESUME NEXT
