# Die Texte von encounter. Schlüssel in dieser Datei beginnen mit `encounter-`.

# An effect a character keeps between encounters (/character show).
encounter-kept-turns = { $tag } (noch { $turns ->
        [one] 1 Zug
       *[other] { $turns } Züge
    })
encounter-kept-until-removed = { $tag } (bis entfernt)
