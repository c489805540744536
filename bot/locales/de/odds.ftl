# Die Texte von odds. Schlüssel in dieser Datei beginnen mit `odds-`.
