# Die Texte von encounter. Schlüssel in dieser Datei beginnen mit `encounter-`.

# An effect a character keeps between encounters (/character show).
encounter-kept-turns = { $tag } (noch { $turns ->
        [one] 1 Zug
       *[other] { $turns } Züge
    })
encounter-kept-until-removed = { $tag } (bis entfernt)

# Der Name in den Zeilen eines Effekts für einen Charakter, dessen Name keine Buchstaben oder Ziffern hat (APPLY_EFFECT eines NSC).
encounter-alone-name = Charakter

## Ablehnungen und Fehler (privat: in der Sprache der Fragenden).
encounter-none-here = In diesem Kanal läuft keine Begegnung. `/initiative beginnen` startet eine.
encounter-stale = Die Begegnung ist weiter, als dieser Button zeigt; der Tracker zeigt, wo sie steht.
encounter-raced = Jemand hat die Begegnung im selben Moment geändert; es ist nichts passiert. Versuch es noch einmal.
encounter-ended = Diese Begegnung ist beendet.
encounter-goes-on = Die Begegnung geht weiter.
encounter-already-running = In diesem Kanal läuft schon eine Begegnung; ihre Spielleitung beendet sie mit `/initiative beenden`.
encounter-character-busy = Dieser Charakter ist schon in einer anderen Begegnung; er kann nur in einer zugleich sein.
encounter-nothing-happened = Es ist nichts passiert: { $error }.
encounter-work-effects = Das Auswerten der Effekte der Begegnung
encounter-nothing-added = Es wurde niemand hinzugefügt: { $error }.
encounter-no-character = Du hast hier keinen Charakter, mit dem du beitreten kannst. Erschaffe einen mit `/generator starten`, oder bitte die Spielleitung, dich mit `/initiative hinzufügen` aufzunehmen.
encounter-already-in = **{ $name }** ist schon in dieser Begegnung.
encounter-no-letters = Im Namen von **{ $name }** stehen keine Buchstaben oder Ziffern, unter denen er kämpfen könnte; die Spielleitung kann ihn stattdessen mit `/initiative hinzufügen` aufnehmen.
encounter-name-taken = In dieser Begegnung gibt es schon jemanden namens `{ $name }`; die Spielleitung kann ihn mit `/initiative entfernen` herausnehmen.
encounter-no-hp-field = **{ $name }** hat keinen HP-Wert und kann deshalb nicht beitreten; die Spielleitung kann ihn stattdessen mit `/initiative hinzufügen` aufnehmen.
encounter-bad-initiative = Die Initiative { $problem }
encounter-bad-hp = Die Angabe der Trefferpunkte { $problem }
# /initiative hinzufügen mit einer Zahl, die kein Monster haben kann (Discord hält die Bereiche ein, die Konsole nicht unbedingt).
encounter-bad-count = `anzahl` fügt { $min } bis { $max } Monster hinzu, nicht { $count }. Nichts wurde hinzugefügt.
encounter-bad-ac = `rk` ist eine Rüstungsklasse von { $min } bis { $max }, nicht { $ac }. Nichts wurde hinzugefügt.
encounter-bad-start-hp = Ein Monster beginnt mit 1 Trefferpunkt oder mehr, nicht mit { $hp }. Nichts wurde hinzugefügt; `/initiative tp` ändert seine Trefferpunkte, sobald es dabei ist.
encounter-bad-amount = Der Betrag { $problem }
# Das Ende der drei Sätze oben.
encounter-cannot-roll = `{ $expr }` lässt sich nicht würfeln: { $reason }
encounter-amount-form = Schreib den Betrag als `-7` (Schaden), `+2d4` (Heilung) oder `=12` (setzen).
encounter-no-targets = Nenne mindestens ein Ziel.
# $name: das erste genannte Ziel, das nicht in der Begegnung ist.
encounter-unknown-target = In dieser Begegnung gibt es keinen Beteiligten `{ $name }` (`/initiative liste` zeigt sie); es wurde nichts gewürfelt.
# /initiative rettungswurf effekt:X, wenn X in der Effektdatei keinen Rettungswurf angibt und weder Attribut noch SG genannt sind.
encounter-save-not-declared = `{ $effect }` gibt in der Effektdatei keinen Rettungswurf an: nenne das `attribut` und den `sg`.
encounter-no-such-effect = Die Effektdatei dieses Servers hat keinen Effekt `{ $effect }` (`/effekt liste` zeigt sie).
encounter-monster-name = Der Name eines Monsters braucht Buchstaben oder Ziffern (Leerzeichen werden zu `_`).
encounter-gm-only-add = Nur die Spielleitung ({ $gm }) oder Server-Admins können Monster hinzufügen.
encounter-gm-only-prev = Nur die Spielleitung ({ $gm }) oder Server-Admins können einen Zug zurückgehen.
encounter-prev-note = Ein Zug zurück. Nur der Zug bewegt sich: Schaden, Heilung, Angriffe, Rettungswürfe und Effekte bleiben, wie sie sind.
encounter-gm-only-end = Nur die Spielleitung ({ $gm }) oder Server-Admins können die Begegnung beenden.
encounter-refuse-next = Du kannst nicht den Zug von jemand anderem beenden (Spieler drücken in ihrem eigenen Zug auf Weiter): Spieler handeln für ihre eigenen Beteiligten und in ihrem eigenen Zug auch für andere. Die Spielleitung ist { $gm }.
encounter-refuse-hp = Du kannst die Trefferpunkte dieses Beteiligten nicht ändern: Spieler handeln für ihre eigenen Beteiligten und in ihrem eigenen Zug auch für andere. Die Spielleitung ist { $gm }.
encounter-refuse-effect = Du kannst auf diese Beteiligten keine Effekte anwenden: Spieler handeln für ihre eigenen Beteiligten und in ihrem eigenen Zug auch für andere. Die Spielleitung ist { $gm }.
encounter-refuse-cure = Du kannst diesen Beteiligten nicht heilen: Spieler handeln für ihre eigenen Beteiligten und in ihrem eigenen Zug auch für andere. Die Spielleitung ist { $gm }.
encounter-refuse-remove = Du kannst diesen Beteiligten nicht entfernen: Spieler handeln für ihre eigenen Beteiligten und in ihrem eigenen Zug auch für andere. Die Spielleitung ist { $gm }.

