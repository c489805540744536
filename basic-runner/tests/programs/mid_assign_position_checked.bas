10 REM MID$ assignment reads its position with GETBYT (256 is Illegal function call) and refuses 0 at once
15 REM (GW-BASIC's LHSMID, BISTRS.ASM: "BLOW HIM UP IF ZERO"), also with a length of 0; PC-BASIC does nothing
20 ON ERROR GOTO 900
30 A$="AB": MID$(A$,0,0)="X": PRINT A$
40 MID$(A$,256,0)="X": PRINT A$
50 MID$(A$,0)="X": PRINT A$
60 END
900 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
