10 REM MOD keeps the dividend's sign: a negative divisor, a zero remainder of a negative dividend
20 PRINT -7 MOD -2;-8 MOD 2;7 MOD -2;-7 MOD 2;-6 MOD -3
30 PRINT -7.6 MOD 2.4;-32768 MOD 2
