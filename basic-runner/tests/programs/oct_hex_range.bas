10 REM HEX$ and OCT$ take -32768 to 65535 (negatives in two's complement); past that Overflow
20 ON ERROR GOTO 100
30 PRINT OCT$(65535); " "; OCT$(-32768); " "; HEX$(65535); " "; HEX$(-1); " "; OCT$(-1)
40 PRINT HEX$(-40000)
50 PRINT OCT$(-40000)
60 PRINT OCT$(65536)
70 PRINT HEX$(65535.4); " "; HEX$(-32768.4)
80 END
100 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
