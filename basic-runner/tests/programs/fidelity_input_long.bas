10 REM an answer beyond 255 characters: INPUT asks again, LINE INPUT keeps 255 (checked with PC-BASIC)
20 INPUT "NAME";A$
30 PRINT LEN(A$)
40 LINE INPUT B$
50 PRINT LEN(B$)
