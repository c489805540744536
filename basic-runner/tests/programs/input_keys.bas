10 REM INPUT$(n) waits for n keys and shows none of them; a line typed is its
20 REM characters as keys (an empty line is Enter, CHR$(13)); what INPUT$ did
30 REM not take waits for the next INPUT$ or INKEY$, which is "" when no key is
40 REM typed ahead. The count is checked (1-255) before a key is read.
50 PRINT "PRESS ANY KEY";
60 A$ = INPUT$(1): PRINT "[";A$;"]";ASC(A$)
70 B$ = INPUT$(3): PRINT "[";B$;"]"
80 PRINT "KEY[";INKEY$;"]"
90 C$ = INPUT$(1): PRINT "ENTER IS";ASC(C$)
100 PRINT USING "## + ## = ###"; VAL(INPUT$(1)); VAL(INPUT$(2)); 0
110 DEF FNA(X) = VAL(INPUT$(2)) + X
120 PRINT FNA(1) + FNA(-42)
130 ON ERROR GOTO 200
140 D$ = INPUT$(0): D$ = INPUT$(256): D$ = INPUT$(-1): D$ = INPUT$("A"): D$ = INPUT$(40000)
150 FOR I = 1 TO 3: K$ = INPUT$(1): PRINT K$;: NEXT I: PRINT
160 PRINT "FREE"; FRE(""); "KEY["; INKEY$; "]"
170 END
200 PRINT "ERROR"; ERR; "IN"; ERL: RESUME NEXT
