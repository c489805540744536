5 REM RANDOMIZE n seeds and returns (RANDOM, GWMAIN.ASM: FRMEVL, FRCINT, STRNDS): text after the seed is a Syntax error once the generator is reseeded
6 REM (a reseed leaves the rest of the generator's state, so the third number is not the first again)
7 REM RND=GWBASIC
10 ON ERROR GOTO 100
20 RANDOMIZE 5: PRINT RND; RND
30 RANDOMIZE 5 X: PRINT RND
40 RANDOMIZE 5: PRINT RND; RND
50 RANDOMIZE 5: PRINT RND
60 END
100 PRINT "ERR"; ERR; "IN"; ERL: RESUME NEXT
