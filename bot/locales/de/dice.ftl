# Die Gründe von Würfelfehlern unter dem Caret (bot/src/engine/dice_reason.rs).
# Schlüssel in dieser Datei beginnen mit `dice-`.

dice-unexpected = `{ $found }` passt hier nicht; ich erwarte { $expected }
dice-expected-at-end = Am Ende fehlt etwas: ich erwarte { $expected }
dice-expected-either = { $init } oder { $last }
dice-expected-sides = die Seitenzahl der Würfel (eine Zahl, `%`, `F`, `(` oder `{"{"}`)
dice-expected-a-value = einen Wert (eine Zahl, Würfel, `(`, `{"{"}` oder eine Funktion)
dice-expected-number-or-paren = eine Zahl oder `(`
dice-expected-a-filter = einen Filter (`h`, `l`, `o`, `e`, eine Zahl oder einen Vergleich wie `>=5`)
dice-expected-operator = einen Rechenoperator
dice-expected-end = das Ende des Ausdrucks
dice-expected-something-else = etwas anderes
dice-expected-expression = hier fehlt ein Würfelausdruck
dice-expected-value = hier fehlt ein Wert
dice-expected-dice-count = hier fehlt die Anzahl der Würfel
dice-expected-number = hier fehlt eine Zahl
dice-expected-comparison = hier fehlt ein Vergleich
dice-expected-target = hier fehlt ein Zielwert
dice-expected-filter = hier fehlt ein Filter
dice-expected-faces = hier fehlt eine Reihe von Seiten
dice-missing-argument = hier fehlt ein Argument
dice-min-max-number = min und max brauchen eine Zahl
dice-unknown-modifier-bare = unbekannter Modifikator
dice-unknown-modifier-near = unbekannter Modifikator `{ $word }`; am nächsten kommt `{ $near }`
dice-unknown-modifier-label = unbekannter Modifikator `{ $word }` (vor einem Zweck steht ein Leerzeichen: `{ $fixed }`)
dice-unknown-modifier-adv = unbekannter Modifikator `{ $word }`: Würfle mit { $what ->
        [advantage] Vorteil
        [disadvantage] Nachteil
       *[other] { $what }
    } als `{ $keep }` oder schreib `{ $word2 }` mit Leerzeichen ans Ende, wie in { $example ->
       *[other] `/würfeln 1d20 { $word2 }`
    }
