# Die Texte von `/nsc`, `/reden` und den Kanalnachrichten der Gespräche.
# Schlüssel in dieser Datei beginnen mit `npc-`.
#
# Was die Autorin oder der Autor des NSC schrieb (SAY-Texte, Stichwörter, Namen von
# Waren und Menüpunkten, der Anzeigename), kommt als Variable und bleibt, wie es ist.
# Waren stehen darum mit ihrer Anzahl als „3× arrow“: Ein deutscher Plural lässt sich
# aus einem fremden Namen nicht bilden.
# Die Wörter, die der NSC versteht, nennen die Hinweise deutsch: tschüss, ja, nein, kaufe,
# verkaufe, fertig (der Bot übersetzt sie für den NSC). Die englischen (bye, yes, no, buy,
# sell, done) versteht er immer.

## Ablehnungen und Hinweise (private Antworten)

npc-not-here = NSCs leben auf Servern: Sprich dort mit ihnen.
npc-ended = Dieses Gespräch ist beendet. `/reden` beginnt ein neues.
npc-answered = Diese Frage ist schon beantwortet.
# Gold, Gegenstände oder Merker des Charakters änderten sich, während der NSC antwortete; von dieser Antwort blieb nichts.
npc-world-changed = Dein Charakter hat sich geändert, während der NSC antwortete, darum blieb von dieser Antwort nichts. Antworte noch einmal.
# Ergänzt die gemeinsame Ablehnung „Nur Mitglieder mit … können { $what }.“
npc-not-allowed = NSCs installieren, entfernen oder ändern
npc-bad-name = `{ $name }` taugt nicht als Name eines NSC: Nimm 1 bis { $max } Buchstaben, Ziffern oder `_`, beginnend mit einem Buchstaben (Skripte nennen den Namen in CHECK_MEMBER). Einen längeren Namen gibst du mit `anzeigename` an.
npc-display-length = Der Anzeigename muss 1 bis { $max } Zeichen lang sein.
npc-no-such = Hier gibt es keinen NSC namens `{ $name }`. `/nsc liste` zeigt, wer hier lebt.
npc-not-yours = Das ist das Gespräch von { $player }; beginne dein eigenes mit `/reden`.
npc-changed = Dieser NSC hat sich seit Beginn des Gesprächs verändert oder ist gegangen, darum ist das Gespräch beendet.
npc-character-gone = Den Charakter dieses Gesprächs gibt es nicht mehr.
npc-pick-first = Wähle zuerst eine Ware aus der Liste.
npc-quantity-number = Gib die Anzahl als ganze Zahl an, z. B. 3.

## Der Text eines Skripts: aus dem Anhang `datei` oder der Option `code`.
## $noun: `script` (das Skript eines NSC) oder `effect` (die Effektdatei des Servers).

npc-source-both =
    { $noun ->
        [effect] Gib die Effektdatei entweder als Datei oder als Code an, nicht beides.
       *[script] Gib das Skript entweder als Datei oder als Code an, nicht beides.
    }
npc-source-not-ghul =
    { $noun ->
        [effect] `{ $file }` ist keine `.ghul`-Effektdatei.
       *[script] `{ $file }` ist kein `.ghul`-Skript.
    }
npc-source-too-large =
    { $noun ->
        [effect] Die Effektdatei ist größer als { $max_bytes } Bytes.
       *[script] Das Skript ist größer als { $max_bytes } Bytes.
    }
npc-source-unreadable =
    { $noun ->
        [effect] Ich konnte die Effektdatei nicht lesen: { $error }.
       *[script] Ich konnte das Skript nicht lesen: { $error }.
    }
npc-source-missing =
    { $noun ->
        [effect] Hänge die Effektdatei als `.ghul`-Datei an (`datei`) oder füge sie als `code` ein.
       *[script] Hänge das Skript als `.ghul`-Datei an (`datei`) oder füge es als `code` ein.
    }
npc-source-not-utf8 =
    { $noun ->
        [effect] Die Effektdatei ist kein UTF-8-Text.
       *[script] Das Skript ist kein UTF-8-Text.
    }
