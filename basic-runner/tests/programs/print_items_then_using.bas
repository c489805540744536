5 REM PRINT goes to PRINT USING wherever it meets USING, after printing the items
6 REM before it; the format is evaluated and checked a string before its ";"
10 ON ERROR GOTO 100
20 PRINT "A"; USING "##.#"; 5; 6
30 PRINT "B", USING "!"; "XY"
40 PRINT USING "##"; 1; USING "!"; "Q"
50 PRINT "C" USING "#"; 7
60 PRINT 1; LOG(2); "A"; USING 2
70 PRINT "D"; USING LOG(0); 1
80 PRINT "E"; USING "#" 5
90 END
100 PRINT "ERR"; ERR; ERL: RESUME NEXT
