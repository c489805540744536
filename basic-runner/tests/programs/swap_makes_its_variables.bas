5 REM SWAP finds its first variable, then its second, making each when new
6 REM (PTRGET); a second one made new is Illegal function call, once made.
7 REM Whether a variable exists is a matter of the run, not of the text
10 ON ERROR GOTO 1000
20 PRINT FRE(0)
30 SWAP A, B: PRINT "X"
40 PRINT FRE(0)
50 SWAP C, A: PRINT "Y"; FRE(0)
60 SWAP D$, E$: PRINT FRE(0)
70 SWAP Q%(1), R%: PRINT FRE(0)
80 SWAP F, G: PRINT "Z"; F; G
90 G = 0: SWAP F, G: PRINT "W"; F; G
100 IF FRE(0) > 0 THEN 130
110 G = 5
120 GOTO 90
130 H$ = "A": SWAP H$, I$: PRINT "V"; H$; I$; FRE(0)
140 END
1000 PRINT "ERR"; ERR; ERL; FRE(0): RESUME NEXT
