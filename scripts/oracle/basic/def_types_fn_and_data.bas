10 REM DEF FN typed at each call; READ, arrays, SWAP and ON GOSUB on names retyped between passes
20 DEF FNQ(X) = X * 3 + W: W = 0.5
30 DIM R(3)
40 FOR K% = 1 TO 3
50 READ R: R(K%) = R / 2: PRINT R; R(K%); FNQ(1.1)
60 T = K% * 1.5: U = 10.25: SWAP T, U: PRINT T; U
70 ON K% GOSUB 200, 210, 220
80 NEXT K%
90 PRINT FNQ(2.6); R(1); R(2); R(3)
100 DATA 1.5, 2.5, 3.5
110 END
200 DEFINT X, R: RETURN
210 DEFDBL W, T-U: W = 1 / 3: RETURN
220 DEFSTR R: R(1) = "S": R = "X": PRINT R(1); R: DEFSNG R: RETURN
