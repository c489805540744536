# Die Texte von `/odds` (`/chancen`) und seinem Diagramm (bot/src/chart.rs).
# Schlüssel in dieser Datei beginnen mit `odds-`.

odds-nothing = Für welchen Wurf? Zum Beispiel `/chancen 4d6kh3` oder `/chancen 1d20+5 ziel:15`.
odds-target-invalid = `{ $target }` ist kein Ziel: Gib ein Ergebnis an, das erreicht werden soll, wie `15`, oder eines, das nicht überschritten werden soll, wie `<=5`.
odds-computing = Die exakte Berechnung der Chancen von `{ $expr }`
odds-cannot-compute =
    Die Chancen dafür kann ich nicht berechnen:
    { $caret }
odds-exact-button = Exakte Brüche
odds-exact-in-file = Die exakten Brüche sind zu lang für eine Nachricht: Sie stehen in der angehängten Datei.
odds-exact-filename = chancen-exakt.txt
odds-exact-file-description = Exakter Mittelwert, Varianz und Chance
odds-exact-text =
    { $expr }, exakt:
    Mittelwert = { $mean }
    Varianz = { $variance }
odds-chart-filename = chancen.png
odds-chart-filename-numbered = chancen-{ $number }.png

odds-view =
    { $view ->
        [eq] genau
        [ge] mindestens
       *[le] höchstens
    }
odds-percent = { NUMBER($percent, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") } %
odds-summary-exact = { $expr }: Mittelwert { NUMBER($mean, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") } (exakt { $exact }), Standardabweichung { NUMBER($sd, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }, Bereich { $min } bis { $max }
odds-summary = { $expr }: Mittelwert { NUMBER($mean, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }, Standardabweichung { NUMBER($sd, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }, Bereich { $min } bis { $max }
odds-summary-tail = (Explosionen jenseits der verfolgten Tiefe: { $left_out } weggelassen)

odds-chart-caption =
    { $view ->
        [eq] { $expr }: Chance auf genau dieses Ergebnis
        [ge] { $expr }: Chance auf mindestens dieses Ergebnis
       *[le] { $expr }: Chance auf höchstens dieses Ergebnis
    }
odds-chart-total = Ergebnis
odds-chart-chance = Chance ({ $view })
odds-chart-mean = Mittelwert { NUMBER($mean, minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "false") }
odds-alt-text =
    { $view ->
        [eq] Balkendiagramm der Chance, mit { $expr } genau das jeweilige Ergebnis zu würfeln, von { $low } bis { $high }.
        [ge] Balkendiagramm der Chance, mit { $expr } mindestens das jeweilige Ergebnis zu würfeln, von { $low } bis { $high }.
       *[le] Balkendiagramm der Chance, mit { $expr } höchstens das jeweilige Ergebnis zu würfeln, von { $low } bis { $high }.
    }
odds-alt-text-peak =
    { $view ->
        [eq] Balkendiagramm der Chance, mit { $expr } genau das jeweilige Ergebnis zu würfeln, von { $low } bis { $high }; am wahrscheinlichsten ist { $peak } mit { $percent }.
        [ge] Balkendiagramm der Chance, mit { $expr } mindestens das jeweilige Ergebnis zu würfeln, von { $low } bis { $high }; am wahrscheinlichsten ist { $peak } mit { $percent }.
       *[le] Balkendiagramm der Chance, mit { $expr } höchstens das jeweilige Ergebnis zu würfeln, von { $low } bis { $high }; am wahrscheinlichsten ist { $peak } mit { $percent }.
    }
