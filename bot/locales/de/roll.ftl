# Die Texte von roll. Schlüssel in dieser Datei beginnen mit `roll-`.
