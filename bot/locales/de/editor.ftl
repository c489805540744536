# Die Editoren des Web-Dashboards für Admins (Generatoren, NSCs, die Effektdatei).
# Schlüssel in dieser Datei beginnen mit `editor-`. Sie erscheinen als HTML-Text.

editor-not-admin = Nur Mitglieder mit „Server verwalten“ oder der Tavern-Rolle des Servers können die Editoren benutzen.
editor-busy = Der Bot ist mit anderen langen Berechnungen beschäftigt; versuch es gleich noch einmal.
editor-timed-out = Das hat zu lange gedauert und wurde abgebrochen.
# $row: die Zeile des Editors; $line: die BASIC-Zeilennummer.
editor-at-basic-line = Zeile { $row } (BASIC-Zeile { $line }),
# $row: die Zeile des Editors.
editor-at-row = Zeile { $row },
# $column: die Spalte, ab 1.
editor-column = Spalte { $column }:
# $lines: Zeilen des Programms.
editor-listing-clean = Das Listing lädt: { $lines } Zeilen, keine Syntaxfehler.
editor-refusals = Warum es nicht installiert werden kann
# $count: wie viele Syntaxfehler.
editor-syntax-errors = { $count ->
    [one] Ein Syntaxfehler
   *[other] { $count } Syntaxfehler
}
# $problem: warum die Record-Map nicht passt.
editor-map-does-not-fit = Die Record-Map passt nicht zum Listing: { $problem }
# $map: die Record-Map, wie sie gespeichert wird.
editor-map-fits = Die Record-Map passt: { $map }
editor-program = Programm
editor-lines = Zeilen
editor-record-map = Record-Map
editor-shipped = (kommt mit Tavern)
editor-default = Standard
editor-make-default = Zum Standard machen
editor-new-program = Neues Programm
# $server: der Name des Servers.
editor-programs-heading = Generatoren auf { $server }
editor-program-name = Name
editor-listing = Listing
editor-install-anyway = Auch mit Syntaxfehlern installieren (ein Lauf stoppt erst, wenn er einen erreicht)
editor-check = Prüfen
editor-save = Speichern
editor-try = Ausprobieren
editor-try-start = Das gespeicherte Programm starten (nichts wird gespeichert)
editor-try-draft = Das Listing oben ausprobieren (ungespeichert; nichts wird gespeichert)
editor-back-to-draft = Mit diesem Listing zurück zum Editor
editor-not-saved-syntax-errors = Nicht gespeichert: Das Listing hat Syntaxfehler. Behebe sie oder setze das Häkchen bei „Auch mit Syntaxfehlern installieren“ und speichere noch einmal.
editor-try-answer = Antworten
# $count: Charaktere, die der Lauf aufgenommen hat.
editor-try-finished = Das Programm ist zu Ende. { $count ->
    [0] Es hat keinen Charakter aufgenommen.
    [one] Es hat einen Charakter aufgenommen (nicht gespeichert):
   *[other] Es hat { $count } Charaktere aufgenommen (nicht gespeichert):
}
# $reason: warum der Lauf stoppte.
editor-try-failed = Der Lauf wurde gestoppt: { $reason }
editor-try-again = Neu starten
# $program: der Name des Programms.
editor-try-heading = { $program } ausprobieren
editor-new-npc = Neuer NSC
editor-effect-file = Die Effektdatei
# $server: der Name des Servers.
editor-npcs-heading = NSCs auf { $server }
editor-npc-name = Name (Buchstaben, Ziffern, _)
editor-npc-display = Angezeigt als
editor-script = Skript
editor-play = Spielen
editor-play-help = Sprich mit dem Skript wie tavern npc play: eine Anweisung oder Spielerzeile pro Zeile, in einer Wegwerf-Welt; nichts wird gespeichert.
editor-play-input = Eingabe
editor-play-run = Spielen
editor-play-transcript = Verlauf
# $count: wie viele Ladefehler.
editor-load-errors = { $count ->
    [one] Ein Ladefehler
   *[other] { $count } Ladefehler
}
editor-not-saved = Nicht gespeichert: Behebe zuerst die Fehler unten.
editor-script-clean = Keine Fehler.
