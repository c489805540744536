10 REM WRITE takes ; between items as it takes , and writes a comma either way (PC-BASIC's output)
20 WRITE "";1;2
30 A$="X":WRITE A$;-1.5,"Y";A$
