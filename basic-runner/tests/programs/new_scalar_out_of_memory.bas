1 REM A new simple variable takes room in the segment when it is made (its first
2 REM store, or a READ into it): with none left that is Out of memory (7), and the
3 REM variable is not made; one already made is stored to as before
10 ON ERROR GOTO 900
20 DIM A#(7434)
30 PRINT "FREE"; FRE(0)
40 V1 = 1: PRINT "V1"; FRE(0): V2 = 2: PRINT "V2"; FRE(0): V3 = 3: PRINT "V3"; FRE(0)
70 V4 = 4: PRINT "V4"; FRE(0): V5 = 5: PRINT "V5"; FRE(0): V6 = 6: PRINT "V6"; FRE(0)
100 V7 = 7: PRINT "V7"; FRE(0): V8 = 8: PRINT "V8"; FRE(0): V9 = 9: PRINT "V9"; FRE(0)
130 V10 = 10: PRINT "V10"; FRE(0): V11 = 11: PRINT "V11"; FRE(0): V12 = 12: PRINT "V12"; FRE(0)
160 V1 = 99: PRINT "V1 AGAIN"; V1; FRE(0)
170 READ W: PRINT "READ"; W; FRE(0)
180 I% = 0: PRINT "I%"; FRE(0)
190 PRINT "END"; V12; W: END
800 DATA 5
900 PRINT "ERROR"; ERR; "IN"; ERL; FRE(0): RESUME NEXT
