# Die Texte von macros. Schlüssel in dieser Datei beginnen mit `macros-`.
