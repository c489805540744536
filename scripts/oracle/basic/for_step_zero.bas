10 REM STEP 0: when does NEXT end the loop? (the body moves the variable itself)
20 FOR D=1 TO 3 STEP 0:PRINT D;:D=D+1:NEXT:PRINT D
30 FOR E=5 TO 3 STEP 0:PRINT E;:E=E-1:NEXT:PRINT E
