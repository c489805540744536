10 REM string comparisons: length, case, blanks
20 DATA "A","B","AB","A","a","A"," A","A","A ","A","","A","ABC","ABD","Z","AAAA"
30 FOR I=1 TO 8
40 READ X$,Y$
50 PRINT "[";X$;"] [";Y$;"]";X$<Y$;X$=Y$;X$>Y$;X$<>Y$;X$<=Y$
60 NEXT
70 PRINT "10"<"9";"B">"AZZ";("A"="A")+("B"="B")
