10 REM arrays: implicit size 10, DIM, OPTION BASE, ERASE, string arrays
20 A(10)=5:PRINT A(10);A(0)
30 DIM B(2,3),C$(4)
40 FOR I=0 TO 2:FOR J=0 TO 3:B(I,J)=I*J:NEXT J,I
50 PRINT B(2,3);B(1,2);C$(4);"|"
60 ERASE B:DIM B(1):B(1)=9:PRINT B(1)
70 D%(3)=2.6:PRINT D%(3)
80 PRINT A(1.6);A(-0.4)
90 E(11)=1
