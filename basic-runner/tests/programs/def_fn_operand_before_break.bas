10 REM a DEF FN body broken after an operator runs the operand before it first:
20 REM an undefined FN there is error 18, not the syntax error that follows;
25 REM an operator already due is applied (X/0 divides) before the break
30 ON ERROR GOTO 200
40 DEF FNP(X) = FNQ(X) + INPUT
50 DEF FNR(X) = X * 2 + INPUT
70 PRINT FNP(1)
80 PRINT FNR(1)
100 DEF FNQ(X) = X
110 PRINT FNP(1)
112 DEF FNA(X) = X / 0 + 
114 PRINT FNA(1)
116 DEF FNB(X) = 1 + X * LOG(0) -
118 PRINT FNB(1)
120 END
200 PRINT "error"; ERR; "in"; ERL: RESUME NEXT