npc-source-empty =
    { $noun ->
        [effect] Die Effektdatei ist leer.
       *[script] Das Skript ist leer.
    }

## Ladefehler: die Meldungen von npc-core, nach ID, in der Sprache der Admins, mit ihrer Zeile.

npc-load-failed =
    { $noun ->
        [effect]
            { $count ->
                [one] `{ $name }` wurde nicht installiert: Die Effektdatei hat einen Fehler.
               *[other] `{ $name }` wurde nicht installiert: Die Effektdatei hat { $count } Fehler.
            }
       *[script]
            { $count ->
                [one] `{ $name }` wurde nicht installiert: Das Skript hat einen Fehler.
               *[other] `{ $name }` wurde nicht installiert: Das Skript hat { $count } Fehler.
            }
    }
npc-load-more = …und { $count } weitere; alle Fehler stehen in der angehängten Datei.
npc-load-filename = fehler.txt
npc-load-file-description = Alle Ladefehler

# Ein Ladefehler: die Zeile und die Meldung (die Markierung ^ unter der Skriptzeile
# zeigt die Spalte). $message: eine der Meldungen npc-load-<id> unten.
npc-load-at = Zeile { NUMBER($line, useGrouping: "false") }: { $message }
# Was npc-core meldet, nach seiner Meldungs-ID (npc_core::MessageId); was das Skript
# schrieb (Tags, Stichwörter, Texte), kommt als Variable und bleibt, wie es ist.
npc-load-unterminated-comment = Kommentar ohne Ende: Bis zum Dateiende fehlt `*/`
npc-load-integer-too-large = Die Zahl { $integer } passt nicht in 32 Bit (-2147483648 bis 2147483647)
npc-load-call-without-tag = Nach `$` muss direkt der Tag einer Antwort stehen
npc-load-unexpected-character = Unerwartetes Zeichen `{ $character }`
npc-load-unterminated-string = Text ohne Ende: Das schließende `"` fehlt in derselben Zeile
npc-load-escape-at-end-of-line = Unbekanntes Escape am Zeilenende: Erlaubt sind nur `\"` und `\\`
npc-load-unknown-escape = Unbekanntes Escape `\{ $character }`: Erlaubt sind nur `\"` und `\\`
npc-load-too-deep = Die Blöcke sind tiefer als { NUMBER($max, useGrouping: "false") } Ebenen verschachtelt
npc-load-conv-twice = CONV `{ $tag }` ist zweimal definiert
npc-load-resp-twice = RESP `{ $tag }` ist zweimal definiert
npc-load-bad-keyword-string = Hier gehört ein Stichwort hin (ein Wort aus Buchstaben, Ziffern oder `_`), nicht „{ $text }“
npc-load-break-outside-menu = BREAK steht außerhalb eines MENU
npc-load-take-gold-only = TAKE nimmt nur Gold: GOLD oder dessen Parameter-ID -2 (hier: { NUMBER($id, useGrouping: "false") })
npc-load-set-parm-negative = SET_PARM braucht einen Wert von 0 oder mehr
npc-load-count-too-small = { $statement } braucht eine Anzahl von mindestens { NUMBER($minimum, useGrouping: "false") }, hier steht { NUMBER($value, useGrouping: "false") }
npc-load-flag-range = Die Flag-ID { NUMBER($flag, useGrouping: "false") } liegt nicht in 0..255
npc-load-reserved-parameter = Die Parameter-ID { NUMBER($id, useGrouping: "false") } ist reserviert: IDs unter -4 gibt es nicht
npc-load-activity-read-only = ACTIVITY lässt sich nur lesen: { $statement } kann es nicht ändern
npc-load-negative-price = Der Preis von `{ $item }` muss 0 oder mehr sein
npc-load-ware-twice = Die Ware `{ $item }` steht zweimal in diesem TRADE
npc-load-negative-cost = Die Kosten von „{ $label }“ müssen 0 oder mehr sein
npc-load-menu-empty = Das MENU hat keine Auswahl
npc-load-menu-too-many-choices = Das MENU hat { NUMBER($count, useGrouping: "false") } Auswahlpunkte; erlaubt sind höchstens { NUMBER($max, useGrouping: "false") }
npc-load-menu-label-empty = Ein Auswahlpunkt des MENU ist leer
npc-load-menu-label-too-long = Der Auswahlpunkt ist { NUMBER($length, useGrouping: "false") } Zeichen lang; erlaubt sind höchstens { NUMBER($max, useGrouping: "false") }
npc-load-menu-label-twice = Der Auswahlpunkt „{ $label }“ steht zweimal im MENU
npc-load-import-cycle = IMPORT im Kreis: { $path }
npc-load-call-cycle = Aufrufe im Kreis: { $path }
npc-load-unknown-conversation = IMPORT nennt das unbekannte Gespräch `{ $tag }`
npc-load-unknown-native-response = NATIVE nennt die unbekannte Antwort `{ $tag }`
npc-load-unknown-called-response = Der Aufruf nennt die unbekannte Antwort `${ $tag }`
npc-load-unreachable-keyword = Das Stichwort `{ $keyword }` ist nie erreichbar: `{ $earlier }` in Zeile { NUMBER($line, useGrouping: "false") } hat dieselben ersten vier Buchstaben
npc-load-endless-menu = Aus diesem MENU kommt man nie heraus: Kein Auswahlpunkt erreicht BREAK, EXIT, TURN_AWAY oder ATTACK
npc-load-unknown-effect = APPLY_EFFECT nennt den unbekannten Effekt `{ $effect }` (die Effektdatei des Servers hat keinen solchen)
npc-load-script-too-large = Das Skript ist { $bytes } Bytes lang; erlaubt sind höchstens { $max }
npc-load-effect-file-too-large = Die Effektdatei ist { $bytes } Bytes lang; erlaubt sind höchstens { $max }
npc-load-too-many-errors = Zu viele Fehler; hier stehen nur die ersten { NUMBER($max, useGrouping: "false") }
npc-load-not-loaded = Das Skript ließ sich nicht laden
npc-load-load-cancelled = Das Laden wurde abgebrochen
# Ein Syntaxfehler: was der Parser erwartete und was er fand, je eine Wendung unten
# (want-*: das Erwartete, im Nominativ; after-*: wonach ein `{` fehlt, im Dativ;
# token-*: das Gefundene, im Nominativ).
npc-load-expected = Erwartet wird { $expected }, gefunden wurde { $found }
npc-load-expected-upper-case = Erwartet wird { $expected }, gefunden wurde { $found } (Groß- und Kleinschreibung zählt: schreib `{ $upper }`)
npc-load-want-definition = CONV oder RESP
npc-load-want-conversation-tag = der Tag eines Gesprächs nach CONV
npc-load-want-response-tag = der Tag einer Antwort nach RESP
npc-load-want-keyword-response = der Tag einer Antwort nach dem Stichwort `{ $keyword }`
npc-load-want-item-tag = der Tag eines Gegenstands nach { $statement }
npc-load-want-effect-tag = der Tag eines Effekts nach APPLY_EFFECT
npc-load-want-npc-tag = der Tag eines NSC nach CHECK_MEMBER
npc-load-want-open-brace = `{"{"}` nach { $after }
npc-load-want-close-brace = `{"}"}` zum Schließen des Blocks aus Zeile { NUMBER($line, useGrouping: "false") }
npc-load-want-conversation-part = IMPORT, NATIVE oder `{"}"}`
npc-load-want-import-entry = der Tag eines Gesprächs oder `{"}"}` in IMPORT
npc-load-want-native-entry = ein Stichwort oder `{"}"}` in NATIVE
npc-load-want-statement = eine Anweisung der Antwort oder `{"}"}`
npc-load-want-say-text = ein Text nach SAY
npc-load-want-take-gold = GOLD (oder dessen Parameter-ID -2) nach TAKE
npc-load-want-delta = eine Änderung nach dem Parameter von CHANGE_PARM
npc-load-want-set-value = ein Wert nach dem Parameter von SET_PARM
npc-load-want-compared-integer = eine ganze Zahl nach dem Vergleichsoperator von { $statement }
npc-load-want-flag = eine Flag-ID nach { $statement }
npc-load-want-operator = ein Vergleichsoperator (=, !=, <, <=, >, >=) in { $statement }
npc-load-want-parameter = ein Parameter (eine ganze Zahl, AMOUNT, GOLD, FOOD oder ACTIVITY) nach { $statement }
npc-load-want-trade-entry = der Tag einer Ware oder `{"}"}` in TRADE
npc-load-want-price = ein Preis nach der Ware `{ $item }`
npc-load-want-menu-entry = ein Auswahlpunkt (ein Text) oder `{"}"}` in MENU
npc-load-after-conversation-tag = dem Tag des Gesprächs
npc-load-after-response-tag = dem Tag der Antwort
npc-load-after-first-block = dem ersten Block von { $statement }
npc-load-after-choice = dem Auswahlpunkt „{ $label }“
npc-load-token-word = `{ $word }`
npc-load-token-integer = die Zahl { NUMBER($value, useGrouping: "false") }
npc-load-token-large-integer = eine Zahl
npc-load-token-string = ein Text
npc-load-token-call = `${ $tag }`
npc-load-token-operator = `{ $operator }`
npc-load-token-open-brace = `{"{"}`
npc-load-token-close-brace = `{"}"}`
npc-load-token-end = das Dateiende
# Deklarationen und Felder einer Effektdatei (/effekt installieren).
npc-load-effect-expected-declaration = Erwartet wird ELEMENTS oder EFFECT, gefunden wurde `{ $found }`
npc-load-effect-expected-declaration-upper-case = Erwartet wird ELEMENTS oder EFFECT, gefunden wurde `{ $found }` (Groß- und Kleinschreibung zählt: schreib `{ $upper }`)
npc-load-elements-twice = ELEMENTS steht zweimal da (zuerst in Zeile { NUMBER($line, useGrouping: "false") }); deklariere alle Elemente in einer Liste
npc-load-too-many-effects = Mehr als { NUMBER($max, useGrouping: "false") } Effekte in einer Datei
npc-load-effect-twice = EFFECT `{ $tag }` ist zweimal definiert (zuerst in Zeile { NUMBER($line, useGrouping: "false") })
npc-load-effect-is-element = `{ $tag }` ist schon ein Element (Zeile { NUMBER($line, useGrouping: "false") }); Elemente und Effekte teilen sich die Namen
npc-load-elements-without-brace = Nach ELEMENTS fehlt `{"{"}`
npc-load-elements-unclosed = Das `{"}"}`, das ELEMENTS aus Zeile { NUMBER($line, useGrouping: "false") } schließt, fehlt bis zum Dateiende
npc-load-elements-bad-entry = Erwartet wird der Name eines Elements oder `{"}"}` in ELEMENTS, gefunden wurde `{ $found }`
npc-load-element-name-too-long = Der Elementname `{ $name }` ist länger als { NUMBER($max, useGrouping: "false") } Zeichen
npc-load-element-twice = `{ $name }` ist zweimal deklariert (zuerst in Zeile { NUMBER($line, useGrouping: "false") })
npc-load-too-many-elements = Mehr als { NUMBER($max, useGrouping: "false") } Elemente
npc-load-effect-without-tag = Nach EFFECT fehlt der Tag des Effekts
npc-load-effect-tag-too-long = Der Effekt-Tag `{ $tag }` ist länger als { NUMBER($max, useGrouping: "false") } Zeichen
npc-load-effect-without-brace = Nach EFFECT { $tag } fehlt `{"{"}`
npc-load-effect-bad-entry = Erwartet wird ein Feldname oder `{"}"}` in EFFECT { $tag }, gefunden wurde `{ $found }`
npc-load-effect-unclosed-before = Das `{"}"}`, das EFFECT { $tag } aus Zeile { NUMBER($line, useGrouping: "false") } schließt, fehlt vor `{ $found }`
npc-load-effect-unclosed = Das `{"}"}`, das EFFECT { $tag } aus Zeile { NUMBER($line, useGrouping: "false") } schließt, fehlt bis zum Dateiende
npc-load-unknown-field = Unbekanntes Feld `{ $name }` in EFFECT { $tag } (Felder: { $fields })
npc-load-field-twice = Das Feld `{ $field }` steht zweimal in EFFECT { $tag } (zuerst in Zeile { NUMBER($line, useGrouping: "false") })
npc-load-field-without-value = Das Feld `{ $field }` braucht einen Wert in derselben Zeile
npc-load-missing-field = EFFECT { $tag } hat kein `{ $field }` (target_type, subject und value sind Pflicht)
npc-load-map-target-type = Der Zieltyp `{ $target }` braucht eine Karte, und Tavern hat keine (unterstützt: { $supported })
npc-load-unknown-target-type = Unbekannter Zieltyp `{ $target }` (unterstützt: { $supported })
npc-load-unknown-subject = Unbekanntes subject `{ $subject }` (bekannt: { $subjects })
npc-load-effect-target-subject = Der Zieltyp Effect kennt nur das subject Existence, nicht `{ $subject }`
npc-load-yes-or-no = `{ $field }` nimmt yes oder no, nicht `{ $value }`
npc-load-bad-probability = probability nimmt eine Zahl von 0 bis 1 (etwa 0.25), nicht `{ $value }`
npc-load-bad-save = save nimmt ein Attribut (STR DEX CON INT WIS CHA), einen SG von 1 bis 100 und wahlweise half oder none für einen Erfolg (etwa `DEX 15 half`), nicht `{ $value }`
npc-load-unknown-hook = Unbekannter hook `{ $hook }` (hooks: HpReduced)
npc-load-unknown-target-method = Unbekannte target_method `{ $method }` (unterstützt: Effected, wer den Effekt trägt)
npc-load-bad-source = source nimmt nur `()` (wird angenommen und übergangen), nicht `{ $value }`
npc-load-existence-while-active = Existence kann nicht while_active sein: Entfernen oder Klonen lässt sich nicht rückgängig machen
npc-load-bad-mode = mode nimmt recurring oder while_active, nicht `{ $value }`
npc-load-protections-without-method = Ein Protections-Effekt braucht eine method, die sagt, wogegen er schützt, etwa (BURN)
# Wert, Zahlen und Elementmengen eines Effekts (forms-*: die Formen eines Werts).
npc-load-value-misfit = Der Wert `{ $value }` passt nicht zum subject { $subject } ({ $kind }: { $forms })
npc-load-forms-integer = +N, -N, =N, *N, /N oder N, N eine ganze Zahl oder Würfel
npc-load-forms-set = +S, -S, &S, =S oder ~, S eine Menge von Elementen wie (MAGIC|BURN)
npc-load-forms-bool = true, false oder invert
npc-load-forms-tag = =tag oder tag
npc-load-forms-existence = new oder false
npc-load-division-by-zero = Division durch null: `/0`
npc-load-existence-of-effect = Der Wert `{ $value }` passt nicht zum subject Existence beim Zieltyp Effect (false entfernt die passenden Effekte)
npc-load-number-with-field = `{ $text }`: Werte mit `@` und Makros mit `$` sind in Effekten nicht erlaubt
npc-load-dice-labelled = Der Würfelausdruck `{ $text }` hat eine Beschriftung; schreib nur den Ausdruck
npc-load-set-unexpected = Unerwartetes `{ $rest }` in der Menge `{ $set }`
npc-load-set-too-deep = Die Menge `{ $set }` ist tiefer als { NUMBER($max, useGrouping: "false") } Ebenen verschachtelt
npc-load-set-unclosed = In der Menge `{ $set }` fehlt `)`
npc-load-unknown-element = Unbekanntes Element `{ $name }` (deklariere es in ELEMENTS)
npc-load-set-bad-start = Erwartet wird ein Element, `(` oder `~` in der Menge `{ $set }`, gefunden wurde `{ $found }`
npc-load-set-ends-early = Die Menge `{ $set }` endet zu früh
npc-load-dice-refused = Der Würfelausdruck `{ $text }` wird abgelehnt: { $reason }
npc-load-duration = duration (Dauer): { $reason }
# Warum dice-core den Würfelausdruck eines Effekts ablehnt, steht in dice.ftl; ein
# Grund, dessen Form dieser Katalog nicht kennt (ein neueres dice-core), sagt dies.
npc-load-dice-reason-unknown = Tavern kann ihn so nicht würfeln

