# Die Texte von `/chargen program` (/generator programm: hinzufügen, liste, zeigen,
# zuordnung, entfernen, standard), seinem Formular zum Einfügen und seiner Frage
# „Trotzdem installieren“, dazu die Gründe, aus denen eine Zuordnung abgelehnt wird.
# Schlüssel in dieser Datei beginnen mit `programs-`. Programmnamen, Listings,
# Zuordnungen und die Meldungen des Interpreters gehören den Nutzern.

# Das Ende von config-not-allowed („… können { $what }.“): ein Infinitiv.
programs-may-manage = Generatorprogramme installieren, entfernen oder auswählen
programs-may-install = Generatorprogramme installieren
programs-not-pending = Diese Installation wurde schon bestätigt, abgebrochen oder ist abgelaufen; führ `/generator programm hinzufügen` noch einmal aus.
programs-no-such-program = Hier gibt es kein Programm namens `{ $name }`. `/generator programm liste` zeigt die vorhandenen.
programs-bad-name = `{ $name }` kann kein Programmname sein: Nimm 1 bis { $max } Buchstaben, Ziffern, `-` und `_`.
programs-name-shipped = `{ $name }` ist der Name eines Programms, das mit Tavern mitgeliefert wird; wähl einen anderen.

programs-file-and-code = Gib das Programm entweder als Datei oder als Code an, nicht beides.
programs-no-source = Gib das Programm als `.bas`-Datei oder als Code an, oder lass beides weg, um es einzufügen.
programs-not-bas = `{ $file }` ist kein `.bas`-Listing.
programs-too-large = Das Listing ist größer als { $max_bytes } Bytes, mehr darf ein Programm nicht haben.
programs-unreadable = Ich konnte das Listing nicht lesen: { $error }.
programs-empty = Das Listing ist leer.
programs-too-many = Auf diesem Server sind schon { $count } Programme installiert, mehr geht nicht. Entferne zuerst eines mit `/generator programm entfernen`.
programs-overrun-check = Die Prüfung von `{ $program }`
programs-not-installed = `{ $program }` wurde nicht installiert: { $reason }.
programs-map-does-not-fit = `{ $program }` wurde nicht installiert, seine Zuordnung passt nicht: { $problem }.
programs-old-map-dropped = Seine alte Zuordnung `{ $map }` wurde verworfen: { $problem }.
programs-installed =
    `{ $program }` { $replaced ->
        [yes] ersetzt
       *[no] installiert
    } ({ $lines ->
        [one] { $lines } Zeile
       *[other] { $lines } Zeilen
    }{ $errors ->
        [0] {""}
        [one] , { $errors } Syntaxfehler in Kauf genommen
       *[other] , { $errors } Syntaxfehler in Kauf genommen
    }). Starte es mit `/generator starten programm:{ $program }`; zum Standard machst du es mit `/generator programm standard { $program }`.
programs-replaced-sessions-end = Generatoren, die noch das alte Listing ausführen, enden bei ihrer nächsten Antwort.
programs-installed-map = Seine Charaktere werden mit `{ $map }` zugeordnet.

programs-paste-title = Programm { $program } installieren
programs-paste-listing = Das BASIC-Listing
programs-paste-map = Zuordnung (freiwillig)

programs-syntax-error = Zeile { $line }, Spalte { $column }: { $message }
programs-syntax-errors =
    { $count ->
        [one] `{ $program }` hat { $count } Syntaxfehler:
       *[other] `{ $program }` hat { $count } Syntaxfehler:
    }
programs-syntax-errors-question = Eine Zeile mit Syntaxfehler hält das Programm erst an, wenn ein Lauf sie erreicht (GW-BASIC macht es genauso), deshalb funktionieren alte Listings oft trotzdem. So installieren, wie es ist?
programs-syntax-errors-more = … und { $count } weitere: Alle stehen in der angehängten Datei
programs-syntax-errors-filename = { $program }-syntaxfehler.txt
programs-syntax-errors-file-description = Die { $count } Syntaxfehler von { $program }
programs-install-anyway = Trotzdem installieren
programs-cancel = Abbrechen
programs-install-cancelled = `{ $program }` wurde nicht installiert.

