# Die Texte von `/effekt`: die Datei der Zaubereffekte jedes Servers.
# Schlüssel in dieser Datei beginnen mit `effect-`. Die Wörter der Datei selbst
# (ELEMENTS, EFFECT, Kennungen, Felder) und die Ladefehler von npc-core bleiben, wie sie sind.

# Ergänzen die gemeinsame Ablehnung „Nur Mitglieder mit … können { $what }.“
effect-not-allowed = Effekte installieren oder entfernen
effect-not-allowed-install = Effekte installieren

## Das Einfügeformular von /effekt installieren (privat)

effect-paste-title = Effektdatei
effect-paste-label = ELEMENTS- und EFFECT-Deklarationen
effect-file-empty = Die Effektdatei ist leer.

## Was zu lange dauerte: ergänzt den gemeinsamen Hinweis „{ $what } hat zu lange gedauert“.

effect-work-checking = Das Prüfen der Effektdatei
effect-work-reading = Das Lesen der Effektdatei

## /effekt installieren, liste, zeigen, entfernen

effect-installed = Die Effektdatei dieses Servers ist installiert: { $effects ->
        [0] keine Effekte
        [one] ein Effekt ({ $tags })
       *[other] { $effects } Effekte ({ $tags })
    } und { $elements ->
        [one] ein Element
       *[other] { $elements } Elemente
    }.
effect-replaced = Die Effektdatei dieses Servers ist ersetzt: { $effects ->
        [0] keine Effekte
        [one] ein Effekt ({ $tags })
       *[other] { $effects } Effekte ({ $tags })
    } und { $elements ->
        [one] ein Element
       *[other] { $elements } Elemente
    }.
effect-orphaned = Diese NSCs wenden Effekte an, die in der Datei fehlen und darum nichts mehr bewirken: { $npcs }.
effect-list-header = Die Effekte dieses Servers (installiert von { $user } am { $date }), Elemente `{ $elements }`:
effect-list-header-no-elements = Die Effekte dieses Servers (installiert von { $user } am { $date }), keine Elemente:
effect-list-empty = Die Datei enthält keine Effekte.
effect-list-footer = `/effekt zeigen name` zeigt einen davon ganz.
effect-list-more = … und { $count } weitere
effect-none = Dieser Server hat keine Effektdatei. Server-Admins installieren eine mit `/effekt installieren`.
effect-no-such = Es gibt keinen Effekt `{ $name }`; die Effekte sind: { $effects }.
effect-removed-all = Die Effektdatei dieses Servers ist entfernt.
effect-remove-what = Nenne den Effekt, der weg soll, oder sag `alles:True`, um die ganze Datei zu entfernen.
effect-stays = `{ $name }` bleibt: Ohne diesen Effekt würde die Datei nicht laden ({ $error }).
effect-removed = Der Effekt `{ $name }` ist entfernt.
