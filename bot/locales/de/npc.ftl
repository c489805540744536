# Die Texte von npc. Schlüssel in dieser Datei beginnen mit `npc-`.
