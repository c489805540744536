# Die Texte von encounter. Schlüssel in dieser Datei beginnen mit `encounter-`.
