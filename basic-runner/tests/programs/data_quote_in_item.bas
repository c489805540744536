5 REM an unquoted DATA item ends at the first comma or colon whatever quotes it holds (GWMAIN.ASM SCNVAL: STRLT2 with "," and ":" as terminators);
6 REM READ leaves the statement at that colon and never reads the rest of the line (DATLOP looks for DATA right after it, in text the DATA skipper keeps between quotes)
10 ON ERROR GOTO 200
20 READ A$, B$, C$: PRINT "[";A$;"] [";B$;"] [";C$;"]"
30 READ D$, E$: PRINT "[";D$;"] [";E$;"]"
40 READ F$: PRINT "[";F$;"]"
50 READ G$: PRINT "[";G$;"]"
60 READ H$: PRINT "[";H$;"]"
100 DATA AB"C,D",E
110 DATA X"Y"Z, P"Q:R": PRINT "LINE 110 RUNS": DATA "NEVER READ"
120 DATA "S:T", U V  
130 END
200 PRINT "ERROR";ERR;"IN";ERL: RESUME NEXT
