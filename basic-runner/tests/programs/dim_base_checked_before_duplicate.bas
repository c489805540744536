10 REM DIM reads each index before it looks for the array: under OPTION BASE 1, GW-BASIC's
15 REM PTRGET (BIPTRG.ASM, LNGNAM) jumps to BSERR for an index of 0 before LOPFD0 searches,
20 REM so DIM of an existing array with a 0 index is Subscript out of range, not Duplicate Definition
30 ON ERROR GOTO 100
40 OPTION BASE 1
50 PRINT Q%(10)
60 DIM Q%(0)
70 DIM Q%(3)
80 END
100 PRINT "ERR"; ERR; "IN"; ERL: RESUME NEXT
