5 REM ON GOTO/GOSUB walks its list as GW-BASIC does: a selected item jumps to its line number whatever follows it, 0 walks the whole list (PC-BASIC output)
10 ON ERROR GOTO 900
20 ON 1 GOTO X
30 ON 1 GOSUB 100 X
40 PRINT "back"
50 ON 2 GOTO 100 X, 200
60 ON 0 GOTO 100 X
70 ON 0 GOTO 100,
80 ON 3 GOTO 100, X
90 PRINT "end": END
100 PRINT "L100": RETURN
200 PRINT "L200": END
900 PRINT "ERR";ERR;"AT";ERL: RESUME NEXT
