10 REM a double product or quotient near MBF's smallest number, 2^-128
20 PRINT 1D-20*1D-18; 1D-20*1D-19; 3D-20*1D-19; 1D-19*3D-20
30 A# = 1D-30: PRINT A# / 1D+8; A# / 1D+9; A# / 1D+10
40 B# = 2.9D-39: C# = 3D-39: PRINT B#; C#; C# * 1; C# / 1
50 PRINT 1E-20*1E-18; 3E-20*1E-19; 1E-30/1E+8
