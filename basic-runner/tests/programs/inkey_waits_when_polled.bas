10 REM INKEY$ answers "" while no key is typed ahead; after 256 empty answers
20 REM in a row it waits for a line, whose first character is the key (the
30 REM rest is dropped): a loop polling for a key waits for a message.
40 PRINT "PRESS ANY KEY"
50 N = N + 1: IF INKEY$ = "" THEN 50
60 PRINT "POLLED"; N
70 PRINT "[" INKEY$ "]"
80 PRINT "Y/N";
90 A$ = INKEY$: IF A$ = "" THEN 90
100 PRINT " "; A$
110 B$ = INPUT$(2): PRINT "[" B$ "] [" INKEY$ "]"
120 FOR I = 1 TO 10: K$ = K$ + INKEY$: NEXT: PRINT "[" K$ "]"
