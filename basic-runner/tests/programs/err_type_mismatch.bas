10 A$ = "X"
20 PRINT "HERE"; A$ + 1
