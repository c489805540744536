5 REM a quoted DATA item is a string only; text after its closing quote is a syntax error at the DATA line when READ reaches it (GWMAIN.ASM: STRDN2, TRMNOK, DATSNE),
6 REM raised after the string before it is stored, and the item stays unread (DATPTR moves only when the READ ends)
10 ON ERROR GOTO 100
20 READ A$, B$: PRINT "[";A$;"] [";B$;"]"
30 READ C$: PRINT "[";C$;"]"
40 READ D$: PRINT "[";D$;"]"
50 RESTORE 80: READ N: PRINT N
60 READ M: PRINT M
65 READ L: PRINT L
66 RESTORE 85: READ P$: PRINT "[";P$;"]"
67 READ Q$: PRINT "[";Q$;"]"
70 DATA "SPACES AFTER"  , "COLON AFTER": DATA "TEXT"AFTER
80 DATA 7, "5"
85 DATA AB"C,D:E" , X"Y"Z
90 END
100 PRINT "ERROR";ERR;"IN";ERL: RESUME NEXT