## Warum die Effekt-Engine nichts getan hat (nach „Es ist nichts passiert: “).
encounter-error-bad-name = der Name von Beteiligten ist ein Wort aus höchstens { $max } Zeichen und noch nicht vergeben
encounter-error-name-taken = es gibt schon einen Beteiligten namens { $name }
encounter-error-full = die Begegnung ist voll ({ $max } Beteiligte)
encounter-error-unknown-element = die Effektdatei dieses Servers deklariert kein Element { $element }
encounter-error-unknown-effect = die Effektdatei dieses Servers hat keinen Effekt { $effect }
encounter-error-not-held = auf { $name } liegt kein { $effect }
encounter-error-empty = die Begegnung hat noch keine Beteiligten
encounter-error-no-earlier-turn = es gibt keinen früheren Zug
encounter-error-unknown-combatant = niemand in dieser Begegnung heißt { $name }
encounter-error-step-budget = der Befehl brauchte mehr als { $max } Schritte; nichts wurde geändert
encounter-error-cancelled = der Befehl wurde abgebrochen; nichts wurde geändert
encounter-error-dice = die Würfel von { $effect } ließen sich nicht werfen ({ $reason }); nichts wurde geändert
encounter-error-hook-depth = Hooks lösten Hooks mehr als { $max } Ebenen tief aus; nichts wurde geändert
encounter-error-too-many-effects = auf { $name } liegen schon { $max } Effekte; nichts wurde geändert

## Öffentliche Antworten (in der Sprache des Servers).
encounter-begins = **{ $name }** beginnt eine Begegnung. Spieler: `/initiative beitreten`. Spielleitung: Monster mit `/initiative hinzufügen`, dann **Weiter**.
encounter-joins = **{ $name }** tritt als `{ $combatant }` bei: Initiative { $initiative }, TP { $hp }/{ $max }
encounter-joins-still-under = , noch unter { $effects }
encounter-added = Hinzugefügt: { $added } mit Initiative { $initiative }.
encounter-added-hidden = Hinzugefügt: { $added } mit Initiative { $initiative } (verdeckt).
encounter-added-one = `{ $name }` (TP { $hp })
# Seine Trefferpunkte wurden unter 1 gewürfelt ($hp ist der Wurf), also hat es 1.
encounter-added-one-raised = `{ $name }` (TP { $hp }: auf 1 angehoben)
encounter-rolls = { $name } würfelt { $roll }
encounter-applies = { $name } wendet **{ $effect }** an.
encounter-nothing-changed = Nichts hat sich geändert.
encounter-over = **Die Begegnung ist vorbei** { $rounds ->
        [0] vor ihrer ersten Runde
        [one] nach { $rounds } Runde
       *[other] nach { $rounds } Runden
    }.
