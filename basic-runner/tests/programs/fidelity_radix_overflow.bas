5 REM &H and &O numbers past 16 bits: VAL and READ stop with Overflow (6, READ naming its own line: OCTCNS jumps to OVERR with CURLIN the READ's),
6 REM INPUT prints Overflow (CKOVER) and asks again (PC-BASIC asks only; its VAL of &O is Illegal function call, so the corpus leaves &O out)
10 ON ERROR GOTO 90
20 PRINT VAL("&HFFFF"); VAL("&H1FFFF")
25 PRINT VAL("&177777"); VAL("&777777")
30 READ A: PRINT A
35 INPUT B: PRINT B
40 DATA &H12345, 5
50 END
90 PRINT "ERR";ERR;"AT";ERL: RESUME NEXT
