# Die Texte von character. Schlüssel in dieser Datei beginnen mit `character-`.
