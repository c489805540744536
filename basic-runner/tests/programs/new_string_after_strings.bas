1 REM A string grown by SPACE$ and a concatenation leaves the segment near full: the plain run loop
2 REM hands over to the checking one, and a new string variable is Out of memory (7), after a collection
10 ON ERROR GOTO 900: DIM A#(7451): PRINT "FREE"; FRE(0)
20 C$ = SPACE$(60): D$ = C$ + "Y": PRINT "C$ D$"; FRE(0)
30 E1$ = "1": PRINT "E1$"; FRE(0): E2$ = "2": PRINT "E2$"; FRE(0): E3$ = "3": PRINT "E3$"; FRE(0)
40 E4$ = "4": PRINT "E4$"; FRE(0): E5$ = E4$: PRINT "E5$"; FRE(0)
50 PRINT "END"; E1$; E5$; FRE(""): END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT
