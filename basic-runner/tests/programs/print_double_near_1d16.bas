10 REM a double that rounds up to 10^16 or past it: $FOTNV divides by ten once more above HIDBL (9999999999999999) and keeps the power of ten
20 PRINT 99999999999999995#; 9999999999999999.5#; 9999999999999998#
