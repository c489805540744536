10 REM computed doubles: GW-BASIC has a 56-bit mantissa, Tavern IEEE f64 (53 bits)
20 PRINT 1#/3;2#/3;10#/3;1#/7
30 A#=1:FOR I=1 TO 20:A#=A#*1.1#:NEXT:PRINT A#
