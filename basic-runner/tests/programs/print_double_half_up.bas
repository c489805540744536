10 REM PRINT rounds a double's 17th digit half up, as GW-BASIC's $FOTCV adds .5 to the 16 whole digits $FOTNV made
20 PRINT 1D15 + .5; 2D15 + .5; 1.5D15 + .25; 1D15 + .375
30 PRINT 123456789012345.65#; 1.5D15 + .5
40 A# = 1D15: B# = A# + .5: PRINT B#; -B#; B# - A#
