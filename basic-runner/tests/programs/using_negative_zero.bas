5 REM a negated zero prints without a minus in PRINT USING: $PUFOT (MATH2.ASM) takes the sign from $SIGNS,
6 REM which answers zero for a zero exponent (SIS05, MATH1.ASM) before it reads the sign bit $NEG flipped
10 PRINT USING "+#";-0;-0!;-0#;-(1-1)
20 X! = 0: X# = 0: X% = 0
30 PRINT USING "#.#^^^^";-X!
40 PRINT USING "**#.#";-X!
50 PRINT USING "#,+";-X!
60 PRINT USING "+#.#";-X#;-X%
70 PRINT USING "#.#";-.0
80 PRINT -X!; -X#; -X%; SGN(-X!); -X! = 0; -X! < 0
