10 REM VAL reads through FINDBL as GW-BASIC does: the forms of its recorded VAL test
20 PRINT VAL("7"); VAL("007"); VAL("3.4"); VAL(".4"); VAL("0.4"); VAL("4.")
30 PRINT VAL("3.4e21"); VAL("3.4E21"); VAL("3.4d21")
40 PRINT VAL("&hff00"); VAL("&H20"); VAL("&o17"); VAL("&21"); VAL("&O21")
50 REM a double, so a third of it has 16 digits; a ! makes a single
60 PRINT VAL("1")/3; VAL("1!")/3; VAL("1.5!")
