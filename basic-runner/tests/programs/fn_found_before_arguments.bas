5 REM a user function call finds the function (Undefined user function) before
6 REM it reads its arguments, and reads one argument for each parameter
10 ON ERROR GOTO 200
20 A=FNX(1/0)
30 A=FNX(LOG(0))
40 A=FNX(
50 A=2+FNX(1,
60 DEF FNX(A)=A*2
70 PRINT FNX(3)
80 B=FNX(LOG(0),
90 B=FNX(5,
100 A$=FNY$(
110 PRINT FNX(2)+FNX(4)
120 DEF FNZ(A,B)=A+B
130 PRINT FNZ(1,LOG(0),3)
140 PRINT FNZ(LOG(0))
150 PRINT FNX(1,LOG(0))
160 PRINT FNZ(1,2,
170 PRINT FNZ(1
180 PRINT FNX("A")
190 PRINT FNZ(1,2): END
200 PRINT "ERR";ERR;ERL: RESUME NEXT
