# Die Seiten von `/help` (`/hilfe`) und ihre Buttons. Schlüssel in dieser Datei
# beginnen mit `help-`. Die Würfelnotation in Backticks bleibt, wie sie ist; die
# Befehle heißen so, wie Discord sie deutschen Nutzern zeigt.

help-unknown-topic = Zu „{ $topic }“ habe ich keine Seite; die Themen sind { $topics }.

help-button-dice = Würfel
help-button-macros = Makros & @Werte
help-button-chargen = Charaktere
help-button-npc = NSCs
help-button-odds = Chancen
help-button-init = Begegnungen

help-page-dice =
    {"*"}*Würfeln** · `/würfeln 1d20+5 zum Treffen` · `/würfeln 4d6kh3` · `/würfeln 8d6 Feuer`
    {"*"}*Würfel** `3d6` `d20` `4dF` `d%` `d{"{"}1,1,2{"}"}` `(1d4)d6` · **Rechnen** `+ - * / // % ^` `( )` (ganze Zahlen: `/` schneidet ab)
    {"*"}*Funktionen** `min(1d6, 3)` `max` `abs` `floor(7/2)` `ceil` `round` `sqrt` `pow(2, 3)`
    {"*"}*Behalten / Streichen** `4d6kh3` (die höchsten 3 behalten) `2d20kl1` `4d6d1` (den niedrigsten streichen) `8d6ph2` `4d6k>3`
    {"*"}*Explodieren** `10d10!` `5d6!>=5` `3d6!!` (aufaddiert) `3d6!p` (durchschlagend) `1d10x10` `1d20e20`
    {"*"}*Neu würfeln** `2d6ro1` (einmal) `4d6rr<3` (bis es passt) `1d20ra1` (und einen dazu) `1d6rol1` `4d6u` (keine Doppelten)
    {"*"}*Begrenzen** `4d6min2` `4d6max5`
    {"*"}*Erfolge zählen** `6d10>=8` `10d10cs>=8sf1` `6d10t8f1`: Das Ergebnis ist die Zahl der Erfolge
    {"*"}*Bedingungen** `h` höchste Seite · `l` niedrigste · `o` ungerade · `e` gerade · `5` · `>=5` · `(1|6)`
    {"*"}*Reihen und Mengen** `{"{"}1d20, 15{"}"}kh1` `{"{"}1..6{"}"}` `(1d20, 1d20)kh1`
    {"*"}*Zweck** `1d20+6 Rettungswurf GE` · `1d20 # zum Treffen` · `3d6 // Feuer` · Markierungen `2d6[Feuer] + 1d4[Kälte]`
    {"*"}*Mehr** `1d20+5 vorteil` oder `adv` / `nachteil` oder `dis` · `1d20+5; 2d6+3` (bis zu 4 Würfe) · Option `anzahl:6` · `an:Spielleitung` (verdeckt: der Kanal der Spielleitung bekommt das Ergebnis) / `an:nur ich` · Makros `$feuerball`, Werte `@STR`
    Bei einem Tippfehler zeigt ein Caret auf die Stelle, mit der nächstliegenden Schreibweise. `/chancen` zeigt die Chancen jedes Wurfs.

help-page-macros =
    {"*"}*Makros** geben einem Wurf einen Namen: `/makro festlegen name:feuerball ausdruck:8d6 Feuer`, dann `/würfeln $feuerball` oder `/würfeln $feuerball + 2`.
    · Makros gehören dir; mit `wessen:des Servers` legst du eins für alle hier an (Server-Admins oder die Makro-Rolle).
    · `/makro liste` · `/makro zeigen name:feuerball` · `/makro löschen name:feuerball`
    · Ein Makro darf andere Makros nutzen; Kreise lehnt Tavern ab und zeigt die Kette, die sich schließt.
    {"*"}*@Werte** sind Zahlen des Charakters, den du hier spielst: `/charakter spielen name:Brienne`, dann `/würfeln 1d20+@STR_MOD` oder `/würfeln 1d20+@DEX_MOD zum Treffen`.
    · `/charakter zeigen` listet die Werte; ein Wurf mit Makros oder Werten zeigt, wofür sie standen.

