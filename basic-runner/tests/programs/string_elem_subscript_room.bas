5 REM GW-BASIC's LET finds an array element before it works out the string: a string built for an element whose subscript fails was never made and takes no room
10 DIM B$(5): ON ERROR GOTO 100
20 PRINT FRE(0)
30 B$(6) = "X" + "Y"
40 PRINT FRE(0)
50 B$(6) = STRING$(20, "Z")
60 PRINT FRE(0)
70 B$(1) = STRING$(20, "Z"): PRINT FRE(0)
80 B$(2, 1) = B$(1) + "Q": PRINT FRE(0); FRE("")
90 END
100 PRINT "ERR"; ERR; FRE(0): RESUME NEXT
