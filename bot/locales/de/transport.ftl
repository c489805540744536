# Die eigenen Texte der Discord- und Konsolen-Anbindung (Rechte, Platzhalter). Schlüssel in dieser Datei beginnen mit `transport-`.

## Discord: die Hinweise, die die Zustellung selbst schreibt (in der Sprache der Nutzer).
transport-answered-privately = Beantwortet; nur du siehst die Antwort.
transport-cannot-post = Ich kann in diesem Kanal nichts posten: mir fehlt hier die Berechtigung **{ $permission }**. Bitte Server-Admins, sie mir in diesem Kanal zu geben.
transport-session-ended = { " " }Die Sitzung ist beendet; starte sie dann neu.
transport-done = Erledigt.
# Eine Antwort, die Discord dem Bot vorenthält (öffentlich: in der Sprache des Servers).
transport-unreadable-reply = Diese Antwort kann ich nicht lesen: Discord zeigt mir nur Antworten, die mich erwähnen. Antworte noch einmal mit eingeschalteter @-Erwähnung, oder nutze die Buttons der Frage.
# Discords Namen der Berechtigungen, wie seine Einstellungen sie zeigen.
transport-permission-view-channel = Kanal ansehen
transport-permission-send-messages = Nachrichten senden
transport-permission-send-in-threads = Nachrichten in Threads senden
transport-permission-attach-files = Dateien anhängen

## Die eigenen Worte der Konsole (ihre Sprache: --lang, sonst LANG).
transport-console-welcome = Tavern-Konsole. Tippe /hilfe für die Befehle, /quit zum Beenden.
transport-console-waiting-npc = Dein Gespräch mit `{ $npc }` wartet auf eine Antwort:
transport-console-waiting-chargen = Dein Charaktergenerator `{ $program }` wartet auf eine Antwort:
transport-console-line-too-long = Diese Zeile ist länger als { $kib } KiB und wurde übersprungen. Lange Programme und Skripte gehören in eine Datei: `file:pfad/zur/datei`.
transport-console-nothing-waiting = Nichts wartet auf eine Antwort. Befehle beginnen mit `/`; versuch es mit /hilfe.
transport-console-nothing-waiting-chargen = Nichts wartet auf eine Antwort; /generator status zeigt deinen Generator.
transport-console-unknown-command = Unbekannter Befehl /{ $name }. Versuch es mit /hilfe.
transport-console-group-takes = /{ $command } { $group } kennt: { $names }.
transport-console-takes = /{ $command } kennt: { $names }.
transport-console-no-button = Es gibt keinen Button zum Drücken.
# $label steht in Anführungszeichen.
transport-console-no-such-button = Keinen Button namens „{ $label }“; es gibt: { $labels }.
transport-console-no-menu = Es gibt kein Auswahlmenü.
transport-console-no-such-option = Keine Option { $word }; wähle eine Zahl von 1 bis { $count }.
transport-console-choose-one = Wähle eine der Optionen per Nummer oder Bezeichnung (/choose 1).
transport-console-choose-up-to = Wähle 1 bis { $max } der Optionen per Nummer oder Bezeichnung (/choose 1).
transport-console-commands = Befehle:
transport-console-help-footer =
      /press LABEL  drückt einen Button, angezeigt als { "[" }buttons: …]
      /choose N  wählt Option N (oder ihre Bezeichnung) des Menüs, angezeigt als { "[" }menu: …]
      /quit  beendet die Konsole
    Optionen sind name:wert; ein Wert ohne Namen füllt die erste Option (/würfeln 4d6kh3 zweck:Attribute).
    Befehle und Optionen gehen auch mit ihren englischen Namen (/roll 4d6kh3 label:Attribute).
    Eine Zeile ohne / beantwortet die offene Frage.
transport-console-only-you = (nur für dich)
# Marks a message shown again in its new state (an edit, not a new message).
transport-console-edited = (bearbeitet)
transport-console-form = [form: { $title }] { $label }
transport-console-form-hint = (tippe deine Antwort in die nächste Zeile)
transport-console-suggestions = [Vorschläge: { $names }]
transport-console-attached = [angehängt: { $file } ({ $bytes } Bytes)]
transport-console-written = [gespeichert in { $path }]
transport-console-cannot-write = [kann { $path } nicht schreiben: { $error }]
transport-console-menu = [menu: { $placeholder }]
transport-console-choose-hint = (/choose NUMMER)
transport-console-buttons = [buttons: { $labels }] (/press LABEL)
# Eingetippte Optionen, die die Konsole nicht lesen kann; $value steht in Anführungszeichen.
transport-console-no-options = Dieser Befehl nimmt keine Optionen (bekam { $value }).
transport-console-unknown-option = `{ $command }` hat keine Option `{ $option }:`; { $count ->
        [one] seine Option ist
       *[other] seine Optionen sind
    } { $options }.
transport-console-option-twice = Die Option { $option } ist doppelt angegeben.
transport-console-not-a-number = { $option } muss eine ganze Zahl sein, nicht { $value }.
transport-console-needs-path = { $option } braucht einen Dateipfad.
transport-console-not-a-channel = { $option } muss eine Kanal-ID sein (oder <#id>), nicht { $value }.
# Vor einer Nachricht, die die Konsole zeigt, die in einen anderen Kanal ging (den der Spielleitung).
transport-console-in-channel = [in <#{ $channel }>]
transport-console-not-a-role = { $option } muss eine Rollen-ID sein (oder <@&id>), nicht { $value }.
transport-console-not-a-boolean = { $option } muss ja oder nein (true oder false) sein, nicht { $value }.
transport-console-missing = { $option } fehlt: gib es als { $option }:… oder als ersten Wert an.