encounter-written-back = { " " }In die Charaktere zurückgeschrieben: { $kept }.
encounter-kept-hp = { $name } TP { $hp }
encounter-kept-keeps = , behält { $effects }
encounter-has-ended = Die Begegnung ist beendet.
encounter-ended-mark = *Beendet.*
encounter-idle-ended-hours = **Diese Begegnung wurde beendet**, nachdem sie { $hours ->
        [one] { $hours } Stunde
       *[other] { $hours } Stunden
    } lang unverändert blieb.
encounter-idle-ended-minutes = **Diese Begegnung wurde beendet**, nachdem sie { $minutes ->
        [one] { $minutes } Minute
       *[other] { $minutes } Minuten
    } lang unverändert blieb.
encounter-and-more = … und { $count } weitere

## Die Frage vor dem Ende (privat).
encounter-end-question = Die Begegnung beenden? Die Trefferpunkte jedes Charakters und die Effekte, die noch auf ihm liegen, werden in ihn zurückgeschrieben.
encounter-end-confirm = Begegnung beenden
encounter-end-cancel = Weitermachen

## Der Tracker (öffentlich: in der Sprache des Servers; /initiative liste privat).
encounter-button-next = Weiter
encounter-button-prev = Zurück
encounter-button-end = Beenden
encounter-title = Initiative
encounter-title-gm = Initiative (Sicht der Spielleitung)
encounter-not-started = noch nicht begonnen: **Weiter** startet Runde 1
encounter-round = Runde { $round }
encounter-header = **{ $title }** · { $round } · SL { $gm }
encounter-nobody = Noch niemand da: Spieler mit `/initiative beitreten`, die Spielleitung fügt Monster mit `/initiative hinzufügen` hinzu.
encounter-healthy = munter
encounter-bloodied = angeschlagen
encounter-down = am Boden
encounter-ac = RK { $ac }
encounter-hidden = (verdeckt)
encounter-until-removed = { $tag } *
encounter-turns-left = { $tag } { $turns }

## Ereigniszeilen (öffentlich; Effekt-Kennungen und Namen bleiben, wie sie geschrieben sind; die Eigenschaften sagt encounter-subject auf Deutsch, Elemente stehen in Worten).
# Die Eigenschaften, die ein Effekt ändert (in der Effektsprache: HitPoints, Strength …),
# so wie eine deutsche Runde sie nennt; Kennungen und Elemente bleiben die der Autoren.
encounter-subject =
    { $subject ->
        [HitPoints] Trefferpunkte
        [ManaPoints] Manapunkte
        [Strength] Stärke
        [Dexterity] Geschicklichkeit
        [Intelligence] Intelligenz
        [Wisdom] Weisheit
        [Constitution] Konstitution
        [Charisma] Charisma
        [ArmorClass] Rüstungsklasse
        [Experience] Erfahrung
        [Level] Stufe
        [Speed] Bewegungsrate
        [Field0] Feld0
        [Field1] Feld1
        [Field2] Feld2
        [Field3] Feld3
        [Field4] Feld4
        [Field5] Feld5
        [Field6] Feld6
        [Field7] Feld7
        [Field8] Feld8
        [Field9] Feld9
        [Flags] Flags
        [Immunity] Immunitäten
        [Alignment] Gesinnung
        [Protections] Schutz
        [Dead] Tot
        [LoseTurn] Setzt aus
        [Occupation] Beruf
        [Species] Volk
        [Existence] Existenz
       *[other] { $subject }
    }
encounter-event-turn = [Runde { $round }] { $name }
# $change: encounter-change oder encounter-change-hidden.
encounter-event-change = * { $effect } auf { $name }: { $change }
encounter-event-direct-change = * { $name }: { $change }
# Ein Effekt mit Würfeln im Wert: sein Wurf ($roll, encounter-roll) vor dem, was er bewirkt.
encounter-event-change-rolled = * { $effect } { $roll } auf { $name }: { $change }
# Eine Zahl ändert sich: $words ist encounter-subject; Punkte stehen hinter den Zahlen.
encounter-change =
    { $subject ->
        [HitPoints] { $before } → { $after } Trefferpunkte
        [ManaPoints] { $before } → { $after } Manapunkte
       *[other] { $words } { $before } → { $after }
    }
# Bei einem verdeckten Beteiligten: Trefferpunkte als Wort (munter, angeschlagen, am Boden), sonst „geändert“.
encounter-change-hidden =
    { $subject ->
        [HitPoints] { $now }
       *[other] { $words } { $now }
    }
# Würfelnotation: der Ausdruck wie in der Effektdatei, die Würfel (höchstens zehn, dann …), die Summe.
encounter-roll = { $expr } ({ $dice }) = { $total }
encounter-roll-without-dice = { $expr } = { $total }
encounter-event-changed = geändert
# $element in Worten; $operation wie in der Datei: +5, -2, =3, *2, /2.
encounter-event-protection = * { $effect } auf { $name }: Schutz gegen { $element } { $operation }
encounter-event-protection-hidden = * { $effect } auf { $name }: Schutz gegen { $element } geändert
# Flags oder Elemente ($elements, in Worten), die einer Menge ($subject, in Worten) hinzugefügt oder genommen werden.
encounter-event-set-added = * { $effect } auf { $name }: { $elements } zu { $subject } hinzugefügt
encounter-event-set-removed = * { $effect } auf { $name }: { $elements } aus { $subject } entfernt
# $value: die Elemente einer Menge in Worten (encounter-event-nothing, wenn leer), eine Kennung wie geschrieben, true oder false.
encounter-event-assigned = * { $effect } auf { $name }: { $subject } jetzt { $value }
encounter-event-nothing = nichts
# Was ein von einem Effekt gesetztes LoseTurn oder Dead für seinen Träger heißt.
encounter-event-stunned = * { $effect }: { $name } ist betäubt und setzt den Zug aus.
encounter-event-acts-again = * { $effect }: { $name } kann wieder handeln.
encounter-event-dies = * { $effect }: { $name } stirbt.
encounter-event-lives-again = * { $effect }: { $name } lebt wieder.
# Elemente, die ein Effekt der Immunität seines Trägers hinzufügt oder nimmt ($elements: in Worten, mit Kommas).
encounter-event-now-immune = * { $effect }: { $name } ist jetzt immun gegen { $elements }.
encounter-event-no-longer-immune = * { $effect }: { $name } ist nicht mehr immun gegen { $elements }.
# $effect: die Kennung eines Effekts oder die Elemente des Schadens eines Angriffs oder Rettungswurfs in Worten.
encounter-event-immune = * { $name } ist immun gegen { $effect }.
encounter-event-already-has = * { $name } hat { $effect } schon.
encounter-event-no-effect = * { $effect } wirkt nicht auf { $name }.
# Ein Schutz nimmt $amount von der Änderung eines Effekts ($effect: seine Kennung).
encounter-event-reduced = * Der Schutz von { $name } hält { $amount } von { $effect } ab.
encounter-event-reduced-hidden = * Der Schutz von { $name } schwächt { $effect }.
# Ein Schutz nimmt $amount vom Schaden eines Angriffs oder Rettungswurfs ($means: seine Elemente in Worten).
encounter-event-reduced-means = * Der Schutz von { $name } gegen { $means } hält { $amount } ab.
encounter-event-reduced-means-hidden = * Der Schutz von { $name } gegen { $means } hält etwas ab.
# Die Effekte, die den Schutz gaben, halten $amount ab ($protectors: ihre Namen,
# encounter-and-list, mit encounter-own-protection vorneweg, wenn der eigene Schutz
# mitzählt; $count: wie viele).
encounter-event-warded = * Bei { $name } { $count ->
        [one] hält
       *[other] halten
    } { $protectors } { $amount } von { $effect } ab.
encounter-event-warded-hidden = * Bei { $name } { $count ->
        [one] schwächt
       *[other] schwächen
    } { $protectors } { $effect }.
encounter-event-warded-means = * Bei { $name } { $count ->
        [one] hält
       *[other] halten
    } { $protectors } { $amount } ab.
encounter-event-warded-means-hidden = * Bei { $name } { $count ->
        [one] hält
       *[other] halten
    } { $protectors } etwas ab.
encounter-own-protection = der eigene Schutz
encounter-and-list = { $rest } und { $last }
encounter-event-hook = * { $name } trägt jetzt { $effect }.
encounter-event-wears-off = * { $effect } endet bei { $name }.
encounter-event-removed = * { $effect } von { $name } entfernt.
encounter-event-removes-nothing = * { $effect } entfernt nichts von { $name }.
encounter-event-down = * { $name } geht zu Boden.
encounter-event-loses-turn = * { $name } verliert den Zug.
encounter-event-dead = * { $name } ist tot.
encounter-event-down-skips = * { $name } liegt am Boden und setzt den Zug aus.
encounter-event-appears = * { $name } erscheint.
encounter-event-cannot-split = * { $name } kann sich nicht teilen: die Begegnung ist voll.
encounter-event-leaves = * { $name } verlässt die Begegnung.
encounter-event-everyone-out = * Alle sind kampfunfähig.

