# Die Texte von `/roll` (`/würfeln`). Schlüssel in dieser Datei beginnen mit `roll-`.

roll-nothing = Sag mir, was ich würfeln soll, zum Beispiel `/würfeln 1d20+5` oder `/würfeln 4d6kh3`.
roll-nothing-short = Sag mir, was ich würfeln soll, zum Beispiel `/würfeln 1d20+5`.
roll-repeat-range = `anzahl` muss zwischen 1 und { $max } liegen.
roll-prefix-range = `{ $count } …` verlangt { $count } Würfe: 1 bis { $max } gehen auf einmal.
roll-repeat-twice = `{ $count } …` würfelt schon { $count }-mal: lass `anzahl:{ $repeat }` weg oder die { $count } vorne.
roll-advantage-both = `{ $expr }` verlangt Vorteil und Nachteil zugleich: behalte eines von `vorteil` und `nachteil` (gilt beides, würfle ohne).
roll-dice-in-label =
    `{ $word }` sieht nach Würfeln aus, steht aber im Zweck, den ich nicht würfle:
    { $caret }
    Für zwei Würfe setz `;` dazwischen: `{ $split }`. Soll es Text bleiben, schreib den Zweck hinter `#`: `{ $commented }`.
roll-too-many =
    { $max ->
        [one] Höchstens { $max } Wurf auf einmal, getrennt durch `;` (hier sind es { $count }).
       *[other] Höchstens { $max } Würfe auf einmal, getrennt durch `;` (hier sind es { $count }).
    }
roll-advantage-one-d20 =
    { $found ->
        [none] `vorteil` und `nachteil` (oder `adv` und `dis`) gehen bei einem Wurf mit genau einem d20, etwa `/würfeln 1d20+5 vorteil`; in `{ $expr }` ist keiner.
       *[several] `vorteil` und `nachteil` (oder `adv` und `dis`) gehen bei einem Wurf mit genau einem d20, etwa `/würfeln 1d20+5 vorteil`; in `{ $expr }` sind mehrere.
    }
roll-cannot-roll =
    Das kann ich nicht würfeln:
    { $caret }
roll-again-by = { $name } würfelt nochmal
roll-again-button = Nochmal würfeln
roll-as-character = { $asked } als **{ $name }**
