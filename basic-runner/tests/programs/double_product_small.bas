5 REM a double product far above MBF's smallest number keeps its value: $FMULD (MATH2.ASM) adds the
6 REM exponents with $AEXPS (MATH1.ASM), which makes 0 only of a product below 2^-128
10 PRINT 1D-30*2; 1D-29*2; 1D-38*1E9; 1D-30*1D10
20 A# = 1D-30: PRINT A#*2#; A#*2!; A#/.5
30 PRINT 1D-31*4; 3D-35*.5
