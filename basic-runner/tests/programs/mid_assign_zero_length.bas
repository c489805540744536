10 REM MID$ assignment with a length of 0 does nothing, wherever it starts (GW-BASIC's LHSMID returns before it
15 REM checks the position against LEN); otherwise a start past the end is Illegal function call
20 ON ERROR GOTO 900
30 A$="AB": MID$(A$,5,0)="X": PRINT A$
40 MID$(A$,5)="X": PRINT A$
50 MID$(A$,3)="X": PRINT A$
60 MID$(A$,1,256)="X": PRINT A$
70 MID$(A$,2,0)="": PRINT A$
80 MID$(A$,2,1)="XYZ": PRINT A$
90 END
900 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
