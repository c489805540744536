1 REM A$ = A$ + "XX" fills the string space with garbage: making V2 collects it
2 REM first, as GW-BASIC's REASON does, and V2 fits
10 ON ERROR GOTO 900
20 DIM A#(7423)
30 PRINT "FREE"; FRE(0)
40 FOR I = 1 TO 20: B$ = B$ + "XX": NEXT
50 PRINT "B$"; LEN(B$); FRE(0)
60 V1 = 1: PRINT "V1"; FRE(0): V2 = 2: PRINT "V2"; FRE(0): V3 = 3: PRINT "V3"; FRE(0)
90 V4 = 4: PRINT "V4"; FRE(0): V5 = 5: PRINT "V5"; FRE(0): V6 = 6: PRINT "V6"; FRE(0)
120 PRINT "END"; V6; FRE(0): END
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT
