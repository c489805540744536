10 REM RETURN with a bad line number leaves the subroutine, then Syntax error in its line; GOSUB with one pushes
15 REM nothing: the error resets the stack (ERESET, SAVSTK); PC-BASIC ignores the bad text after RETURN
20 ON ERROR GOTO 900
30 GOSUB 200: PRINT "BACK IN 30"
40 GOSUB X: PRINT "AFTER GOSUB X"
50 PRINT "RETURNING": RETURN
60 PRINT "END": END
200 PRINT "IN SUB": RETURN "1": PRINT "AFTER RETURN IN 200": GOTO 40
900 PRINT "ERR";ERR;"ERL";ERL: RESUME NEXT