## Angriffe und Rettungswürfe (D&D 5e SRD).
encounter-attacks = { $name } greift mit **{ $attacker }** an.
encounter-attack-line = * { $attacker } greift { $target } an: { $roll } zum Treffen{ $against }: { $outcome }
encounter-attack-against = { " " }gegen RK { $ac }
encounter-attack-hit = getroffen
encounter-attack-miss = verfehlt
encounter-attack-crit = natürliche 20, kritischer Treffer
encounter-attack-fumble = natürliche 1, verfehlt
encounter-attack-crit-dice = { $roll }, kritische Würfel +{ $extra } = { $total }
# Ein Monster mit 0 Trefferpunkten ist aus dem Kampf: gegen es wird nicht gewürfelt.
encounter-attack-out = * { $target } hat 0 Trefferpunkte und ist aus dem Kampf: kein Angriffswurf.
encounter-damage-line = * Schaden { $roll }
encounter-damage-line-means = * Schaden { $roll } { $means }
encounter-save-intro = { $name } verlangt einen Rettungswurf auf **{ $ability }**, SG { $dc }.
encounter-save-intro-effect = { $name } wirkt **{ $effect }**: ein Rettungswurf auf **{ $ability }**, SG { $dc }.
encounter-save-damage = Schaden { $roll }{ $means }, { $half ->
        [true] halb bei Erfolg.
       *[other] keiner bei Erfolg.
    }
encounter-save-effect = Bei Misserfolg: **{ $effect }**.
encounter-save-line = * { $target } würfelt ({ $ability }) { $roll } gegen SG { $dc }: { $outcome }
encounter-save-success = Erfolg
encounter-save-failure = Misserfolg
# Ein Ziel mit 0 Trefferpunkten: ein Monster ist aus dem Kampf und würfelt nicht;
# ein Charakter ist bewusstlos, Rettungswürfe auf STR und DEX misslingen ohne Wurf.
encounter-save-out = * { $target } hat 0 Trefferpunkte und ist aus dem Kampf: kein Rettungswurf.
encounter-save-unconscious = * { $target } ist bewusstlos, der Rettungswurf auf { $ability } misslingt ohne Wurf: Misserfolg
encounter-gm-numbers = **Mit den verdeckten Werten** (nur du siehst das):
encounter-attack-macro-unknown = Ein Makro namens `{ $name }` gibt es hier nicht; `/makro liste` zeigt sie.
encounter-attack-macro-shape = Das Makro `{ $name }` enthält keinen Angriff: schreib den Trefferwurf, `#`, den Schaden und seine Elemente, etwa `1d20+@STR_MOD # 1d8+@STR_MOD HIEB`.
encounter-attack-needs = Gib `treffer` und `schaden` an (etwa `treffer:+5 schaden:1d8+3`) oder greife mit einem Monster an, das mit `angriff` hinzugefügt wurde.
encounter-save-ability = Nenne das Attribut des Rettungswurfs: STR, DEX, CON, INT, WIS oder CHA.
encounter-save-dc = Gib den Schwierigkeitsgrad des Rettungswurfs an (`sg:15`).
encounter-save-needs = Gib den `schaden` eines misslungenen Rettungswurfs an, einen `effekt` oder beides.
encounter-refuse-attack = Du kannst nur mit deinem eigenen Beteiligten angreifen, in deinem Zug oder gegen deine eigenen Beteiligten. Die Spielleitung ({ $gm }) darf mit allen angreifen.
# `mittel:` auf einem Server ohne Effektdatei (gar keine Elemente).
encounter-no-means = Dieser Server hat keine Effektdatei, also hat Schaden keine Mittel: lass `mittel` weg oder installiere eine mit `/effekt installieren`.
encounter-unknown-means = Die Effektdatei dieses Servers kennt kein Element `{ $means }`. Bekannt: { $known }.
encounter-bad-attack = Schreibe den Angriff eines Monsters als Trefferbonus, Schaden und Mittel, etwa `+5 1d12+3 SLASH` (nicht `{ $attack }`).
encounter-bad-saves = Schreibe die Rettungswurfboni eines Monsters als `DEX+1 WIS-2` (nicht `{ $save }`).
