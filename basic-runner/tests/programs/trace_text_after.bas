5 REM TRON and TROFF set the trace flag and return (TON, TOFF in BIMISC.ASM): text after them is a Syntax error once tracing changed
10 ON ERROR GOTO 100
20 PRINT "A": TRON X: PRINT "B"
30 PRINT "C": TROFF Y: PRINT "D"
40 PRINT "E": TRON 5: PRINT "F"
50 TROFF: END
100 PRINT "ERR"; ERR; "IN"; ERL: RESUME NEXT
