10 A = 1: B = 2: SWAP A, B: PRINT A; B
20 A$ = "X": B$ = "Y": SWAP A$, B$: PRINT A$; B$
30 DIM C(2): C(1) = 5: C(2) = 6: SWAP C(1), C(2): PRINT C(1); C(2)
40 S$ = "HELLO": MID$(S$, 2, 3) = "ABCDE": PRINT S$
50 MID$(S$, 4) = "XYZ": PRINT S$
60 WRITE 1, "TWO", -3.5, .5
70 WRITE
