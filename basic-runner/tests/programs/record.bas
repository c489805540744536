10 N$ = "Udo": C$ = "Elf": HP = 9
20 RECORD "NAME", N$, "CLASS", C$, "LEVEL", 1, "HP", HP, "GOLD", 50.5
30 RECORD "NAME", "Second"
40 PRINT "DONE"
