5 REM FRE(0) counts the program text as GW-BASIC stores it: WHILE as the pair WHILE+, TAB( and SPC( as one token each with their parenthesis, GO TO and GO SUB as GOTO and GOSUB
10 PRINT FRE(0)
20 I = 0: WHILE I < 2: I = I + 1: WEND: PRINT FRE(0)
30 WHILE 0: WEND: PRINT FRE(0)
40 PRINT TAB(3); SPC(2); FRE(0)
50 GO SUB 70: PRINT FRE(0): GO  TO 80
70 RETURN
80 END
