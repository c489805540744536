1 REM Strings put the segment near full (STRING$, a concatenation): a new variable
2 REM then finds no room, also after a collection, and is Out of memory (7)
10 ON ERROR GOTO 900
20 DIM A#(7453)
30 PRINT "FREE"; FRE(0)
40 C$ = STRING$(60, "X"): PRINT "C$"; FRE(0)
50 D$ = "Y" + C$: PRINT "D$"; FRE(0)
60 V1 = 1: PRINT "V1"; FRE(0): V2 = 2: PRINT "V2"; FRE(0): V3 = 3: PRINT "V3"; FRE(0)
90 V4 = 4: PRINT "V4"; FRE(0): V5 = 5: PRINT "V5"; FRE(0): V6 = 6: PRINT "V6"; FRE(0)
120 V7 = 7: PRINT "V7"; FRE(0)
130 PRINT "END"; V6; V7; FRE(""): END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT
