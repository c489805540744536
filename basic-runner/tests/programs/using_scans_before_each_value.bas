5 REM PRINT USING scans its format to a value's field, printing the text on the
6 REM way, before it evaluates the value (GW-BASIC's PRINUS, BIPRTU.ASM)
10 ON ERROR GOTO 200
20 PRINT USING "A##.#B##.#C"; 1; LOG(0)
30 PRINT USING "A##.#B##.#C"; 1; )
40 PRINT USING "##.#"; 1; 2; 3 +
50 PRINT USING "<##>"; 1; 2, "X"
60 PRINT USING "NO FIELD"; LOG(0)
70 PRINT USING "[&]"; "A"; 1 / 0
80 PRINT USING "**$##.##"; 5; SQR(-1)
90 PRINT USING "X!Y"; "Q";: PRINT "-"
100 PRINT USING "_##"; 7
110 END
200 PRINT "ERR"; ERR; "ERL"; ERL: RESUME NEXT
