10 REM a FOR run before and after a DEFINT of its variable runs the loop of I!, then I%; DEFDBL makes it a type mismatch
20 FOR K% = 1 TO 3
30 FOR I = 1 TO 2.5 STEP 0.75: PRINT I;: NEXT I: PRINT "/"; I
40 IF K% = 1 THEN DEFINT I ELSE IF K% = 2 THEN DEFDBL I
50 NEXT K%
