5 REM text after a whole statement is a Syntax error only once the statement has run, for LET, DIM, ERASE, DEFINT, ON ERROR GOTO and WHILE
6 REM (their code returns and NEWSTT meets the text: GWMAIN.ASM, BIMISC.ASM); a false WHILE goes past its WEND and never meets it
10 ON ERROR GOTO 900 X
20 LET Z = 7 Q: PRINT "Z"; Z
30 DIM R(3) Q: PRINT "R"; R(3)
40 DIM R(3): PRINT "NOT HERE"
50 ERASE R Q: DIM R(9): R(9) = 1: PRINT "R9"; R(9)
60 DEFINT K Q: K = 2.7: PRINT "K"; K
70 W = 0: WHILE W > 5 Q: PRINT "NOT IN LOOP": WEND: PRINT "PAST WEND"
80 WHILE W < 2 Q: W = W + 1: PRINT "W"; W: WEND: PRINT "DONE"
90 END
900 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
