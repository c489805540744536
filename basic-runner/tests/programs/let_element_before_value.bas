5 REM LET finds the element (GW-BASIC's PTRGET) before it works out the value,
6 REM so a bad subscript is reported before the value's own error
10 ON ERROR GOTO 100
20 DIM B$(5): B$(6)=STRING$(256,"X")
30 DIM M(5): M(6)=1/0
40 M(-1)=LOG(0)
50 N(11)=SQR(-1): PRINT "N"; N(10)
60 M(2)=1/0: PRINT M(2)
70 Q%(12,1)=40000
80 B$(7)=B$(1)+"A": PRINT "OK"
90 END
100 PRINT "ERR";ERR;ERL: RESUME NEXT
