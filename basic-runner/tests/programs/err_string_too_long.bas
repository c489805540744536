10 A$ = STRING$(200, "A")
20 B$ = A$ + A$
