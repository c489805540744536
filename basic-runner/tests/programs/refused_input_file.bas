10 REM INPUT$(n, #f) reads a file: refused at load like OPEN, not a Syntax error
20 PRINT "HI"
30 A$ = INPUT$(1, #1)
