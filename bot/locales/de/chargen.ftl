# Die Texte von chargen. Schlüssel in dieser Datei beginnen mit `chargen-`.
