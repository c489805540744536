# `/münze`: ein Münzwurf und die Bilanz des Werfers hier. Schlüssel beginnen mit `coin-`.

coin-flipped = { $name } wirft: **{ $face ->
        [heads] Kopf
       *[tails] Zahl
    }**. Würfe hier: { $flips } ({ $heads }× Kopf, { $tails }× Zahl).
coin-again = Noch mal werfen
