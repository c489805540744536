# Die Texte von help. Schlüssel in dieser Datei beginnen mit `help-`.
