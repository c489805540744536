10 REM INPUT into a double reads the answer in double precision (FINDBL), unless a ! makes it single
20 INPUT A#: PRINT A#
30 INPUT B#: PRINT B#
40 INPUT C#, D: PRINT C#; D
50 INPUT E#: PRINT E#
