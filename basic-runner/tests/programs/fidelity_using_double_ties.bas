10 REM PRINT USING rounds a double's exact tie away from zero, as singles; .5 in "##" is 1 as GW-BASIC's $PUF rounds it (PC-BASIC prints 0)
20 PRINT USING "##";1.5#;2.5#;-2.5#;0.5#;-0.5#;9.5#
30 PRINT USING "#.#";0.25#;0.75#;-0.25#;9.75#
40 PRINT USING "##.##";2.125#;2.375#;99.875#
50 PRINT USING "#.##^^^^";2.5D+20;1.125#;9.875D-1
60 PRINT USING "#####";12345.5#;99999.5#
