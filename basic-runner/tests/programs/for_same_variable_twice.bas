10 REM Two FOR statements of one variable: the second stacks a loop of its
20 REM own (GW-BASIC drops an active loop only when the same FOR runs again)
30 FOR K = 1 TO 2
40   PRINT "outer"; K
50   FOR K = 1 TO 3
60     PRINT "  inner"; K
70   NEXT K
80 NEXT K
90 PRINT "after both, K ="; K
100 REM the same FOR run again drops its old loop and all above it
110 N = 0
120 FOR J = 1 TO 3
130   N = N + 1: IF N = 2 THEN 120
140   FOR M = 1 TO 2: PRINT "J"; J; "M"; M: IF N = 1 THEN 120
150   NEXT M
160 NEXT J
170 PRINT "N ="; N