programs-list-heading = Generatorprogramme auf diesem Server:
programs-list-shipped = - `{ $program }` (mit Tavern mitgeliefert)
programs-list-default = — der Standard
programs-list-installed = - `{ $program }`: { $lines ->
        [one] { $lines } Zeile
       *[other] { $lines } Zeilen
    }, { $bytes } Bytes, installiert von { $by } am { $date }
programs-list-user = Nutzer { $id }
programs-list-errors =
    { $count ->
        [one] ; { $count } Syntaxfehler in Kauf genommen
       *[other] ; { $count } Syntaxfehler in Kauf genommen
    }
programs-list-map = Zuordnung: `{ $map }`

programs-show-shipped = `{ $program }` wird mit Tavern mitgeliefert und übergibt seine Charaktere selbst mit `RECORD`.
programs-show-facts = `{ $program }`: { $lines ->
        [one] { $lines } Zeile
       *[other] { $lines } Zeilen
    }, { $bytes } Bytes.
programs-show-map = Zuordnung: `{ $map }`
programs-show-taken-at = Ein Charakter wird jedes Mal übernommen, bevor Zeile { $line } ausgeführt wird.
programs-show-taken-at-end = Ein Charakter wird übernommen, wenn das Programm endet (mit den letzten Werten seiner Variablen).
programs-show-no-map = Keine Zuordnung: Ohne `RECORD` besteht ein Charakter aus den letzten Werten der Variablen des Programms. Leg eine mit `/generator programm zuordnung` fest.
programs-show-listing-description = Das Listing von { $program }

programs-remove-shipped = `{ $program }` wird mit Tavern mitgeliefert und kann nicht entfernt werden.
programs-removed = `{ $program }` ist entfernt. Generatoren, die es ausführen, enden bei ihrer nächsten Antwort.
programs-default-set = `/generator starten` führt hier jetzt `{ $program }` aus.

programs-map-shipped = `{ $program }` wird mit Tavern mitgeliefert und legt seine Charaktere selbst an.
programs-map-not-saved = Die Zuordnung wurde nicht gespeichert: { $problem }. `{ $program }` bleibt ohne Zuordnung.
programs-map-not-saved-kept = Die Zuordnung wurde nicht gespeichert: { $problem }. `{ $program }` behält seine Zuordnung `{ $map }`.
programs-map-set = `{ $program }` ordnet seine Charaktere jetzt mit `{ $map }` zu.
programs-map-removed = `{ $program }` hat jetzt keine Zuordnung mehr.
programs-map-followed = Charaktere, die es schon erschaffen hat, lesen ihre Werte jetzt über die neue Zuordnung (ihre ursprünglichen Variablen bleiben gespeichert).
programs-map-restarted =
    { $count ->
        [one] Einer davon, mit dem noch niemand gehandelt hat, beginnt mit dem Gold und den Vorräten der neuen Zuordnung.
       *[other] { $count } davon, mit denen noch niemand gehandelt hat, beginnen mit dem Gold und den Vorräten der neuen Zuordnung.
    }
programs-map-renamed =
    { $count ->
        [one] Einer davon trägt jetzt den Namen, den ihm die neue Zuordnung gibt.
       *[other] { $count } davon tragen jetzt den Namen, den ihnen die neue Zuordnung gibt.
    }

programs-map-error-too-long = Eine Zuordnung hat höchstens { $max } Zeichen
programs-map-error-at-without-line = `at` braucht eine Zeilennummer (`at 4180`)
programs-map-error-bad-line = `at { $line }`: Eine Zeilennummer besteht nur aus Ziffern, bis 65529
programs-map-error-not-a-pair = `{ $word }` ist nicht FELD=VARIABLE (schreib `STR=ST`, ohne Leerzeichen um das `=`)
programs-map-error-bad-field = `{ $field }` kann kein Feldname sein: Nimm 1 bis { $max } Buchstaben, Ziffern und `_`, am Anfang einen Buchstaben
programs-map-error-field-twice = Das Feld `{ $field }` ist doppelt zugeordnet
programs-map-error-bad-variable = `{ $variable }` ist keine BASIC-Variable (schreib `NA$`, `ST` oder `A(1)`)
programs-map-error-too-many-fields = Eine Zuordnung hat höchstens { $max } Felder
programs-map-error-empty = Die Zuordnung ist leer: Schreib `at ZEILE` und/oder Paare `FELD=VARIABLE`
programs-map-error-no-such-line = Das Programm hat keine Zeile { $line }
programs-map-error-never-assigned = `{ $field }={ $variable }`: Das Programm weist `{ $variable }` nie einen Wert zu