## Was zu lange dauerte: ergänzt den gemeinsamen Hinweis „{ $what } hat zu lange gedauert“.

npc-work-checking = Das Prüfen von `{ $name }`
npc-work-loading = Das Laden des Skripts von { $npc }
npc-work-loading-this = Das Laden des Skripts dieses NSC
npc-work-greeting = Die Begrüßung von { $npc }
npc-work-answer = Die Antwort von { $npc }

## /nsc installieren, liste, entfernen, aktivität

npc-too-many = Dieser Server hat { $count } NSCs, mehr sind nicht möglich. Entferne zuerst einen mit `/nsc entfernen`.
npc-installed = **{ $display }** ist installiert (`{ $name }`; Gespräche `{ $conversations }`). Angesprochen wird der NSC mit `/reden nsc:{ $name }`.
npc-replaced = **{ $display }** ist ersetzt (`{ $name }`; Gespräche `{ $conversations }`). Angesprochen wird der NSC mit `/reden nsc:{ $name }`.
npc-list-empty = Hier lebt noch kein NSC. Server-Admins installieren einen mit `/nsc installieren`.
npc-list-header = NSCs hier ({ $count }):
npc-list-entry =
    { $activity ->
        [0] - **{ $display }** (`{ $name }`)
       *[other] - **{ $display }** (`{ $name }`), Aktivität { NUMBER($activity, useGrouping: "false") }
    }
