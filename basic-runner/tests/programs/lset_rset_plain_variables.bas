10 REM LSET and RSET on plain string variables (DSKCOM.ASM, LSETA): the value
20 REM is cut on the right or padded with blanks to the variable's length; a
30 REM variable holding a literal gets its own room, the literal stays; a number
40 REM is Type mismatch before the = is read; subscripts are found first
50 ON ERROR GOTO 500
60 PRINT FRE("")
70 FOR I=1 TO 2: A$="HELLO": PRINT "[";A$;"]";FRE(""): LSET A$="XY"+"Z": PRINT "[";A$;"]";FRE(""): NEXT
80 LSET A$="Q": PRINT "[";A$;"]";FRE("")
90 B$=STRING$(6,"B"): PRINT FRE("")
100 RSET B$=A$+"!": PRINT "[";B$;"]";FRE("")
110 RSET B$="ABCDEFGHIJ": PRINT "[";B$;"]": LSET B$="ABCDEFGHIJ": PRINT "[";B$;"]"
120 E$="ABCDE": F$=E$: LSET F$="Z": PRINT E$;" ";F$
130 LSET Z(11)="A"
140 LSET C$(11)="A"
150 LSET X=5
160 LSET A$=5
170 LSET A$ "X"
180 LSET N$="ABC": PRINT "[";N$;"]";LEN(N$)
190 F$="XY": LSET F$="123" X: PRINT "[";F$;"]"
200 DEFSTR H: H="HHHH": RSET H="Z": PRINT "[";H;"]"
210 LSET I$=1/0 +
220 K$="12345": RSET K$=LEFT$("ABCDEFG",3): PRINT "[";K$;"]"
230 DIM D$(2): D$(1)="ABCD": LSET D$(1)=D$(1)+D$(1): PRINT D$(1);FRE("")
240 M$="ABC": RSET M$=M$: PRINT "[";M$;"]": LSET M$=MID$(M$,2): PRINT "[";M$;"]"
250 IF LEN(M$)=3 THEN RSET M$="!" ELSE PRINT "NO"
260 PRINT "[";M$;"]";FRE("")
270 END
500 PRINT "ERR";ERR;ERL: RESUME NEXT
