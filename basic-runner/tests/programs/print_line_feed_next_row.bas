10 REM a printed line feed moves to the next row and the rest prints there, no wrapped line
20 REM (GW-BASIC's recorded PRINT_line_feed_wrap: the typed Esc on the second row erased only it)
30 WIDTH 40
40 PRINT "11111" CHR$(10) "22222"
50 PRINT "A" CHR$(10) CHR$(10) "B";: PRINT POS(0)