npc-list-footer = Sprich mit einem über `/reden nsc:NAME`.
npc-removed = `{ $name }` ist entfernt. Seine offenen Gespräche sind beendet; was an Flags und Parametern erspielt wurde, bleibt.
npc-activity-range = Der Aktivitätscode muss in 32 Bit passen.
npc-activity-set = `{ $name }` hat jetzt den Aktivitätscode { NUMBER($code, useGrouping: "false") }; laufende Gespräche merken es ab der nächsten Antwort.

## /reden

npc-broken-script = Das Skript von { $npc } lädt nicht mehr; bitte Server-Admins, es neu zu installieren.
npc-no-conversation = { $npc } hat kein Gespräch `{ $conv }`; es gibt: `{ $conversations }`.
npc-needs-character = Um mit { $npc } zu reden, brauchst du hier einen Charakter: Erstelle einen mit `/generator starten`.
npc-talking = Du sprichst mit { $npc } als **{ $character }**.
npc-talking-answer = Du sprichst mit { $npc } als **{ $character }**. Antworte mit den Buttons unter der Nachricht von { $npc } oder per Antwort auf sie.

## Formulare (privat für die Person, die sie öffnet)

npc-modal-title = Gespräch mit { $npc }
npc-ask-label = Fragen nach…
npc-ask-placeholder = Ein Wort, z. B. name, job, trade – oder tschüss
npc-amount-label = Wie viel?
npc-amount-placeholder = eine ganze Zahl, z. B. 10
npc-quantity-title =
    { $action ->
        [sell] { $item }: wie viele verkaufen?
       *[buy] { $item }: wie viele kaufen?
    }