# Warum ein Listing nicht lädt: das $reason von programs-not-installed und von
# chargen-failed[load], das $problem von programs-map-not-saved. $line: die
# BASIC-Zeilennummer; $source_line: die Zeile im Text (ab 1 gezählt).
programs-load-too-large = Das Programm hat { $bytes } Bytes; erlaubt { $limit ->
        [one] ist { $limit } Byte
       *[other] sind { $limit } Bytes
    }
programs-load-too-many-lines = Das Programm hat mehr als { $limit } { $limit ->
        [one] Zeile
       *[other] Zeilen
    }
# „Line buffer overflow“ ist die Meldung von GW-BASIC und bleibt; die Erklärung danach ist unsere.
programs-load-line-too-long = Line buffer overflow in { $line }: Die Zeile hat { $chars } Zeichen, in eine Zeile passen höchstens { $max }
programs-load-line-too-long-unnumbered = Line buffer overflow: Zeile { $source_line } des Listings hat { $chars } Zeichen, in eine Zeile passen höchstens { $max }
programs-load-missing-line-number = Zeile { $source_line } des Listings hat keine Zeilennummer
programs-load-bad-line-number = Die Zeilennummer { $number } in Zeile { $source_line } des Listings ist größer als 65529
programs-load-refused = { $keyword } ist hier nicht erlaubt ({ $reach ->
        [files] Zugriff auf Dateien und Geräte
        [memory] direkter Speicherzugriff
        [system] Zugriff aufs Betriebssystem
        [clock] Datum und Uhrzeit
        [graphics] Grafik und Cursorsteuerung
        [sound] Ton und Musik
        [input] Eingabegeräte
        [direct] Befehle des Direktmodus
        [retyped] ein Name, den es typisiert, hat hier je nach Weg des Programmlaufs einen anderen Typ
       *[unsupported] von diesem BASIC nicht unterstützt
    }) in Zeile { $line }
programs-load-internal = Der BASIC-Compiler ist daran gescheitert (ein Fehler in Tavern, nicht im Listing)

# Die Erklärung nach „Zeile N, Spalte M:“ eines Syntaxfehlers (programs-syntax-error).
# BASIC-Text ($code, $first, $second, $keyword) bleibt, wie BASIC ihn schreibt.
programs-syntax-expected = Erwartet wurde { $what ->
        [expression] ein Ausdruck
        [statement] eine Anweisung
        [end] das Ende der Anweisung
        [value] ein Wert zum Ausgeben
        [line-number] eine Zeilennummer
        [letter] ein Buchstabe
        [variable] ein Variablenname
        [using-semicolon] ; nach dem Format von PRINT USING
        [prompt-separator] ; oder , nach dem Fragetext
        [prompt-semicolon] ; nach dem Fragetext
        [field-value] , und der Wert des Felds
       *[code] { $code }
    }
programs-syntax-expected-either = Erwartet wurde { $first } oder { $second }
programs-syntax-cannot-start = Mit { $keyword } kann keine Anweisung beginnen
programs-syntax-not-in-expression = { $keyword } kann nicht in einem Ausdruck stehen
programs-syntax-too-many-subscripts = Mehr als { $max } Indizes
programs-syntax-nested-too-deeply = Der Ausdruck ist zu tief verschachtelt
programs-syntax-too-complex = Der Ausdruck ist zu komplex
programs-syntax-argument-count = { $keyword } braucht { $min } bis { $max } Argumente
programs-syntax-one-argument = { $keyword } braucht genau ein Argument
programs-syntax-unknown = Die Zeile lässt sich nicht lesen
