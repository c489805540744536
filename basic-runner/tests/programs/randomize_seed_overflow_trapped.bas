1 REM RND=GWBASIC
10 REM a seed typed at RANDOMIZE's prompt outside -32768..32767 is Overflow,
20 REM which ON ERROR traps like any other error; RESUME NEXT goes on after it
30 ON ERROR GOTO 100
40 RANDOMIZE
50 PRINT "after the prompt"
60 RANDOMIZE
70 PRINT "seeded"; RND
80 END
100 PRINT "error"; ERR; "in"; ERL
110 RESUME NEXT
