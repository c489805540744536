5 REM issue 27 cause 5, Out of string space with the free memory GW-BASIC reports
10 ON ERROR GOTO 900
20 PRINT FRE(0)
30 DIM A$(300)
40 PRINT FRE(0)
50 FOR I = 0 TO 300: A$(I) = STRING$(250, 65): NEXT I
60 PRINT "DONE"
70 PRINT FRE(0); FRE("")
80 END
900 PRINT "ERR"; ERR; "IN"; ERL; "AT"; I; FRE(0): RESUME 70
