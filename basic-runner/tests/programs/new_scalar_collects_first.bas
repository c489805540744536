1 REM Making a variable collects the string garbage first, as GW-BASIC's REASON
2 REM does: a variable fits once the dropped strings are gone
10 ON ERROR GOTO 900
20 DIM A#(7463)
30 A$ = STRING$(40, "X"): A$ = "": PRINT "GARBAGE"; FRE(0)
40 V1 = 1: PRINT "V1"; FRE(0): V2 = 2: PRINT "V2"; FRE(0): V3 = 3: PRINT "V3"; FRE(0)
70 V4 = 4: PRINT "V4"; FRE(0): V5 = 5: PRINT "V5"; FRE(0): V6 = 6: PRINT "V6"; FRE(0)
100 V7 = 7: PRINT "V7"; FRE(0): V8 = 8: PRINT "V8"; FRE(0)
120 PRINT "END"; FRE(""): END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT
