# Die eigenen Texte der Discord- und Konsolen-Anbindung (Rechte, Platzhalter). Schlüssel in dieser Datei beginnen mit `transport-`.
