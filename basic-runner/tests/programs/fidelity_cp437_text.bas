10 REM text outside code page 437 (™) is one "?" as PC-BASIC reads a UTF-8 listing (--utf8); é is its CP437 byte
20 READ A$: PRINT A$; LEN(A$)
30 DATA X™Y
40 PRINT "™";CHR$(153)
50 A$="™": PRINT ASC(A$); ASC("é")
60 PRINT "T™" + "é"
