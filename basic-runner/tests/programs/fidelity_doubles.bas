5 REM double literals and simple doubles print as GW-BASIC holds them (checked with PC-BASIC)
10 A#=9.04829864: B#=3.14159265358979: C#=1.5D-7*3: PRINT A#; B#; C#; 123456789; 0.1#*3
20 PRINT 1#/4, 2.5D10, 1234567.891#, 1D-5
