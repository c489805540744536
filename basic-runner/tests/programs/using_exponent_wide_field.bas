10 REM a ^^^^ field wider than single precision's 7 digits: the padding zeros
20 REM move no power of ten (GW-BASIC prints 1000.0000000E+03 for a million)
30 PRINT USING "#####.#######^^^^"; 1E6
40 PRINT USING "#,###.####^^^^"; 2500000
50 PRINT USING "##.##########^^^^"; 12.5
60 PRINT USING "###.###^^^^"; 1E6