npc-quantity-label = Anzahl (je { $price } Gold)

## Das Gespräch im Kanal (öffentlich: die Sprache des Servers)

npc-says-nothing-player = > *{ $player } sagt nichts.*
npc-says-nothing = *{ $npc } sagt nichts.*
npc-event-talk = *{ $player } spricht { $npc } an.*
npc-event-yes-no = *Ja oder nein?*
npc-event-amount = *Wie viel?*
npc-event-menu = *Wähle:* { $choices }
npc-menu-choice-cost = { $label } ({ $cost } Gold)
npc-event-trade = *Zu verkaufen:* { $wares }
npc-trade-hint = *Sag kaufe WARE [N], verkaufe WARE [N] oder fertig.*
npc-ware = { $item } { $price } Gold
npc-wares-none = nichts
npc-event-bought = *Du kaufst { $quantity }× { $item } für { $gold } Gold.*
npc-event-bought-fewer = *Dein Gold reicht für { $quantity } von { $asked }.*
npc-event-sold = *Du verkaufst { $quantity }× { $item } für { $gold } Gold.*
npc-event-will-not-buy-cheap = *{ $npc } kauft { $item } nicht an: Es kostet { $price } Gold, und { $npc } zahlt ein Viertel davon, abgerundet: nichts.*
npc-event-will-not-buy-foreign = *{ $npc } kauft { $item } nicht an: { $npc } kauft nur zurück, was { $npc } selbst verkauft.*
npc-event-error = *{ $npc } bricht ab: { $message }. Nichts davon wurde übernommen.*
npc-event-walked-away = *{ $player } geht davon.*
npc-event-over = *Das Gespräch ist zu Ende.*
npc-event-no-reply = *Keine Antwort.*
npc-event-turn-away = *{ $npc } wendet sich ab.*
npc-event-attack = *{ $npc } greift an!*
npc-event-joined = *{ $npc } schließt sich deiner Gruppe an.*
npc-event-already-member = *{ $npc } ist schon in deiner Gruppe.*
npc-event-party-full = *In deiner Gruppe ist kein Platz mehr!*
npc-event-received = *Du erhältst { $count }× { $item }.*
npc-event-answer-yes-no = *Bitte antworte mit „ja“ oder „nein“.*
npc-event-choose-option = *Bitte wähle eine der Möglichkeiten.*
npc-event-cannot-afford = *Du kannst dir { $what } nicht leisten.*
npc-event-does-not-sell = *{ $npc } verkauft { $what } nicht.*
npc-event-have-none = *Davon hast du nichts: { $item }.*
npc-event-nothing-bought = *Nichts gekauft.*
npc-event-nothing-sold = *Nichts verkauft.*
npc-event-trade-command = *Sag kaufe, verkaufe oder fertig.*
npc-trade-status = *Dein Gold:* { $gold } · *du kannst verkaufen:* { $sellable }
npc-sellable = { $held }× { $item } (je { $price } Gold)
npc-sellable-none = nichts, was hier angekauft wird
npc-too-long = Diese Antwort ist zu lang für den Chat; alles steht in der angehängten Datei.
npc-too-long-filename = gespraech.txt
npc-too-long-description = Die ganze Antwort
npc-walked-away-notice = *{ $player } hat das Gespräch verlassen.*

## Buttons und Menüs unter der Nachricht des NSC

npc-button-ask = { $npc } fragen…
npc-button-bye = Tschüss
npc-button-yes = Ja
npc-button-no = Nein
npc-button-answer = Antworten…
npc-button-buy = Kaufen…
npc-button-sell = Verkaufen…
npc-button-done = Fertig
npc-button-leave = Weggehen
npc-menu-placeholder = Auswählen…
npc-trade-placeholder = Wähle eine Ware, dann Kaufen oder Verkaufen
npc-option-cost = { $price } Gold
npc-option-sells-back = { $price } Gold; Rückkauf für { $sell_price }

# APPLY_EFFECT: what the effect did follows the turn; these when it did nothing.
npc-effect-nothing-happens = *Nichts geschieht.*
npc-effect-in-encounter = *{ $effect } erreicht { $name } nicht, solange die Begegnung läuft.*
npc-effect-failed = *{ $effect } misslingt: { $reason }.*