dice-unknown-function-near = unbekannte Funktion `{ $word }`; meintest du `{ $near }`?
dice-unknown-function = unbekannte Funktion `{ $word }`; es gibt { $names }
dice-label-space = vor einem Zweck steht ein Leerzeichen
dice-modifier-space = Modifikatoren stehen direkt hinter den Würfeln, ohne Leerzeichen (`{ $fixed }`)
dice-repeat-word = Um mehrmals zu würfeln, nimm die Option `anzahl:{ $times }` des Befehls (`{ $word }` nach einem Leerzeichen ist die Wiederholung von Roll20; `3d6x6` ohne Leerzeichen explodiert bei 6)
dice-decimal-point = hier gibt es nur ganze Zahlen: `{ $number }` hat einen Dezimalpunkt (`/` teilt und schneidet ab; `round(7/2)` rundet, ebenso `floor` und `ceil`)
dice-compare-number = `{ $written }` braucht eine Zahl zum Vergleichen, etwa `{ $example }`
dice-ra-condition = `ra` braucht eine Bedingung, welche Würfel einen weiteren dazulegen, etwa `ra1`, `ra<3` oder `ra(1|2)`
dice-fate-fraction = `dF.{ $fraction }` ist hier kein Fate-Würfel: `dF` (auch `dF.2`) hat die Seiten -1, 0, +1, je zweimal; `dF.1` hat einmal -1, viermal 0 und einmal +1
dice-set-as-count = eine Menge wie `(1, 2)` kann keine Würfelanzahl sein; schreib einen einzigen Ausdruck
dice-set-here = eine Menge wie `(1, 2)` kann hier nicht stehen; schreib einen einzigen Ausdruck
dice-reroll-forever = `{ $written }` würde endlos neu würfeln (es gibt immer einen niedrigsten und einen höchsten Würfel); würfle einmal neu mit `ro`, etwa `{ $fixed }`
dice-compound-by-value = `{ $written }`: eine aufaddierende Explosion richtet sich nach dem Wert, etwa `!!>=5`; `!h1` und `eh1` lassen den höchsten Würfel explodieren
dice-one-way = ein Würfelterm kann nur auf eine Art explodieren (oder neu gewürfelt werden); verbinde die Bedingungen, etwa `!(>=5|1)`
dice-takes-one = { $func }() nimmt genau ein Argument
dice-takes-two = { $func }() nimmt genau zwei Argumente
dice-needs-argument = { $func }() braucht mindestens ein Argument
dice-sqrt-negative = { $func }() von { $value }: Aus einer negativen Zahl gibt es keine Quadratwurzel
dice-log-small = { $func }() von { $value }: Der Logarithmus braucht eine Zahl von mindestens 1
dice-negative-count = eine negative Anzahl Würfel ({ $count })
dice-too-long = der Ausdruck ist zu lang ({ $length } Bytes, höchstens { $max })
dice-expanded-too-long = mit aufgelösten Makros ist der Ausdruck zu lang (höchstens { $max } Bytes)
dice-expanded-too-deep = mit aufgelösten Makros ist der Ausdruck zu tief verschachtelt (höchstens { $max } Ebenen)
dice-expanded = mit aufgelösten Makros: { $inner }
dice-too-deep = Klammern sind zu tief verschachtelt (höchstens { $max } Ebenen)
dice-too-many-minus = zu viele Minuszeichen hintereinander (höchstens { $max })
dice-too-many-powers = zu viele Potenzen hintereinander (höchstens { $max })
dice-number-too-large = die Zahl { $number } ist zu groß
dice-overflow = das Ergebnis passt nicht in eine 64-Bit-Ganzzahl
dice-division-by-zero = Division durch null
dice-too-many-dice = zu viele Würfel (höchstens { $max } pro Wurf)
dice-empty-series = ein Würfel braucht mindestens eine Seite; diese Reihe ist leer
dice-no-faces = ein Würfel braucht mindestens eine Seite, nicht { $sides }
dice-too-many-faces = zu viele Seiten (höchstens { $max } pro Würfel)
dice-too-many-elements = dieser Wurf hat zu viele Würfel und Elemente (höchstens { $max })
dice-series-too-long = diese Reihe ist zu lang (höchstens { $max } Elemente)
dice-unresolved = { $what ->
        [macro] das Makro
        [field] der Wert
       *[other] { $what }
    } { $name } muss vor dem Würfeln aufgelöst werden
dice-unknown-macro = unbekanntes Makro ${ $name }
dice-unknown-field-none = unbekannter Wert @{ $name }; es gibt keine Werte
dice-unknown-field = unbekannter Wert @{ $name }; es gibt: { $known }
dice-macro-cycle = die Makros verweisen im Kreis: { $chain }
dice-too-many-expansions = die Makros werden mehr als { $max }-mal aufgelöst (bei ${ $name })
dice-bad-macro = das Makro ${ $name } ist ungültig: { $inner }
dice-too-complex-steps = zu aufwendig für eine exakte Berechnung: { $cause } braucht mehr als { $max } Schritte
dice-too-complex-memory = zu aufwendig für eine exakte Berechnung: { $cause } braucht mehr als { $max } MiB Speicher
dice-cause-mixing = das Mischen der Ergebnisse
dice-cause-combining = das Verknüpfen der Ergebnisse
dice-cause-series = das Aufzählen aller Ausgänge dieser Reihe
dice-cause-explosions = das Verfolgen der Explosionen
dice-unsupported = exakte Chancen gibt es nicht für Neuwürfe, die von den anderen Würfeln abhängen (`u`, `rol1`, `ral1`); würfle stattdessen oft

dice-kind-syntax = das versteht die Würfelsprache hier nicht
dice-kind-too-long = der Ausdruck ist zu lang
dice-kind-too-deep = der Ausdruck ist zu tief verschachtelt
dice-kind-number-too-large = eine Zahl ist zu groß
dice-kind-invalid = das ist hier nicht erlaubt
dice-kind-too-many-dice = zu viele Würfel
dice-kind-bad-faces = ein Würfel braucht mindestens eine Seite und nicht zu viele
dice-kind-too-many-elements = zu viele Würfel und Elemente
dice-kind-unresolved = ein Makro oder Wert muss vor dem Würfeln aufgelöst werden
dice-kind-unknown-macro = unbekanntes Makro
dice-kind-unknown-field = unbekannter Wert
dice-kind-macro-cycle = die Makros verweisen im Kreis aufeinander
dice-kind-too-many-expansions = die Makros werden zu oft aufgelöst
dice-kind-bad-macro = ein Makro in diesem Wurf ist ungültig
dice-kind-too-complex = zu aufwendig für eine exakte Berechnung