help-page-chargen =
    {"*"}*Charaktere** entstehen mit Generatorprogrammen.
    · `/generator starten` startet den Generator des Servers (oder `programm:NAME`); beantworte seine Fragen per Antwort auf die Nachricht oder mit dem Button „Antworten“.
    · `/generator status` zeigt, wo du stehst; `/generator abbrechen` hört auf.
    · Der fertige Charakter wird gespeichert: `/charakter liste`, `/charakter zeigen`, `/charakter spielen` (seine Werte gelten in Würfen als `@STR`), `/charakter löschen`.
    {"*"}*Server-Admins** installieren Generatoren in BASIC: `/generator programm hinzufügen name:NAME` mit einer `.bas`-Datei, einem Codeblock oder dem Formular zum Einfügen; dazu `/generator programm liste`, `entfernen`, `standard`.

help-page-npc =
    {"*"}*NSCs** sind Charaktere der Spielleitung, mit denen eure Gruppe reden kann.
    · `/reden nsc:NAME` beginnt ein Gespräch; antworte auf seine Nachrichten (Stichwörter, Menüs, `ja`/`nein`) und sag `tschüss`, um zu gehen; beim Handeln versteht der NSC `kaufe WARE [N]`, `verkaufe WARE [N]` und `fertig`. Die englischen Wörter (`bye`, `yes`, `no`, `buy`, `sell`, `done`) gehen genauso. Ein ruhendes Gespräch endet von selbst.
    {"*"}*Server-Admins** installieren NSCs aus GhulScript: `/nsc installieren name:NAME` mit einer `.ghul`-Datei oder einem Codeblock; dazu `/nsc liste`, `/nsc entfernen`, `/nsc aktivität` (der ACTIVITY-Code des Skripts).

help-page-odds =
    {"*"}*Chancen** sind die exakten Wahrscheinlichkeiten eines Wurfs, mit Diagramm: `/chancen 4d6kh3`, `/chancen 1d20+5 ziel:15`.
    · Jede Form, die `/würfeln` kennt, mit Behalten und Explosionen (Explosionen werden verfolgt, bis der Rest unter eins zu einer Billion liegt), `vorteil` und `nachteil` und mehrere Würfe, getrennt durch `;`.
    · `ziel:<=5` ist ein Ziel zum Unterwürfeln: die Chance, höchstens 5 zu würfeln.
    · Die Buttons schalten das Diagramm um: genau, mindestens, höchstens.
    · Sehr große Würfelpools ergeben „zu aufwendig für eine exakte Berechnung“; Neuwürfe, die von den anderen Würfeln abhängen (`4d6u`, `1d6rol1`), haben keine exakten Chancen: Würfle sie mit `anzahl`.

help-page-init =
    {"*"}*Begegnungen** verfolgen Initiative, Trefferpunkte und Effekte in einem Kanal: eine Tracker-Nachricht, die mit dem Kampf mitgeht.
    · `/initiative beginnen` startet eine (du bist ihre Spielleitung). Spieler treten mit `/initiative beitreten` mit ihrem Charakter bei (Initiative `1d20 + @DEX_MOD`, wenn keine angegeben ist); die Spielleitung fügt mit `/initiative hinzufügen name:Ork initiative:1d20+1 tp:2d8+2 anzahl:3` Monster hinzu (`verdeckt:true` zeigt den Spielern nur munter, angeschlagen oder am Boden).
    · **Weiter** (oder `/initiative weiter`) beendet einen Zug, `/initiative zurück` geht einen Zug zurück (und macht sonst nichts rückgängig). `/initiative tp ziel:Ork_1 betrag:-7` (oder `+2d4`, `=12`), `/initiative effekt ziele:Ork_1, Ork_2 effekt:Poison`, `/initiative heilen`, `/initiative entfernen`, `/initiative liste` (die Spielleitung sieht verdeckte Werte).
    · Spieler handeln für ihre eigenen Beteiligten und in ihrem eigenen Zug für alle. `/initiative beenden` fragt vorher und schreibt dann Trefferpunkte und bleibende Effekte in die Charaktere zurück.
    {"*"}*Effekte** stammen aus der Effektdatei des Servers: Server-Admins installieren mit `/effekt installieren` eine `.ghul`-Datei oder einen Codeblock mit ELEMENTS- und EFFECT-Deklarationen; dazu `/effekt liste`, `/effekt zeigen name:Poison`, `/effekt entfernen`.
