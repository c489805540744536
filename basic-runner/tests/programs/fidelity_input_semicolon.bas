5 REM INPUT; and LINE INPUT; keep the cursor behind the typed text, also for ?Redo from start (checked with PC-BASIC)
10 INPUT;"N";X: PRINT "X=";X
20 LINE INPUT;"L? ";L$: PRINT "/";L$
30 INPUT;A$,B: PRINT A$;B
