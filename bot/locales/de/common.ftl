# Texte, die alle Befehle teilen: Fehler, Ratenlimit, abgelaufene Buttons, Dauern.
# Schlüssel in dieser Datei beginnen mit `common-`.

common-internal-error = Bei uns ist etwas schiefgelaufen. Falls das öfter passiert, gib diese Fehlernummer an die Betreiber des Bots weiter: `{ $error_id }`.
common-database-unavailable = Die Datenbank antwortet gerade nicht, deshalb wurde nichts geändert. Versuch es bitte in einer Minute noch einmal.

# „Warte … und“ statt „in …“: so passt die Dauer ohne Dativ („3 Tage“, nicht „3 Tagen“).
common-rate-limited = Immer langsam mit den jungen Pferden! Das sind ganz schön viele Befehle auf einmal. Warte { $wait } und versuch es dann noch mal.
common-rate-limited-typed = Deine Eingabe:
common-rate-limited-typed-in-file = Deine Eingabe steht in der angehängten Datei.
common-rate-limited-typed-filename = deine-eingabe.txt
common-rate-limited-typed-file-description = Deine Eingabe, zum erneuten Absenden

common-stale-component = Dieser Button gehört zu etwas, das schon vorbei ist.

common-duration-seconds = { $seconds } s
common-duration-minutes = { $minutes } min
common-duration-hours =
    { $minutes ->
        [0] { $hours } h
       *[other] { $hours } h { $minutes } min
    }
common-duration-days =
    { $days ->
        [one] { $days } Tag
       *[other] { $days } Tage
    }

common-unknown-command = Den Befehl `/{ $command }` kenne ich nicht.
common-unknown-subcommand = `/{ $command } { $sub }` gibt es nicht.
# $what ist ein Subjekt im Nominativ: „Die exakte Berechnung der Chancen von `8d6`“.
common-overrun-timed-out = { $what } hat zu lange gedauert: Nach { $wait } habe ich aufgehört zu warten. Versuch es mit etwas Kleinerem.
common-overrun-busy = { $what } muss warten: Der Bot ist gerade mit anderen langen Berechnungen beschäftigt. Versuch es bitte in einer Minute noch einmal.
