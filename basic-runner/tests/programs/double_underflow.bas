5 REM below 2^-128, MBF's smallest number, a double is 0 as a single is: literals, VAL, READ, INPUT's reader, products, CSNG
10 PRINT 1D-100; 1E-50; 1D-38; 1D-39; 2.9D-39; 3D-39
20 A# = 1D-20: B# = A# * A#: PRINT B#; A# / 1D+30
30 C# = VAL("1D-100"): PRINT C#; VAL("1E-45"); VAL("1E-40")
40 READ D#: PRINT D#
50 DATA 1D-100
60 E! = 1D-40: PRINT E!; CSNG(1D-40); CSNG(3D-39)
70 F = 1E-20: G = F * F: PRINT G; G * 1E-19; 1E-38 / 3
80 IF B# = 0 AND C# = 0 THEN PRINT "ZERO"
