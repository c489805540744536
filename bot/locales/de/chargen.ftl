# Die Texte von `/chargen` (/generator): Starten, Antworten, Abbrechen, Status, der
# Button „Antworten“ und sein Formular, die Meldungen beendeter Generatoren.
# Schlüssel in dieser Datei beginnen mit `chargen-`. Die Ausgabe des Programms steht
# nicht hier: Sie bleibt, wie das Programm sie schreibt.

chargen-no-session = Hier läuft kein Charaktergenerator von dir. Starte einen mit `/generator starten`.
chargen-already-answered = Diese Frage ist schon beantwortet.
chargen-session-ended = Dieser Charaktergenerator ist schon beendet.
chargen-not-yours = Das ist der Charaktergenerator von { $user }; starte deinen eigenen mit `/generator starten`.

chargen-already-running = Hier läuft schon ein Charaktergenerator von dir (`{ $program }`), er wartet auf `{ $prompt }`. Beantworte die Frage oder beende ihn mit `/generator abbrechen`.
chargen-already-running-short = Hier läuft schon ein Charaktergenerator von dir.
chargen-no-such-program = Hier gibt es kein Generatorprogramm namens `{ $name }`. Programme: `{ $programs }`.
chargen-started = `{ $program }` läuft. Antworte mit dem Button **Antworten**, mit einer Antwort auf die Frage oder mit `/generator antworten`.
chargen-ran-to-end = `{ $program }` ist durchgelaufen.

# Das $what von common-overrun-*: im Nominativ am Satzanfang.
chargen-overrun-start = Der Generator `{ $program }`
chargen-overrun-answer = Der Generator `{ $program }` mit dieser Antwort

# Was eine beendete Sitzung behielt: das $stored von chargen-failed, -cancelled,
# -expired und -finished. $count: wie viele Charaktere; $names: die ersten Namen,
# fett, mit ", " verbunden.
chargen-stored =
    { $count ->
        [0] Es wurde nichts gespeichert.
        [one] { $names } wurde gespeichert.
       *[other] { $count } Charaktere wurden gespeichert: { $names }.
    }

chargen-failed =
    { $kind ->
        [limit] `{ $program }` wurde an einer Grenze der Sandbox angehalten: { $reason }. { $stored }
        [load] `{ $program }` lässt sich nicht ausführen: { $reason }. { $stored }
        [restore] `{ $program }` ließ sich nicht fortsetzen: { $reason }. { $stored }
       *[runtime] `{ $program }` wurde mit einem Fehler beendet: { $reason }. { $stored }
    }

# Warum die Sandbox einen Lauf anhielt: das $reason von chargen-failed[limit] und die
# letzte Zeile der Ausgabe im Kanal. $limit: der Wert der Grenze.
chargen-limit-steps-per-input = Schrittgrenze erreicht ({ $limit } { $limit ->
        [one] Schritt
       *[other] Schritte
    } pro Eingabe)
chargen-limit-steps-per-session = Schrittgrenze erreicht ({ $limit } { $limit ->
        [one] Schritt
       *[other] Schritte
    } pro Sitzung)
chargen-limit-memory = Speichergrenze erreicht ({ $limit } { $limit ->
        [one] Byte
       *[other] Bytes
    })
chargen-limit-nesting = Verschachtelungsgrenze erreicht ({ $limit } { $limit ->
        [one] Ebene
       *[other] Ebenen
    } GOSUB/FOR/WHILE/FN)
chargen-limit-output = Ausgabegrenze erreicht ({ $limit } { $limit ->
        [one] Byte
       *[other] Bytes
    } pro Eingabe)
chargen-limit-records = Charaktergrenze erreicht ({ $limit } { $limit ->
        [one] Charakter
       *[other] Charaktere
    })
chargen-limit-input = Eingabe zu lang (höchstens { $limit } Zeichen)
# $line: die BASIC-Zeilennummer.
chargen-limit-in-line = { $reached } in Zeile { $line }
chargen-restore-failed = Sein gespeicherter Stand ist nicht lesbar
chargen-internal-error = Interner Fehler des BASIC-Interpreters (ein Fehler in Tavern, nicht im Programm)

chargen-had-expired = Dein Charaktergenerator war abgelaufen. Starte einen neuen mit `/generator starten`.
chargen-answer-too-long = Diese Antwort ist zu lang: höchstens { $max } Zeichen.
chargen-program-changed = Das Programm `{ $program }` wurde geändert oder entfernt, seit dein Generator gestartet ist, deshalb kann er nicht weiterlaufen. Fang mit `/generator starten` neu an.
chargen-answered = Beantwortet: `{ $answer }`.
chargen-cancelled = Dein Charaktergenerator (`{ $program }`) ist beendet. { $stored }
# Dauern im Akkusativ („3 Tage lang“), nicht nach „vor“/„in“ (die den Dativ bräuchten).
chargen-status =
    Dein Charaktergenerator `{ $program }` läuft seit { $age }. { $answers ->
        [0] Bisher gab es noch keine Antwort.
        [one] Bisher gab es eine Antwort.
       *[other] Bisher gab es { $answers } Antworten.
    } Er wartet auf:
    { $prompt }
    Ohne Antwort bleibt er noch { $remaining } lang offen. { $stored ->
        [0] Gespeichert ist noch kein Charakter.
        [one] Bisher ist 1 Charakter gespeichert.
       *[other] Bisher sind { $stored } Charaktere gespeichert.
    }
chargen-expired = Der Charaktergenerator von { $user } (`{ $program }`) ist abgelaufen: { $idle } lang kam keine Antwort. { $stored } `/generator starten` beginnt einen neuen.
chargen-closed-expired = (abgelaufen)
chargen-closed-cancelled = (abgebrochen)

chargen-answer-button = Antworten
chargen-modal-title = Charaktergenerator: { $program }
chargen-modal-title-plain = Charaktergenerator
chargen-modal-label = Deine Antwort

chargen-output-in-file = Die Ausgabe ist zu lang für den Chat; sie steht vollständig in der angehängten Datei.
chargen-output-filename = ausgabe.txt
chargen-output-file-description = Ausgabe des Programms

chargen-ready = **{ $name }** ist fertig
chargen-ready-with = **{ $name }** ist fertig: { $fields }
chargen-see-sheet = Den Charakterbogen zeigt `/charakter zeigen { $name }`.
chargen-fields-hint = Würfle mit seinen Werten, z. B. `/würfeln { $example }` (`/charakter zeigen` listet sie). Ein Wurf nutzt den Charakter, den du mit `/charakter spielen NAME` gewählt hast, sonst deinen neuesten.
chargen-fields-hint-plain = Die `@WERTE` eines Wurfs kommen von dem Charakter, den du mit `/charakter spielen NAME` gewählt hast, sonst von deinem neuesten.
chargen-finished = `{ $program }` ist zu Ende. { $stored }
chargen-unnamed-character = Charakter
