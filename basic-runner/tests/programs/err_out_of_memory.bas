5 REM too deep a recursion without a handler is GW-BASIC's Out of memory
10 GOSUB 10
