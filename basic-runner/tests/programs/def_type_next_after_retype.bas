5 REM a NEXT whose name a DEFSNG retyped after the FOR is another variable: NEXT without FOR
10 DEFINT U: FOR U=1 TO 2.5: NEXT U
20 PRINT U: DEFSNG U: NEXT U
