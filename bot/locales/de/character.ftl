# Die Texte von `/character` (/charakter: liste, zeigen, spielen, löschen) und des
# Charakterbogens. Schlüssel in dieser Datei beginnen mit `character-`. Namen, Werte
# und Gegenstände der Charaktere gehören den Spielern und Programmen.

character-none = Du hast hier noch keine Charaktere. Erschaffe einen mit `/generator starten`.
character-none-to-show = Du hast hier noch keine Charaktere. Erschaffe einen mit `/generator starten`, dann zeigt ihn `/charakter zeigen`.
character-not-found = Du hast hier keinen Charakter namens `{ $name }`. `/charakter liste` zeigt deine.

# „3 Tage alt“: die Dauer im Akkusativ, ohne „vor“ (das den Dativ bräuchte).
character-list-heading = Deine Charaktere hier ({ $count }):
character-list-entry = - **{ $name }** ({ $program }, { $age } alt)

character-playing = Du spielst hier jetzt **{ $name }**.
character-playing-no-fields = Er hat keine Zahlenwerte, die in Würfen gelten könnten.
character-playing-fields = Seine Werte gelten in jedem Wurf, z. B. `/würfeln { $example }`: { $fields }.

character-delete-question = **{ $name }** (erschaffen mit `{ $program }`) mit allen Werten, Besitztümern und dem Protokoll löschen? Das lässt sich nicht rückgängig machen.
character-delete-button = Löschen
character-cancel-button = Abbrechen
character-not-pending = Dieses Löschen wurde schon bestätigt, abgebrochen oder ist abgelaufen; führ `/charakter löschen` noch einmal aus.
character-not-owner = Nur wem der Charakter gehört, kann das beantworten.
character-kept = **{ $name }** bleibt.
character-deleted = **{ $name }** ist gelöscht.
character-seated = **{ $name }** sitzt in einer Begegnung und wurde darum nicht gelöscht: Lösche den Charakter, sobald er den Kampf verlassen hat (entfernt oder die Begegnung beendet).
character-already-gone = **{ $name }** war schon gelöscht.

character-sheet-heading = **{ $name }**, erschaffen mit `{ $program }` am { $date }
character-sheet-played-here = (du spielst diesen Charakter hier)
character-sheet-no-fields = (keine Werte gespeichert; das Protokoll ist angehängt)
character-sheet-belongings =
    Gold { $gold } · Proviant { $food }
    Inventar: { $inventory }
    Gruppe: { $party }
character-sheet-none = leer
character-sheet-in-rolls = In Würfen: { $fields }
character-transcript-description = Das Protokoll des Generators für { $name }
character-transcript-file-stem = charakter

# Effekte, die Begegnungen am Charakter gelassen haben.
character-sheet-effects = Effekte: { $effects }
