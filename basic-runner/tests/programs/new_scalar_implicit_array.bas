1 REM An array made by its first use, B(3), takes the room the variables
2 REM needed: V2# and the array E$ are then Out of memory (7); V1 still fits
10 ON ERROR GOTO 900
20 DIM A#(7469)
30 C$ = STRING$(60, "X"): PRINT "C$"; FRE(0)
50 B(3) = 7: PRINT "B(3)"; B(3); FRE(0)
60 V1 = 1: PRINT "V1"; FRE(0)
70 V2# = 2: PRINT "V2#"; FRE(0)
80 E$(2) = "Q": PRINT "E$"; FRE(0)
100 PRINT "END"; V1; V2#: END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT
